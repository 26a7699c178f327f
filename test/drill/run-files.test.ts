/**
 * Damaged run files drill (docs/run-directory.md, Reading is checked): every file of a run directory that a command reads, damaged or foreign,
 * stops that command with exit 2 and a message naming the file and the JSON path inside it — never a
 * TypeError, never exit 3 — and nothing is written (the directory tree is the same before and after). A line
 * torn by a crash at the end of results.jsonl is still cut, not an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { runCli } from '../helpers/cli.js';

let root: string;
let dataset: string;
let pristine: string;
let service: FakeService;

beforeAll(async () => {
  service = await startFakeService();
  root = await mkdtemp(path.join(tmpdir(), 'docbench-run-files-'));
  dataset = await writeTinyDataset(path.join(root, 'data'), tinyDocuments(4));
  pristine = path.join(root, 'pristine');
  const { code, stderr } = await runCli(
    ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', pristine, '--no-cache', '--quiet'],
    root,
  );
  expect(code, stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

type Json = Record<string, unknown>;

/** A damage: the file it breaks, how, and what the message must name besides the file. */
interface Damage {
  file: string;
  apply(runDir: string): Promise<void>;
  /** The JSON path (and line, for JSON Lines) the message must name. */
  where: RegExp;
}

async function editJson(file: string, edit: (value: Json) => unknown): Promise<void> {
  await writeFile(file, JSON.stringify(edit(JSON.parse(await readFile(file, 'utf8')) as Json), null, 2));
}

async function editLine(file: string, index: number, edit: (value: Json) => unknown): Promise<void> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  expect(lines.length).toBeGreaterThan(index + 2);
  lines[index] = JSON.stringify(edit(JSON.parse(lines[index]!) as Json));
  await writeFile(file, lines.join('\n'));
}

const DAMAGES: Record<string, Damage> = {
  'run.json with a count that is text': {
    file: 'run.json',
    apply: (dir) =>
      editJson(path.join(dir, 'run.json'), (m) => ({ ...m, counts: { ...(m.counts as Json), planned: 'many' } })),
    where: /\$\.counts\.planned: expected integer, found string "many"/,
  },
  'summary.json without systems': {
    file: 'summary.json',
    apply: (dir) => editJson(path.join(dir, 'summary.json'), ({ systems: _dropped, ...rest }) => rest),
    where: /\$\.systems: expected a value, found none/,
  },
  "summary.json whose system's documents is a string": {
    file: 'summary.json',
    apply: (dir) =>
      editJson(path.join(dir, 'summary.json'), (s) => ({
        ...s,
        systems: { ...(s.systems as Json), service: { ...((s.systems as Json).service as Json), documents: 'four' } },
      })),
    where: /\$\.systems\.service\.documents: expected object, found string "four"/,
  },
  'documents.jsonl with a bad status on line 2': {
    file: 'documents.jsonl',
    apply: (dir) =>
      editLine(path.join(dir, 'documents.jsonl'), 1, (d) => ({
        ...d,
        systems: { ...(d.systems as Json), service: { ...((d.systems as Json).service as Json), status: 'fine' } },
      })),
    where: /documents\.jsonl:2 is damaged: at \$\.systems\.service\.status: expected one of "ok", "partial", "failed"/,
  },
  'gate.json whose passed is "yes"': {
    file: 'gate.json',
    apply: (dir) =>
      writeFile(path.join(dir, 'gate.json'), '{"schema_version":1,"passed":"yes","checks":[],"document_failures":[]}'),
    where: /\$\.passed: expected boolean, found string "yes"/,
  },
  'results.jsonl with a bad latency on a middle line': {
    file: 'results.jsonl',
    apply: (dir) => editLine(path.join(dir, 'results.jsonl'), 1, (r) => ({ ...r, latency_ms: 'slow' })),
    where: /results\.jsonl:2 is damaged: at \$\.latency_ms: expected number, found string "slow"/,
  },
};

/** Every command that reads each file. `run` is the damaged run directory, `base` an intact one. */
const COMMANDS: Record<string, (run: string, base: string) => string[]> = {
  report: (run) => ['report', run],
  score: (run) => ['score', run, '--dataset', dataset],
  gate: (run) => ['gate', run, '--min-f1', '0.1'],
  diff: (run, base) => ['diff', base, run],
  history: (run) => ['history', path.dirname(run)],
  'run --resume': (run) => ['run', '--resume', run, '--base-url', service.baseUrl],
};

const READERS: Record<string, (keyof typeof COMMANDS)[]> = {
  'run.json': ['report', 'score', 'gate', 'diff', 'history', 'run --resume'],
  'summary.json': ['report', 'gate', 'diff', 'history'],
  'documents.jsonl': ['report', 'gate', 'diff'],
  'gate.json': ['report', 'score', 'history'],
  'results.jsonl': ['score', 'run --resume'],
};

/** Every file under `dir` with its size and modification time: any write shows up as a difference. */
async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file);
    out.push(`${path.relative(dir, file)} ${entry.isDirectory() ? 'dir' : `${info.size} ${info.mtimeMs}`}`);
  }
  return out.sort();
}

let cases = 0;

/** A fresh copy of the pristine run (with a gate.json) under `<case>/reports/run`, and an intact baseline. */
async function prepareCase(): Promise<{ dir: string; run: string; base: string }> {
  const dir = path.join(root, `case-${++cases}`);
  const run = path.join(dir, 'reports', 'run');
  const base = path.join(dir, 'base');
  await mkdir(path.dirname(run), { recursive: true });
  await cp(pristine, run, { recursive: true });
  await cp(pristine, base, { recursive: true });
  const gate = await runCli(['gate', run, '--min-f1', '0.1', '--quiet'], dir);
  expect(gate.code, gate.stderr).toBeLessThan(2);
  return { dir, run, base };
}

describe('a damaged run file → exit 2 naming the file and the JSON path, nothing written', () => {
  for (const [name, damage] of Object.entries(DAMAGES)) {
    for (const command of READERS[damage.file]!) {
      it(`${command}: ${name}`, async () => {
        const { dir, run, base } = await prepareCase();
        await damage.apply(run);
        const before = await listTree(dir);
        const { code, stderr } = await runCli(COMMANDS[command]!(run, base), dir);
        expect(code, stderr).toBe(2);
        expect(stderr).toContain(path.join(run, damage.file));
        expect(stderr).toMatch(damage.where);
        expect(stderr).toMatch(/hint: /);
        expect(stderr).not.toMatch(/unexpected error|TypeError/);
        expect(await listTree(dir)).toEqual(before);
      }, 60_000);
    }
  }
});

describe('results.jsonl torn by a crash', () => {
  it('score cuts a torn last line with a warning and scores the rest', async () => {
    const { dir, run } = await prepareCase();
    await appendFile(path.join(run, 'results.jsonl'), '{"v":1,"key":"doc-9|extract|fast|0","docum');
    const { code, stderr } = await runCli(['score', run, '--dataset', dataset], dir);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/results\.jsonl line \d+: torn last line/);
  }, 60_000);
});

describe('summary.json of an unknown schema version', () => {
  it('report names the version it found and the versions it reads', async () => {
    const { dir, run } = await prepareCase();
    await editJson(path.join(run, 'summary.json'), (s) => ({ ...s, schema_version: 99 }));
    const before = await listTree(dir);
    const { code, stderr } = await runCli(['report', run], dir);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(`${path.join(run, 'summary.json')} has schema_version 99; this docbench reads 1`);
    expect(await listTree(dir)).toEqual(before);
  }, 60_000);
});
