/**
 * What a perfect Azure Document Intelligence resource would answer for a sample document: its truth — the
 * markdown as the analyze result's content, the truth regions as lines (wire format as in azure-di.test.ts).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PAGE_BREAK } from '../../../src/types.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { sendJson } from './context.js';

interface TruthRegions {
  page: number;
  width: number;
  height: number;
  bounding_boxes: { bounding_box: { min_x: number; min_y: number; max_x: number; max_y: number }; content: string }[];
}

/** The analyze result a perfect provider would give for one document: its truth. */
async function analyzeResultFor(dataset: string, id: string) {
  const pages = (await readFile(path.join(dataset, 'truth', `${id}.md`), 'utf8'))
    .split(PAGE_BREAK)
    .map((p) => p.trim());
  const regions = JSON.parse(
    await readFile(path.join(dataset, 'truth', `${id}.regions.json`), 'utf8'),
  ) as TruthRegions[];
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
        lines: truth.bounding_boxes.map(({ bounding_box: b, content: text }) => ({
          content: text,
          polygon: [b.min_x, b.min_y, b.max_x, b.min_y, b.max_x, b.max_y, b.min_x, b.max_y],
          spans: [],
        })),
      };
    }),
  };
}

/** A fake resource answering every document of `dataset` with its truth; requests need `key`. */
export async function startAzureFake(dataset: string, key: string): Promise<TestServer> {
  // The fake knows each document by the sha256 of its bytes, as a real service knows nothing else.
  const byHash = new Map<string, string>();
  for (const file of await readdir(path.join(dataset, 'documents'))) {
    byHash.set(
      createHash('sha256')
        .update(await readFile(path.join(dataset, 'documents', file)))
        .digest('hex'),
      path.parse(file).name,
    );
  }
  const results = new Map<string, unknown>();
  const server: TestServer = await startHttpServer(async (request, response) => {
    if (request.headers['ocp-apim-subscription-key'] !== key)
      return sendJson(response, 401, {
        error: { code: '401', message: 'Access denied due to invalid subscription key.' },
      });
    if (request.method === 'POST') {
      const { base64Source } = JSON.parse(request.body.toString('utf8')) as { base64Source: string };
      const id = byHash.get(createHash('sha256').update(Buffer.from(base64Source, 'base64')).digest('hex'))!;
      results.set(id, await analyzeResultFor(dataset, id));
      response.writeHead(202, {
        'operation-location': `${server.url}/documentintelligence/documentModels/prebuilt-layout/analyzeResults/${id}?api-version=2024-11-30`,
        'retry-after': '0',
      });
      return void response.end();
    }
    const id = /analyzeResults\/([^?]+)/.exec(request.url)![1]!;
    sendJson(response, 200, { status: 'succeeded', analyzeResult: results.get(id) });
  });
  return server;
}
