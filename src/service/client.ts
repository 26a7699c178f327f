/**
 * The typed client for the four endpoints. One `sendOnce` does a single HTTP exchange; `withRetry` wraps it
 * with the retry policy and timing; each endpoint function builds its multipart body and reads its response.
 * A call never throws for a service failure: it resolves to a `CallOutcome`, because a failure on one
 * document is data for the report, not an exception.
 */
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Endpoint, JsonSchema } from '../types.js';
import { DocbenchError } from '../errors.js';
import { ServiceError, ENDPOINT_PATHS, isServiceError } from './errors.js';
import { DEFAULT_RETRY_POLICY, decideRetry, parseRetryAfter, type RetryPolicy } from './retry.js';
import { DEFAULT_AUTH, authHeaders, type AuthHeader } from './auth.js';
import { createRedactor, excerpt, type Redactor } from './redact.js';
import { ShapeReader } from './shape.js';
import { encodeMultipart, type MultipartBody, type MultipartPart } from './multipart.js';
import { readExtract } from './read-extract.js';
import { readCompare, readProcess, readSplit } from './read-others.js';
import { createLazyAgent } from './agent.js';
import type { CompareResult, ExtractResult, ProcessResult, SplitResult } from './types.js';

export interface ClientOptions {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:4010`; a trailing slash is ignored. */
  baseUrl: string;
  /** Sent per `auth`; never logged or written. */
  apiKey?: string | null;
  /** Abort one attempt after this long (documents can take minutes). @default 600000 */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  auth?: Partial<Record<Endpoint, AuthHeader>>;
  /** A response body larger than this fails the call instead of filling memory. @default 100 MiB */
  maxResponseBytes?: number;
  /** Connections kept open to the service. @default 64 */
  connections?: number;
  /** For tests: waits between attempts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** For tests: jitter source in [0, 1). */
  random?: () => number;
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

/** The document to send: bytes with a name and media type, or a URL the service fetches itself. */
export type DocumentInput =
  | { bytes: Uint8Array; filename: string; contentType: string }
  | { fileUrl: string };

export interface ExtractParams {
  schema: JsonSchema;
  fast: boolean;
  customContext?: string;
  imageMetadataDetect?: boolean;
}

export interface CompareParams {
  /** The incumbent's markdown; sent under both `original_results` and `originalResults`. */
  baselineMarkdown?: string;
}

export interface ProcessParams {
  outputFormat?: string;
  extractImages?: boolean;
  includeBoundingBoxes?: boolean;
  extractMetadata?: boolean;
  extractSignature?: boolean;
}

interface CallTiming {
  /** HTTP attempts made. */
  attempts: number;
  /** Wall time including retries and backoff. */
  latencyMs: number;
  /** Wall time of the last attempt alone. */
  lastAttemptMs: number;
}
export type CallOutcome<T> = (CallTiming & { ok: true; result: T; status: number }) | (CallTiming & { ok: false; error: ServiceError });

export interface ServiceClient {
  readonly baseUrl: string;
  extract(document: DocumentInput, params: ExtractParams, signal?: AbortSignal): Promise<CallOutcome<ExtractResult>>;
  compare(document: DocumentInput, params: CompareParams, signal?: AbortSignal): Promise<CallOutcome<CompareResult>>;
  split(document: DocumentInput, signal?: AbortSignal): Promise<CallOutcome<SplitResult>>;
  process(document: DocumentInput, params: ProcessParams, signal?: AbortSignal): Promise<CallOutcome<ProcessResult>>;
  /**
   * Loads the HTTP client and makes the connection pool, which the first call otherwise does: a runner calls
   * it before its calls start, so that loading a module is not counted in the call phase.
   */
  prepare(): Promise<void>;
  /** Closes the connection pool. */
  close(): Promise<void>;
}

interface HttpExchange {
  status: number;
  body: unknown;
}

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

export function createClient(options: ClientOptions): ServiceClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const apiKey = options.apiKey ?? null;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const auth = { ...DEFAULT_AUTH, ...options.auth };
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const sleep = options.sleep ?? sleepFor;
  const random = options.random ?? Math.random;
  const redact = createRedactor([apiKey]);
  // undici's own header/body timeouts would fire independently of ours: align them with the attempt timeout.
  // Made by the first call, before its first attempt starts (see `call`).
  const agent = createLazyAgent({ connections: options.connections ?? 64, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  // Origin and path of each endpoint, split once: `dispatcher.request` takes them apart. (undici's top-level
  // `request(url, opts)` would rebuild the options as `{ ...opts, origin, path }` on every call, and on Node 20
  // a spread followed by new properties gives each such object a hidden class of its own: garbage that is
  // promoted and makes peak memory grow with the number of calls; see docs/performance.md.)
  const targets = new Map(Object.entries(ENDPOINT_PATHS).map(([name, endpointPath]) => [name as Endpoint, splitTarget(`${baseUrl}${endpointPath}`)]));

  async function sendOnce(dispatcher: Dispatcher, endpoint: Endpoint, form: MultipartBody, signal: AbortSignal | undefined): Promise<HttpExchange> {
    // One abort source per attempt, with a timer cleared and a listener removed when the attempt ends.
    // (AbortSignal.timeout + AbortSignal.any keep a timer and a dependent signal alive for the whole
    // timeout — minutes — per attempt: over a long run that garbage is promoted and peak memory grows with
    // the number of calls; see docs/performance.md. Why not an AbortController: see AttemptAbort.)
    const attempt = new AttemptAbort();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort(new Error(`timeout after ${timeoutMs} ms`));
    }, timeoutMs);
    const onCancel = () => attempt.abort(signal?.reason);
    if (signal?.aborted) onCancel();
    else signal?.addEventListener('abort', onCancel, { once: true });
    const target = targets.get(endpoint)!;
    let text: string;
    let status: number;
    let headers: Record<string, string | string[] | undefined>;
    try {
      // undici's request follows no redirects: a 3xx is reported as a failure, so the key is never
      // forwarded to another host.
      const response = await dispatcher.request({
        origin: target.origin,
        path: target.path,
        method: 'POST',
        body: form.body,
        headers: { accept: 'application/json', 'user-agent': 'docbench', 'content-type': form.contentType, ...authHeaders(endpoint, apiKey, auth) },
        signal: attempt,
      });
      status = response.statusCode;
      headers = response.headers;
      text = await readCapped(response.body, { max: maxResponseBytes, endpoint, status, redact });
    } catch (error) {
      throw toTransportError(error, endpoint, { timedOut, aborted: signal?.aborted ?? false, timeoutMs, redact });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCancel);
    }
    if (status < 200 || status >= 300) throw httpError(endpoint, status, text, headers, redact, policy);
    try {
      return { status, body: JSON.parse(text) as unknown };
    } catch {
      // A 200 whose body is not JSON is most often torn (a proxy cut it): worth another attempt.
      throw new ServiceError('SERVICE_RESPONSE_INVALID', `${status} with a body that is not JSON`, {
        endpoint,
        status,
        bodyExcerpt: excerpt(text, redact),
        retryable: true,
        hint: 'the service sent a broken response; if it persists, check the base URL',
      });
    }
  }

  async function call<T>(endpoint: Endpoint, parts: MultipartPart[], read: (body: unknown, reader: ShapeReader) => T, signal?: AbortSignal): Promise<CallOutcome<T>> {
    // Before the clock starts: loading undici (the first call only) is neither part of an attempt, where it
    // would eat into the attempt's timeout, nor of the call's latency.
    const dispatcher = await agent.get();
    const started = performance.now();
    // Encoded once: every attempt resends the same bytes.
    const form = encodeMultipart(parts);
    let attempt = 0;
    let lastAttemptMs = 0;
    for (;;) {
      attempt++;
      const attemptStarted = performance.now();
      try {
        const exchange = await sendOnce(dispatcher, endpoint, form, signal);
        lastAttemptMs = performance.now() - attemptStarted;
        const reader = new ShapeReader(endpoint, () => excerpt(JSON.stringify(exchange.body), redact), { status: exchange.status, redact });
        const result = read(exchange.body, reader);
        options.onAttempt?.({ endpoint, attempt, ms: lastAttemptMs, status: exchange.status });
        return { ok: true, result, status: exchange.status, attempts: attempt, latencyMs: performance.now() - started, lastAttemptMs };
      } catch (caught) {
        lastAttemptMs = performance.now() - attemptStarted;
        const error = isServiceError(caught) ? caught : unexpected(caught, endpoint, redact);
        const decision = signal?.aborted ? ({ retry: false } as const) : decideRetry(error, attempt, policy, random);
        options.onAttempt?.({ endpoint, attempt, ms: lastAttemptMs, status: error.status, error: error.message, retryInMs: decision.retry ? decision.delayMs : undefined });
        if (!decision.retry) return { ok: false, error, attempts: attempt, latencyMs: performance.now() - started, lastAttemptMs };
        try {
          await sleep(decision.delayMs, signal);
        } catch (interrupted) {
          // Cancelled during the backoff: the call was abandoned, not failed by the service.
          const abandoned = signal?.aborted ? cancelled(endpoint, interrupted) : error;
          return { ok: false, error: abandoned, attempts: attempt, latencyMs: performance.now() - started, lastAttemptMs };
        }
      }
    }
  }

  return {
    baseUrl,
    extract: (document, params, signal) =>
      call(
        'extract',
        [
          documentPart(document),
          // docs/service-interface.md §4.2: a JSON Schema document serialised to a string; booleans as text `true`/`false`.
          { name: 'schema', value: JSON.stringify(params.schema) },
          { name: 'fast', value: String(params.fast) },
          ...(params.customContext ? [{ name: 'customContext', value: params.customContext }] : []),
          ...(params.imageMetadataDetect === undefined ? [] : [{ name: 'imageMetadataDetect', value: String(params.imageMetadataDetect) }]),
        ],
        readExtract,
        signal,
      ),
    compare: (document, params, signal) =>
      call(
        'compare',
        [
          documentPart(document),
          // The reference names the part `original_results`; its example request sends `originalResults`.
          ...(params.baselineMarkdown === undefined
            ? []
            : [
                { name: 'original_results', value: params.baselineMarkdown },
                { name: 'originalResults', value: params.baselineMarkdown },
              ]),
        ],
        readCompare,
        signal,
      ),
    split: (document, signal) => call('split', [documentPart(document)], readSplit, signal),
    process: (document, params, signal) =>
      call(
        'process',
        [
          documentPart(document),
          { name: 'output_format', value: params.outputFormat ?? 'json' },
          { name: 'extract_images', value: String(params.extractImages ?? false) },
          { name: 'include_bounding_boxes', value: String(params.includeBoundingBoxes ?? false) },
          { name: 'extract_metadata', value: String(params.extractMetadata ?? false) },
          { name: 'extract_signature', value: String(params.extractSignature ?? false) },
        ],
        readProcess,
        signal,
      ),
    prepare: async () => {
      await agent.get();
    },
    close: agent.close,
  };
}

/**
 * The abort source of one attempt, in the form undici accepts besides an AbortSignal: an EventEmitter with
 * `aborted` and `reason` that emits `abort` once. Hand-written because on Node 20 every AbortSignal gets a
 * hidden class of its own (`createAbortSignal` sets the prototype of a fresh EventTarget, then adds symbol
 * fields): ~350 bytes of class metadata per signal that scavenges promote, so a signal per attempt made peak
 * memory grow with the number of calls (docs/performance.md, Memory). Instances of a class share one.
 */
export class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new DocbenchError('CONFIG_INVALID', `base URL ${JSON.stringify(baseUrl)} is not a URL`, { hint: 'pass --base-url https://host[:port]' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DocbenchError('CONFIG_INVALID', `base URL ${JSON.stringify(baseUrl)} is not http(s)`, { hint: 'pass --base-url https://host[:port]' });
  }
  return url.href.replace(/\/+$/, '');
}

/** `https://host:1/api/extract?x` → origin `https://host:1`, path `/api/extract?x` (what undici's `request(url)` sends). */
function splitTarget(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

function documentPart(document: DocumentInput): MultipartPart {
  if ('fileUrl' in document) return { name: 'fileUrl', value: document.fileUrl };
  return { name: 'file', bytes: document.bytes, filename: document.filename, contentType: document.contentType };
}

/**
 * Reads the body as text, failing past `max` bytes. Listens for `data` events rather than `for await`: the
 * async iterator costs a promise and a read() round per chunk, a measurable share of the per-call CPU at a
 * few thousand calls (docs/performance.md).
 */
export function readCapped(body: Readable, context: { max: number; endpoint: Endpoint; status: number; redact: Redactor }): Promise<string> {
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
        new ServiceError('SERVICE_RESPONSE_INVALID', `response larger than ${formatBytes(context.max)} (maxResponseBytes), not read further`, {
          endpoint: context.endpoint,
          status: context.status,
          bodyExcerpt: excerpt(head, context.redact),
          retryable: false,
          hint: 'raise maxResponseBytes in the config if such responses are expected',
        }),
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

function httpError(
  endpoint: Endpoint,
  status: number,
  text: string,
  headers: Record<string, string | string[] | undefined>,
  redact: Redactor,
  policy: RetryPolicy,
): ServiceError {
  let serviceCode: string | undefined;
  let serviceMessage: string | undefined;
  let supportedFormats: string[] | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; details?: { supported_formats?: unknown } } };
    // Everything quoted from the body is redacted before it is cut: the service may echo the key anywhere.
    if (typeof parsed.error?.code === 'string') serviceCode = redact(parsed.error.code).slice(0, 100);
    if (typeof parsed.error?.message === 'string') serviceMessage = redact(parsed.error.message).slice(0, 200);
    const formats = parsed.error?.details?.supported_formats;
    if (Array.isArray(formats)) supportedFormats = formats.filter((f): f is string => typeof f === 'string').map((f) => redact(f).slice(0, 40));
  } catch {
    // Error bodies of /extract, /split, /compare are unspecified (docs/service-interface.md §7.5): a non-JSON body is fine here.
  }
  const auth = status === 401 || status === 403;
  const redirect = status >= 300 && status < 400;
  // Retryable means "the policy retries it", so a record never says retryable for a status that was not retried.
  const retryable = status >= 400 && policy.retryStatuses.includes(status);
  const detail = [serviceCode, serviceMessage].filter(Boolean).join(': ');
  const error = new ServiceError(auth ? 'SERVICE_AUTH' : 'SERVICE_HTTP', `HTTP ${status}${detail ? ` (${detail})` : ''}${redirect ? ' — redirect not followed' : ''}`, {
    endpoint,
    status,
    serviceCode,
    supportedFormats,
    bodyExcerpt: excerpt(text, redact),
    retryable,
    hint: auth
      ? 'the service rejected the API key: check DOCBENCH_API_KEY (or the variable named by apiKeyEnv)'
      : redirect
        ? 'the service redirected; point --base-url at the final address (docbench never forwards the key to a redirect)'
        : serviceCode === 'invalid_file_format'
          ? `the service does not accept this file type${supportedFormats ? ` (it accepts ${supportedFormats.join(', ')})` : ''}`
          : retryable
            ? 'the service is failing; rerun later with --resume'
            : 'the service rejected the request; check the document and parameters',
  });
  const retryAfter = headers['retry-after'];
  error.retryAfterMs = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  return error;
}

export function toTransportError(error: unknown, endpoint: Endpoint, context: { timedOut: boolean; aborted: boolean; timeoutMs: number; redact: Redactor }): ServiceError {
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
  return new ServiceError('RUN_ABORTED', 'call cancelled: the run was interrupted', { endpoint, retryable: false, cause });
}

export function unexpected(error: unknown, endpoint: Endpoint, redact: Redactor): ServiceError {
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError('SERVICE_RESPONSE_INVALID', `could not read the response: ${redact(message)}`, { endpoint, retryable: false, cause: error });
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
