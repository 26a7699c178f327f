/**
 * Crash drill: a real `docbench run` child process is SIGKILLed at three seeded random moments
 * (after a seeded number of recorded calls), and resumed after each kill. The final outputs equal those of
 * an uninterrupted run, and no call that was recorded as successful before a kill is ever made again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRandom } from '../../src/dataset/generate/prng.js';
import { startFakeService, type FakeRequest, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import {
  comparableDocuments,
  comparableSummary,
  killAfter,
  readJson,
  readJsonl,
  runCli,
  spawnCli,
} from '../helpers/cli.js';

const DOCUMENTS = 16;
const PLANNED = DOCUMENTS * 2;
const SEED = 20261121;
let work: string;
let dataset: string;
const services: FakeService[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-crash-drill-'));
  dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(DOCUMENTS));
  await writeFile(
    path.join(work, 'docbench.config.json'),
    JSON.stringify({ retry: { baseDelayMs: 5, maxDelayMs: 20 }, cacheDir: 'cache' }),
  );
});

afterAll(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  if (work) await rm(work, { recursive: true, force: true });
});

/** The record key of a request the fake service saw. */
const keyOf = (r: FakeRequest) =>
  `service|${r.documentId}|${r.endpoint}|${r.fast === null ? '-' : r.fast ? 'fast' : 'slow'}|0`;

describe('crash drill: SIGKILL at three seeded moments, resume each time', () => {
  it('ends with the outputs of an uninterrupted run and never repeats a call recorded as successful', {
    timeout: 120_000,
  }, async () => {
    const reference = await startFakeService();
    services.push(reference);
    const clean = await runCli(
      [
        'run',
        '--dataset',
        dataset,
        '--base-url',
        reference.baseUrl,
        '--systems',
        'service',
        '--out',
        'reference',
        '--no-cache',
        '--quiet',
      ],
      work,
    );
    expect(clean.code, clean.stderr).toBe(0);

    // Slow enough that a kill lands mid-run; one transient 503 so a retried call is in the mix.
    const service = await startFakeService({
      latencyMs: 40,
      fault: ({ documentId, endpoint, attempt }) =>
        documentId === 'doc-005' && endpoint === 'extract' && attempt === 1 ? { status: 503 } : null,
    });
    services.push(service);
    const runDir = path.join(work, 'killed');
    const results = path.join(runDir, 'results.jsonl');
    const random = createRandom(SEED);

    const snapshots: { okKeys: Set<string>; requestsSoFar: number }[] = [];
    let recorded = 0;
    for (let kill = 0; kill < 3; kill++) {
      // A seeded moment: after 1 to 8 more recorded calls, always short of the end.
      const target = recorded + random.int(1, 8);
      expect(target).toBeLessThan(PLANNED);
      const args =
        kill === 0
          ? ['run', '--dataset', dataset, '--systems', 'service', '--out', 'killed', '--no-cache', '--concurrency', '2']
          : ['run', '--resume', 'killed', '--concurrency', '2'];
      const child = spawnCli([...args, '--base-url', service.baseUrl, '--quiet'], work);
      recorded = await killAfter(child, results, target);
      expect(recorded, `kill ${kill + 1} landed before the end`).toBeLessThan(PLANNED);
      expect(await readJson(path.join(runDir, 'run.json'))).toMatchObject({ status: 'running' });
      const okKeys = new Set((await readJsonl(results)).filter((r) => r.status === 'ok').map((r) => r.key as string));
      snapshots.push({ okKeys, requestsSoFar: service.requests.length });
    }

    const resumed = await runCli(['run', '--resume', 'killed', '--base-url', service.baseUrl, '--quiet'], work);
    expect(resumed.code, resumed.stderr).toBe(0);

    expect(await comparableSummary(runDir)).toEqual(await comparableSummary(path.join(work, 'reference')));
    expect(await comparableDocuments(runDir)).toEqual(await comparableDocuments(path.join(work, 'reference')));
    const manifest = await readJson(path.join(runDir, 'run.json'));
    expect(manifest).toMatchObject({
      status: 'completed',
      counts: { planned: PLANNED, recorded: PLANNED, succeeded: PLANNED, failed: 0, not_started: 0 },
    });
    expect(manifest.invocations).toHaveLength(4);

    // A call recorded as successful before a kill is never made again (calls in flight at a kill may be).
    for (const [index, snapshot] of snapshots.entries()) {
      expect(snapshot.okKeys.size, `kill ${index + 1}`).toBeGreaterThan(0);
      const repeated = service.requests.slice(snapshot.requestsSoFar).filter((r) => snapshot.okKeys.has(keyOf(r)));
      expect(repeated, `kill ${index + 1}`).toEqual([]);
    }
    // Every call succeeded exactly once in results.jsonl's final view, whatever the kills cut.
    const finalOk = new Set((await readJsonl(results)).filter((r) => r.status === 'ok').map((r) => r.key));
    expect(finalOk.size).toBe(PLANNED);
  });
});
