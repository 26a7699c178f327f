import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type FaultMode, type LocalService } from '../src/index.js';
import { startHttpServer, type TestServer } from '../../../test/helpers/http-server.js';
import { makeTinyPdf } from './fixtures.js';
import { postForm, postJson } from './post-form.js';

let tiny: Buffer;
const pdfPart = () => ({ bytes: tiny, filename: 'tiny.pdf', type: 'application/pdf' });
const SCHEMA = JSON.stringify({ type: 'object', properties: { invoice_number: { type: 'string' } } });

beforeAll(async () => {
  tiny = await makeTinyPdf();
});

describe('auth', () => {
  let service: LocalService;
  beforeAll(async () => {
    service = await startLocalService({ apiKey: 'test-key-123' });
  });
  afterAll(() => service?.close());

  const cases: {
    path: string;
    parts: () => Record<string, any>;
    good: Record<string, string>;
    wrongHeader: Record<string, string>;
  }[] = [
    {
      path: '/v1/process',
      parts: () => ({ file: pdfPart() }),
      good: { Authorization: 'Bearer test-key-123' },
      wrongHeader: { 'x-api-key': 'test-key-123' },
    },
    {
      path: '/extract',
      parts: () => ({ file: pdfPart(), schema: SCHEMA }),
      good: { 'x-api-key': 'test-key-123' },
      wrongHeader: { Authorization: 'Bearer test-key-123' },
    },
    {
      path: '/split',
      parts: () => ({ file: pdfPart() }),
      good: { 'X-API-KEY': 'test-key-123' },
      wrongHeader: { Authorization: 'Bearer test-key-123' },
    },
    {
      path: '/compare',
      parts: () => ({ file: pdfPart() }),
      good: { 'x-api-key': 'test-key-123' },
      wrongHeader: { Authorization: 'Bearer test-key-123' },
    },
  ];

  for (const c of cases) {
    it(`${c.path} answers 401 JSON without the key, with a wrong key or in the wrong header, and 200 with it`, async () => {
      for (const headers of [
        {},
        c.wrongHeader,
        Object.fromEntries(Object.entries(c.good).map(([k]) => [k, k === 'Authorization' ? 'Bearer nope' : 'nope'])),
      ]) {
        const { status, body } = await postJson(`${service.baseUrl}${c.path}`, c.parts(), headers);
        expect(status, JSON.stringify(headers)).toBe(401);
        expect(body.error.code).toBe('unauthorized');
        expect(typeof body.error.message).toBe('string');
      }
      const ok = await postForm(`${service.baseUrl}${c.path}`, c.parts(), c.good);
      expect(ok.status).toBe(200);
    });
  }

  it('/evals also requires the key', async () => {
    expect((await fetch(`${service.baseUrl}/evals`)).status).toBe(401);
    expect((await fetch(`${service.baseUrl}/evals`, { headers: { 'x-api-key': 'test-key-123' } })).status).toBe(200);
  });
});

