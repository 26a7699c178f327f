/**
 * Tolerant reading at the boundary, through a real server: each tolerance the issue lists, and each shape
 * problem giving a failed outcome that names the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CallOutcome, type ServiceClient, type ServiceError } from '../../src/service/index.js';
import { sendJson, sendText, startHttpServer, type TestServer } from '../helpers/http-server.js';

const upload = { bytes: new Uint8Array([1, 2, 3]), filename: 'a.pdf', contentType: 'application/pdf' };
const params = { schema: { type: 'object' }, fast: false };

let server: TestServer;
let client: ServiceClient;
/** What the server answers next: a JSON value, or raw text. */
let reply: { json: unknown } | { text: string } = { json: {} };

beforeAll(async () => {
  server = await startHttpServer((_request, response) =>
    'json' in reply ? sendJson(response, 200, reply.json) : sendText(response, 200, reply.text),
  );
  // One attempt: shape failures are not retried anyway, and a torn body must not hide behind retries here.
  client = createClient({ baseUrl: server.url, apiKey: 'sk-test-read', retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

function expectOk<T>(outcome: CallOutcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.result;
}
function expectFailed<T>(outcome: CallOutcome<T>): ServiceError {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.result)}`);
  return outcome.error;
}

describe('/extract response', () => {
  it('reads response as a JSON string, as the interface declares it', async () => {
    reply = {
      json: {
        response: '{"patient":{"name":"Ada"},"codes":[{"cpt":"99213"}]}',
        method: 'slow',
        pages_processed: 2,
        confidence_score: 87.5,
      },
    };
    const result = expectOk(await client.extract(upload, params));
    expect(result).toEqual({
      data: { patient: { name: 'Ada' }, codes: [{ cpt: '99213' }] },
      responseForm: 'string',
      method: 'slow',
      pagesProcessed: 2,
      confidence: 87.5,
      confidenceScale: '0-100',
    });
  });

  it('reads response sent as an object', async () => {
    reply = { json: { response: { total: 12.5 }, method: 'fast' } };
    const result = expectOk(await client.extract(upload, params));
    expect(result.data).toEqual({ total: 12.5 });
    expect(result.responseForm).toBe('object');
    expect(result.method).toBe('fast');
    expect(result.confidence).toBeNull();
    expect(result.pagesProcessed).toBeNull();
  });

  it('reads JSON inside ``` fences', async () => {
    reply = {
      json: { response: 'Here is the extraction:\n```json\n{"id": "A-1", "note": "brace } inside"}\n```\nDone.' },
    };
    const result = expectOk(await client.extract(upload, params));
    expect(result.data).toEqual({ id: 'A-1', note: 'brace } inside' });
    expect(result.responseForm).toBe('embedded');
  });

  it('reads JSON inside prose without fences, skipping braces that are not JSON', async () => {
    reply = { json: { response: 'Result {not json} follows: {"a": {"b": [1, 2]}, "s": "x{y"} — end' } };
    const result = expectOk(await client.extract(upload, params));
    expect(result.data).toEqual({ a: { b: [1, 2] }, s: 'x{y' });
    expect(result.responseForm).toBe('embedded');
  });

  it('reads an absent, null or blank response as {}', async () => {
    for (const response of [undefined, null, '   ']) {
      reply = { json: { method: 'fast', ...(response === undefined ? {} : { response }) } };
      const result = expectOk(await client.extract(upload, params));
      expect(result.data).toEqual({});
      expect(result.responseForm).toBe('absent');
    }
  });

  it('fails with SERVICE_RESPONSE_INVALID naming `response` when it holds no JSON object, without throwing', async () => {
    reply = { json: { response: 'I could not read this document.', method: 'slow' } };
    const error = expectFailed(await client.extract(upload, params));
    expect(error.code).toBe('SERVICE_RESPONSE_INVALID');
    expect(error.message).toContain('`response`');
    expect(error.message).toContain('not JSON');
    expect(error.endpoint).toBe('extract');
    expect(error.retryable).toBe(false);
    expect(error.bodyExcerpt).toContain('I could not read this document.');
  });

  it('fails naming `response` when it is a number or an array', async () => {
    for (const response of [42, [{ a: 1 }]]) {
      reply = { json: { response } };
      const error = expectFailed(await client.extract(upload, params));
      expect(error.message).toMatch(/`response` is (the number 42|an array)/);
    }
  });

  it('normalises a 0–1 confidence to 0–100 and records the scale', async () => {
    reply = { json: { response: '{}', method: 'slow', pages_processed: 1, confidence_score: 0.93 } };
    const result = expectOk(await client.extract(upload, params));
    expect(result.confidence).toBeCloseTo(93, 10);
    expect(result.confidenceScale).toBe('0-1');
  });

  it('keeps a 0–100 confidence as is, reads 1 as a fraction (100) and accepts a quoted number', async () => {
    reply = { json: { response: '{}', confidence_score: 42 } };
    expect(expectOk(await client.extract(upload, params))).toMatchObject({ confidence: 42, confidenceScale: '0-100' });
    reply = { json: { response: '{}', confidence_score: 1 } };
    expect(expectOk(await client.extract(upload, params))).toMatchObject({ confidence: 100, confidenceScale: '0-1' });
    reply = { json: { response: '{}', confidence_score: '88' } };
    expect(expectOk(await client.extract(upload, params))).toMatchObject({ confidence: 88, confidenceScale: '0-100' });
  });

  it('fails naming confidence_score when it is out of range or not a number', async () => {
    for (const confidence_score of [140, -0.2, 'high']) {
      reply = { json: { response: '{}', confidence_score } };
      const error = expectFailed(await client.extract(upload, params));
      expect(error.code).toBe('SERVICE_RESPONSE_INVALID');
      expect(error.message).toContain('`confidence_score`');
    }
  });

  it('fails naming method or pages_processed when they are wrong', async () => {
    reply = { json: { response: '{}', method: 'medium' } };
    expect(expectFailed(await client.extract(upload, params)).message).toContain('`method`');
    reply = { json: { response: '{}', pages_processed: 1.5 } };
    expect(expectFailed(await client.extract(upload, params)).message).toContain('`pages_processed`');
  });

  it('keeps image_metadata when present and fails naming it when it is not a list', async () => {
    const entry = { figure_id: 1, cropped_image_url: 'https://x/1.png', caption: 'Fig 1' };
    reply = { json: { response: '{}', image_metadata: [entry] } };
    expect(expectOk(await client.extract(upload, params)).imageMetadata).toEqual([entry]);
    reply = { json: { response: '{}', image_metadata: { figure_id: 1 } } };
    expect(expectFailed(await client.extract(upload, params)).message).toContain('`image_metadata`');
  });

  it('fails naming the body when the JSON is not an object', async () => {
    reply = { json: [1, 2, 3] };
    expect(expectFailed(await client.extract(upload, params)).message).toContain('`(body)` is an array');
  });
});

