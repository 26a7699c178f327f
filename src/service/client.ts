/**
 * The typed client for the four endpoints. Each endpoint function builds its multipart body and reads its
 * response; the exchange and the attempt loop with the retry policy are exchange.ts's, shared with the
 * provider kinds.
 * A call never throws for a service failure: it resolves to a `CallOutcome`, because a failure on one
 * document is data for the report, not an exception.
 */
import type { Endpoint, JsonSchema } from '../types.js';
import { DocbenchError } from '../errors.js';
import { ServiceError, ENDPOINT_PATHS } from './errors.js';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy } from './retry.js';
import { DEFAULT_AUTH, authHeaders, type AuthHeader } from './auth.js';
import { createRedactor, excerpt, type Redactor } from './redact.js';
import { ShapeReader } from './shape.js';
import { encodeMultipart, type MultipartPart } from './multipart.js';
import { readExtract } from './read-extract.js';
import { readCompare, readProcess, readSplit } from './read-others.js';
import { createLazyAgent, type LazyAgent } from './agent.js';
import {
  runAttempts,
  sendExchange,
  sleepFor,
  type AttemptEvent,
  type AttemptLoop,
  type ExchangeSettings,
} from './exchange.js';
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

/** The document to send: bytes with a name and media type, or a URL the service fetches itself. */
export type DocumentInput = { bytes: Uint8Array; filename: string; contentType: string } | { fileUrl: string };

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
export type { AttemptEvent };
export type CallOutcome<T> =
  | (CallTiming & { ok: true; result: T; status: number })
  | (CallTiming & { ok: false; error: ServiceError });

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

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

/** What every call of one client shares: the connection pool, the endpoints' addresses, the key, the policies. */
interface CallSettings {
  agent: LazyAgent;
  targets: Map<Endpoint, { origin: string; path: string }>;
  apiKey: string | null;
  auth: Record<Endpoint, AuthHeader>;
  redact: Redactor;
  exchange: ExchangeSettings;
  loop: AttemptLoop;
}

export function createClient(options: ClientOptions): ServiceClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const settings = createCallSettings(options, baseUrl);
  const { agent } = settings;
  return {
    baseUrl,
    extract: (document, params, signal) =>
      callEndpoint(settings, 'extract', extractParts(document, params), readExtract, signal),
    compare: (document, params, signal) =>
      callEndpoint(settings, 'compare', compareParts(document, params), readCompare, signal),
    split: (document, signal) => callEndpoint(settings, 'split', [documentPart(document)], readSplit, signal),
    process: (document, params, signal) =>
      callEndpoint(settings, 'process', processParts(document, params), readProcess, signal),
    prepare: async () => {
      await agent.get();
    },
    close: agent.close,
  };
}

