/**
 * Failures carry endpoint, status, the service's code, a short excerpt and retryability; the API key never
 * shows up in any of it, even when the service echoes it back everywhere it can.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createClient,
  createRedactor,
  type AttemptEvent,
  type CallOutcome,
  type ServiceClient,
} from '../../src/service/index.js';
import { sendJson, sendText, startHttpServer, type TestHandler, type TestServer } from '../helpers/http-server.js';

const upload = {
  bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
  filename: 'sheet.xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

let server: TestServer | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(handler: TestHandler, apiKey = 'sk-test-errors', extra: { events?: AttemptEvent[] } = {}) {
  server = await startHttpServer(handler);
  client = createClient({
    baseUrl: server.url,
    apiKey,
    retry: { maxAttempts: 2 },
    sleep: async () => undefined,
    onAttempt: (e) => extra.events?.push(e),
  });
  return client;
}

describe('service errors', () => {
  it('reads invalid_file_format with its supported_formats from a /v1/process failure body', async () => {
    const body = {
      error: {
        code: 'invalid_file_format',
        message: 'Excel sheets are not supported yet',
        details: { supported_formats: ['pdf', 'jpg', 'jpeg', 'png', 'tif', 'tiff'] },
      },
    };
    const client = await setup((_req, res) => sendJson(res, 400, body));
    const outcome = await client.process(upload, {});
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.attempts).toBe(1);
    expect(outcome.error).toMatchObject({
      name: 'ServiceError',
      code: 'SERVICE_HTTP',
      endpoint: 'process',
      status: 400,
      serviceCode: 'invalid_file_format',
      supportedFormats: ['pdf', 'jpg', 'jpeg', 'png', 'tif', 'tiff'],
      retryable: false,
    });
    expect(outcome.error.message).toBe('HTTP 400 (invalid_file_format: Excel sheets are not supported yet)');
    expect(outcome.error.hint).toContain('pdf, jpg, jpeg, png, tif, tiff');
    expect(outcome.error.bodyExcerpt).toBe(JSON.stringify(body));
  });

  it('keeps a non-JSON error body as an excerpt, flattened and cut to a few hundred characters', async () => {
    const html = `<html>\n<body>\n${'Bad gateway. '.repeat(100)}</body></html>`;
    const client = await setup((_req, res) => sendText(res, 502, html));
    const outcome = await client.compare(upload, {});
    if (outcome.ok) throw new Error('expected failure');
    expect(outcome.error).toMatchObject({ code: 'SERVICE_HTTP', status: 502, serviceCode: undefined, retryable: true });
    expect(outcome.error.bodyExcerpt).toMatch(/^<html> <body> Bad gateway\./);
    expect(outcome.error.bodyExcerpt!.length).toBeLessThanOrEqual(301);
    expect(outcome.error.bodyExcerpt!.endsWith('…')).toBe(true);
  });

  it('treats a 200 whose body is not JSON as a failure with the status and an excerpt', async () => {
    const client = await setup((_req, res) => sendText(res, 200, '<html>maintenance</html>'));
    const outcome = await client.extract(upload, { schema: {}, fast: true });
    if (outcome.ok) throw new Error('expected failure');
    expect(outcome.error).toMatchObject({
      code: 'SERVICE_RESPONSE_INVALID',
      status: 200,
      bodyExcerpt: '<html>maintenance</html>',
      endpoint: 'extract',
    });
    expect(outcome.error.message).toContain('not JSON');
  });

  it('gives the HTTP status on a shape failure too', async () => {
    const client = await setup((_req, res) => sendJson(res, 200, { pages: 'none' }));
    const outcome = await client.split(upload);
    if (outcome.ok) throw new Error('expected failure');
    expect(outcome.error).toMatchObject({ code: 'SERVICE_RESPONSE_INVALID', status: 200, endpoint: 'split' });
  });
});

describe('API key redaction', () => {
  const key = `sk-test-${crypto.randomUUID()}`;

  function expectNoKey(outcome: CallOutcome<unknown>, events: AttemptEvent[]) {
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    const error = outcome.error;
    const surfaces = {
      message: error.message,
      hint: error.hint ?? '',
      bodyExcerpt: error.bodyExcerpt ?? '',
      serviceCode: error.serviceCode ?? '',
      supportedFormats: JSON.stringify(error.supportedFormats ?? []),
      stack: error.stack ?? '',
      describe: error.describe(),
      outcome: JSON.stringify(outcome),
      string: String(error),
      events: JSON.stringify(events),
    };
    for (const [surface, text] of Object.entries(surfaces)) {
      expect(text, surface).not.toContain(key);
      // Not even a long piece of it (a cut excerpt must not leave half a key behind).
      expect(text, surface).not.toContain(key.slice(0, 20));
    }
  }

  it('never shows the key the server echoes in its error body and headers', async () => {
    const events: AttemptEvent[] = [];
    const client = await setup(
      (req, res) =>
        sendJson(
          res,
          403,
          {
            error: {
              code: `bad_key_${key}`,
              message: `key ${String(req.headers['x-api-key'])} is not valid`,
              details: { supported_formats: [key] },
            },
            echo: req.headers,
          },
          { 'x-echo-key': key, 'www-authenticate': `Bearer ${key}` },
        ),
      key,
      { events },
    );
    const outcome = await client.extract(upload, { schema: {}, fast: true });
    expect(server!.requests[0]!.headers['x-api-key']).toBe(key);
    expectNoKey(outcome, events);
    if (!outcome.ok) expect(outcome.error.bodyExcerpt).toContain('[REDACTED]');
  });

  it('never shows the key echoed in a non-JSON 200 body or at the cut of an oversized body', async () => {
    const events: AttemptEvent[] = [];
    const client = await setup((_req, res) => sendText(res, 200, `Authorization failed for ${key}`), key, { events });
    expectNoKey(await client.process(upload, {}), events);

    await client.close();
    await server!.close();
    // The key straddles byte 400, where an oversized body used to be cut before redaction.
    const padding = 'x'.repeat(390);
    server = await startHttpServer((_req, res) => sendText(res, 200, `${padding}${key}${'y'.repeat(5000)}`));
    const events2: AttemptEvent[] = [];
    const capped = createClient({
      baseUrl: server.url,
      apiKey: key,
      maxResponseBytes: 1000,
      onAttempt: (e) => events2.push(e),
    });
    try {
      const outcome = await capped.split(upload);
      expectNoKey(outcome, events2);
    } finally {
      await capped.close();
    }
  });

  it('never shows the key echoed inside fields quoted by shape failures', async () => {
    const cases: [string, unknown][] = [
      ['extract', { response: `Sorry, ${key} has no access.` }],
      ['extract', { response: '{}', method: key }],
      ['compare', { success: true, pages: [], dashboard_url: `ftp://dash/${key}` }],
      ['split', { pages: [{ page: key, width: 1, height: 1 }] }],
    ];
    let next: unknown;
    const client = await setup((_req, res) => sendJson(res, 200, next), key);
    for (const [endpoint, body] of cases) {
      next = body;
      const outcome =
        endpoint === 'extract'
          ? await client.extract(upload, { schema: {}, fast: true })
          : endpoint === 'compare'
            ? await client.compare(upload, {})
            : await client.split(upload);
      expectNoKey(outcome, []);
      if (!outcome.ok) expect(outcome.error.message).toContain('[REDACTED]');
    }
  });

  it('redacts the key in its JSON-escaped and URL-encoded forms', () => {
    const odd = 'k3y/with+odd"chars';
    const redact = createRedactor([odd]);
    expect(redact(`a ${odd} b`)).toBe('a [REDACTED] b');
    expect(redact(JSON.stringify({ k: odd }))).not.toContain('odd\\"chars');
    expect(redact(`?key=${encodeURIComponent(odd)}`)).toBe('?key=[REDACTED]');
  });
});
