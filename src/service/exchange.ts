/**
 * One HTTP exchange and the attempt loop around it, shared by the interface client (client.ts) and the
 * provider kinds (systems/providers/http.ts). `sendExchange` makes one request with its own time-out and
 * cancellation, reads the body under a size cap and parses it as JSON (an empty body is `null`: a 202 with
 * nothing in it is an answer, and a reader that wanted an object says so naming the field); a status outside
 * 2xx becomes the caller's error. `runAttempts` repeats an attempt while the retry policy (retry.ts, data)
 * says so, waiting its backoff, and reports attempts and timing; a failure is returned, never thrown.
 */
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Endpoint } from '../types.js';
import { ServiceError, isServiceError } from './errors.js';
import { decideRetry, type RetryDecision, type RetryPolicy } from './retry.js';
import { excerpt, type Redactor } from './redact.js';

/** One request, its target split once (undici's `dispatcher.request` takes origin and path apart). */
export interface ExchangeRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Uint8Array | Buffer;
}

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; null when the body was empty. */
  body: unknown;
}

/** How exchanges of one client are made and judged. */
export interface ExchangeSettings {
  /** One attempt's time-out, ms. */
  timeoutMs: number;
  maxResponseBytes: number;
  redact: Redactor;
  /** Put before messages of this module, e.g. the system's name (`azure: `); empty for the interface client. */
  label: string;
  /** Who answered, in hints: "service" or "provider". */
  party: string;
  /** The error for a status outside 2xx. */
  statusError(endpoint: Endpoint, status: number, text: string, headers: Exchange['headers']): ServiceError;
}

/** Makes one exchange; throws a ServiceError with its retry class for anything but a 2xx JSON answer. */
export async function sendExchange(
  dispatcher: Dispatcher,
  endpoint: Endpoint,
  request: ExchangeRequest,
  signal: AbortSignal | undefined,
  settings: ExchangeSettings,
): Promise<Exchange> {
  // One abort source per attempt, with a timer cleared and a listener removed when the attempt ends.
  // (AbortSignal.timeout + AbortSignal.any keep a timer and a dependent signal alive for the whole
  // timeout — minutes — per attempt: over a long run that garbage is promoted and peak memory grows with
  // the number of calls; see docs/performance.md. Why not an AbortController: see AttemptAbort.)
  const attempt = new AttemptAbort();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(new Error(`timeout after ${settings.timeoutMs} ms`));
  }, settings.timeoutMs);
  const onCancel = () => attempt.abort(signal?.reason);
  if (signal?.aborted) onCancel();
  else signal?.addEventListener('abort', onCancel, { once: true });
  let text: string;
  let status: number;
  let headers: Exchange['headers'];
  try {
    // undici's request follows no redirects: a 3xx is reported as a failure, so a key is never forwarded
    // to another host.
    const response = await dispatcher.request({
      origin: request.origin,
      path: request.path,
      method: request.method,
      body: request.body,
      headers: request.headers,
      signal: attempt,
    });
    status = response.statusCode;
    headers = response.headers;
    text = await readCapped(response.body, {
      max: settings.maxResponseBytes,
      endpoint,
      status,
      redact: settings.redact,
    });
  } catch (error) {
    throw toTransportError(error, endpoint, {
      timedOut,
      aborted: signal?.aborted ?? false,
      timeoutMs: settings.timeoutMs,
      redact: settings.redact,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCancel);
  }
  if (status < 200 || status >= 300) throw settings.statusError(endpoint, status, text, headers);
  // Whether any character is not white space: found at the first `{` of a JSON body, where trim() would copy
  // a body that ends in a newline whole.
  if (!/\S/.test(text)) return { status, headers, body: null };
  try {
    return { status, headers, body: JSON.parse(text) as unknown };
  } catch {
    // A 2xx whose body is not JSON is most often torn (a proxy cut it): worth another attempt.
    throw new ServiceError('SERVICE_RESPONSE_INVALID', `${settings.label}${status} with a body that is not JSON`, {
      endpoint,
      status,
      bodyExcerpt: excerpt(text, settings.redact),
      retryable: true,
      hint: `the ${settings.party} sent a broken response; if it persists, check the base URL`,
    });
  }
}

/** What an attempt loop needs besides the attempt: the policy (data) and what it waits and draws with. */
export interface AttemptLoop {
  policy: RetryPolicy;
  redact: Redactor;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). */
  random: () => number;
  /** Failures retried under the policy's 429 rules though their status is another (a provider's throttling). */
  rateLimited?: (error: ServiceError) => boolean;
  /** Told about every attempt (for --verbose). */
  onAttempt?: (event: AttemptEvent) => void;
}

export interface AttemptEvent {
  endpoint: Endpoint;
  attempt: number;
  ms: number;
  status?: number;
  error?: string;
  retryInMs?: number;
}

interface AttemptsTiming {
  /** Attempts made (1 = no retry). */
  attempts: number;
  /** `performance.now()` when the last attempt started. */
  lastAttemptStarted: number;
  /** Wall time of the last attempt alone, ms. */
  lastAttemptMs: number;
}

export type AttemptsOutcome<T> =
  | (AttemptsTiming & { ok: true; value: T })
  | (AttemptsTiming & { ok: false; error: ServiceError });

/**
 * Runs `attempt` until it succeeds, fails in a way the policy does not retry, the attempts run out, or the
 * signal aborts (then no further attempt is made, and an interrupted backoff ends as RUN_ABORTED).
 */
