/**
 * `mistral-ocr` against a fake Mistral API on 127.0.0.1 speaking the OCR endpoint's wire format
 * (https://docs.mistral.ai/api/#tag/ocr, "OCR"; annotations: https://docs.mistral.ai/capabilities/document_ai/annotations/):
 * - POST {baseUrl}/ocr, `Authorization: Bearer <key>`, body `{model, document: {type: "document_url",
 *   document_url: "data:application/pdf;base64,…"}, include_image_base64, pages?, document_annotation_format?:
 *   {type: "json_schema", json_schema: {name, schema, strict}}}`;
 * - the answer `{pages: [{index, markdown, images, dimensions: {dpi, height, width}}], model,
 *   document_annotation: "<JSON string>", usage_info: {pages_processed, doc_size_bytes}}`;
 * - errors `{"object": "error", "message", "type", "code"}` with 401, 429 (Retry-After) and 404.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mistralOcrKind } from '../../../src/systems/kinds/mistral-ocr.js';
import type { CompareResult, ExtractResult } from '../../../src/service/types.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { compareRequest, createSystem, drawPdf, extractRequest, makeCall, makeContext, sendJson } from './context.js';

const KEY = 'mistral-key-0123456789';
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ocrAnswer = (extra: Record<string, unknown> = {}) => ({
  pages: [
    {
      index: 0,
      markdown: '# Statement\n\n![img-0.jpeg](img-0.jpeg)\n\n| Code | Charge |\n| --- | --- |\n| 99213 | 125.00 |',
      images: [{ id: 'img-0.jpeg', top_left_x: 10, top_left_y: 10, bottom_right_x: 50, bottom_right_y: 50 }],
      dimensions: { dpi: 200, height: 2200, width: 1700 },
    },
    {
      index: 1,
      markdown: '<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>',
      images: [],
      dimensions: { dpi: 200, height: 2200, width: 1700 },
    },
  ],
  model: 'mistral-ocr-2505',
  document_annotation: null,
  usage_info: { pages_processed: 2, doc_size_bytes: 1234 },
  ...extra,
});

const context = () => makeContext('mistral', { TEST_MISTRAL_KEY: KEY }, ['TEST_MISTRAL_KEY']);
const options = (url: string, extra: Record<string, unknown> = {}) => ({
  baseUrl: `${url}/v1`,
  apiKeyEnv: 'TEST_MISTRAL_KEY',
  ...extra,
});
const page = [{ text: 'A', x: 72, y: 72, size: 12 }];

describe('mistral-ocr', () => {
  it('sends the PDF as a data URL and reads markdown per page, sizes in points, pages processed, the model that answered', async () => {
    server = await startHttpServer((request, response) => {
      if (request.headers.authorization !== `Bearer ${KEY}`)
        return sendJson(response, 401, { message: 'Unauthorized', request_id: 'r1' });
      sendJson(response, 200, ocrAnswer());
    });
    const system = await createSystem(mistralOcrKind, 'mistral', options(server.url, { maxPages: 5 }), context());
    const pdf = await drawPdf([page, page]);
    const outcome = await system.call(makeCall(pdf, 'application/pdf', compareRequest));
    await system.close();
    if (!outcome.ok) throw outcome.error;
    const [request] = server.requests;
    expect(request!.url).toBe('/v1/ocr');
    // maxPages 5 on a 2-page document: pages 0 and 1 only.
    expect(JSON.parse(request!.body.toString('utf8'))).toEqual({
      model: 'mistral-ocr-latest',
      document: { type: 'document_url', document_url: `data:application/pdf;base64,${pdf.toString('base64')}` },
      include_image_base64: false,
      pages: [0, 1],
    });
    const result = outcome.result as CompareResult;
    // 1700 px at 200 dpi = 8.5 in = 612 pt.
    expect(result.pages).toEqual([
      { content: '# Statement\n\n| Code | Charge |\n| --- | --- |\n| 99213 | 125.00 |', width: 612, height: 792 },
      { content: '| A | B |\n| --- | --- |\n| 1 | 2 |', width: 612, height: 792 },
    ]);
    expect(outcome.usage).toEqual({ pages: 2 });
    // Asked for the alias, the answer names the dated model that read it.
    expect(outcome.reported).toEqual({ model: 'mistral-ocr-2505' });
  });

  it('extracts by document annotation with the strict schema, mapped back to the dataset schema; no confidence', async () => {
    const schema = {
      type: 'object',
      properties: { patient: { type: 'string' }, total: { type: 'number' } },
      required: ['patient'],
    };
    server = await startHttpServer((request, response) => {
      const body = JSON.parse(request.body.toString('utf8')) as {
        document_annotation_format: {
          type: string;
          json_schema: { name: string; strict: boolean; schema: { required: string[]; additionalProperties: boolean } };
        };
      };
      expect(body.document_annotation_format.type).toBe('json_schema');
      expect(body.document_annotation_format.json_schema).toMatchObject({
        name: 'extraction',
        strict: true,
        schema: { required: ['patient', 'total'], additionalProperties: false },
      });
      sendJson(
        response,
        200,
        ocrAnswer({ document_annotation: JSON.stringify({ patient: 'Amanda Patel', total: null }) }),
      );
    });
    const system = await createSystem(mistralOcrKind, 'mistral', options(server.url), context());
    const outcome = await system.call(makeCall(await drawPdf([page]), 'application/pdf', extractRequest(schema)));
    await system.close();
    if (!outcome.ok) throw outcome.error;
    expect(outcome.result).toMatchObject({
      data: { patient: 'Amanda Patel' },
      responseForm: 'string',
      confidence: null,
      pagesProcessed: 2,
    } satisfies Partial<ExtractResult>);
  });

  it('retries a 429, names the model on a 404, and maps 401 to SERVICE_AUTH', async () => {
    server = await startHttpServer((_request, response, index) => {
      if (index === 0)
        return sendJson(
          response,
          429,
          { object: 'error', message: 'Requests rate limit exceeded', type: 'rate_limited', code: '1300' },
          { 'retry-after': '0' },
        );
      if (index === 1) return sendJson(response, 200, ocrAnswer());
      if (index === 2)
        return sendJson(response, 404, {
          object: 'error',
          message: 'Invalid model: mistral-ocr-9',
          type: 'invalid_model',
          code: '1500',
        });
      sendJson(response, 401, { message: 'Unauthorized', request_id: 'r2' });
    });
    const system = await createSystem(
      mistralOcrKind,
      'mistral',
      options(server.url, { model: 'mistral-ocr-9' }),
      context(),
    );
    const call = makeCall(await drawPdf([page]), 'application/pdf', compareRequest);
    const retried = await system.call(call);
    expect(retried.ok && retried.attempts).toBe(2);
    const missing = await system.call(call);
    expect(missing.ok ? null : missing.error.message).toMatch(
      /^mistral: HTTP 404 .* model "mistral-ocr-9" is not served/,
    );
    const rejected = await system.call(call);
    await system.close();
    expect(rejected.ok ? null : rejected.error.code).toBe('SERVICE_AUTH');
  });
});
