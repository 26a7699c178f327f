/**
 * `azure-di` against a fake Document Intelligence resource on 127.0.0.1 speaking REST v4 (2024-11-30):
 * - POST {endpoint}/documentintelligence/documentModels/{modelId}:analyze?api-version=2024-11-30
 *   &outputContentFormat=markdown, header `Ocp-Apim-Subscription-Key`, body `{"base64Source": …}` → 202 with
 *   `Operation-Location` and `Retry-After` (Document Models - Analyze Document,
 *   https://learn.microsoft.com/rest/api/aiservices/document-models/analyze-document?view=rest-aiservices-v4.0%20(2024-11-30));
 * - GET Operation-Location → `{status: notStarted|running|succeeded|failed, analyzeResult}` with
 *   `analyzeResult.content`, `pages[].{pageNumber, width, height, unit, spans, lines[].{content, polygon,
 *   spans}, words[].{content, polygon, confidence, span}}` and `documents[].fields` (Document Models - Get
 *   Analyze Result, same reference);
 * - errors `{"error": {"code", "message", "innererror": {"code"}}}`: 401 for a bad key, 404 NotFound /
 *   ModelNotFound, 429 with Retry-After.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { azureDiKind } from '../../../src/systems/kinds/azure-di.js';
import type { CompareResult, ExtractResult, ProcessResult, SplitResult } from '../../../src/service/types.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import {
  ONE_PAGE,
  compareRequest,
  createSystem,
  extractRequest,
  makeCall,
  makeContext,
  processRequest,
  sendJson,
  splitRequest,
} from './context.js';
import { parseKindOptions } from '../../../src/systems/config.js';

const KEY = 'azure-key-0123456789';
const PAGE_1 =
  '# Summit Orthopedics\n\nPatient Name: Amanda Patel\n\n<table>\n<tr><th>Code</th><th>Charge</th></tr>\n<tr><td>99213</td><td>125.00 &amp; more</td></tr>\n</table>\n';
const PAGE_2 = '<!-- PageBreak -->\n<!-- PageHeader="Statement" -->\n\nTotal: 125.00\n<!-- PageNumber="2" -->';
const CONTENT = PAGE_1 + PAGE_2;
const at = (text: string) => ({ offset: CONTENT.indexOf(text), length: text.length });

/** Words of "Patient Name: Amanda Patel" with their confidences, laid along the line. */
const WORDS = [
  ['Patient', 0.99],
  ['Name:', 0.97],
  ['Amanda', 0.95],
  ['Patel', 0.93],
] as const;

const ANALYZE_RESULT = {
  apiVersion: '2024-11-30',
  modelId: 'prebuilt-layout',
  stringIndexType: 'textElements',
  content: CONTENT,
  contentFormat: 'markdown',
  pages: [
    {
      pageNumber: 1,
      angle: 0,
      width: 8.5,
      height: 11,
      unit: 'inch',
      spans: [{ offset: 0, length: PAGE_1.length }],
      words: WORDS.map(([content, confidence]) => ({
        content,
        confidence,
        polygon: [1, 2, 1.5, 2, 1.5, 2.25, 1, 2.25],
        span: at(content),
      })),
      lines: [
        { content: 'Summit Orthopedics', polygon: [1, 1, 3, 1, 3, 1.3, 1, 1.3], spans: [at('Summit Orthopedics')] },
        {
          content: 'Patient Name: Amanda Patel',
          polygon: [1, 2, 3.5, 2.02, 3.5, 2.25, 1, 2.23],
          spans: [at('Patient Name: Amanda Patel')],
        },
      ],
    },
    {
      pageNumber: 2,
      angle: 0,
      width: 8.5,
      height: 11,
      unit: 'inch',
      spans: [{ offset: PAGE_1.length, length: PAGE_2.length }],
      words: [],
      lines: [{ content: 'Total: 125.00', polygon: [1, 3, 2, 3, 2, 3.2, 1, 3.2], spans: [at('Total: 125.00')] }],
    },
  ],
  documents: [
    {
      docType: 'invoice',
      confidence: 1,
      fields: {
        CustomerName: { type: 'string', valueString: 'Amanda Patel', content: 'Amanda Patel', confidence: 0.9 },
        InvoiceTotal: {
          type: 'currency',
          valueCurrency: { amount: 125, currencyCode: 'USD' },
          content: '$125.00',
          confidence: 0.8,
        },
      },
    },
  ],
};

let server: TestServer | undefined;
const seenAt: number[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  seenAt.length = 0;
});

