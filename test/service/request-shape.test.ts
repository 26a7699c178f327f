import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ServiceClient } from '../../src/service/index.js';
import {
  formEntries,
  readMultipart,
  rawHeader,
  sendJson,
  startHttpServer,
  type TestServer,
} from '../helpers/http-server.js';

const KEY = `sk-test-${Math.random().toString(36).slice(2)}`;
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, 0xff]);
const upload = { bytes: PDF, filename: 'claim-007.pdf', contentType: 'application/pdf' };

const bodies = {
  '/extract': { response: '{"patient":{"name":"Ada"}}', method: 'slow', pages_processed: 1, confidence_score: 91 },
  '/compare': {
    success: true,
    pages: [{ content: '# Page', width: 612, height: 792 }],
    dashboard_url: 'https://dash.example/evals?filename=cmp-1',
  },
  '/split': { pages: [{ page: 1, width: 612, height: 792, bounding_boxes: [] }] },
  '/v1/process': {
    status: 'success',
    document_id: 'doc-1',
    content: { text: 'hello', structured_data: {} },
    metadata: { page_count: 1, processing_time_ms: 20 },
  },
} as Record<string, unknown>;

let server: TestServer;
let client: ServiceClient;

beforeEach(async () => {
  server = await startHttpServer((request, response) => sendJson(response, 200, bodies[request.url] ?? {}));
  client = createClient({ baseUrl: `${server.url}/`, apiKey: KEY });
});
afterEach(async () => {
  await client.close();
  await server.close();
});

function only() {
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

describe('extract request', () => {
  it('posts multipart to /extract with the file, its name and type, the schema as a JSON string and booleans as text', async () => {
    const schema = {
      type: 'object',
      properties: { patient: { type: 'object', properties: { name: { type: 'string' } } } },
      required: ['patient'],
    };
    const outcome = await client.extract(upload, {
      schema,
      fast: false,
      customContext: 'CMS-1500 claim forms\nCodes are CPT',
      imageMetadataDetect: true,
    });
    expect(outcome.ok).toBe(true);
    const request = only();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/extract');
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await readMultipart(request);
    const file = form.get('file') as File;
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe('claim-007.pdf');
    expect(file.type).toBe('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);
    expect(form.get('schema')).toBe(JSON.stringify(schema));
    expect(JSON.parse(form.get('schema') as string)).toEqual(schema);
    expect(form.get('fast')).toBe('false');
    expect(form.get('customContext')).toBe('CMS-1500 claim forms\nCodes are CPT');
    expect(form.get('imageMetadataDetect')).toBe('true');
    expect(form.has('fileUrl')).toBe(false);
  });

  it('sends fast=true as text, and leaves out customContext and imageMetadataDetect when not given', async () => {
    await client.extract(upload, { schema: { type: 'object' }, fast: true });
    const form = await readMultipart(only());
    expect(form.get('fast')).toBe('true');
    expect(form.has('customContext')).toBe(false);
    expect(form.has('imageMetadataDetect')).toBe(false);
    expect(
      formEntries(form)
        .map(([name]) => name)
        .sort(),
    ).toEqual(['fast', 'file', 'schema']);
  });

  it('sends imageMetadataDetect=false as text when asked for explicitly', async () => {
    await client.extract(upload, { schema: {}, fast: true, imageMetadataDetect: false });
    expect((await readMultipart(only())).get('imageMetadataDetect')).toBe('false');
  });

  it('sends fileUrl instead of a file part when the document is a URL', async () => {
    await client.extract({ fileUrl: 'https://files.example/claim.pdf' }, { schema: {}, fast: false });
    const form = await readMultipart(only());
    expect(form.get('fileUrl')).toBe('https://files.example/claim.pdf');
    expect(form.has('file')).toBe(false);
  });

  it('carries the key in x-api-key, spelled lower-case, and no Authorization header', async () => {
    await client.extract(upload, { schema: {}, fast: true });
    const request = only();
    expect(rawHeader(request, 'x-api-key')).toBe(KEY);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers.accept).toBe('application/json');
  });
});

describe('compare request', () => {
  it('posts to /compare with x-api-key and the baseline markdown, byte for byte, under both original_results and originalResults', async () => {
    // LF line ends on purpose: WHATWG FormData would rewrite them to CRLF and alter the baseline.
    const markdown = '# Claim\n\n| code | amount |\n|---|---|\n| 99213 | 120.00 |\n\u00e9t\u00e9 \ud83d\udcc4\n';
    const outcome = await client.compare(upload, { baselineMarkdown: markdown });
    expect(outcome.ok).toBe(true);
    const request = only();
    expect(request.url).toBe('/compare');
    expect(rawHeader(request, 'x-api-key')).toBe(KEY);
    const form = await readMultipart(request);
    expect(form.get('original_results')).toBe(markdown);
    expect(form.get('originalResults')).toBe(markdown);
    expect((form.get('file') as File).name).toBe('claim-007.pdf');
  });

  it('sends no baseline parts when there is no baseline, and fileUrl for URL documents', async () => {
    await client.compare({ fileUrl: 'https://files.example/a.png' }, {});
    const form = await readMultipart(only());
    expect(formEntries(form).map(([name]) => name)).toEqual(['fileUrl']);
  });
});

describe('split request', () => {
  it('posts only the document to /split with the key in X-API-KEY spelled upper-case', async () => {
    const outcome = await client.split({ bytes: PDF, filename: 'scan.png', contentType: 'image/png' });
    expect(outcome.ok).toBe(true);
    const request = only();
    expect(request.url).toBe('/split');
    expect(rawHeader(request, 'X-API-KEY')).toBe(KEY);
    expect(rawHeader(request, 'x-api-key')).toBeUndefined();
    const form = await readMultipart(request);
    expect(formEntries(form).map(([name]) => name)).toEqual(['file']);
    expect((form.get('file') as File).type).toBe('image/png');
    expect((form.get('file') as File).name).toBe('scan.png');
  });
});

describe('process request', () => {
  it('posts to /v1/process with Authorization: Bearer and the four flags false and output_format json by default', async () => {
    const outcome = await client.process(upload, {});
    expect(outcome.ok).toBe(true);
    const request = only();
    expect(request.url).toBe('/v1/process');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['x-api-key']).toBeUndefined();
    const form = await readMultipart(request);
    expect(Object.fromEntries(formEntries(form).filter(([name]) => name !== 'file'))).toEqual({
      output_format: 'json',
      extract_images: 'false',
      include_bounding_boxes: 'false',
      extract_metadata: 'false',
      extract_signature: 'false',
    });
  });

  it('sends each flag it is given as text true and the requested output_format', async () => {
    await client.process(upload, {
      outputFormat: 'markdown',
      extractImages: true,
      includeBoundingBoxes: true,
      extractMetadata: false,
      extractSignature: true,
    });
    const form = await readMultipart(only());
    expect(form.get('output_format')).toBe('markdown');
    expect(form.get('extract_images')).toBe('true');
    expect(form.get('include_bounding_boxes')).toBe('true');
    expect(form.get('extract_metadata')).toBe('false');
    expect(form.get('extract_signature')).toBe('true');
  });
});