function createCallSettings(options: ClientOptions, baseUrl: string): CallSettings {
  const apiKey = options.apiKey ?? null;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const auth = { ...DEFAULT_AUTH, ...options.auth };
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const redact = createRedactor([apiKey]);
  // undici's own header/body timeouts would fire independently of ours: align them with the attempt timeout.
  // Made by the first call, before its first attempt starts (see `callEndpoint`).
  const agent = createLazyAgent({
    connections: options.connections ?? 64,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  // Origin and path of each endpoint, split once: `dispatcher.request` takes them apart. (undici's top-level
  // `request(url, opts)` would rebuild the options as `{ ...opts, origin, path }` on every call, and on Node 20
  // a spread followed by new properties gives each such object a hidden class of its own: garbage that is
  // promoted and makes peak memory grow with the number of calls; see docs/performance.md.)
  const targets = new Map(
    Object.entries(ENDPOINT_PATHS).map(([name, endpointPath]) => [
      name as Endpoint,
      splitTarget(`${baseUrl}${endpointPath}`),
    ]),
  );
  const exchange: ExchangeSettings = {
    timeoutMs,
    maxResponseBytes,
    redact,
    label: '',
    party: 'service',
    statusError: (endpoint, status, text, headers) => httpError(endpoint, status, text, headers, redact, policy),
  };
  const loop: AttemptLoop = {
    policy,
    redact,
    sleep: options.sleep ?? sleepFor,
    random: options.random ?? Math.random,
    onAttempt: options.onAttempt,
  };
  return { agent, targets, apiKey, auth, redact, exchange, loop };
}

/** One call of `endpoint`: the attempt loop around one exchange, timed, its answer read by `read`. */
async function callEndpoint<T>(
  settings: CallSettings,
  endpoint: Endpoint,
  parts: MultipartPart[],
  read: (body: unknown, reader: ShapeReader) => T,
  signal?: AbortSignal,
): Promise<CallOutcome<T>> {
  const { redact } = settings;
  // Before the clock starts: loading undici (the first call only) is neither part of an attempt, where it
  // would eat into the attempt's timeout, nor of the call's latency.
  const dispatcher = await settings.agent.get();
  const started = performance.now();
  // Encoded once: every attempt resends the same bytes.
  const form = encodeMultipart(parts);
  const target = settings.targets.get(endpoint)!;
  const outcome = await runAttempts(endpoint, signal, settings.loop, async () => {
    const headers = {
      accept: 'application/json',
      'user-agent': 'docbench',
      'content-type': form.contentType,
      ...authHeaders(endpoint, settings.apiKey, settings.auth),
    };
    const answer = await sendExchange(
      dispatcher,
      endpoint,
      { origin: target.origin, path: target.path, method: 'POST', body: form.body, headers },
      signal,
      settings.exchange,
    );
    const reader = new ShapeReader(endpoint, () => excerpt(JSON.stringify(answer.body), redact), {
      status: answer.status,
      redact,
    });
    return { status: answer.status, result: read(answer.body, reader) };
  });
  const timing = {
    attempts: outcome.attempts,
    latencyMs: performance.now() - started,
    lastAttemptMs: outcome.lastAttemptMs,
  };
  return outcome.ok
    ? { ok: true, result: outcome.value.result, status: outcome.value.status, ...timing }
    : { ok: false, error: outcome.error, ...timing };
}

function extractParts(document: DocumentInput, params: ExtractParams): MultipartPart[] {
  return [
    documentPart(document),
    // docs/service-interface.md §4.2: a JSON Schema document serialised to a string; booleans as text `true`/`false`.
    { name: 'schema', value: JSON.stringify(params.schema) },
    { name: 'fast', value: String(params.fast) },
    ...(params.customContext ? [{ name: 'customContext', value: params.customContext }] : []),
    ...(params.imageMetadataDetect === undefined
      ? []
      : [{ name: 'imageMetadataDetect', value: String(params.imageMetadataDetect) }]),
  ];
}

function compareParts(document: DocumentInput, params: CompareParams): MultipartPart[] {
  return [
    documentPart(document),
    // The reference names the part `original_results`; its example request sends `originalResults`.
    ...(params.baselineMarkdown === undefined
      ? []
      : [
          { name: 'original_results', value: params.baselineMarkdown },
          { name: 'originalResults', value: params.baselineMarkdown },
        ]),
  ];
}

function processParts(document: DocumentInput, params: ProcessParams): MultipartPart[] {
  return [
    documentPart(document),
    { name: 'output_format', value: params.outputFormat ?? 'json' },
    { name: 'extract_images', value: String(params.extractImages ?? false) },
    { name: 'include_bounding_boxes', value: String(params.includeBoundingBoxes ?? false) },
    { name: 'extract_metadata', value: String(params.extractMetadata ?? false) },
    { name: 'extract_signature', value: String(params.extractSignature ?? false) },
  ];
}

function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new DocbenchError('CONFIG_INVALID', `base URL ${JSON.stringify(baseUrl)} is not a URL`, {
      hint: 'pass --base-url https://host[:port]',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DocbenchError('CONFIG_INVALID', `base URL ${JSON.stringify(baseUrl)} is not http(s)`, {
      hint: 'pass --base-url https://host[:port]',
    });
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
    const parsed = JSON.parse(text) as {
      error?: { code?: unknown; message?: unknown; details?: { supported_formats?: unknown } };
    };
    // Everything quoted from the body is redacted before it is cut: the service may echo the key anywhere.
    if (typeof parsed.error?.code === 'string') serviceCode = redact(parsed.error.code).slice(0, 100);
    if (typeof parsed.error?.message === 'string') serviceMessage = redact(parsed.error.message).slice(0, 200);
    const formats = parsed.error?.details?.supported_formats;
    if (Array.isArray(formats))
      supportedFormats = formats.filter((f): f is string => typeof f === 'string').map((f) => redact(f).slice(0, 40));
  } catch {
    // Error bodies of /extract, /split, /compare are unspecified (docs/service-interface.md §7.5): a non-JSON body is fine here.
  }
  const auth = status === 401 || status === 403;
  const redirect = status >= 300 && status < 400;
  // Retryable means "the policy retries it", so a record never says retryable for a status that was not retried.
  const retryable = status >= 400 && policy.retryStatuses.includes(status);
  const detail = [serviceCode, serviceMessage].filter(Boolean).join(': ');
  const error = new ServiceError(
    auth ? 'SERVICE_AUTH' : 'SERVICE_HTTP',
    `HTTP ${status}${detail ? ` (${detail})` : ''}${redirect ? ' — redirect not followed' : ''}`,
    {
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
    },
  );
  const retryAfter = headers['retry-after'];
  error.retryAfterMs = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  return error;
}