/** A resource that queues the analysis, answers `running` once (Retry-After: 1), then the result. */
async function startResource(result: unknown = ANALYZE_RESULT) {
  let polls = 0;
  server = await startHttpServer((request, response) => {
    seenAt.push(performance.now());
    if (request.headers['ocp-apim-subscription-key'] !== KEY)
      return sendJson(response, 401, {
        error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' },
      });
    const analyze = /^\/documentintelligence\/documentModels\/([^/:]+):analyze\?(.*)$/.exec(request.url);
    if (request.method === 'POST' && analyze) {
      response.writeHead(202, {
        'operation-location': `${server!.url}/documentintelligence/documentModels/${analyze[1]}/analyzeResults/op-1?api-version=2024-11-30`,
        'retry-after': '0',
      });
      return void response.end();
    }
    if (request.method === 'GET' && request.url.startsWith('/documentintelligence/documentModels/')) {
      if (polls++ === 0)
        return sendJson(
          response,
          200,
          { status: 'running', createdDateTime: '2026-01-01T00:00:00Z', lastUpdatedDateTime: '2026-01-01T00:00:00Z' },
          { 'retry-after': '1' },
        );
      return sendJson(response, 200, {
        status: 'succeeded',
        createdDateTime: '2026-01-01T00:00:00Z',
        lastUpdatedDateTime: '2026-01-01T00:00:01Z',
        analyzeResult: result,
      });
    }
    sendJson(response, 404, { error: { code: 'NotFound', message: 'Resource not found.' } });
  });
  return server;
}

const context = () => makeContext('azure', { TEST_AZURE_KEY: KEY }, ['TEST_AZURE_KEY']);
const options = (url: string, extra: Record<string, unknown> = {}) => ({
  endpoint: url,
  apiKeyEnv: 'TEST_AZURE_KEY',
  ...extra,
});

