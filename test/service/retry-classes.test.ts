/**
 * Retry classes against a real server, with `sleep` and `random` injected: the requested delays are
 * recorded instead of waited, so the tests are fast and exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { createClient, type AttemptEvent, type ClientOptions, type ServiceClient } from '../../src/service/index.js';
import { sendJson, sendText, startHttpServer, type TestHandler, type TestServer } from '../helpers/http-server.js';

const upload = { bytes: new Uint8Array([37, 80, 68, 70]), filename: 'a.pdf', contentType: 'application/pdf' };
const splitOk = { pages: [{ page: 1, width: 612, height: 792, bounding_boxes: [] }] };

let server: TestServer | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** Starts a server and a client whose sleeps are recorded, not waited. */
async function setup(handler: TestHandler, options: Partial<ClientOptions> = {}) {
  server = await startHttpServer(handler);
  const delays: number[] = [];
  const events: AttemptEvent[] = [];
  client = createClient({
    baseUrl: server.url,
    apiKey: 'sk-test-retry',
    sleep: async (ms) => void delays.push(ms),
    random: () => 0.5,
    onAttempt: (event) => events.push(event),
    ...options,
  });
  return { server, client, delays, events };
}

function failTimes(times: number, fail: (response: ServerResponse) => void): TestHandler {
  return (_request, response, index) => (index < times ? fail(response) : sendJson(response, 200, splitOk));
}

describe('429', () => {
  it('honours Retry-After in seconds: 3 → 3000 ms, then succeeds', async () => {
    const { client, delays, server } = await setup(
      failTimes(1, (res) => sendJson(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '3' })),
    );
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: true, attempts: 2 });
    expect(delays).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const { client, delays } = await setup(
      failTimes(1, (res) => sendJson(res, 429, {}, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() })),
    );
    const outcome = await client.split(upload);
    expect(outcome.ok).toBe(true);
    expect(delays).toHaveLength(1);
    // Second resolution of the date format and the time spent in between: within a couple of seconds of 60 s.
    expect(delays[0]).toBeGreaterThan(57_000);
    expect(delays[0]).toBeLessThanOrEqual(60_000);
  });

  it('without Retry-After waits rateLimitDelayMs, doubled each attempt, and gives up at maxAttempts', async () => {
    const { client, delays, server } = await setup((_req, res) => sendJson(res, 429, {}), {
      retry: { maxAttempts: 3, rateLimitDelayMs: 4000 },
      random: () => 0.999_999,
    });
    const outcome = await client.split(upload);
    expect(outcome.ok).toBe(false);
    expect(outcome.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([4000, 8000]);
    if (!outcome.ok) expect(outcome.error).toMatchObject({ code: 'SERVICE_HTTP', status: 429, retryable: true });
  });

  it('fails at once when Retry-After asks for longer than maxRetryAfterMs', async () => {
    const { client, delays } = await setup((_req, res) => sendJson(res, 429, {}, { 'retry-after': '3600' }));
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(delays).toEqual([]);
  });
});

describe('5xx', () => {
  it('backs off exponentially with jitter within [ceiling/2, ceiling] and succeeds on the fourth attempt', async () => {
    const { client, delays, events } = await setup(
      failTimes(3, (res) => sendText(res, 503, 'upstream unavailable')),
      { retry: { baseDelayMs: 100 }, random: () => 0.25 },
    );
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: true, attempts: 4 });
    // ceiling 100, 200, 400; delay = ceiling/2 + 0.25·ceiling/2.
    expect(delays).toEqual([63, 125, 250]);
    expect(events.map((e) => [e.attempt, e.status, e.retryInMs])).toEqual([
      [1, 503, 63],
      [2, 503, 125],
      [3, 503, 250],
      [4, 200, undefined],
    ]);
  });

  it('stops after maxAttempts (default 4) with the last status in the error', async () => {
    const { client, server } = await setup((_req, res) =>
      sendJson(res, 500, { error: { code: 'internal', message: 'boom' } }),
    );
    const outcome = await client.process(upload, {});
    expect(outcome.ok).toBe(false);
    expect(outcome.attempts).toBe(4);
    expect(server.requests).toHaveLength(4);
    if (!outcome.ok) {
      expect(outcome.error).toMatchObject({
        code: 'SERVICE_HTTP',
        status: 500,
        serviceCode: 'internal',
        retryable: true,
        endpoint: 'process',
      });
      expect(outcome.error.message).toContain('HTTP 500');
    }
  });

  it('does not retry a 5xx the policy does not list, and says it is not retryable', async () => {
    const { client, server } = await setup((_req, res) => sendText(res, 501, 'not implemented'));
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    if (!outcome.ok) expect(outcome.error.retryable).toBe(false);
  });

  it('honours a Retry-After on 503', async () => {
    const { client, delays } = await setup(failTimes(1, (res) => sendText(res, 503, 'busy', { 'retry-after': '7' })));
    expect((await client.split(upload)).ok).toBe(true);
    expect(delays).toEqual([7000]);
  });
});

