/**
 * The retry policy is data: which failures are retried, how many times, how long to wait. `decideRetry` is a
 * pure function of the policy, the failure and the attempt number, so it is tested without a clock.
 */
import type { ServiceError } from './errors.js';
import { parseHttpDate } from './http-date.js';

export interface RetryPolicy {
  /** Total attempts including the first. @default 4 */
  maxAttempts: number;
  /** First backoff for 5xx, network errors and timeouts, doubled each attempt, equal jitter (see decideRetry). @default 1000 */
  baseDelayMs: number;
  /** Cap of one backoff. @default 30000 */
  maxDelayMs: number;
  /** First backoff for 429 without Retry-After: rate limits want a longer pause. @default 5000 */
  rateLimitDelayMs: number;
  /** Longest Retry-After honoured; a longer one fails the call rather than stall the run. @default 120000 */
  maxRetryAfterMs: number;
  /** HTTP statuses that are retried. */
  retryStatuses: readonly number[];
  /** Retry when the request timed out. @default true */
  retryTimeouts: boolean;
}

/** Why each status is retried: a status not listed fails fast (other 4xx: our request is wrong). */
export const RETRY_STATUS_REASONS: Readonly<Record<number, string>> = {
  408: 'request timeout: the server gave up waiting, a new attempt may be served',
  425: 'too early: replay is safe for our idempotent uploads',
  429: 'rate limited: wait (Retry-After when given) and try again',
  500: 'internal error: often transient on document services',
  502: 'bad gateway: a proxy in front of the service failed',
  503: 'unavailable: overloaded or restarting',
  504: 'gateway timeout: the service behind a proxy took too long',
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  rateLimitDelayMs: 5000,
  maxRetryAfterMs: 120_000,
  retryStatuses: Object.keys(RETRY_STATUS_REASONS).map(Number),
  retryTimeouts: true,
};

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * Whether to try again after `attempt` (1-based) failed with `error`, and after how long.
 * `random` returns [0, 1): injected so tests are deterministic.
 */
export function decideRetry(
  error: ServiceError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): RetryDecision {
  if (attempt >= policy.maxAttempts || !error.retryable) return { retry: false };
  if (error.code === 'SERVICE_TIMEOUT' && !policy.retryTimeouts) return { retry: false };
  if (error.status !== undefined && error.status >= 400 && !policy.retryStatuses.includes(error.status))
    return { retry: false };
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.maxRetryAfterMs) return { retry: false };
    return { retry: true, delayMs: error.retryAfterMs };
  }
  const base = error.status === 429 ? policy.rateLimitDelayMs : policy.baseDelayMs;
  const ceiling = Math.min(policy.maxDelayMs, base * 2 ** (attempt - 1));
  // "Equal jitter" (AWS architecture blog, "Exponential Backoff And Jitter"): a delay in [ceiling/2, ceiling]
  // spreads retries of many concurrent calls so they do not hit a recovering service at the same instant,
  // while keeping at least half the backoff (full jitter could retry a failing service almost at once).
  return { retry: true, delayMs: Math.round(ceiling / 2 + (random() * ceiling) / 2) };
}

const DELAY_SECONDS = /^\d+$/;

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date in one of the three forms of §5.6.7
 * (see http-date.ts). Undefined when absent or not exactly one of those: the caller then uses its own backoff,
 * never a zero wait. A date in the past is no wait.
 */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  // Field values arrive with optional whitespace around them (RFC 9110 §5.5); it is not part of the value.
  const value = header.trim();
  if (DELAY_SECONDS.test(value)) return Number(value) * 1000;
  const date = parseHttpDate(value, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}
