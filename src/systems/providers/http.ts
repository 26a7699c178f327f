/**
 * HTTP for provider kinds: each request made by the exchange and attempt loop the interface client uses too
 * (src/service/exchange.ts, with the run's retry policy), polling of long-running operations with backoff inside the
 * system's time-out, and the mapping of provider error bodies onto ServiceError retry classes. A kind opens
 * one `ProviderCall` per planned call; the call counts attempts and time and ends as a `SystemOutcome`.
 */
import type { Endpoint } from '../../types.js';
import {
  ServiceError,
  isServiceError,
  parseRetryAfter,
  cancelled,
  runAttempts,
  sendExchange,
  sleepFor,
  unexpected,
  type AttemptLoop,
  type ExchangeSettings,
  createLazyAgent,
  excerpt,
  type Redactor,
  ShapeReader,
  type EndpointResult,
} from '../../service/index.js';
import type { ReportedIdentity, SystemContext, SystemOutcome, Usage } from '../types.js';

/** What a kind reads from a provider's error body; `kind` overrides the class the status alone implies. */
export interface ProviderErrorInfo {
  code?: string;
  message?: string;
  /**
   * `throttled`: a rate limit the provider reports with another status (Textract's 400 ThrottlingException),
   * retried under the policy's 429 rules. `quota`: the account is out of credit — never retried.
   */
  kind?: 'auth' | 'throttled' | 'quota' | 'not-found';
}

/**
 * What the HTTP layer takes from the system's context: its name (in every message), its time-out (one
 * request's, and the whole budget of a polled operation), its retry policy and the run's redactor.
 */
export type ProviderHttpContext = Pick<SystemContext, 'name' | 'common' | 'redact'>;