describe('errors', () => {
  let service: LocalService;
  let files: TestServer;
  beforeAll(async () => {
    service = await startLocalService({ maxUploadBytes: 200_000, fileUrlTimeoutMs: 1_000 });
    files = await startHttpServer((request, response) => {
      if (request.url === '/claim.pdf') {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end(tiny);
      } else if (request.url === '/big.pdf') {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(300_000, 32)]));
      } else if (request.url === '/slow.pdf') {
        // Never answers: the service's fileUrl timeout must fire.
      } else {
        response.writeHead(404);
        response.end();
      }
    });
  });
  afterAll(async () => {
    await service?.close();
    await files?.close();
  });

  const expectError = (result: { status: number; body: any }, status: number, code: string) => {
    expect(result.status).toBe(status);
    expect(result.body.error.code).toBe(code);
    expect(typeof result.body.error.message).toBe('string');
  };

  it('rejects an unsupported format with 415 invalid_file_format and the supported formats', async () => {
    const result = await postJson(`${service.baseUrl}/v1/process`, {
      file: { bytes: Buffer.from('name,total\nx,1\n'), filename: 'sheet.xlsx' },
    });
    expectError(result, 415, 'invalid_file_format');
    expect(result.body.error.details.supported_formats).toEqual(['pdf', 'jpg', 'jpeg', 'png', 'tif', 'tiff']);
  });

  it('rejects malformed multipart, non-multipart bodies and missing parts with 400', async () => {
    const malformed = await fetch(`${service.baseUrl}/split`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
      body: 'not multipart at all',
    });
    expectError({ status: malformed.status, body: await malformed.json() }, 400, 'invalid_multipart');
    const json = await fetch(`${service.baseUrl}/split`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expectError({ status: json.status, body: await json.json() }, 400, 'invalid_request');
    expectError(await postJson(`${service.baseUrl}/split`, { other: 'x' }), 400, 'missing_file');
    expectError(await postJson(`${service.baseUrl}/extract`, { file: pdfPart() }), 400, 'missing_schema');
    expectError(
      await postJson(`${service.baseUrl}/extract`, { file: pdfPart(), schema: '{not json' }),
      400,
      'invalid_schema',
    );
    expectError(
      await postJson(`${service.baseUrl}/extract`, { file: pdfPart(), schema: SCHEMA, fast: 'maybe' }),
      400,
      'invalid_parameter',
    );
  });

  it('answers 413 for an upload over the size limit', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(300_000, 32)]);
    expectError(
      await postJson(`${service.baseUrl}/v1/process`, { file: { bytes: big, filename: 'big.pdf' } }),
      413,
      'file_too_large',
    );
  });

  it('fetches fileUrl over http, and refuses other schemes, oversized and slow downloads', async () => {
    const ok = await postJson(`${service.baseUrl}/extract`, { fileUrl: `${files.url}/claim.pdf`, schema: SCHEMA });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body.response)).toEqual({ invoice_number: 'INV-7' });
    expectError(await postJson(`${service.baseUrl}/split`, { fileUrl: 'file:///etc/passwd' }), 400, 'invalid_file_url');
    expectError(await postJson(`${service.baseUrl}/split`, { fileUrl: `${files.url}/big.pdf` }), 413, 'file_too_large');
    expectError(
      await postJson(`${service.baseUrl}/split`, { fileUrl: `${files.url}/missing.pdf` }),
      502,
      'file_url_unreachable',
    );
    expectError(
      await postJson(`${service.baseUrl}/split`, { fileUrl: `${files.url}/slow.pdf` }),
      504,
      'file_url_timeout',
    );
  });

  it('answers unknown paths and wrong methods with JSON errors', async () => {
    const missing = await fetch(`${service.baseUrl}/v2/nothing`, { method: 'POST' });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
    const get = await fetch(`${service.baseUrl}/extract`);
    expect(get.status).toBe(405);
    expect((await get.json()).error.code).toBe('method_not_allowed');
  });
});

describe('fault injection', () => {
  const withFault = async (mode: FaultMode, use: (service: LocalService) => Promise<void>) => {
    const service = await startLocalService({ faults: { rate: 1, seed: 7, modes: [mode] } });
    try {
      await use(service);
    } finally {
      await service.close();
    }
  };

  it('429 carries Retry-After and a JSON error', () =>
    withFault('429', async (service) => {
      const response = await postForm(`${service.baseUrl}/split`, { file: pdfPart() });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('1');
      expect((await response.json()).error.code).toBe('rate_limited');
    }));

  it('500 is a JSON error', () =>
    withFault('500', async (service) => {
      const response = await postForm(`${service.baseUrl}/v1/process`, { file: pdfPart() });
      expect(response.status).toBe(500);
      expect((await response.json()).error.code).toBe('internal_error');
    }));

  it('503 comes with an HTML body', () =>
    withFault('503-html', async (service) => {
      const response = await postForm(`${service.baseUrl}/extract`, { file: pdfPart(), schema: SCHEMA });
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(await response.text()).toContain('<h1>503 Service Unavailable</h1>');
    }));

  it('truncated JSON is a 200 whose body does not parse', () =>
    withFault('truncated-json', async (service) => {
      const response = await postForm(`${service.baseUrl}/split`, { file: pdfPart() });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text.startsWith('{"pages":')).toBe(true);
      expect(() => JSON.parse(text)).toThrow();
    }));

  it('drop closes the connection without an answer', () =>
    withFault('drop', async (service) => {
      await expect(postForm(`${service.baseUrl}/compare`, { file: pdfPart() })).rejects.toThrow();
    }));

  it('fails about the requested share of requests, the same way for the same seed', async () => {
    const pattern = async () => {
      const service = await startLocalService({ faults: { rate: 0.5, seed: 42, modes: ['500'] } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 16; i++)
          statuses.push((await postForm(`${service.baseUrl}/split`, { file: pdfPart() })).status);
        return statuses;
      } finally {
        await service.close();
      }
    };
    const first = await pattern();
    expect(await pattern()).toEqual(first);
    const failures = first.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThanOrEqual(3);
    expect(failures).toBeLessThanOrEqual(13);
    expect(first.every((s) => s === 200 || s === 500)).toBe(true);
  });
});