describe('azure-di', () => {
  it('analyzes with markdown output, polls Operation-Location honouring Retry-After, and splits the markdown by page spans', async () => {
    const resource = await startResource();
    const system = await createSystem(azureDiKind, 'azure', options(resource.url), context());
    const pdf = await ONE_PAGE;
    const outcome = await system.call(makeCall(pdf, 'application/pdf', compareRequest));
    await system.close();
    if (!outcome.ok) throw outcome.error;
    const [post, firstPoll, secondPoll] = resource.requests;
    expect(post!.url).toBe(
      '/documentintelligence/documentModels/prebuilt-layout:analyze?api-version=2024-11-30&outputContentFormat=markdown',
    );
    expect(JSON.parse(post!.body.toString())).toEqual({ base64Source: pdf.toString('base64') });
    expect(firstPoll!.url).toBe(
      '/documentintelligence/documentModels/prebuilt-layout/analyzeResults/op-1?api-version=2024-11-30',
    );
    expect(secondPoll!.method).toBe('GET');
    // The running answer said Retry-After: 1.
    expect(seenAt[2]! - seenAt[1]!).toBeGreaterThanOrEqual(950);
    const result = outcome.result as CompareResult;
    expect(result.pages.map((p) => p.content)).toEqual([
      '# Summit Orthopedics\n\nPatient Name: Amanda Patel\n\n| Code | Charge |\n| --- | --- |\n| 99213 | 125.00 & more |',
      'Statement\n\nTotal: 125.00\n2',
    ]);
    expect(result.pages[0]).toMatchObject({ width: 612, height: 792 });
    expect(outcome.usage).toEqual({ pages: 2 });
    expect(outcome.raw).toMatchObject({ status: 'succeeded', analyzeResult: { modelId: 'prebuilt-layout' } });
  });

  it('gives line regions in inches with the mean confidence of their words, and process text', async () => {
    const resource = await startResource();
    const system = await createSystem(azureDiKind, 'azure', options(resource.url), context());
    const split = await system.call(makeCall(await ONE_PAGE, 'application/pdf', splitRequest));
    if (!split.ok) throw split.error;
    const [page1, page2] = (split.result as SplitResult).pages;
    expect(page1).toMatchObject({ page: 1, width: 612, height: 792 });
    expect(page1!.bounding_boxes[1]).toEqual({
      bounding_box: { min_x: 1, min_y: 2, max_x: 3.5, max_y: 2.25 },
      content: 'Patient Name: Amanda Patel',
      confidence: 96,
    });
    // No words on the line: no confidence rather than an invented one.
    expect(page1!.bounding_boxes[0]!.confidence).toBeUndefined();
    expect(page2!.bounding_boxes).toEqual([
      { bounding_box: { min_x: 1, min_y: 3, max_x: 2, max_y: 3.2 }, content: 'Total: 125.00' },
    ]);
    const processed = await system.call(makeCall(await ONE_PAGE, 'application/pdf', processRequest));
    await system.close();
    if (!processed.ok) throw processed.error;
    expect((processed.result as ProcessResult).text).toBe(
      'Summit Orthopedics\nPatient Name: Amanda Patel\n\fTotal: 125.00',
    );
  });

  it('extracts through the extract model and maps its fields onto the schema', async () => {
    const resource = await startResource();
    const system = await createSystem(
      azureDiKind,
      'azure',
      options(resource.url, {
        extractModel: 'prebuilt-invoice',
        fieldMap: { patient: 'CustomerName', 'billing.total': 'InvoiceTotal', 'billing.due': 'AmountDue' },
      }),
      context(),
    );
    expect([...system.operations].sort()).toEqual(['compare', 'extract', 'process', 'split']);
    const outcome = await system.call(
      makeCall(await ONE_PAGE, 'application/pdf', extractRequest({ type: 'object', properties: {} })),
    );
    await system.close();
    if (!outcome.ok) throw outcome.error;
    expect(resource.requests[0]!.url).toBe(
      '/documentintelligence/documentModels/prebuilt-invoice:analyze?api-version=2024-11-30',
    );
    const result = outcome.result as ExtractResult;
    expect(result.data).toEqual({ patient: 'Amanda Patel', billing: { total: 125 } });
    // (0.9 + 0.8) / 2 on 0–1 → 85.
    expect(result).toMatchObject({ confidence: 85, confidenceScale: '0-1', pagesProcessed: 2 });
  });

  it('maps errors: a bad key, an unknown model, a 429 retried after Retry-After, a failed operation, a foreign Operation-Location', async () => {
    const resource = await startResource();
    const bad = await createSystem(
      azureDiKind,
      'azure',
      options(resource.url),
      makeContext('azure', { TEST_AZURE_KEY: 'wrong-key-000' }, ['TEST_AZURE_KEY']),
    );
    const rejected = await bad.call(makeCall(await ONE_PAGE, 'application/pdf', compareRequest));
    await bad.close();
    expect(rejected.ok ? null : rejected.error.code).toBe('SERVICE_AUTH');

    await resource.close();
    server = await startHttpServer((_request, response, index) => {
      if (index === 0)
        return sendJson(
          response,
          429,
          { error: { code: '429', message: 'Requests have exceeded the rate limit.' } },
          { 'retry-after': '0' },
        );
      if (index === 1)
        return sendJson(response, 404, {
          error: {
            code: 'NotFound',
            message: 'Resource not found.',
            innererror: { code: 'ModelNotFound', message: 'The requested model was not found.' },
          },
        });
      if (index === 2) {
        response.writeHead(202, {
          'operation-location': `${server!.url}/documentintelligence/documentModels/m/analyzeResults/op-2?api-version=2024-11-30`,
        });
        return void response.end();
      }
      if (index === 3)
        return sendJson(response, 200, {
          status: 'failed',
          error: { code: 'InternalServerError', message: 'An unexpected error occurred.' },
        });
      response.writeHead(202, { 'operation-location': 'http://elsewhere.example/documentintelligence/x' });
      response.end();
    });
    const unknownSystem = await createSystem(
      azureDiKind,
      'azure',
      options(server.url, { model: 'prebuilt-nothing' }),
      context(),
    );
    const missing = await unknownSystem.call(makeCall(await ONE_PAGE, 'application/pdf', compareRequest));
    if (missing.ok) throw new Error('expected a failure');
    expect(missing.attempts).toBe(2);
    expect(missing.error.retryable).toBe(false);
    expect(missing.error.message).toMatch(
      /^azure: HTTP 404 \(NotFound\/ModelNotFound: Resource not found\.\) — model "prebuilt-nothing" not found/,
    );
    const failed = await unknownSystem.call(makeCall(await ONE_PAGE, 'application/pdf', compareRequest));
    expect(failed.ok ? null : failed.error.message).toBe(
      'analysis failed (InternalServerError: An unexpected error occurred.)',
    );
    const foreign = await unknownSystem.call(makeCall(await ONE_PAGE, 'application/pdf', compareRequest));
    expect(foreign.ok ? null : foreign.error.message).toMatch(
      /Operation-Location http:\/\/elsewhere\.example is not the endpoint's origin/,
    );
    await unknownSystem.close();
    expect(server.requests).toHaveLength(5);
  });

  it('rejects an extract model without a field map, naming the key', () => {
    expect(() =>
      parseKindOptions(
        azureDiKind,
        { endpoint: 'https://x.cognitiveservices.azure.com', extractModel: 'prebuilt-invoice' },
        'systems.azure',
      ),
    ).toThrow(/systems\.azure\.fieldMap: is needed too/);
  });
});
