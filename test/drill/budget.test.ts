/**
 * Budgets (docs/systems.md, "Budgets"): a run whose budget allows 40% of a priced system's calls stops that
 * system at or below the budget plus the calls in flight (concurrency 4), while a free system goes on; the
 * run ends `partial` with exit 3 and the resume command; its report counts what was recorded; a resume
 * with room finishes with the results of an unbudgeted run. Bad budgets stop before anything is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { readJson, readJsonl, runCli } from '../helpers/cli.js';

const DOCUMENTS = 10;
/** USD per call of the priced system: exact, so its spend is known call by call. */
const PER_CALL = 0.01;
const CONCURRENCY = 4;
let work: string;
let service: FakeService;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-budget-'));
  await writeTinyDataset(path.join(work, 'data'), tinyDocuments(DOCUMENTS));
  // Slow enough that every worker has a call in flight when the budget is reached.
  service = await startFakeService({ latencyMs: 40 });
});

afterAll(async () => {
  await service?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A working directory with a priced interface system and the free stored incumbent. */
async function setup(name: string, paid: Record<string, unknown> = {}): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    stringify({
      cacheDir: 'cache',
      endpoints: ['extract', 'compare'],
      systems: {
        paid: {
          kind: 'interface',
          baseUrl: service.baseUrl,
          concurrency: CONCURRENCY,
          price: { perCall: PER_CALL },
          ...paid,
        },
        incumbent: { kind: 'stored' },
      },
    }),
  );
  return dir;
}

/** Each key's final record without what differs between runs (timing, attempts, the service's address). */
async function comparable(runDir: string): Promise<Record<string, unknown>[]> {
  const latest = new Map<string, Record<string, unknown>>();
  for (const record of await readJsonl(path.join(runDir, 'results.jsonl'))) latest.set(record.key as string, record);
  return [...latest.values()]
    .map(
      ({ started_at: _s, latency_ms: _l, last_attempt_ms: _a, attempts: _t, ...rest }) =>
        JSON.parse(JSON.stringify(rest).replaceAll(service.baseUrl, 'SERVICE')) as Record<string, unknown>,
    )
    .sort((a, b) => String(a.key).localeCompare(String(b.key)));
}

