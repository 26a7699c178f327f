/** The retry policy as a pure function: decideRetry and parseRetryAfter, without a server or a clock. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, ServiceError, decideRetry, parseRetryAfter, type RetryPolicy } from '../../src/service/index.js';

const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, rateLimitDelayMs: 5000, maxRetryAfterMs: 120_000 };

function httpError(status: number, retryable = true, retryAfterMs?: number): ServiceError {
  const error = new ServiceError(status === 401 ? 'SERVICE_AUTH' : 'SERVICE_HTTP', `HTTP ${status}`, { endpoint: 'extract', status, retryable });
  error.retryAfterMs = retryAfterMs;
  return error;
}
const timeout = () => new ServiceError('SERVICE_TIMEOUT', 'no response', { endpoint: 'split', retryable: true });
const network = () => new ServiceError('SERVICE_NETWORK', 'reset', { endpoint: 'split', retryable: true });

describe('decideRetry', () => {
  it('backs off exponentially for 5xx: attempt n waits between half and all of base·2^(n-1)', () => {
    for (const attempt of [1, 2, 3, 4]) {
      const ceiling = 1000 * 2 ** (attempt - 1);
      expect(decideRetry(httpError(503), attempt, policy, () => 0)).toEqual({ retry: true, delayMs: ceiling / 2 });
      const high = decideRetry(httpError(503), attempt, policy, () => 0.999_999);
      expect(high.retry && high.delayMs).toBe(ceiling);
    }
  });

  it('spreads delays with the random source (jitter)', () => {
    const a = decideRetry(httpError(500), 2, policy, () => 0.1);
    const b = decideRetry(httpError(500), 2, policy, () => 0.9);
    expect(a).toEqual({ retry: true, delayMs: 1100 });
    expect(b).toEqual({ retry: true, delayMs: 1900 });
  });

  it('caps one backoff at maxDelayMs', () => {
    expect(decideRetry(httpError(502), 4, { ...policy, maxDelayMs: 3000 }, () => 0.999_999)).toEqual({ retry: true, delayMs: 3000 });
  });

  it('uses the longer rate-limit base for 429 without Retry-After', () => {
    expect(decideRetry(httpError(429), 1, policy, () => 0.999_999)).toEqual({ retry: true, delayMs: 5000 });
    expect(decideRetry(httpError(429), 2, policy, () => 0)).toEqual({ retry: true, delayMs: 5000 });
  });

  it('honours Retry-After exactly, and gives up when it is longer than maxRetryAfterMs', () => {
    expect(decideRetry(httpError(429, true, 3000), 1, policy, () => 0.5)).toEqual({ retry: true, delayMs: 3000 });
    expect(decideRetry(httpError(503, true, 0), 1, policy)).toEqual({ retry: true, delayMs: 0 });
    expect(decideRetry(httpError(429, true, 120_001), 1, policy)).toEqual({ retry: false });
  });

  it('retries timeouts and network errors, unless timeouts are switched off', () => {
    expect(decideRetry(timeout(), 1, policy, () => 0)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(network(), 1, policy, () => 0)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(timeout(), 1, { ...policy, retryTimeouts: false })).toEqual({ retry: false });
  });

  it('fails fast on other 4xx and on errors marked not retryable', () => {
    for (const status of [400, 401, 403, 404, 422]) expect(decideRetry(httpError(status, false), 1, policy)).toEqual({ retry: false });
    // Even if marked retryable, a status outside retryStatuses is not retried.
    expect(decideRetry(httpError(404, true), 1, policy)).toEqual({ retry: false });
    expect(decideRetry(httpError(503, true), 1, { ...policy, retryStatuses: [429] })).toEqual({ retry: false });
  });

  it('stops at maxAttempts', () => {
    expect(decideRetry(httpError(503), 4, policy, () => 0).retry).toBe(true);
    expect(decideRetry(httpError(503), 5, policy, () => 0)).toEqual({ retry: false });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('120', now)).toBe(120_000);
  });

  it('reads an HTTP-date in the IMF-fixdate, RFC 850 and asctime forms', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:00:07 GMT', now)).toBe(7000);
    // asctime carries no zone; HTTP dates are always GMT (RFC 9110 §5.6.7), whatever the local zone.
    expect(parseRetryAfter('Sun Mar  1 12:00:07 2026', now)).toBe(7000);
  });

  it('reads a date in the past as no wait', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:59:00 GMT', now)).toBe(0);
  });

  it('returns undefined for an absent or invalid header, never a zero wait', () => {
    for (const value of [undefined, '', 'soon', '3.5', '-1', '1 2', '2026-03-01', '0x10']) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });
});
