/**
 * A run-wide budget over two provider kinds at concurrency 4 (docs/systems.md, "Budgets"), on the sample:
 * `openai` priced per token against a fake chat server that answers slowly and reports 20% more tokens per
 * page than the config's estimate (so the calls in flight can cost more than was reserved for them), and
 * `azure-di` priced per page (exact). The budget allows 40% of what an unbudgeted run of the same documents
 * recorded. The spend must end at most the budget plus the excess of the calls in flight (at most 4 per
 * system), the report must count what was recorded, and a resume with room must end with the unbudgeted
 * run's results.
 */
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, readJson, readJsonl, runCli } from '../helpers/cli.js';
import type { TestServer } from '../helpers/http-server.js';
import { startAzureFake } from '../systems/providers/azure-fake.js';
import { startChatFake, writePricedConfig } from '../systems/providers/priced-fakes.js';
import { formatUsd } from '../../src/render/index.js';

const KEY = 'budget-providers-key-0123';
const ENV = { AZURE_KEY: KEY, OPENAI_KEY: KEY };
const CONCURRENCY = 4;
/** What the config tells the estimate, and what the fake reports: 1.2 times as many tokens per page. */
const ESTIMATED = { in: 1000, out: 100 };
const EXCESS = 1.2;
const PRICE = { in: 2, out: 8 };
/** The first 12 of the sample's 36 documents (PDFs of one to three pages, scans, images). */
const LIMIT = ['--limit', '12'];

let dir: string;
let azure: TestServer;
let chat: TestServer;
/** The most chat requests the fake was answering at once. */
let peak = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docbench-budget-providers-'));
  const dataset = path.join(dir, 'dataset');
  await cp(path.join(ROOT, 'datasets', 'sample-claims'), dataset, { recursive: true });
  azure = await startAzureFake(dataset, KEY);
  let open = 0;
  chat = await startChatFake(async (body) => {
    open += 1;
    peak = Math.max(peak, open);
    const pages = body.messages
      .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
      .filter((part) => part.type === 'image_url').length;
    // Slow enough that four calls are in flight whenever the budget is reached.
    await sleep(60);
    open -= 1;
    return {
      content: body.response_format
        ? JSON.stringify({ claim_number: 'C-1', patient_name: 'Ann Lee' })
        : `# Page\n\n${pages} page(s) read`,
      usage: { prompt_tokens: pages * ESTIMATED.in * EXCESS, completion_tokens: pages * ESTIMATED.out * EXCESS },
    };
  });
});