export interface ProviderHttpOptions {
  /** Reads code and message from an error body (any status ≥ 300). */
  readError: (status: number, body: string) => ProviderErrorInfo;
  /** Says what to check when the credentials are rejected (names the env variable). */
  authHint: string;
  /** Says what was not found on a 404 (the model, the processor …), naming the system. */
  notFoundMessage: string;
  /** Replaces the context's redactor (one that also knows secrets obtained at run time). */
  redact?: Redactor;
  /** @default 100 MiB */
  maxResponseBytes?: number;
  /** For tests: waits between attempts and polls. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface ProviderResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** One poll of a long-running operation: done with its value, or not yet (optionally with the server's wait). */
export type PollStep<T> = { done: true; value: T } | { done: false; retryAfterMs?: number };

/** What a kind's call body returns on success. */
export interface CallProduct {
  result: EndpointResult;
  usage?: Usage;
  raw?: unknown;
}

export interface ProviderCall {
  readonly endpoint: Endpoint;
  readonly signal: AbortSignal;
  /** Sends with the retry policy; resolves to a 2xx JSON response or throws the last ServiceError. */
  request(request: ProviderRequest): Promise<ProviderResponse>;
  /** Polls `step` with backoff (or the server's Retry-After) until done, within the system's time-out. */
  poll<T>(step: () => Promise<PollStep<T>>): Promise<T>;
  /** A reader for one response body: wrong shapes become SERVICE_RESPONSE_INVALID naming the field. */
  reader(response: ProviderResponse): ShapeReader;
  /** Usage so far, recorded on failures too (a provider may bill a call whose answer was unusable). */
  usage: Usage | undefined;
  /**
   * Notes what a response said the system was (`model`, `apiVersion`, …); kept on failures too. Absent or
   * empty values are ignored; a second, different value of one name within a call is kept beside the first.
   */
  report(name: string, value: unknown): void;
}

export interface ProviderHttp {
  /** Runs one planned call; never throws for a provider failure. */
  run(
    endpoint: Endpoint,
    signal: AbortSignal,
    body: (call: ProviderCall) => Promise<CallProduct>,
  ): Promise<SystemOutcome>;
  close(): Promise<void>;
}

const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;
/** First wait between polls when the server names none; doubled up to POLL_MAX_MS. */
const POLL_FIRST_MS = 500;
const POLL_MAX_MS = 5000;

export function createProviderHttp(context: ProviderHttpContext, settings: ProviderHttpOptions): ProviderHttp {
  const options = resolveOptions(context, settings);
  const agent = createLazyAgent({ headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  // Throttling reported under another status is retried under the policy's 429 rules.
  const throttled = new WeakSet<ServiceError>();
  const exchange: ExchangeSettings = {
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    redact: options.redact,
    label: `${options.system}: `,
    party: 'provider',
    statusError: (endpoint, status, text, headers) =>
      providerError(options, throttled, endpoint, status, text, headers),
  };
  const loop: AttemptLoop = {
    policy: options.retry,
    redact: options.redact,
    sleep: options.sleep,
    random: options.random ?? Math.random,
    rateLimited: (error) => throttled.has(error),
  };

  async function run(
    endpoint: Endpoint,
    signal: AbortSignal,
    body: (call: ProviderCall) => Promise<CallProduct>,
  ): Promise<SystemOutcome> {
    // Before the clock starts: loading undici (the first call only) counts against no attempt's timeout.
    const dispatcher = await agent.get();
    const started = performance.now();
    let attempts = 1;
    // Start of the current attempt: the call's start, then the end of each retry's backoff.
    let attemptStarted = started;
    const reported = collectReported(options.redact);
    const call: ProviderCall = {
      endpoint,
      signal,
      usage: undefined,
      report: reported.add,
      async request(request) {
        const url = new URL(request.url);
        // No redirects are followed (undici's request never does): credentials never go to another host.
        const headers = { accept: 'application/json', 'user-agent': 'docbench', ...request.headers };
        const outcome = await runAttempts(endpoint, signal, loop, () =>
          sendExchange(
            dispatcher,
            endpoint,
            {
              origin: url.origin,
              path: `${url.pathname}${url.search}`,
              method: request.method,
              headers,
              body: request.body,
            },
            signal,
            exchange,
          ),
        );
        // The call's attempts count every retry of every request; its last attempt began after the last backoff.
        if (outcome.attempts > 1) {
          attempts += outcome.attempts - 1;
          attemptStarted = outcome.lastAttemptStarted;
        }
        if (!outcome.ok) throw outcome.error;
        return outcome.value;
      },
      poll: (step) => pollUntilDone(step, endpoint, signal, options),
      reader: (response) =>
        new ShapeReader(endpoint, () => excerpt(JSON.stringify(response.body), options.redact), {
          status: response.status,
          redact: options.redact,
        }),
    };
    const timing = () => {
      const now = performance.now();
      return { attempts, latencyMs: now - started, lastAttemptMs: now - attemptStarted };
    };
    try {
      const product = await body(call);
      return { ok: true, ...product, ...reported.outcome(), ...timing() };
    } catch (caught) {
      const error = isServiceError(caught) ? caught : unexpected(caught, endpoint, options.redact);
      const usage = call.usage ? { usage: call.usage } : {};
      return { ok: false, error, ...usage, ...reported.outcome(), ...timing() };
    }
  }

  return {
    run,
    close: agent.close,
  };
}

/**
 * What one call's responses said the system was (ProviderCall.report): each value redacted and capped; a
 * second, different value of one name within the call is kept beside the first.
 */
function collectReported(redact: Redactor) {
  let reported: ReportedIdentity | undefined;
  return {
    add(name: string, value: unknown): void {
      if ((typeof value !== 'string' && typeof value !== 'number') || value === '') return;
      const text = redact(String(value)).slice(0, 200);
      reported ??= {};
      const before = reported[name];
      if (before === undefined) reported[name] = text;
      else if (!before.split(', ').includes(text)) reported[name] = `${before}, ${text}`;
    },
    /** The outcome's `reported`, absent when no response said anything. */
    outcome: (): { reported?: ReportedIdentity } => (reported ? { reported } : {}),
  };
}

/** The options with what the context gives: the system's name, time-out, retry policy and redactor. */
function resolveOptions(context: ProviderHttpContext, settings: ProviderHttpOptions) {
  return {
    ...settings,
    system: context.name,
    timeoutMs: context.common.timeoutMs,
    retry: context.common.retry,
    redact: settings.redact ?? context.redact,
    sleep: settings.sleep ?? sleepFor,
  };
}

type ResolvedOptions = ReturnType<typeof resolveOptions>;

/** A status outside 2xx → the ServiceError of its class (what the provider's error body says wins over the status). */
function providerError(
  options: ResolvedOptions,
  throttled: WeakSet<ServiceError>,
  endpoint: Endpoint,
  status: number,
  text: string,
  headers: Record<string, string | string[] | undefined>,
): ServiceError {
  const info = options.readError(status, text);
  const kind = info.kind ?? (status === 401 || status === 403 ? 'auth' : status === 404 ? 'not-found' : undefined);
  const detail = [info.code, info.message]
    .filter(Boolean)
    .map((part) => options.redact(String(part)).slice(0, 200))
    .join(': ');
  const head = `${options.system}: HTTP ${status}${detail ? ` (${detail})` : ''}`;
  const common = {
    endpoint,
    status,
    serviceCode: info.code ? options.redact(info.code).slice(0, 100) : undefined,
    bodyExcerpt: excerpt(text, options.redact),
  };
  let error: ServiceError;
  if (kind === 'auth') {
    error = new ServiceError('SERVICE_AUTH', `${head} — credentials rejected`, {
      ...common,
      retryable: false,
      hint: options.authHint,
    });
  } else if (kind === 'not-found') {
    error = new ServiceError('SERVICE_HTTP', `${head} — ${options.notFoundMessage}`, {
      ...common,
      retryable: false,
      hint: 'check the system options (model, processor, region, base URL)',
    });
  } else if (kind === 'quota') {
    error = new ServiceError('SERVICE_HTTP', `${head} — quota exhausted`, {
      ...common,
      retryable: false,
      hint: 'the account is out of quota or credit; raise it, then rerun with --resume',
    });
  } else {
    const retryable = kind === 'throttled' || options.retry.retryStatuses.includes(status);
    error = new ServiceError('SERVICE_HTTP', head, {
      ...common,
      retryable,
      hint: retryable
        ? 'the provider is failing or throttling; rerun later with --resume'
        : 'the provider rejected the request; check the system options and the document',
    });
    if (kind === 'throttled') throttled.add(error);
  }
  const retryAfter = headers['retry-after'];
  error.retryAfterMs = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  return error;
}

/** Polls `step` with backoff (or the server's Retry-After) until done, within the system's time-out. */
async function pollUntilDone<T>(
  step: () => Promise<PollStep<T>>,
  endpoint: Endpoint,
  signal: AbortSignal,
  options: ResolvedOptions,
): Promise<T> {
  const deadline = performance.now() + options.timeoutMs;
  for (let wait = POLL_FIRST_MS; ; wait = Math.min(POLL_MAX_MS, wait * 2)) {
    const next = await step();
    if (next.done) return next.value;
    const delay = next.retryAfterMs ?? wait;
    if (performance.now() + delay > deadline) {
      throw new ServiceError(
        'SERVICE_TIMEOUT',
        `${options.system}: the operation was not done within ${options.timeoutMs} ms of polling`,
        {
          endpoint,
          retryable: false,
          hint: 'raise the system’s timeoutMs for large documents',
        },
      );
    }
    try {
      await options.sleep(delay, signal);
    } catch (interrupted) {
      throw cancelled(endpoint, interrupted);
    }
  }
}

/** Reads the common `{"error": {"code", "message"}}` / `{"error": "text"}` / `{"message"}` error bodies. */
export function readCommonError(body: string): ProviderErrorInfo {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; code?: unknown };
    const inner = parsed.error;
    if (typeof inner === 'string') return { message: inner };
    if (typeof inner === 'object' && inner !== null) {
      const { code, message, status, type } = inner as Record<string, unknown>;
      return { code: firstString(code, status, type), message: firstString(message) };
    }
    return { code: firstString(parsed.code), message: firstString(parsed.message) };
  } catch {
    return {};
  }
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) {
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}
