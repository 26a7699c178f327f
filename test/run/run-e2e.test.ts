/**
 * docbench run end to end, through real HTTP against a deterministic fake service: recording, retries,
 * failures in the denominator, cache, 401, outage, shard + merge, and SIGKILL + --resume.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { comparableDocuments, comparableSummary, readJsonl, runCli, spawnCli } from '../helpers/cli.js';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';

let work: string;
let dataset: string;
const services: FakeService[] = [];

async function fake(options: FakeServiceOptions = {}): Promise<FakeService> {
  const service = await startFakeService(options);
  services.push(service);
  return service;
}

/** Runs the CLI in-process in the test's working directory (its config file sets a fast retry policy). */
function docbench(args: string[], env: Record<string, string> = {}) {
  return runCli(args, work, env);
}

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-run-'));
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

describe('docbench run against a service', () => {
  it('records every planned call, retries transient failures and counts the attempts', async () => {
    const service = await fake({
      fault: ({ endpoint, documentId, attempt }) =>
        documentId === 'doc-002' && endpoint === 'extract' && attempt === 1
          ? { status: 503 }
          : documentId === 'doc-003' && endpoint === 'compare' && attempt < 3
            ? { status: 429, headers: { 'retry-after': '0' } }
            : null,
    });
    const { code } = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'out',
      '--modes',
      'fast,slow',
      '--quiet',
    ]);
    expect(code).toBe(0);
    const all = await readJsonl(path.join(work, 'out', 'results.jsonl'));
    const records = all.filter((r) => r.system === 'service');
    expect(records).toHaveLength(8 * 3);
    expect(records.every((r) => r.status === 'ok')).toBe(true);
    // The dataset's baseline/ is the stored system `incumbent`: its compare outputs are read, never called.
    const incumbent = all.filter((r) => r.system === 'incumbent');
    expect(incumbent).toHaveLength(8);
    expect(
      incumbent.every(
        (r) => r.endpoint === 'compare' && r.status === 'ok' && r.attempts === 0 && r.from_cache === false,
      ),
    ).toBe(true);
    expect(all).toHaveLength(records.length + incumbent.length);
    const summary = JSON.parse(await readFile(path.join(work, 'out', 'summary.json'), 'utf8'));
    expect(summary.systems.service.calls.compare).toMatchObject({ calls: 8, failed: 0, retried: 1, attempts: 10 });
    expect(
      summary.systems.service.calls['extract:fast'].attempts + summary.systems.service.calls['extract:slow'].attempts,
    ).toBe(18);
    expect(summary.systems.service.documents).toEqual({ total: 8, succeeded: 8, failed: 0 });
    // The fast path misreads totals as strings: the strict pass sees it, the normalised pass does not.
    expect(summary.systems.service.extraction.fast.strict_f1).toBeLessThan(summary.systems.service.extraction.fast.f1);
    for (const file of [
      'run.json',
      'summary.json',
      'documents.jsonl',
      'documents.csv',
      'fields.csv',
      'report.html',
      'junit.xml',
      'summary.md',
    ]) {
      expect(existsSync(path.join(work, 'out', file)), file).toBe(true);
    }
  });

  it('keeps a failed call in the denominator as empty output and goes on', async () => {
    const service = await fake({
      fault: ({ endpoint, documentId }) =>
        documentId === 'doc-004' && endpoint === 'extract' ? { status: 500 } : null,
    });
    const { code } = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'out',
      '--retries',
      '2',
      '--quiet',
    ]);
    expect(code).toBe(0);
    const summary = JSON.parse(await readFile(path.join(work, 'out', 'summary.json'), 'utf8'));
    expect(summary.systems.service.documents).toEqual({ total: 8, succeeded: 7, failed: 1 });
    expect(summary.systems.service.extraction.slow).toMatchObject({ documents: 8, failed: 1 });
    const failed = (await readJsonl(path.join(work, 'out', 'documents.jsonl'))).find(
      (d) => d.document_id === 'doc-004',
    )!;
    expect(failed.systems.service.status).toBe('partial');
    expect((failed.systems.service.extraction as { slow: { f1: number; tp: number } }).slow).toMatchObject({
      f1: 0,
      tp: 0,
    });
    expect(await readFile(path.join(work, 'out', 'documents.csv'), 'utf8')).toMatch(
      /doc-004,service,partial,.*HTTP 500/,
    );
  });

  it('serves a second run of the same dataset from the cache', async () => {
    const service = await fake();
    await docbench(['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'first', '--quiet']);
    const callsAfterFirst = service.requests.length;
    const { code } = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'second',
      '--quiet',
    ]);
    expect(code).toBe(0);
    expect(service.requests.length).toBe(callsAfterFirst);
    const records = (await readJsonl(path.join(work, 'second', 'results.jsonl'))).filter((r) => r.system === 'service');
    expect(records).toHaveLength(16);
    expect(records.every((r) => r.from_cache === true)).toBe(true);
    expect(await comparableSummary(path.join(work, 'second'))).toEqual(
      await comparableSummary(path.join(work, 'first')),
    );
    await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'third',
      '--no-cache',
      '--quiet',
    ]);
    expect(service.requests.length).toBe(callsAfterFirst * 2);
  });

  it('stops at once with exit 3 when the service rejects the key', async () => {
    const service = await fake({ apiKey: 'the-right-key' });
    const { code, stderr } = await docbench(
      ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'out', '--concurrency', '2'],
      { DOCBENCH_API_KEY: 'a-wrong-key' },
    );
    expect(code).toBe(3);
    expect(stderr).toMatch(/rejected the API key/);
    expect(stderr).toMatch(/check the key in DOCBENCH_API_KEY, then resume with: docbench run --resume/);
    // Only the calls already in flight when the first 401 came back were made.
    expect(service.requests.length).toBeLessThanOrEqual(2);
    expect(JSON.parse(await readFile(path.join(work, 'out', 'run.json'), 'utf8'))).toMatchObject({
      status: 'stopped',
      stop_reason: 'auth',
    });
    expect(await readFile(path.join(work, 'out', 'run.json'), 'utf8')).not.toContain('a-wrong-key');
  });

  it('stops starting calls after an outage and says how to resume', async () => {
    const service = await fake({ fault: () => ({ status: 503 }) });
    await writeFile(
      path.join(work, 'docbench.config.json'),
      JSON.stringify({ retry: { maxAttempts: 1 }, outageThreshold: 3, cacheDir: 'cache' }),
    );
    const { code, stderr } = await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'out',
      '--concurrency',
      '1',
    ]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/3 calls in a row failed like an outage/);
    expect(stderr).toMatch(/when the service is back, resume with: docbench run --resume/);
    expect(service.requests.length).toBe(3);
  });

  it('gives the unsharded result when shards are merged', async () => {
    const service = await fake();
    await docbench(['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'whole', '--quiet']);
    await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'shard1',
      '--shard',
      '1/2',
      '--quiet',
    ]);
    await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'shard2',
      '--shard',
      '2/2',
      '--quiet',
    ]);
    const shard1 = await readJsonl(path.join(work, 'shard1', 'documents.jsonl'));
    const shard2 = await readJsonl(path.join(work, 'shard2', 'documents.jsonl'));
    expect(shard1.length + shard2.length).toBe(8);
    // Shards on the embedded engine carry their comparison pages (src/run/comparison-pages.ts): kept.
    for (const [shard, id] of [
      ['shard1', 'doc-a-0123456789'],
      ['shard2', 'doc-b-0123456789'],
    ] as const) {
      await mkdir(path.join(work, shard, 'comparisons'), { recursive: true });
      await writeFile(path.join(work, shard, 'comparisons', `${id}.html`), id);
    }
    const { code } = await docbench(['merge', 'shard1', 'shard2', '--out', 'merged', '--quiet']);
    expect(code).toBe(0);
    expect((await readdir(path.join(work, 'merged', 'comparisons'))).sort()).toEqual([
      'doc-a-0123456789.html',
      'doc-b-0123456789.html',
    ]);
    expect(await comparableSummary(path.join(work, 'merged'))).toEqual(
      await comparableSummary(path.join(work, 'whole')),
    );
    expect(await comparableDocuments(path.join(work, 'merged'))).toEqual(
      await comparableDocuments(path.join(work, 'whole')),
    );
  });

  it('refuses to merge runs of different datasets', async () => {
    const service = await fake();
    const other = await writeTinyDataset(path.join(work, 'other'), tinyDocuments(3));
    await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--out',
      'a',
      '--shard',
      '1/2',
      '--quiet',
    ]);
    await docbench([
      'run',
      '--dataset',
      other,
      '--base-url',
      service.baseUrl,
      '--out',
      'b',
      '--shard',
      '2/2',
      '--quiet',
    ]);
    const { code, stderr } = await docbench(['merge', 'a', 'b', '--out', 'merged']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/ran dataset/);
    expect(existsSync(path.join(work, 'merged'))).toBe(false);
  });

  it('resumes a run killed mid-way: same outputs as an uninterrupted run, no successful call made twice', async () => {
    const documents = tinyDocuments(12);
    await writeTinyDataset(dataset, documents);
    const reference = await fake();
    await docbench([
      'run',
      '--dataset',
      dataset,
      '--base-url',
      reference.baseUrl,
      '--out',
      'reference',
      '--no-cache',
      '--quiet',
    ]);

    const service = await fake({
      latencyMs: 60,
      fault: ({ documentId, attempt }) => (documentId === 'doc-005' && attempt === 1 ? { status: 503 } : null),
    });
    // The child runs the current sources (through tsx), never a dist/ that may be stale.
    const child = spawnCli(
      [
        'run',
        '--dataset',
        dataset,
        '--base-url',
        service.baseUrl,
        '--out',
        'killed',
        '--no-cache',
        '--concurrency',
        '2',
        '--quiet',
      ],
      work,
    );
    child.stdout?.resume();
    child.stderr?.resume();
    const results = path.join(work, 'killed', 'results.jsonl');
    for (let waited = 0; ; waited += 20) {
      if (waited > 30_000) throw new Error('the child run never wrote 8 results');
      const lines = existsSync(results) ? (await readFile(results, 'utf8')).split('\n').length - 1 : 0;
      if (lines >= 8) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const recordedBeforeResume = await readJsonl(results);
    expect(recordedBeforeResume.length).toBeLessThan(36);
    const recordedOk = new Set(recordedBeforeResume.filter((r) => r.status === 'ok').map((r) => r.key as string));
    const requestsBeforeResume = service.requests.length;

    const { code } = await docbench(['run', '--resume', 'killed', '--base-url', service.baseUrl, '--quiet']);
    expect(code).toBe(0);
    expect(await comparableSummary(path.join(work, 'killed'))).toEqual(
      await comparableSummary(path.join(work, 'reference')),
    );
    expect(await comparableDocuments(path.join(work, 'killed'))).toEqual(
      await comparableDocuments(path.join(work, 'reference')),
    );
    // A call recorded as successful before the kill is never made again (calls in flight at the kill may be).
    const keyOf = (r: { endpoint: string; documentId: string; fast: boolean | null }) =>
      `service|${r.documentId}|${r.endpoint}|${r.fast === null ? '-' : r.fast ? 'fast' : 'slow'}|0`;
    const repeated = service.requests.slice(requestsBeforeResume).filter((r) => recordedOk.has(keyOf(r)));
    expect(recordedOk.size).toBeGreaterThan(0);
    expect(repeated).toEqual([]);
    expect(JSON.parse(await readFile(path.join(work, 'killed', 'run.json'), 'utf8'))).toMatchObject({
      status: 'completed',
      counts: { planned: 36, recorded: 36, succeeded: 36 },
    });
  });
});