afterAll(async () => {
  await Promise.all([azure?.close(), chat?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A working directory with both systems, each at concurrency 4, its own cache. */
async function workdir(name: string): Promise<string> {
  const work = path.join(dir, name);
  await mkdir(work, { recursive: true });
  await writePricedConfig(work, {
    gpt: {
      kind: 'openai',
      baseUrl: `${chat.url}/v1`,
      model: 'vision',
      apiKeyEnv: 'OPENAI_KEY',
      dpi: 50,
      concurrency: CONCURRENCY,
      price: { perMillionInputTokens: PRICE.in, perMillionOutputTokens: PRICE.out },
      estimate: { inputTokensPerPage: ESTIMATED.in, outputTokensPerPage: ESTIMATED.out },
    },
    azure: {
      kind: 'azure-di',
      endpoint: azure.url,
      apiKeyEnv: 'AZURE_KEY',
      concurrency: CONCURRENCY,
      price: { perPage: 0.01 },
    },
  });
  return work;
}

/** Each key's final record without what differs between runs (timing, attempts, cache, the servers' addresses). */
async function comparable(runDir: string): Promise<Record<string, unknown>[]> {
  const latest = new Map<string, Record<string, unknown>>();
  for (const record of await readJsonl(path.join(runDir, 'results.jsonl'))) latest.set(record.key as string, record);
  return [...latest.values()]
    .map(
      ({ started_at: _s, latency_ms: _l, last_attempt_ms: _a, attempts: _t, from_cache: _c, ...rest }) =>
        JSON.parse(JSON.stringify(rest).replaceAll(chat.url, 'CHAT').replaceAll(azure.url, 'AZURE')) as Record<
          string,
          unknown
        >,
    )
    .sort((a, b) => String(a.key).localeCompare(String(b.key)));
}

function costBySystem(records: Record<string, any>[]): Record<string, number> {
  const spent: Record<string, number> = {};
  for (const r of records) spent[r.system] = (spent[r.system] ?? 0) + (r.cost_usd ?? 0);
  return spent;
}

/** The report's cost row of a system: estimated, spent, difference, note. */
function costRow(html: string, system: string): string[] {
  const row = new RegExp(`<tr><td><strong>${system}</strong></td>(.*?)</tr>`).exec(
    /<table id="cost-table">[\s\S]*?<\/table>/.exec(html)![0],
  )![1]!;
  const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]!);
  return [cells[0]!, cells[2]!, cells[3]!, cells[5]!];
}

describe('a run-wide budget over two provider kinds at concurrency 4', () => {
  it('stops within the budget plus the excess of the calls in flight; the report counts what was recorded; a resume with room ends as the unbudgeted run', async () => {
    const free = await workdir('unbudgeted');
    const plain = await runCli(
      ['run', '--dataset', '../dataset', ...LIMIT, '--out', 'run', '--no-gate', '--quiet'],
      free,
      ENV,
    );
    expect(plain.code, plain.stderr).toBe(0);
    const reference = await readJsonl(path.join(free, 'run', 'results.jsonl'));
    const full = costBySystem(reference);
    const gptCalls = reference.filter((r) => r.system === 'gpt');
    // The fake reported 1.2 × the estimate of every call: the estimate of a call is its cost / 1.2.
    const plan = (await readJson(path.join(free, 'run', 'run.json'))).systems as {
      name: string;
      estimate: { cost_usd: number };
    }[];
    expect(plan.find((s) => s.name === 'gpt')!.estimate.cost_usd * EXCESS).toBeCloseTo(full.gpt!, 10);
    expect(plan.find((s) => s.name === 'azure')!.estimate.cost_usd).toBeCloseTo(full.azure!, 10);

    const total = full.gpt! + full.azure!;
    const budget = Number((0.4 * total).toFixed(4));
    const work = await workdir('budgeted');
    const first = await runCli(
      ['run', '--dataset', '../dataset', ...LIMIT, '--out', 'run', '--max-cost', String(budget), '--no-gate'],
      work,
      ENV,
    );
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toContain(`docbench run --resume ${path.join(work, 'run')} --max-cost`);
    expect(peak).toBeLessThanOrEqual(CONCURRENCY);

    const runDir = path.join(work, 'run');
    const records = await readJsonl(path.join(runDir, 'results.jsonl'));
    const spent = costBySystem(records);
    const spentTotal = (spent.gpt ?? 0) + (spent.azure ?? 0);
    // Every call started within the budget with its estimate; only an openai call can cost more than its
    // estimate (by a sixth of its cost), and at most 4 of them were in flight when the budget was reached.
    const largestExcess = Math.max(...gptCalls.map((r) => r.cost_usd - r.cost_usd / EXCESS));
    expect(spentTotal).toBeLessThanOrEqual(budget + CONCURRENCY * largestExcess + 1e-9);
    // And it stopped only when the next call could pass the budget: no more than one call's estimate short.
    const largestEstimate = Math.max(...reference.map((r) => (r.system === 'gpt' ? r.cost_usd / EXCESS : r.cost_usd)));
    expect(spentTotal).toBeGreaterThanOrEqual(budget - largestEstimate - 1e-9);
    // 40% of the money is about 40% of the calls.
    expect(records.length / reference.length).toBeGreaterThan(0.25);
    expect(records.length / reference.length).toBeLessThan(0.55);

    const manifest = await readJson(path.join(runDir, 'run.json'));
    expect(manifest.status).toBe('partial');
    for (const system of manifest.systems) {
      expect(system.spent_usd).toBeCloseTo(spent[system.name] ?? 0, 10);
      if (system.counts.recorded < system.counts.planned) expect(system.stop_reason).toBe('budget');
    }
    expect(manifest.systems.some((s: { stop_reason: string | null }) => s.stop_reason === 'budget')).toBe(true);

    // The report: each system's cost is what its calls recorded, its calls counted as made, none invented.
    const summary = await readJson(path.join(runDir, 'summary.json'));
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    for (const name of ['gpt', 'azure']) {
      const own = records.filter((r) => r.system === name);
      expect(summary.systems[name].cost.total_usd ?? 0).toBeCloseTo(spent[name] ?? 0, 10);
      const calls = Object.values(summary.systems[name].calls as Record<string, { calls: number; failed: number }>);
      expect(calls.reduce((n, c) => n + c.calls, 0)).toBe(own.length);
      expect(calls.reduce((n, c) => n + c.failed, 0)).toBe(own.filter((r) => r.status === 'failed').length);
      expect(summary.systems[name].documents.total).toBe(new Set(own.map((r) => r.document_id)).size);
      // Scored on the documents it was called on: the calls its budget held back are not failures.
      expect(summary.systems[name].documents.failed).toBe(0);
      const entry = manifest.systems.find((s: { name: string }) => s.name === name);
      expect(costRow(html, name)).toEqual([
        formatUsd(entry.estimate.cost_usd),
        formatUsd(spent[name]),
        '—',
        `stopped at its budget after ${own.length} of ${entry.counts.planned} calls: the spend covers those`,
      ]);
    }
    expect(html).toContain(`Run budget (<code>--max-cost</code>): ${formatUsd(budget)}.`);
    // Ranked against the incumbent (all 12 documents) on the documents both were scored on, marked as covering fewer.
    const markdown = (
      summary.leaderboard as { metric: string; rows: { system: string; documents: number; covers_fewer?: boolean }[] }[]
    ).find((b) => b.metric === 'markdown.similarity')!;
    for (const name of ['gpt', 'azure']) {
      expect(markdown.rows.find((r) => r.system === name)).toMatchObject({
        documents: new Set(records.filter((r) => r.system === name).map((r) => r.document_id)).size,
        covers_fewer: true,
      });
    }

    const resumed = await runCli(
      ['run', '--resume', 'run', '--max-cost', String(Number((2 * total).toFixed(4))), '--no-gate', '--quiet'],
      work,
      ENV,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await readJson(path.join(runDir, 'run.json'))).status).toBe('completed');
    expect(await comparable(runDir)).toEqual(await comparable(path.join(free, 'run')));
    const done = await readFile(path.join(runDir, 'report.html'), 'utf8');
    expect(costRow(done, 'azure')).toEqual([formatUsd(full.azure), formatUsd(full.azure), '+0.0%', '']);
    expect(peak).toBeLessThanOrEqual(CONCURRENCY);
  }, 600_000);
});
