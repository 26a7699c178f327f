/**
 * A reader shared by the run's pipelines (docs/systems.md, "Shared reads") is paid once per document: the
 * run-wide spend (`--max-cost`, a resume's spend so far, `docbench plan`'s total) counts it once, while each
 * system's own figures include it. A stored reader at $0.01 a call and two pipelines at $0.001 an extract
 * call, over three documents: $0.036 in all, where adding the three systems' spends gives $0.096.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { sumRecordedCost } from '../../src/run/budget.js';
import type { CallRecord } from '../../src/run-dir/index.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { readJson, readJsonl, runCli } from '../helpers/cli.js';

const READER_USD = 0.01;
const EXTRACTOR_USD = 0.001;
const DOCUMENTS = 3;
/** The reader once per document, each pipeline's extractor once per document. */
const TRUE_TOTAL = DOCUMENTS * READER_USD + 2 * DOCUMENTS * EXTRACTOR_USD;

/** Answers an empty extraction; fails for doc-003 while the file named by its second argument exists. */
const EXTRACTOR = `import { existsSync } from 'node:fs';
const [id, failWhile] = process.argv.slice(2);
if (failWhile && existsSync(failWhile) && id === 'doc-003') { process.stderr.write('failing on purpose'); process.exit(1); }
process.stdout.write(JSON.stringify({ response: {} }));
`;

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-pipeline-budget-'));
  const documents = tinyDocuments(DOCUMENTS);
  const dataset = await writeTinyDataset(path.join(work, 'data'), documents);
  const outputs = path.join(dataset, 'outputs', 'scanner');
  await mkdir(outputs, { recursive: true });
  for (const document of documents) await writeFile(path.join(outputs, `${document.id}.md`), document.markdown);
  await writeFile(path.join(work, 'extract.mjs'), EXTRACTOR);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** A working directory: the priced stored reader and two priced pipelines reading with it, one call at a time each. */
async function setup(name: string, failWhile = ''): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  const pipeline = (args: string[]) => ({
    kind: 'pipeline',
    read: 'scanner',
    extract: { kind: 'command', command: ['node', path.join(work, 'extract.mjs'), '{id}', ...args] },
    price: { perCall: EXTRACTOR_USD },
    concurrency: 1,
  });
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    stringify({
      endpoints: ['extract', 'compare'],
      systems: {
        scanner: { kind: 'stored', price: { perCall: READER_USD }, concurrency: 1 },
        a: pipeline([]),
        b: pipeline(failWhile ? [failWhile] : []),
      },
      reference: 'scanner',
    }),
  );
  return dir;
}

async function records(runDir: string): Promise<CallRecord[]> {
  return (await readJsonl(path.join(runDir, 'results.jsonl'))) as unknown as CallRecord[];
}

describe('a reader shared by pipelines', () => {
  it('is counted once by --max-cost: a budget just above the true total lets the run finish', async () => {
    const dir = await setup('budget');
    const budget = TRUE_TOTAL + 0.001;
    const result = await runCli(
      ['run', '--dataset', '../data', '--out', 'run', '--no-cache', '--no-gate', '--max-cost', String(budget)],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    const runDir = path.join(dir, 'run');
    expect((await readJson(path.join(runDir, 'run.json'))).status).toBe('completed');
    // Each system's spend includes the reader's cost, as documented…
    const spent = sumRecordedCost(await records(runDir));
    expect(spent.systems.get('scanner')).toBeCloseTo(DOCUMENTS * READER_USD, 12);
    for (const pipeline of ['a', 'b'])
      expect(spent.systems.get(pipeline)).toBeCloseTo(DOCUMENTS * (READER_USD + EXTRACTOR_USD), 12);
    // …and the run's counts the reader once: $0.036, not $0.096.
    expect(spent.run).toBeCloseTo(TRUE_TOTAL, 12);

    // docbench plan's total says the same before anything is called.
    const plan = await runCli(['plan', '--dataset', '../data', '--max-cost', String(budget)], dir);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('total: $0.0360 (exact)');
    expect(plan.stdout).toContain('budgets: run $0.0370\n');
  }, 60_000);

  it('is counted once in what a resumed run has spent before', async () => {
    const failWhile = path.join(work, 'fail-b');
    await writeFile(failWhile, '');
    const dir = await setup('resume', failWhile);
    const first = await runCli(['run', '--dataset', '../data', '--out', 'run', '--no-cache', '--no-gate'], dir);
    expect(first.code, first.stderr).toBe(0);
    const runDir = path.join(dir, 'run');
    // b's extract call for doc-003 failed, charged its per-call price all the same: as much as a full run.
    const before = TRUE_TOTAL;
    expect(sumRecordedCost(await records(runDir)).run).toBeCloseTo(before, 12);
    await rm(failWhile);

    // No room for the remaining call: refused, naming the spend so far ($0.036, not $0.096).
    const short = await runCli(['run', '--resume', 'run', '--no-gate', '--max-cost', String(before)], dir);
    expect(short.code, short.stderr).toBe(3);
    const stopped = (await readJson(path.join(runDir, 'run.json'))).systems.find(
      (s: { name: string }) => s.name === 'b',
    );
    expect(stopped.stop_message).toContain('$0.0360 recorded + $0.0000 in flight');

    // Room for it: b's remaining call reads doc-003 again (the reader's answer of the first invocation is gone)
    // and extracts, so the run's spend grows by one reader call and one extractor call.
    const after = before + READER_USD + EXTRACTOR_USD;
    const resumed = await runCli(['run', '--resume', 'run', '--no-gate', '--max-cost', String(after + 0.001)], dir);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await readJson(path.join(runDir, 'run.json'))).status).toBe('completed');
    expect(sumRecordedCost(await records(runDir)).run).toBeCloseTo(after, 12);
  }, 60_000);
});