describe('other 4xx fail fast', () => {
  it.each([400, 404, 422])('%i: one attempt, SERVICE_HTTP, not retryable', async (status) => {
    const { client, server, delays } = await setup((_req, res) =>
      sendJson(res, status, { error: { code: 'bad_request', message: 'no' } }),
    );
    const outcome = await client.extract(upload, { schema: {}, fast: true });
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    if (!outcome.ok)
      expect(outcome.error).toMatchObject({
        code: 'SERVICE_HTTP',
        status,
        retryable: false,
        serviceCode: 'bad_request',
      });
  });

  it.each([401, 403])('%i: SERVICE_AUTH, no retry, with a hint about the key', async (status) => {
    const { client, server } = await setup((_req, res) => sendJson(res, status, { error: { code: 'unauthorized' } }));
    const outcome = await client.compare(upload, {});
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    if (!outcome.ok) {
      expect(outcome.error).toMatchObject({ code: 'SERVICE_AUTH', status, retryable: false });
      expect(outcome.error.hint).toContain('DOCBENCH_API_KEY');
    }
  });
});

describe('connection resets and timeouts', () => {
  it('retries when the server destroys the socket, then succeeds', async () => {
    const { client, server, delays } = await setup(
      failTimes(2, (res) => void res.socket?.destroy()),
      { retry: { baseDelayMs: 10 } },
    );
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: true, attempts: 3 });
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('reports SERVICE_NETWORK after maxAttempts resets', async () => {
    const { client } = await setup((_req, res) => void res.socket?.destroy(), { retry: { maxAttempts: 2 } });
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: false, attempts: 2 });
    if (!outcome.ok)
      expect(outcome.error).toMatchObject({ code: 'SERVICE_NETWORK', retryable: true, status: undefined });
  });

  it('aborts an attempt the server never answers after timeoutMs, as SERVICE_TIMEOUT, counting the attempts', async () => {
    const { client, server } = await setup(() => undefined, { timeoutMs: 200, retry: { maxAttempts: 3 } });
    const outcome = await client.extract(upload, { schema: {}, fast: true });
    expect(outcome.ok).toBe(false);
    expect(outcome.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    if (!outcome.ok) {
      expect(outcome.error).toMatchObject({ code: 'SERVICE_TIMEOUT', retryable: true, endpoint: 'extract' });
      expect(outcome.error.message).toContain('200 ms');
    }
  });

  it('does not retry a timeout when retryTimeouts is off', async () => {
    const { client, server } = await setup(() => undefined, { timeoutMs: 150, retry: { retryTimeouts: false } });
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a connection refused (nothing listening) as SERVICE_NETWORK', async () => {
    const closed = await startHttpServer(() => undefined);
    const url = closed.url;
    await closed.close();
    client = createClient({ baseUrl: url, retry: { maxAttempts: 2 }, sleep: async () => undefined });
    const outcome = await client.split(upload);
    expect(outcome).toMatchObject({ ok: false, attempts: 2 });
    if (!outcome.ok) expect(outcome.error.code).toBe('SERVICE_NETWORK');
  });
});

describe('cancellation', () => {
  it('gives RUN_ABORTED without retrying when the caller aborts a pending call', async () => {
    const { client, server } = await setup(() => undefined);
    const controller = new AbortController();
    const pending = client.split(upload, controller.signal);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const outcome = await pending;
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    if (!outcome.ok) expect(outcome.error.code).toBe('RUN_ABORTED');
  });

  it('gives RUN_ABORTED when the caller aborts during the backoff', async () => {
    const controller = new AbortController();
    const { client, server } = await setup((_req, res) => sendText(res, 503, 'busy'), {
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          controller.abort();
          reject(signal?.reason);
        }),
    });
    const outcome = await client.split(upload, controller.signal);
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    if (!outcome.ok) expect(outcome.error.code).toBe('RUN_ABORTED');
  });
});