describe('/compare response', () => {
  it('reads the /markdown payload with dashboard_url, comparison_id, a failed_pages count and pagination', async () => {
    reply = {
      json: {
        success: true,
        pages: [
          { content: '# One', width: 612, height: 792 },
          { content: null, width: 612, height: 792 },
        ],
        failed_pages: 1,
        pagination: { page: 1, total_pages: 1 },
        dashboard_url: 'https://dash.example/evals?filename=cmp-42',
        comparison_id: 'cmp-42',
      },
    };
    const result = expectOk(await client.compare(upload, { baselineMarkdown: '# One' }));
    expect(result).toEqual({
      success: true,
      pages: [
        { content: '# One', width: 612, height: 792 },
        { content: '', width: 612, height: 792 },
      ],
      dashboardUrl: 'https://dash.example/evals?filename=cmp-42',
      comparisonId: 'cmp-42',
      failedPages: 1,
      failedPageList: [],
    });
  });

  it('reads failed_pages given as a list and takes the comparison id from the dashboard URL when comparison_id is absent', async () => {
    reply = {
      json: {
        success: true,
        pages: [{ content: 'x' }],
        failed_pages: [2, 5],
        dashboard_url: 'http://dash.example/evals?filename=doc%2007',
      },
    };
    const result = expectOk(await client.compare(upload, {}));
    expect(result.failedPages).toBe(2);
    expect(result.failedPageList).toEqual([2, 5]);
    expect(result.comparisonId).toBe('doc 07');
    expect(result.pages[0]).toEqual({ content: 'x', width: null, height: null });
  });

  it('fails naming dashboard_url when it is not http(s)', async () => {
    for (const dashboard_url of ['javascript:alert(1)', 'ftp://dash.example/evals', 'not a url']) {
      reply = { json: { success: true, pages: [], dashboard_url } };
      const error = expectFailed(await client.compare(upload, {}));
      expect(error.code).toBe('SERVICE_RESPONSE_INVALID');
      expect(error.message).toContain('`dashboard_url`');
    }
  });

  it('fails naming pages when they are missing, and the page and field when one is wrong', async () => {
    reply = { json: { success: true, dashboard_url: 'https://dash.example/evals?filename=a' } };
    expect(expectFailed(await client.compare(upload, {})).message).toContain('`pages` is missing');
    reply = { json: { success: true, pages: [{ content: 'ok' }, { content: 7 }] } };
    expect(expectFailed(await client.compare(upload, {})).message).toContain(
      '`pages[1].content` is the number 7, expected a string',
    );
  });

  it('fails when the service says success: false', async () => {
    reply = { json: { success: false, pages: [] } };
    expect(expectFailed(await client.compare(upload, {})).message).toContain('`success`');
  });

  it('fails naming failed_pages when it is neither a count nor a list of numbers', async () => {
    reply = { json: { success: true, pages: [], failed_pages: -1 } };
    expect(expectFailed(await client.compare(upload, {})).message).toContain('`failed_pages`');
    reply = { json: { success: true, pages: [], failed_pages: ['two'] } };
    expect(expectFailed(await client.compare(upload, {})).message).toContain('`failed_pages[0]`');
  });
});

