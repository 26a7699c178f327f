/**
 * The reliability issue's list for the client: every hostile or broken response gives a failed CallOutcome
 * with a clear reason, never an exception, a hang or a leaked key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createClient,
  type CallOutcome,
  type ClientOptions,
  type ServiceClient,
  type ServiceError,
} from '../../src/service/index.js';
import { sendJson, sendText, startHttpServer, type TestHandler, type TestServer } from '../helpers/http-server.js';

const upload = { bytes: new Uint8Array([37, 80, 68, 70]), filename: 'a.pdf', contentType: 'application/pdf' };
const servers: TestServer[] = [];
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: TestHandler): Promise<TestServer> {
  const server = await startHttpServer(handler);
  servers.push(server);
  return server;
}
function connect(server: TestServer, options: Partial<ClientOptions> = {}): ServiceClient {
  client = createClient({
    baseUrl: server.url,
    apiKey: 'sk-test-reliability-key',
    retry: { maxAttempts: 1 },
    sleep: async () => undefined,
    ...options,
  });
  return client;
}
function failure<T>(outcome: CallOutcome<T>): ServiceError {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) throw new Error('unreachable');
  return outcome.error;
}

describe('hostile responses give a failed outcome with a clear reason', () => {
  it('200 with a non-JSON body (retried as a torn body, then failed)', async () => {
    const server = await serve((_req, res) => sendText(res, 200, 'OK'));
    const outcome = await connect(server, { retry: { maxAttempts: 2 } }).split(upload);
    expect(outcome.attempts).toBe(2);
    const error = failure(outcome);
    expect(error.code).toBe('SERVICE_RESPONSE_INVALID');
    expect(error.message).toBe('200 with a body that is not JSON');
  });

  it('200 with an empty body: read as no body (as for providers), failed by the reader and not retried', async () => {
    const server = await serve((_req, res) => sendText(res, 200, ''));
    const outcome = await connect(server, { retry: { maxAttempts: 2 } }).split(upload);
    expect(outcome.attempts).toBe(1);
    expect(failure(outcome).message).toBe('response field `(body)` is null, expected an object');
  });

  it('JSON of the wrong shape', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { pages: [{ page: 1, width: 'A4', height: 792 }] }));
    const error = failure(await connect(server).split(upload));
    expect(error.message).toBe('response field `pages[0].width` is a string ("A4"), expected a finite number');
  });

  it('`response` that is not JSON', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { response: '<xml>no</xml>' }));
    const error = failure(await connect(server).extract(upload, { schema: {}, fast: true }));
    expect(error.message).toContain('response field `response` is not JSON');
  });

  it('confidence out of range', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { response: '{}', confidence_score: 100.5 }));
    const error = failure(await connect(server).extract(upload, { schema: {}, fast: false }));
    expect(error.message).toContain('`confidence_score` is 100.5');
  });

  it('dashboard_url not http(s)', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, { success: true, pages: [], dashboard_url: 'file:///etc/passwd' }),
    );
    const error = failure(await connect(server).compare(upload, {}));
    expect(error.message).toContain('`dashboard_url` is not an http(s) URL');
  });

  it('pages missing', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, { success: true, dashboard_url: 'https://d.example/evals?filename=x' }),
    );
    expect(failure(await connect(server).compare(upload, {})).message).toBe('response field `pages` is missing');
  });

  it('a huge response is capped at maxResponseBytes, with or without a content-length', async () => {
    const big = JSON.stringify({ pages: [], padding: 'x'.repeat(64 * 1024) });
    const server = await serve((req, res) => {
      if (req.url === '/split') return sendText(res, 200, big);
      // Chunked, no content-length: the cap must hold while streaming.
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 64; i++) res.write('x'.repeat(1024));
      res.end();
    });
    const capped = connect(server, { maxResponseBytes: 16 * 1024 });
    for (const outcome of [await capped.split(upload), await capped.process(upload, {})] as CallOutcome<unknown>[]) {
      const error = failure(outcome);
      expect(error.code).toBe('SERVICE_RESPONSE_INVALID');
      expect(error.message).toBe('response larger than 16 KiB (maxResponseBytes), not read further');
      expect(error.status).toBe(200);
      expect(error.retryable).toBe(false);
    }
  });

  it('a response that drips slowly hits the timeout even though bytes keep arriving', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"pages": [');
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    });
    const error = failure(await connect(server, { timeoutMs: 300 }).split(upload));
    expect(error.code).toBe('SERVICE_TIMEOUT');
    expect(error.message).toBe('no complete response within 300 ms');
  });

  it('a redirect to another host is not followed: the other host never receives a request, nor the key', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { pages: [] }));
    for (const status of [301, 302, 307, 308]) {
      const origin = await serve((_req, res) => sendText(res, status, '', { location: `${elsewhere.url}/split` }));
      const outcome = await connect(origin, { retry: { maxAttempts: 3 } }).split(upload);
      await client?.close();
      client = undefined;
      expect(outcome.attempts).toBe(1);
      const error = failure(outcome);
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(false);
      expect(error.message).toContain('redirect not followed');
      expect(error.hint).toContain('never forwards the key');
      expect(origin.requests).toHaveLength(1);
    }
    expect(elsewhere.requests).toHaveLength(0);
  });
});
