/**
 * `docbench plan` on the sample dataset with three priced systems: its figures equal a hand count made here
 * from what the generator recorded (each document's `pages` tag in dataset.json, not the files docbench
 * reads), the systems' operations and their prices; nothing is created, called or written.
 */
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ROOT, runCli } from '../helpers/cli.js';
import { startHttpServer, type TestServer } from '../helpers/http-server.js';
import type { PlanResult } from '../../src/run/plan-benchmark.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { mkdir } from 'node:fs/promises';

let work: string;
let dataset: string;
let server: TestServer;
/** Pages per document as the generator recorded them. */
let pages: Map<string, number>;

const PRICES = {
  gpt: { perMillionInputTokens: 0.4, perMillionOutputTokens: 1.6 },
  azure: { perPage: 0.01 },
  tx: { perPage: 0.015, perCall: 0.001 },
};

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-plan-'));
  dataset = path.join(work, 'dataset');
  await cp(path.join(ROOT, 'datasets', 'sample-claims'), dataset, { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(dataset, 'dataset.json'), 'utf8')) as {
    documents: { id: string; tags: { pages: string } }[];
  };
  pages = new Map(manifest.documents.map((d) => [d.id, Number(d.tags.pages)]));
  // Any request reaching a provider fails the test: the plan calls nothing.
  server = await startHttpServer((_request, response) => void response.writeHead(500).end());
  await writeFile(
    path.join(work, 'docbench.config.yaml'),
    stringify({
      cacheDir: 'cache',
      endpoints: ['extract', 'compare', 'split'],
      systems: {
        gpt: {
          kind: 'openai',
          baseUrl: `${server.url}/v1`,
          model: 'vision-1',
          price: PRICES.gpt,
          estimate: { inputTokensPerPage: 800, outputTokensPerPage: 300 },
        },
        azure: { kind: 'azure-di', endpoint: server.url, apiKeyEnv: 'AZURE_KEY', price: PRICES.azure, maxCostUsd: 5 },
        tx: { kind: 'textract', region: 'us-east-1', endpoint: server.url, maxPages: 2, price: PRICES.tx },
      },
    }),
  );
});

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Every file and directory under `dir` with its size and modification time. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file);
    out[path.relative(dir, file)] = `${entry.isDirectory() ? 'd' : info.size} ${info.mtimeMs}`;
  }
  return out;
}