describe('/split response', () => {
  it('reads pages with their boxes in inches', async () => {
    const pages = [
      {
        page: 1,
        width: 612,
        height: 792,
        bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1.5, max_x: 7.5, max_y: 2 }, content: 'Patient: Ada' }],
      },
    ];
    reply = { json: { pages } };
    expect(expectOk(await client.split(upload))).toEqual({ pages });
  });

  it('fails naming pages when missing and the exact box field when wrong', async () => {
    reply = { json: {} };
    expect(expectFailed(await client.split(upload)).message).toContain('`pages` is missing');
    reply = {
      json: {
        pages: [
          {
            page: 1,
            width: 612,
            height: 792,
            bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1, max_x: 'wide', max_y: 2 }, content: '' }],
          },
        ],
      },
    };
    expect(expectFailed(await client.split(upload)).message).toContain(
      '`pages[0].bounding_boxes[0].bounding_box.max_x`',
    );
    reply = { json: { pages: [{ page: 0, width: 612, height: 792 }] } };
    expect(expectFailed(await client.split(upload)).message).toContain('`pages[0].page`');
  });
});

describe('/v1/process response', () => {
  it('reads text, structured data, metadata and the optional arrays', async () => {
    reply = {
      json: {
        status: 'success',
        document_id: 'doc-9',
        content: { text: 'Hello', structured_data: { kind: 'invoice' } },
        metadata: { page_count: 3, processing_time_ms: 1500 },
        barcodes: [{ type: 'qr', value: 'X' }],
      },
    };
    expect(expectOk(await client.process(upload, { extractMetadata: true }))).toEqual({
      status: 'success',
      documentId: 'doc-9',
      text: 'Hello',
      structuredData: { kind: 'invoice' },
      pageCount: 3,
      processingTimeMs: 1500,
      barcodes: [{ type: 'qr', value: 'X' }],
    });
  });

  it('fails naming metadata.page_count or content when they have the wrong type', async () => {
    reply = { json: { content: { text: 'x' }, metadata: { page_count: 'three' } } };
    expect(expectFailed(await client.process(upload, {})).message).toContain('`metadata.page_count`');
    reply = { json: { content: 'just text' } };
    expect(expectFailed(await client.process(upload, {})).message).toContain('`content` is a string');
  });
});
