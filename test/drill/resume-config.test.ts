/**
 * A run directory is enough to resume (docs/run-directory.md, "Resuming"): a run started with `--config
 * <file>` that stops at its budget prints a resume command; that command, as printed, takes the systems the
 * run started with from run.json and finishes it to the figures of an unbudgeted run. A config given with
 * --resume that changes a system's identity is refused, naming what changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { readJson, readJsonl, runCli } from '../helpers/cli.js';

const DOCUMENTS = 6;
const PER_CALL = 0.01;
let work: string;
let service: FakeService;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-resume-config-'));
  await writeTinyDataset(path.join(work, 'data'), tinyDocuments(DOCUMENTS));
  service = await startFakeService({ latencyMs: 10 });
});

afterAll(async () => {
  await service?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A working directory holding `cfg.yaml` (not a name docbench finds by itself) with one priced system. */
async function setup(name: string, candidate: Record<string, unknown> = {}): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  await writeConfig(dir, 'cfg.yaml', candidate);
  return dir;
}

async function writeConfig(dir: string, file: string, candidate: Record<string, unknown>): Promise<void> {
  await writeFile(
    path.join(dir, file),
    stringify({
      cacheDir: 'cache',
      endpoints: ['extract'],
      systems: {
        candidate: {
          kind: 'interface',
          baseUrl: service.baseUrl,
          concurrency: 1,
          price: { perCall: PER_CALL },
          ...candidate,
        },
      },
    }),
  );
}

/** The command a stopped run prints after "with:", split into its arguments. */
function printedResume(stderr: string): string[] {
  const line = /with: docbench (run --resume .*)$/m.exec(stderr);
  if (!line) throw new Error(`no resume command in:\n${stderr}`);
  return line[1]!.trim().split(/\s+/);
}

describe('resume from the run directory alone', () => {
  it('a budgeted run started with --config resumes with exactly the printed command to the figures of an unbudgeted run', async () => {
    const dir = await setup('budgeted');
    const first = await runCli(
      ['run', '--config', 'cfg.yaml', '--dataset', '../data', '--out', 'run', '--max-cost', '0.03', '--no-gate'],
      dir,
    );
    expect(first.code, first.stderr).toBe(3);
    const printed = printedResume(first.stderr);
    expect(printed).toEqual(['run', '--resume', path.join(dir, 'run'), '--max-cost', '<more', 'USD>']);

    const resumed = await runCli([...printed.slice(0, -2), '1', '--no-gate'], dir);
    expect(resumed.code, resumed.stderr).toBe(0);

    const free = await setup('unbudgeted');
    const plain = await runCli(
      ['run', '--config', 'cfg.yaml', '--dataset', '../data', '--out', 'run', '--no-gate'],
      free,
    );
    expect(plain.code, plain.stderr).toBe(0);
    const figures = async (runDir: string) => {
      const summary = await readJson(path.join(runDir, 'summary.json'));
      return { documents: summary.systems.candidate.documents, extraction: summary.systems.candidate.extraction };
    };
    expect(await figures(path.join(dir, 'run'))).toEqual(await figures(path.join(free, 'run')));
    const records = await readJsonl(path.join(dir, 'run', 'results.jsonl'));
    expect(new Set(records.filter((r) => r.status === 'ok').map((r) => r.document_id)).size).toBe(DOCUMENTS);
  }, 120_000);

  it('a config given with --resume that changes a system is refused (exit 2) naming what changed', async () => {
    const dir = await setup('changed');
    const first = await runCli(
      ['run', '--config', 'cfg.yaml', '--dataset', '../data', '--out', 'run', '--max-cost', '0.02', '--no-gate'],
      dir,
    );
    expect(first.code, first.stderr).toBe(3);
    await writeConfig(dir, 'other.yaml', { baseUrl: `${service.baseUrl}/v2` });
    const before = await readFile(path.join(dir, 'run', 'results.jsonl'), 'utf8');
    const refused = await runCli(['run', '--config', 'other.yaml', '--resume', 'run', '--max-cost', '1'], dir);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('systems.candidate.baseUrl');
    expect(refused.stderr).toContain(`${service.baseUrl}/v2`);
    expect(await readFile(path.join(dir, 'run', 'results.jsonl'), 'utf8')).toBe(before);
  }, 120_000);
});