describe('auth overrides', () => {
  it('uses the header and scheme configured per endpoint instead of the interface default', async () => {
    const custom = createClient({
      baseUrl: server.url,
      apiKey: KEY,
      auth: { process: { header: 'x-api-key' }, extract: { header: 'Authorization', scheme: 'Bearer' } },
    });
    try {
      await custom.process(upload, {});
      await custom.extract(upload, { schema: {}, fast: true });
      await custom.split(upload);
    } finally {
      await custom.close();
    }
    const [processRequest, extractRequest, splitRequest] = server.requests;
    expect(processRequest!.headers['x-api-key']).toBe(KEY);
    expect(processRequest!.headers.authorization).toBeUndefined();
    expect(extractRequest!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(extractRequest!.headers['x-api-key']).toBeUndefined();
    // Endpoints not overridden keep the interface's header.
    expect(rawHeader(splitRequest!, 'X-API-KEY')).toBe(KEY);
  });

  it('sends no key header at all when the client has no key', async () => {
    const anonymous = createClient({ baseUrl: server.url });
    try {
      await anonymous.process(upload, {});
      await anonymous.extract(upload, { schema: {}, fast: true });
    } finally {
      await anonymous.close();
    }
    for (const request of server.requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-api-key']).toBeUndefined();
    }
  });
});

describe('base URL', () => {
  it('keeps a path prefix of the base URL in front of every endpoint path', async () => {
    const prefixed = createClient({ baseUrl: `${server.url}/api/`, apiKey: KEY });
    try {
      await prefixed.split(upload);
      await prefixed.process(upload, {});
    } finally {
      await prefixed.close();
    }
    expect(server.requests.map((r) => r.url)).toEqual(['/api/split', '/api/v1/process']);
    expect(prefixed.baseUrl).toBe(`${server.url}/api`);
  });

  it('rejects a base URL that is not http(s) with CONFIG_INVALID', () => {
    expect(() => createClient({ baseUrl: 'ftp://example.com' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(() => createClient({ baseUrl: 'not a url' })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

describe('call outcome', () => {
  it('reports one attempt, the status and a latency for a call that succeeds first time', async () => {
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: true, status: 200, attempts: 1 });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(outcome.lastAttemptMs);
    expect(outcome.lastAttemptMs).toBeGreaterThan(0);
  });
});

describe('close', () => {
  it('can be called twice', async () => {
    const extra = createClient({ baseUrl: server.url });
    await extra.close();
    await expect(extra.close()).resolves.toBeUndefined();
  });
});
