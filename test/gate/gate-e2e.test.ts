/**
 * The gate through the CLI against the fake service: the printed verdict, gate.json, summary.md, junit.xml
 * and the exit code agree for pass and fail, from `docbench run` and from `docbench gate`; an incomplete run
 * still exits 3; `--compare-to baseline` diffs against the pinned run.
 *
 * The tiny dataset (8 documents, 4 leaf fields each) has a wrong truth total on doc-003 and doc-006, so the
 * slow-mode micro field F1 is 60/64 = 0.9375 and those two documents score 6/8 = 0.75.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import type { GateResult } from '../../src/run-dir/evaluation-types.js';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { readCsvRecords } from '../report/csv-parse.js';

let work: string;
let dataset: string;
const services: FakeService[] = [];

async function fake(options: FakeServiceOptions = {}): Promise<FakeService> {
  const service = await startFakeService(options);
  services.push(service);
  return service;
}

function docbench(args: string[], env: Record<string, string> = {}) {
  return runCli(args, work, env);
}

/** What each output says about the gate. */
async function outputs(runDir: string): Promise<{
  gate: GateResult;
  summaryMd: string;
  junit: string;
  gateSuiteFailures: number;
  belowGateCases: string[];
}> {
  const dir = path.join(work, runDir);
  const gate = JSON.parse(await readFile(path.join(dir, 'gate.json'), 'utf8')) as GateResult;
  const junit = await readFile(path.join(dir, 'junit.xml'), 'utf8');
  const suite = /<testsuite name="quality gate" tests="\d+" failures="(\d+)"/.exec(junit);
  const belowGateCases = [
    ...junit.matchAll(/<testcase classname="[^"]*" name="([^"]+)"[^>]*>\s*<failure type="below-gate"/g),
  ].map((m) => m[1]!);
  return {
    gate,
    summaryMd: await readFile(path.join(dir, 'summary.md'), 'utf8'),
    junit,
    gateSuiteFailures: suite ? Number(suite[1]) : -1,
    belowGateCases,
  };
}

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-gate-'));
  dataset = await writeTinyDataset(path.join(work, 'tiny'), tinyDocuments(8));
  await writeFile(
    path.join(work, 'docbench.config.json'),
    JSON.stringify({ retry: { baseDelayMs: 5, maxDelayMs: 20, rateLimitDelayMs: 5 }, cacheDir: 'cache' }),
  );
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await rm(work, { recursive: true, force: true });
});