describe('budgets', () => {
  it('stop the priced system at the budget (others go on), end partial with exit 3, and a resume with room finishes as an unbudgeted run', async () => {
    const dir = await setup('budgeted');
    const calls = DOCUMENTS * 2;
    const budget = 0.4 * calls * PER_CALL;
    const before = service.requests.length;
    const first = await runCli(
      ['run', '--dataset', '../data', '--out', 'run', '--max-cost', String(budget), '--no-gate'],
      dir,
    );
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(
      /estimate paid \(interface\): 20 calls \[extract:slow 10, compare 10\] × 1 repeat, 0 cached; 10 documents/,
    );
    expect(first.stderr).toContain(`docbench run --resume ${path.join(dir, 'run')} --max-cost`);

    const runDir = path.join(dir, 'run');
    const records = await readJsonl(path.join(runDir, 'results.jsonl'));
    const paid = records.filter((r) => r.system === 'paid');
    const spent = paid.reduce((sum, r) => sum + (r.cost_usd as number), 0);
    // Never more than the budget plus the calls in flight; with a per-call price, the estimate is exact.
    expect(spent).toBeLessThanOrEqual(budget + CONCURRENCY * PER_CALL + 1e-9);
    expect(spent).toBeLessThanOrEqual(budget + 1e-9);
    expect(paid.length).toBe(Math.round(budget / PER_CALL));
    expect(service.requests.length - before).toBe(paid.length);
    // The free system answered every document it has outputs for.
    expect(records.filter((r) => r.system === 'incumbent' && r.status === 'ok')).toHaveLength(DOCUMENTS);

    const manifest = await readJson(path.join(runDir, 'run.json'));
    expect(manifest.status).toBe('partial');
    expect(manifest.stop_reason).toBe('budget');
    const paidEntry = manifest.systems.find((s: { name: string }) => s.name === 'paid');
    expect(paidEntry.stop_reason).toBe('budget');
    expect(paidEntry.stop_message).toContain('budget reached');
    expect(paidEntry.spent_usd).toBeCloseTo(spent, 10);
    expect(paidEntry.estimate).toMatchObject({ calls: 20, cached: 0 });
    expect(paidEntry.estimate.cost_usd).toBeCloseTo(calls * PER_CALL, 10);
    expect(manifest.systems.find((s: { name: string }) => s.name === 'incumbent').stop_reason).toBeNull();
    expect(manifest.invocations[0].max_cost_usd).toBe(budget);

    // The report counts what was recorded, and sets it against the estimate.
    const summary = await readJson(path.join(runDir, 'summary.json'));
    expect(summary.systems.paid.cost.total_usd).toBeCloseTo(spent, 10);
    // Scored on the documents it was called on; the calls the budget held back are not failures.
    expect(summary.systems.paid.documents).toEqual({
      total: new Set(paid.map((r) => r.document_id)).size,
      succeeded: new Set(paid.map((r) => r.document_id)).size,
      failed: 0,
    });
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('Estimate and spend');
    expect(html).toMatch(/<td class="num">\$0\.0800<\/td>/);

    // A resume without room stops again at once; with room it finishes.
    const still = await runCli(['run', '--resume', 'run'], dir);
    expect(still.code, still.stderr).toBe(3);
    expect((await readJsonl(path.join(runDir, 'results.jsonl'))).filter((r) => r.system === 'paid')).toHaveLength(
      paid.length,
    );
    const resumed = await runCli(['run', '--resume', 'run', '--max-cost', '1', '--no-gate'], dir);
    expect(resumed.code, resumed.stderr).toBe(0);
    const final = await readJson(path.join(runDir, 'run.json'));
    expect(final.status).toBe('completed');
    expect(final.invocations.map((i: { max_cost_usd: number | null }) => i.max_cost_usd)).toEqual([budget, budget, 1]);

    const free = await setup('unbudgeted');
    const plain = await runCli(['run', '--dataset', '../data', '--out', 'run', '--no-cache', '--no-gate'], free);
    expect(plain.code, plain.stderr).toBe(0);
    const strip = (rs: Record<string, unknown>[]) => rs.map(({ from_cache: _c, ...rest }) => rest);
    expect(strip(await comparable(runDir))).toEqual(strip(await comparable(path.join(free, 'run'))));
  }, 120_000);

  it('a system budget stops only that system; plan shows the cached calls as free', async () => {
    const dir = await setup('system-budget', { maxCostUsd: 0.05 });
    const result = await runCli(['run', '--dataset', '../data', '--out', 'run', '--no-gate'], dir);
    expect(result.code, result.stderr).toBe(3);
    const manifest = await readJson(path.join(dir, 'run', 'run.json'));
    expect(manifest.systems.find((s: { name: string }) => s.name === 'paid')).toMatchObject({
      stop_reason: 'budget',
      max_cost_usd: 0.05,
    });
    const paid = (await readJsonl(path.join(dir, 'run', 'results.jsonl'))).filter((r) => r.system === 'paid');
    expect(paid.length).toBe(5);
    const budgeted = await runCli(['plan', '--dataset', '../data', '--max-cost', '0.1'], dir);
    expect(budgeted.stdout).toMatch(
      /budgets: run \$0\.1000 \(below the estimate: the run would stop early\), paid \$0\.0500 \(below the estimate/,
    );
    // Those five answers are cached now: a plan of the same run counts them as free.
    const plan = await runCli(['plan', '--dataset', '../data', '--json', '--systems', 'paid'], dir);
    expect(plan.code, plan.stderr).toBe(0);
    const [estimate] = JSON.parse(plan.stdout).estimates;
    expect(estimate).toMatchObject({ total: 20, cached: 5 });
    expect(estimate.costUsd).toBeCloseTo(15 * PER_CALL, 10);
  }, 120_000);

  describe('bad budgets → exit 2 naming the flag or key, nothing written', () => {
    const cases: [string, string[], Record<string, unknown>, string][] = [
      ['--max-cost not a number', ['--max-cost', 'lots'], {}, '--max-cost'],
      ['--max-cost negative', ['--max-cost', '-1'], {}, '--max-cost'],
      ['--max-cost infinite', ['--max-cost', 'Infinity'], {}, '--max-cost'],
      ['--max-cost empty', ['--max-cost', ''], {}, '--max-cost'],
      ['--max-cost without an amount', ['--max-cost'], {}, '--max-cost'],
      ['maxCostUsd NaN (.nan in YAML)', [], { maxCostUsd: Number.NaN }, 'systems.paid.maxCostUsd'],
      ['maxCostUsd negative', [], { maxCostUsd: -2 }, 'systems.paid.maxCostUsd'],
      ['maxCostUsd not a number', [], { maxCostUsd: 'ten' }, 'systems.paid.maxCostUsd'],
      ['maxCostUsd on an unpriced system', [], { price: null, maxCostUsd: 1 }, 'systems.paid.maxCostUsd'],
    ];
    for (const [name, flags, paid, named] of cases) {
      it(name, async () => {
        const dir = await setup(`bad-${name.replace(/\W+/g, '-')}`, paid);
        const before = service.requests.length;
        for (const args of [['run', '--out', 'run'], ['plan']]) {
          const result = await runCli([...args, '--dataset', '../data', ...flags], dir);
          expect(result.code, result.stderr).toBe(2);
          expect(result.stderr).toContain(named);
        }
        expect(await readdir(dir)).toEqual(['docbench.config.yaml']);
        expect(service.requests.length).toBe(before);
      });
    }

    it('--max-cost when no system has a price', async () => {
      const dir = path.join(work, 'no-price');
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, 'docbench.config.yaml'),
        stringify({ systems: { free: { kind: 'interface', baseUrl: service.baseUrl } } }),
      );
      const result = await runCli(['run', '--dataset', '../data', '--max-cost', '5'], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--max-cost: no system of this run has a price');
      expect(await readdir(dir)).toEqual(['docbench.config.yaml']);
    });
  });
});
