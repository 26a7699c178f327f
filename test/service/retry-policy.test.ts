/** The retry policy as a pure function: decideRetry and parseRetryAfter, without a server or a clock. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  ServiceError,
  decideRetry,
  parseRetryAfter,
  type RetryPolicy,
} from '../../src/service/index.js';

const policy: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  rateLimitDelayMs: 5000,
  maxRetryAfterMs: 120_000,
};

function httpError(status: number, retryable = true, retryAfterMs?: number): ServiceError {
  const error = new ServiceError(status === 401 ? 'SERVICE_AUTH' : 'SERVICE_HTTP', `HTTP ${status}`, {
    endpoint: 'extract',
    status,
    retryable,
  });
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
    expect(decideRetry(httpError(502), 4, { ...policy, maxDelayMs: 3000 }, () => 0.999_999)).toEqual({
      retry: true,
      delayMs: 3000,
    });
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
    for (const status of [400, 401, 403, 404, 422])
      expect(decideRetry(httpError(status, false), 1, policy)).toEqual({ retry: false });
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
    expect(parseRetryAfter('Tue Mar 10 12:00:07 2026', now)).toBe(9 * 86_400_000 + 7000);
  });

  it('reads a date in the past as no wait', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:59:00 GMT', now)).toBe(0);
  });

  it('reads an RFC 850 two-digit year more than 50 years ahead as the past century', () => {
    // 2026 + 50 = 2076: "76" is 2076, "77" would be 2077 > 2076 and so is 1977 (a past date: no wait).
    expect(parseRetryAfter('Sunday, 01-Mar-76 12:00:07 GMT', now)).toBe(Date.parse('2076-03-01T12:00:07Z') - now);
    expect(parseRetryAfter('Tuesday, 01-Mar-77 12:00:07 GMT', now)).toBe(0);
    expect(parseRetryAfter('Monday, 01-Mar-77 12:00:07 GMT', now)).toBeUndefined(); // 1 Mar 2077 would be a Monday
  });

  it('reads a leap second as the next minute', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:60 GMT', now)).toBe(60_000);
  });

  it('refuses dates that do not exist instead of rolling them over', () => {
    for (const value of [
      'Sat, 31 Feb 2026 12:00:00 GMT', // 31 Feb: Date.parse gives 3 Mar
      'Sun, 29 Feb 2026 12:00:00 GMT', // 2026 is not a leap year
      'Sun, 00 Mar 2026 12:00:00 GMT',
      'Sun, 01 Mar 2026 24:00:00 GMT',
      'Sun, 01 Mar 2026 12:60:00 GMT',
      'Sun, 01 Mar 2026 12:00:61 GMT',
      'Wednesday, 31-Apr-26 12:00:00 GMT',
      'Mon Feb 30 12:00:00 2026',
    ]) {
      expect(parseRetryAfter(value, now), value).toBeUndefined();
    }
  });

  it('refuses a day name that does not match the date (the sender is broken; we fall back to our backoff)', () => {
    expect(parseRetryAfter('Mon, 01 Mar 2026 12:00:07 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('Monday, 01-Mar-26 12:00:07 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('Mon Mar  1 12:00:07 2026', now)).toBeUndefined();
  });

  it('refuses anything that is not exactly one of the three forms', () => {
    for (const value of [
      'Mar 5', // Date.parse: 5 Mar 2001, a zero wait
      'Sun, 01 Mar 2026', // no time
      'Sun, 01 Mar 2026 12:00:07', // IMF-fixdate without GMT
      'Sun, 01 Mar 2026 12:00:07 UTC', // only "GMT" is allowed
      'Sun, 01 Mar 2026 12:00:07 +0000',
      'Sun, 1 Mar 2026 12:00:07 GMT', // day must be two digits
      'sun, 01 mar 2026 12:00:07 GMT', // names are case-sensitive
      'Sunday, 01 Mar 2026 12:00:07 GMT', // long day name belongs to RFC 850
      'Sun, 01-Mar-26 12:00:07 GMT', // short day name in RFC 850
      'Sunday, 01-Mar-2026 12:00:07 GMT', // RFC 850 has a two-digit year
      'Sun Mar 1 12:00:07 2026', // asctime pads a one-digit day with a space
      'Sun Mar  1 12:00:07 2026 GMT',
      'Sun, 01 Mar 2026 12:00:07 GMT extra',
      '2026-03-01T12:00:07Z',
      'Sun,  01 Mar 2026 12:00:07 GMT',
    ]) {
      expect(parseRetryAfter(value, now), value).toBeUndefined();
    }
  });

  it('returns undefined for an absent or invalid header, never a zero wait', () => {
    for (const value of [undefined, '', 'soon', '3.5', '-1', '1 2', '2026-03-01', '0x10']) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });
});