describe('docbench plan', () => {
  it('prints per system the documents, pages, calls and cost of a hand count, and writes nothing', async () => {
    const before = await tree(work);
    const result = await runCli(['plan', '--dataset', 'dataset', '--json'], work);
    expect(result.code, result.stderr).toBe(0);
    expect(await tree(work)).toEqual(before);
    expect(server.requests).toHaveLength(0);

    const ids = [...pages.keys()];
    const total = ids.reduce((sum, id) => sum + pages.get(id)!, 0);
    const capped = ids.reduce((sum, id) => sum + Math.min(2, pages.get(id)!), 0);
    const plan = JSON.parse(result.stdout) as PlanResult;
    const by = Object.fromEntries(plan.estimates.map((e) => [e.system, e]));
    expect(plan.dataset.documentsSelected).toBe(36);

    // openai answers extract and compare; 36 documents each, tokens from the config's figure per page.
    expect(by.gpt!).toMatchObject({
      documents: 36,
      pages: total,
      calls: { 'extract:slow': 36, compare: 36 },
      total: 72,
      cached: 0,
      repeats: 1,
      exact: false,
      uncounted: 0,
    });
    const gptCost = 2 * total * ((800 * 0.4) / 1e6 + (300 * 1.6) / 1e6);
    expect(by.gpt!.costUsd).toBeCloseTo(gptCost, 10);
    expect(by.gpt!.basis).toContain('config');
    // azure-di: compare and split (extract needs a fieldMap), every page of each.
    expect(by.azure!).toMatchObject({ calls: { compare: 36, split: 36 }, total: 72, exact: true });
    expect(by.azure!.costUsd).toBeCloseTo(2 * total * 0.01, 10);
    // textract: all three, at most 2 pages a call, plus a per-call price.
    expect(by.tx!).toMatchObject({ calls: { 'extract:slow': 36, compare: 36, split: 36 }, total: 108, exact: true });
    expect(by.tx!.costUsd).toBeCloseTo(3 * capped * 0.015 + 108 * 0.001, 10);
    expect(plan.totalUsd).toBeCloseTo(gptCost + 2 * total * 0.01 + 3 * capped * 0.015 + 108 * 0.001, 10);
    expect(plan.budgets).toEqual({ run: null, systems: { azure: 5 } });

    // The text gives the same figures, one line per system and the total.
    const text = await runCli(['plan', '--dataset', 'dataset'], work);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `azure (azure-di): 72 calls [compare 36, split 36] × 1 repeat, 0 cached; 36 documents, ${total} pages: $${(2 * total * 0.01).toFixed(4)}`,
    );
    expect(text.stdout).toContain(`total: $${plan.totalUsd!.toFixed(4)} (estimate)`);
    expect(await tree(work)).toEqual(before);
  }, 60_000);

  it('with --repeat counts every repeat, and a resume-shaped flag error is exit 2', async () => {
    const result = await runCli(
      ['plan', '--dataset', 'dataset', '--json', '--repeat', '2', '--systems', 'azure'],
      work,
    );
    expect(result.code, result.stderr).toBe(0);
    const [azure] = (JSON.parse(result.stdout) as PlanResult).estimates;
    expect(azure).toMatchObject({ system: 'azure', total: 144, repeats: 2, calls: { compare: 72, split: 72 } });
    const refused = await runCli(['plan', '--resume', 'nowhere', '--repeat', '2'], work);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--repeat');
  }, 60_000);

  it('takes tokens per page from the usage an earlier run of the dataset recorded for the system', async () => {
    const dir = path.join(work, 'earlier');
    const data = await writeTinyDataset(path.join(dir, 'data'), tinyDocuments(4));
    // A stored system whose meta files report usage as a provider would: 2 pages, 1500 tokens in, 300 out.
    await mkdir(path.join(data, 'outputs', 'llm'), { recursive: true });
    for (const id of ['doc-001', 'doc-002', 'doc-003', 'doc-004']) {
      await writeFile(path.join(data, 'outputs', 'llm', `${id}.md`), '# page');
      await writeFile(
        path.join(data, 'outputs', 'llm', `${id}.meta.json`),
        JSON.stringify({ usage: { pages: 2, input_tokens: 1500, output_tokens: 300 } }),
      );
    }
    await writeFile(
      path.join(dir, 'docbench.config.yaml'),
      stringify({
        endpoints: ['compare'],
        systems: { llm: { kind: 'stored', price: { perMillionInputTokens: 1, perMillionOutputTokens: 2 } } },
      }),
    );
    const before = await runCli(['plan', '--dataset', 'data', '--json'], dir);
    expect((JSON.parse(before.stdout) as PlanResult).estimates[0]!.basis).toContain(
      '1000 in / 400 out tokens per page (generic default)',
    );
    const run = await runCli(['run', '--dataset', 'data', '--quiet', '--no-gate'], dir);
    expect(run.code, run.stderr).toBe(0);
    const after = JSON.parse((await runCli(['plan', '--dataset', 'data', '--json'], dir)).stdout) as PlanResult;
    expect(after.estimates[0]!.basis).toMatch(/750 in \/ 150 out tokens per page \(earlier run: \S+, 4 calls\)/);
    // Uncounted tiny documents count 1 page each: 4 calls × (750 × 1 + 150 × 2) / 1e6.
    expect(after.estimates[0]!.costUsd).toBeCloseTo((4 * (750 * 1 + 150 * 2)) / 1e6, 12);
  }, 60_000);
});
