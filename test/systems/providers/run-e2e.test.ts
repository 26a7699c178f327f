/**
 * A cloud kind end to end through `docbench run` (run → score → report): `azure-di` against a fake
 * Document Intelligence resource (wire format as in azure-di.test.ts) that answers every document of the
 * sample dataset with its own truth — markdown as the analyze result's content, the truth regions as lines.
 * The independent expectation is therefore exact: markdown similarity 1, and cost = price × pages.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BREAK } from '../../../src/types.js';
import { ROOT, runCli } from '../../helpers/cli.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { sendJson } from './context.js';

const KEY = 'azure-e2e-key-0123456789';
let dir: string;
let server: TestServer;

interface TruthRegions {
  page: number;
  width: number;
  height: number;
  bounding_boxes: { bounding_box: { min_x: number; min_y: number; max_x: number; max_y: number }; content: string }[];
}

/** The analyze result a perfect provider would give for one document: its truth. */
async function analyzeResultFor(dataset: string, id: string) {
  const pages = (await readFile(path.join(dataset, 'truth', `${id}.md`), 'utf8')).split(PAGE_BREAK).map((p) => p.trim());
  const regions = JSON.parse(await readFile(path.join(dataset, 'truth', `${id}.regions.json`), 'utf8')) as TruthRegions[];
  let content = '';
  const spans: { offset: number; length: number }[] = [];
  pages.forEach((page, i) => {
    if (i > 0) content += '\n<!-- PageBreak -->\n';
    spans.push({ offset: content.length, length: page.length });
    content += page;
  });
  return {
    apiVersion: '2024-11-30',
    modelId: 'prebuilt-layout',
    content,
    contentFormat: 'markdown',
    pages: pages.map((_, i) => {
      const truth = regions.find((r) => r.page === i + 1)!;
      return {
        pageNumber: i + 1,
        width: truth.width / 72,
        height: truth.height / 72,
        unit: 'inch',
        spans: [spans[i]],
        words: [],
        lines: truth.bounding_boxes.map(({ bounding_box: b, content: text }) => ({ content: text, polygon: [b.min_x, b.min_y, b.max_x, b.min_y, b.max_x, b.max_y, b.min_x, b.max_y], spans: [] })),
      };
    }),
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docbench-providers-e2e-'));
  const dataset = path.join(dir, 'dataset');
  await cp(path.join(ROOT, 'datasets', 'sample-claims'), dataset, { recursive: true });
  // The fake knows each document by the sha256 of its bytes, as a real service knows nothing else.
  const byHash = new Map<string, string>();
  for (const file of await readdir(path.join(dataset, 'documents'))) {
    byHash.set(createHash('sha256').update(await readFile(path.join(dataset, 'documents', file))).digest('hex'), path.parse(file).name);
  }
  const results = new Map<string, unknown>();
  server = await startHttpServer(async (request, response) => {
    if (request.headers['ocp-apim-subscription-key'] !== KEY) return sendJson(response, 401, { error: { code: '401', message: 'Access denied due to invalid subscription key.' } });
    if (request.method === 'POST') {
      const { base64Source } = JSON.parse(request.body.toString('utf8')) as { base64Source: string };
      const id = byHash.get(createHash('sha256').update(Buffer.from(base64Source, 'base64')).digest('hex'))!;
      results.set(id, await analyzeResultFor(dataset, id));
      response.writeHead(202, { 'operation-location': `${server.url}/documentintelligence/documentModels/prebuilt-layout/analyzeResults/${id}?api-version=2024-11-30`, 'retry-after': '0' });
      return void response.end();
    }
    const id = /analyzeResults\/([^?]+)/.exec(request.url)![1]!;
    sendJson(response, 200, { status: 'succeeded', analyzeResult: results.get(id) });
  });
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    `systems:\n  azure: { kind: azure-di, endpoint: "${server.url}", apiKeyEnv: TEST_AZURE_KEY, price: { perPage: 0.01 } }\nendpoints: [compare, split]\n`,
  );
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('azure-di through docbench run', () => {
  it('runs, scores and reports the provider; its markdown equals the truth it was given, cost is price × pages, no key anywhere', async () => {
    const out = path.join(dir, 'run');
    const result = await runCli(['run', '--dataset', path.join(dir, 'dataset'), '--out', out], dir, { TEST_AZURE_KEY: KEY });
    expect(result.code, result.stderr).toBe(0);
    const records = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { system: string; endpoint: string; status: string; cost_usd?: number; usage?: { pages?: number }; raw?: unknown });
    const azure = records.filter((r) => r.system === 'azure');
    expect(azure).toHaveLength(72);
    expect(azure.every((r) => r.status === 'ok')).toBe(true);
    for (const record of azure) expect(record.cost_usd).toBeCloseTo(0.01 * record.usage!.pages!, 10);
    expect(azure.every((r) => r.raw !== undefined)).toBe(true);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as { systems: Record<string, { markdown: { similarity: number; failed: number }; cost?: { total_usd: number } }> };
    expect(summary.systems.azure!.markdown.similarity).toBe(1);
    expect(summary.systems.azure!.markdown.failed).toBe(0);
    expect(summary.systems.azure!.cost!.total_usd).toBeCloseTo(azure.reduce((sum, r) => sum + r.cost_usd!, 0), 10);
    for (const file of await readdir(out)) {
      if (file.includes('.')) expect(await readFile(path.join(out, file), 'utf8'), file).not.toContain(KEY);
    }
    await expect(readFile(path.join(out, 'report.html'), 'utf8')).resolves.toContain('<html');
  }, 240_000);
});