export async function runAttempts<T extends { status: number }>(
  endpoint: Endpoint,
  signal: AbortSignal | undefined,
  loop: AttemptLoop,
  attempt: () => Promise<T>,
): Promise<AttemptsOutcome<T>> {
  for (let attempts = 1; ; attempts++) {
    const lastAttemptStarted = performance.now();
    try {
      const value = await attempt();
      const lastAttemptMs = performance.now() - lastAttemptStarted;
      loop.onAttempt?.({ endpoint, attempt: attempts, ms: lastAttemptMs, status: value.status });
      return { ok: true, value, attempts, lastAttemptStarted, lastAttemptMs };
    } catch (caught) {
      const lastAttemptMs = performance.now() - lastAttemptStarted;
      const error = isServiceError(caught) ? caught : unexpected(caught, endpoint, loop.redact);
      const decision = signal?.aborted ? ({ retry: false } as const) : decide(error, attempts, loop);
      loop.onAttempt?.({
        endpoint,
        attempt: attempts,
        ms: lastAttemptMs,
        status: error.status,
        error: error.message,
        retryInMs: decision.retry ? decision.delayMs : undefined,
      });
      if (!decision.retry) return { ok: false, error, attempts, lastAttemptStarted, lastAttemptMs };
      try {
        await loop.sleep(decision.delayMs, signal);
      } catch (interrupted) {
        // Cancelled during the backoff: the call was abandoned, not failed by the service.
        return {
          ok: false,
          error: signal?.aborted ? cancelled(endpoint, interrupted) : error,
          attempts,
          lastAttemptStarted,
          lastAttemptMs,
        };
      }
    }
  }
}

function decide(error: ServiceError, attempt: number, loop: AttemptLoop): RetryDecision {
  if (!loop.rateLimited?.(error)) return decideRetry(error, attempt, loop.policy, loop.random);
  const as429 = new ServiceError(error.code, error.message, { endpoint: error.endpoint, status: 429, retryable: true });
  as429.retryAfterMs = error.retryAfterMs;
  return decideRetry(as429, attempt, loop.policy, loop.random);
}

/**
 * The abort source of one attempt, in the form undici accepts besides an AbortSignal: an EventEmitter with
 * `aborted` and `reason` that emits `abort` once. Hand-written because on Node 20 every AbortSignal gets a
 * hidden class of its own (`createAbortSignal` sets the prototype of a fresh EventTarget, then adds symbol
 * fields): ~350 bytes of class metadata per signal that scavenges promote, so a signal per attempt made peak
 * memory grow with the number of calls (docs/performance.md, Memory). Instances of a class share one.
 */
class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/**
 * Reads the body as text, failing past `max` bytes. Listens for `data` events rather than `for await`: the
 * async iterator costs a promise and a read() round per chunk, a measurable share of the per-call CPU at a
 * few thousand calls (docs/performance.md).
 */
function readCapped(
  body: Readable,
  context: { max: number; endpoint: Endpoint; status: number; redact: Redactor },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= context.max) return void chunks.push(chunk);
      body.off('data', onData);
      body.destroy();
      // Redact before cutting: a key straddling the cut would otherwise leave its first half in the excerpt.
      const head = context.redact(Buffer.concat(chunks).toString('utf8'));
      reject(
        new ServiceError(
          'SERVICE_RESPONSE_INVALID',
          `response larger than ${formatBytes(context.max)} (maxResponseBytes), not read further`,
          {
            endpoint: context.endpoint,
            status: context.status,
            bodyExcerpt: excerpt(head, context.redact),
            retryable: false,
            hint: 'raise maxResponseBytes in the config if such responses are expected',
          },
        ),
      );
    };
    body.on('data', onData);
    body.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    body.once('error', reject);
  });
}

/** 16384 → "16 KiB", 104857600 → "100 MiB", 1000 → "1000 bytes". */
function formatBytes(bytes: number): string {
  if (bytes >= 1048576 && bytes % 1048576 === 0) return `${bytes / 1048576} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** 200 → "200 ms", 600000 → "600 s", 1500 → "1.5 s". */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

export function toTransportError(
  error: unknown,
  endpoint: Endpoint,
  context: { timedOut: boolean; aborted: boolean; timeoutMs: number; redact: Redactor },
): ServiceError {
  if (isServiceError(error)) return error;
  if (context.aborted) return cancelled(endpoint, error);
  const code = (error as { code?: string } | null)?.code;
  if (context.timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ServiceError('SERVICE_TIMEOUT', `no complete response within ${formatDuration(context.timeoutMs)}`, {
      endpoint,
      retryable: true,
      hint: 'raise --timeout if the service is slow on large documents',
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError('SERVICE_NETWORK', `network error${code ? ` ${code}` : ''}: ${context.redact(message)}`, {
    endpoint,
    retryable: true,
    hint: 'check that the service is reachable at the base URL',
  });
}

export function cancelled(endpoint: Endpoint, cause: unknown): ServiceError {
  return new ServiceError('RUN_ABORTED', 'call cancelled: the run was interrupted', {
    endpoint,
    retryable: false,
    cause,
  });
}

export function unexpected(error: unknown, endpoint: Endpoint, redact: Redactor): ServiceError {
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError('SERVICE_RESPONSE_INVALID', `could not read the response: ${redact(message)}`, {
    endpoint,
    retryable: false,
    cause: error,
  });
}

export function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
