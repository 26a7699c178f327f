/**
 * What provider-kind tests share: a SystemContext as the runner would build it (an env snapshot, a redactor
 * over the named secrets, fast retries), a call for one operation, and a small PDF drawn with pdfkit whose
 * text positions are known in points — the independent expectation for regions.
 */
import PDFDocument from 'pdfkit';
import { createRedactor } from '../../../src/service/redact.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/service/retry.js';
import { silentLogger } from '../../../src/logger.js';
import type { Dataset, JsonSchema } from '../../../src/types.js';
import type { OperationRequest, SystemCall, SystemContext, SystemKind, System } from '../../../src/systems/types.js';
import { parseKindOptions } from '../../../src/systems/config.js';

export function makeContext(
  name: string,
  env: Record<string, string | undefined>,
  secrets: string[] = [],
): SystemContext {
  const dataset: Dataset = {
    root: '/nonexistent',
    name: 'test',
    locale: 'US',
    schema: {},
    defaults: {},
    comparators: {},
    documents: [],
    contentHash: 'x',
  };
  return {
    name,
    common: {
      concurrency: 1,
      ratePerSecond: null,
      timeoutMs: 20_000,
      retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 5, rateLimitDelayMs: 5, maxDelayMs: 20 },
      price: null,
    },
    dataset,
    env,
    redact: createRedactor(secrets.map((s) => env[s])),
    cacheDir: '/nonexistent',
    baseDir: '/nonexistent',
    logger: silentLogger,
  };
}

export async function createSystem<O>(
  kind: SystemKind<O>,
  name: string,
  raw: Record<string, unknown>,
  context: SystemContext,
): Promise<System> {
  return kind.create(parseKindOptions(kind, raw, `systems.${name}`), context);
}

export function makeCall(bytes: Uint8Array, contentType: string, request: OperationRequest): SystemCall {
  return {
    document: { id: 'doc-1', tags: {}, truth: {}, baseline: {} },
    input: { bytes, filename: contentType === 'application/pdf' ? 'doc-1.pdf' : 'doc-1.png', contentType },
    request,
    signal: new AbortController().signal,
  };
}

export const compareRequest: OperationRequest = { operation: 'compare', mode: null, baselineMarkdown: null };
export const splitRequest: OperationRequest = { operation: 'split', mode: null };
export const processRequest: OperationRequest = { operation: 'process', mode: null, params: {} };
export function extractRequest(schema: JsonSchema): OperationRequest {
  return { operation: 'extract', mode: 'slow', schema, customContext: null };
}

/** A line of text drawn at a known place, points from the top-left. */
export interface DrawnText {
  text: string;
  x: number;
  y: number;
  size: number;
}

/** A PDF (US letter, 612×792 pt) with each page's texts in Helvetica at the given places. */
export async function drawPdf(pages: DrawnText[][]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: 0, autoFirstPage: false, info: { CreationDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const texts of pages) {
    doc.addPage();
    for (const { text, x, y, size } of texts)
      doc.font('Helvetica').fontSize(size).text(text, x, y, { lineBreak: false });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A tiny valid PDF for fake-server tests, where the content is never read by docbench itself. */
export const ONE_PAGE = drawPdf([[{ text: 'Hello', x: 72, y: 72, size: 12 }]]);

/** Answers with a JSON body. */
export function sendJson(
  response: import('node:http').ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