describe('gate verdict, outputs and exit code agree', () => {
  it('in every combination of pass/fail × docbench run/docbench gate', async () => {
    const service = await fake();
    const cases = [
      { name: 'run-pass', threshold: '0.9', passed: true },
      { name: 'run-fail', threshold: '0.95', passed: false },
    ];
    for (const c of cases) {
      const { code, stdout } = await docbench([
        'run',
        '--dataset',
        dataset,
        '--base-url',
        service.baseUrl,
        '--out',
        c.name,
        '--min-f1',
        c.threshold,
      ]);
      const o = await outputs(c.name);
      expect(code, c.name).toBe(c.passed ? 0 : 1);
      expect(o.gate.passed, c.name).toBe(c.passed);
      expect(stdout, c.name).toContain(c.passed ? 'quality gate: passed' : 'quality gate: FAILED');
      expect(o.summaryMd, c.name).toContain(c.passed ? 'Quality gate passed' : 'Quality gate FAILED');
      expect(o.gateSuiteFailures, c.name).toBe(c.passed ? 0 : 1);
      const f1 = o.gate.checks.find((check) => check.metric === 'extraction.slow.f1')!;
      expect(f1.actual).toBeCloseTo(0.9375, 10);
    }
    // The same stored runs through `docbench gate`, with the verdicts swapped.
    for (const [dir, threshold, passed] of [
      ['run-pass', '0.95', false],
      ['run-fail', '0.9', true],
    ] as const) {
      const { code, stdout } = await docbench(['gate', dir, '--min-f1', threshold]);
      const o = await outputs(dir);
      expect(code, `gate ${dir}`).toBe(passed ? 0 : 1);
      expect(o.gate.passed).toBe(passed);
      expect(stdout).toContain(passed ? 'quality gate: passed' : 'quality gate: FAILED');
      expect(o.summaryMd).toContain(passed ? 'Quality gate passed' : 'Quality gate FAILED');
      expect(o.gateSuiteFailures).toBe(passed ? 0 : 1);
      expect(await readFile(path.join(work, dir, 'report.html'), 'utf8')).toContain(
        passed ? 'Quality gate passed' : 'Quality gate FAILED',
      );
    }
  });

  it('marks the documents below min_document_f1 as failed junit testcases, and only those', async () => {
    const service = await fake();
    await writeFile(
      path.join(work, 'docbench.config.json'),
      JSON.stringify({ retry: { baseDelayMs: 5 }, cacheDir: 'cache', gate: { min_document_f1: 0.8 } }),
    );
    const { code } = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'out',
      '--quiet',
    ]);
    expect(code).toBe(1);
    const o = await outputs('out');
    expect(o.gate.document_failures.map((f) => f.document_id)).toEqual(['doc-003', 'doc-006']);
    expect(o.belowGateCases).toEqual(['doc-003', 'doc-006']);
    expect(o.summaryMd).toContain('Quality gate FAILED');
    // A gate without that threshold passes, and the same run's junit.xml then has no failure at all.
    const { code: again } = await docbench(['gate', 'out', '--min-document-f1', '0.7']);
    expect(again).toBe(0);
    const after = await outputs('out');
    expect(after.belowGateCases).toEqual([]);
    expect(after.junit).toMatch(/<testsuites [^>]*failures="0"/);
  });

  it("skips the config file's gate with --no-gate (shard runs)", async () => {
    const service = await fake();
    await writeFile(
      path.join(work, 'docbench.config.json'),
      JSON.stringify({ cacheDir: 'cache', gate: { min_f1: 0.99 } }),
    );
    const gated = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'gated',
      '--quiet',
    ]);
    expect(gated.code).toBe(1);
    const shard = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'shard',
      '--shard',
      '1/2',
      '--no-gate',
      '--quiet',
    ]);
    expect(shard.code).toBe(0);
    expect(existsSync(path.join(work, 'shard', 'gate.json'))).toBe(false);
  });

  it('exits 3 when the run could not complete, whatever the gate says', async () => {
    const service = await fake({ apiKey: 'right' });
    const { code } = await docbench(
      ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'out', '--min-f1', '0.5', '--quiet'],
      { DOCBENCH_API_KEY: 'wrong' },
    );
    expect(code).toBe(3);
  });

  it('rejects an invalid gate section before any call (exit 2, naming the key)', async () => {
    const service = await fake();
    await writeFile(
      path.join(work, 'docbench.config.json'),
      JSON.stringify({ cacheDir: 'cache', gate: { tags: { 'tier=fax': { min_f1: 'high' } } } }),
    );
    const { code, stderr } = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'out',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('gate.tags.tier=fax.min_f1');
    expect(service.requests).toEqual([]);
    const flag = await docbench(['gate', 'nowhere', '--min-f1', '1.2']);
    expect(flag.code).toBe(2);
  });

  it("gates the regions' reading order (normalised ARD, a minimum) and lists it in documents.csv", async () => {
    // Three truth regions A, B, C per page, in that order. A stored system lists them C, A, B on doc-001 (ranks
    // A→1, B→2, C→0: 1 − (1 + 1 + 2) / 9 = 5/9, docs/metrics/regions.md) and in order on doc-002 (1).
    const ro = await writeTinyDataset(path.join(work, 'ro'), tinyDocuments(2));
    // No baseline files: the stored system is the run's only one, so the top level of `gate` applies to it.
    await rm(path.join(ro, 'baseline'), { recursive: true });
    const box = (top: number, content: string) => ({
      bounding_box: { min_x: 1, min_y: top, max_x: 5, max_y: top + 0.5 },
      content,
    });
    const [a, b, c] = [box(1, 'Claim'), box(2, 'Patient'), box(3, 'Total')];
    const page = (boxes: object[]) => [{ page: 1, width: 612, height: 792, bounding_boxes: boxes }];
    await mkdir(path.join(ro, 'outputs', 'mine'), { recursive: true });
    for (const [id, listed] of [
      ['doc-001', [c, a, b]],
      ['doc-002', [a, b, c]],
    ] as const) {
      await writeFile(path.join(ro, 'truth', `${id}.regions.json`), JSON.stringify(page([a, b, c])));
      await writeFile(path.join(ro, 'outputs', 'mine', `${id}.regions.json`), JSON.stringify(page([...listed])));
    }
    const config = (min: number) =>
      writeFile(
        path.join(work, 'docbench.config.json'),
        JSON.stringify({ systems: { mine: { kind: 'stored' } }, gate: { min_region_reading_order: min } }),
      );
    // The run's figure is the mean over pages: (5/9 + 1) / 2 = 7/9 ≈ 0.7778. A minimum of 0.75 passes.
    await config(0.75);
    const run = await docbench(['run', '--dataset', ro, '--endpoints', 'split', '--out', 'ro-run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('quality gate: passed');
    let o = await outputs('ro-run');
    let check = o.gate.checks.find((x) => x.metric === 'regions.reading_order')!;
    expect([check.op, check.threshold, check.passed]).toEqual(['>=', 0.75, true]);
    expect(check.actual).toBeCloseTo(7 / 9, 12);
    expect(check.message).toBe('region reading order (normalised ARD, higher is better) 0.7778 ≥ 0.75');
    expect(o.summaryMd).toContain('Quality gate passed');
    expect(o.gateSuiteFailures).toBe(0);
    // documents.csv: the document's own figure, beside the block columns.
    const csv = readCsvRecords(await readFile(path.join(work, 'ro-run', 'documents.csv'), 'utf8'));
    expect(csv.map((r) => [r.document_id, r.system, Number(r.regions_reading_order)])).toEqual([
      ['doc-001', 'mine', Math.round((5 / 9) * 1e6) / 1e6],
      ['doc-002', 'mine', 1],
    ]);
    const header = Object.keys(csv[0]!);
    expect(header.indexOf('regions_reading_order')).toBe(header.indexOf('blocks_table_edit') + 1);

    // 0.8 is above it: `docbench gate` fails, exits 1, and every output says why.
    await config(0.8);
    const gate = await docbench(['gate', 'ro-run']);
    expect(gate.code).toBe(1);
    o = await outputs('ro-run');
    check = o.gate.checks.find((x) => x.metric === 'regions.reading_order')!;
    expect([check.passed, o.gate.passed]).toEqual([false, false]);
    const message = 'region reading order (normalised ARD, higher is better) 0.7778 is below the minimum 0.8';
    expect(check.message).toBe(message);
    expect(gate.stdout).toContain('quality gate: FAILED (1 of 2 checks)');
    expect(gate.stdout).toContain(`✗ ${message}`);
    expect(o.summaryMd).toContain('Quality gate FAILED');
    expect(o.summaryMd).toContain('| regions.reading\\_order | all | &gt;= 0.800 | 0.778 | ❌ FAIL |');
    expect(o.junit).toContain(message);
    expect(o.gateSuiteFailures).toBe(1);

    // A run without regions cannot compute it: the check fails rather than pass by omission.
    await writeFile(path.join(work, 'docbench.config.json'), JSON.stringify({ gate: { min_region_reading_order: 0 } }));
    const service = await fake();
    const none = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--endpoints',
      'compare',
      '--out',
      'no-regions',
    ]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain(
      '✗ region reading order (normalised ARD, higher is better): not computed — this run has no region scores',
    );
  });

  it('refuses docbench gate with no thresholds (exit 2)', async () => {
    const service = await fake();
    await docbench(['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'out', '--quiet']);
    expect(existsSync(path.join(work, 'out', 'gate.json'))).toBe(false);
    const { code, stderr } = await docbench(['gate', 'out']);
    expect(code).toBe(2);
    expect(stderr).toContain('no gate thresholds');
  });
});

describe('pinned baselines', () => {
  it('run --compare-to baseline diffs against the pinned run: same service → exit 0, failing service → exit 1', async () => {
    // 24 documents: with 8, losing half of them could never be significant (4 documents: p ≥ 2 · 0.5^4 = 0.125).
    dataset = await writeTinyDataset(path.join(work, 'tiny24'), tinyDocuments(24));
    const good = await fake();
    const first = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      good.baseUrl,
      '--out',
      'reports/first',
      '--quiet',
    ]);
    expect(first.code).toBe(0);
    const none = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      good.baseUrl,
      '--out',
      'reports/early',
      '--compare-to',
      'baseline',
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no baseline is pinned');

    const set = await docbench(['baseline', 'set', 'reports/first']);
    expect(set.code).toBe(0);
    const store = JSON.parse(await readFile(path.join(work, 'reports', 'baselines.json'), 'utf8')) as {
      baselines: Record<string, { run: string; run_id: string }>;
    };
    expect(store.baselines.tiny).toMatchObject({ run: 'first', run_id: 'first' });
    expect((await docbench(['baseline', 'show'])).stdout).toContain('tiny: first');

    const same = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      good.baseUrl,
      '--out',
      'reports/same',
      '--compare-to',
      'baseline',
    ]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('diff: no regression');
    expect(existsSync(path.join(work, 'reports', 'same', 'diff', 'diff.html'))).toBe(true);

    // A service that rejects slow extraction for half the documents: those score as empty output.
    const broken = await fake({
      fault: ({ endpoint, documentId }) =>
        endpoint === 'extract' && Number(documentId.slice(-1)) % 2 === 0 ? { status: 422 } : null,
    });
    const worse = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      broken.baseUrl,
      '--out',
      'reports/worse',
      '--compare-to',
      'baseline',
    ]);
    expect(worse.code).toBe(1);
    expect(worse.stdout).toContain('diff: REGRESSION');
    // The same decision rule as docbench diff: the primary metric decided alone, the field paths that lost named.
    expect(worse.stdout).toContain('the primary metric, decided alone');
    expect(worse.stdout).toContain('field paths that lost: ');
    const diff = JSON.parse(await readFile(path.join(work, 'reports', 'worse', 'diff', 'diff.json'), 'utf8')) as {
      verdict: string;
      settings: { primary: string };
      status_flips: { to_failed: string[] };
    };
    expect(diff.verdict).toBe('regression');
    expect(diff.settings.primary).toMatch(/^extraction\.(fast|slow)\.f1$/);
    expect(diff.status_flips.to_failed).toHaveLength(12);
    expect(diff.status_flips.to_failed.slice(0, 3)).toEqual(['doc-002', 'doc-004', 'doc-006']);

    const history = await docbench(['history', 'reports']);
    expect(history.code).toBe(0);
    const csv = (await readFile(path.join(work, 'reports', 'history.csv'), 'utf8')).trim().split('\n');
    // One row per run and system: the service, and the incumbent of the dataset's baseline files.
    const systemColumn = csv[0]!.split(',').indexOf('system');
    const rows = csv.slice(1).map((line) => line.split(','));
    expect(rows.filter((r) => r[systemColumn] === 'service').map((r) => r[1])).toEqual(['first', 'same', 'worse']);

    expect((await docbench(['baseline', 'unset', 'tiny'])).code).toBe(0);
    expect((await docbench(['baseline', 'unset', 'tiny'])).code).toBe(2);
  });
});
