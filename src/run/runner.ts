/**
 * Executes the planned calls: concurrency-limited (overall and per endpoint), optionally rate-capped,
 * served from the cache where possible, each finished call appended to results.jsonl as it lands.
 * A failed call is recorded and the run goes on; only a rejected key (stop now) or an outage (stop
 * starting) ends it early. The first interrupt stops new calls and lets in-flight ones finish.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import pThrottle from 'p-throttle';
import type { Dataset, DatasetDocument, Endpoint } from '../types.js';
import type { CallOutcome, DocumentInput, ServiceClient } from '../service/index.js';
import type { EndpointResult } from '../service/types.js';
import type { ServiceError } from '../service/errors.js';
import type { Logger } from '../logger.js';
import { readUtf8File } from '../dataset/index.js';
import { cacheKey, type ResponseCache } from './cache.js';
import type { PlannedCall } from './plan.js';
import { RECORD_SCHEMA_VERSION, type CallErrorRecord, type CallRecord } from './record.js';
import type { ResultsWriter } from './results-file.js';
import type { RunCounts, RunEvent, StopReason } from './events.js';

export interface ExecuteOptions {
  dataset: Dataset;
  calls: PlannedCall[];
  /** Keys already successful in this run directory (resume): skipped. */
  done: ReadonlySet<string>;
  client: ServiceClient;
  /** Cache identity of the service (base URL, or `local:<version>`). */
  serviceIdentity: string;
  cache: ResponseCache | null;
  writer: ResultsWriter;
  concurrency: number;
  endpointConcurrency: Partial<Record<Endpoint, number>>;
  ratePerSecond: number | null;
  outageThreshold: number;
  /** Aborted on the first Ctrl-C: no new calls start. */
  stopSignal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  logger: Logger;
}

export interface ExecuteResult {
  counts: RunCounts;
  stopReason: StopReason | null;
  stopMessage: string | null;
}

export async function executeCalls(options: ExecuteOptions): Promise<ExecuteResult> {
  const { calls, done, writer, logger } = options;
  const emit = options.onEvent ?? (() => {});
  const pending = calls.filter((call) => !done.has(call.key));
  const counts: RunCounts = { planned: calls.length, alreadyDone: calls.length - pending.length, recorded: 0, succeeded: 0, failed: 0, fromCache: 0, notStarted: 0 };
  emit({ type: 'run-start', planned: calls.length, alreadyDone: counts.alreadyDone, documents: new Set(calls.map((c) => c.document.id)).size });

  // Aborting this one cancels calls in flight: only when the key is rejected, every call would fail alike.
  const hardStop = new AbortController();
  // Every call in flight listens on it: more than Node's default of 10 is expected, not a leak.
  setMaxListeners(options.concurrency + 10, hardStop.signal);
  let stopReason: StopReason | null = null;
  let stopMessage: string | null = null;
  let consecutiveOutageFailures = 0;
  const stop = (reason: StopReason, message: string, cancelInFlight: boolean) => {
    if (stopReason === null) {
      stopReason = reason;
      stopMessage = message;
      emit({ type: 'stopping', reason, message });
    }
    if (cancelInFlight) hardStop.abort(new Error(message));
  };
  const onStopSignal = () => stop('interrupted', 'interrupted: finishing the calls in flight, starting no new ones', false);
  if (options.stopSignal?.aborted) onStopSignal();
  options.stopSignal?.addEventListener('abort', onStopSignal, { once: true });

  // A fixed pool of `concurrency` workers pulls calls from one iterator: memory holds the calls in flight,
  // not a promise per call of the dataset. Per-endpoint caps (p-limit) apply inside the pool.
  const perEndpoint = new Map<Endpoint, LimitFunction>();
  const limitFor = (endpoint: Endpoint) => {
    let limit = perEndpoint.get(endpoint);
    if (!limit) {
      limit = pLimit(options.endpointConcurrency[endpoint] ?? options.concurrency);
      perEndpoint.set(endpoint, limit);
    }
    return limit;
  };
  // Evenly spaced starts: one call every 1/rate seconds.
  const waitForRate = options.ratePerSecond ? pThrottle({ limit: 1, interval: 1000 / options.ratePerSecond })(() => undefined) : null;

  const runOne = async (call: PlannedCall): Promise<void> => {
    if (waitForRate) await waitForRate();
    if (stopReason !== null) {
      counts.notStarted++;
      return;
    }
    emit({ type: 'call-start', key: call.key });
    const record = await performCall(call, options, hardStop.signal);
    if (record === null) {
      // Cancelled in flight by a hard stop: not a result of the service, so not recorded; --resume redoes it.
      counts.notStarted++;
      return;
    }
    try {
      writer.append(record);
    } catch (error) {
      stop('output', (error as Error).message, true);
      counts.notStarted++;
      return;
    }
    counts.recorded++;
    if (record.status === 'ok') {
      counts.succeeded++;
      if (record.from_cache) counts.fromCache++;
      consecutiveOutageFailures = 0;
    } else {
      counts.failed++;
      if (record.error?.code === 'SERVICE_AUTH') {
        stop('auth', `the service rejected the API key (HTTP ${record.error.status}) on ${call.endpoint} for ${call.document.id}: stopping at once`, true);
      } else if (looksLikeOutage(record.error)) {
        consecutiveOutageFailures++;
        if (consecutiveOutageFailures >= options.outageThreshold) {
          stop('outage', `${consecutiveOutageFailures} calls in a row failed like an outage (last: ${record.error?.message}): starting no new calls`, false);
        }
      } else {
        consecutiveOutageFailures = 0;
      }
    }
    emit({ type: 'call-done', record });
  };

  const queue = pending.values();
  const worker = async (): Promise<void> => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      if (stopReason !== null) {
        counts.notStarted++;
        continue;
      }
      const call = next.value;
      await limitFor(call.endpoint)(() => runOne(call));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, Math.max(pending.length, 1)) }, worker));
  } finally {
    options.stopSignal?.removeEventListener('abort', onStopSignal);
  }
  if (stopReason !== null) logger.debug(`run stopped: ${stopMessage}`);
  emit({ type: 'run-end', counts, stopReason });
  return { counts, stopReason, stopMessage };
}

/**
 * Up to this size (known from validation) a document is read synchronously. fs/promises' readFile makes four
 * thread-pool round trips (open, fstat, read, close), each with its promise and FileHandle bookkeeping: about
 * 0.4 ms of main-thread CPU a call, more than everything else docbench does for a small document (issue 13,
 * docs/performance.md). A synchronous read of a file this small blocks the event loop for tens of
 * microseconds; larger files keep the asynchronous read so a big scan never stalls the calls in flight.
 */
const SYNC_READ_MAX_BYTES = 1024 * 1024;

/** Reads a document once per call: the OS page cache makes repeats cheap, and nothing large stays in memory. */
async function loadDocument(document: DatasetDocument): Promise<DocumentInput> {
  if (document.file) {
    const small = document.bytes !== undefined && document.bytes <= SYNC_READ_MAX_BYTES;
    const bytes = small ? readFileSync(document.file) : await readFile(document.file);
    return { bytes, filename: path.basename(document.file), contentType: document.mediaType ?? 'application/octet-stream' };
  }
  if (document.fileUrl) return { fileUrl: document.fileUrl };
  throw new Error(`document ${document.id} has neither a file nor a fileUrl`);
}

/** The document part of the cache key: sha256 of its bytes, or its URL. */
function documentIdentity(input: DocumentInput): string {
  return 'fileUrl' in input ? `url:${input.fileUrl}` : createHash('sha256').update(input.bytes).digest('hex');
}

/** How a call ended, before it becomes its record. */
type CallEnd = { attempts: number; latency_ms: number; last_attempt_ms: number; from_cache: boolean } & (
  | { status: 'ok'; result: EndpointResult }
  | { status: 'failed'; error: CallErrorRecord }
);

/** Runs one call (or serves it from the cache) and turns the outcome into its record; null if cancelled. */
async function performCall(call: PlannedCall, options: ExecuteOptions, signal: AbortSignal): Promise<CallRecord | null> {
  const startedAt = new Date().toISOString();
  let input: DocumentInput;
  let params: unknown;
  try {
    input = await loadDocument(call.document);
    params = await callParams(call, options.dataset);
  } catch (error) {
    return toRecord(call, startedAt, {
      status: 'failed',
      attempts: 0,
      latency_ms: 0,
      last_attempt_ms: 0,
      from_cache: false,
      error: { code: 'INPUT_INVALID', message: `could not read the document or its baseline: ${(error as Error).message}`, retryable: false },
    });
  }

  // Repeats measure the service's nondeterminism, so they always go past the cache.
  const cache = call.repeat === 0 ? options.cache : null;
  const key = cache ? cacheKey({ service: options.serviceIdentity, endpoint: call.endpoint, mode: call.mode, document: documentIdentity(input), params }) : '';
  if (cache) {
    const hit = await cache.get(key);
    if (hit) {
      return toRecord(call, startedAt, { status: 'ok', attempts: hit.attempts, latency_ms: hit.latency_ms, last_attempt_ms: hit.last_attempt_ms, from_cache: true, result: hit.result });
    }
  }

  const outcome = await send(call, input, params, options.client, signal);
  if (!outcome.ok && outcome.error.code === 'RUN_ABORTED') return null;
  const attempts = outcome.attempts;
  const latencyMs = round(outcome.latencyMs);
  const lastAttemptMs = round(outcome.lastAttemptMs);
  if (!outcome.ok) {
    return toRecord(call, startedAt, { status: 'failed', attempts, latency_ms: latencyMs, last_attempt_ms: lastAttemptMs, from_cache: false, error: errorRecord(outcome.error) });
  }
  if (cache) {
    try {
      await cache.set(key, { result: outcome.result, attempts, latency_ms: latencyMs, last_attempt_ms: lastAttemptMs, created_at: startedAt });
    } catch (error) {
      options.logger.warn(`response cache not written (${(error as Error).message}); the run goes on without it`);
    }
  }
  return toRecord(call, startedAt, { status: 'ok', attempts, latency_ms: latencyMs, last_attempt_ms: lastAttemptMs, from_cache: false, result: outcome.result });
}

/**
 * The record of one call, built as one object literal with its fields in a fixed order, then the optional
 * ones added. Not `{ ...base, more }`: on Node 20 (V8 11.3) an object spread followed by further properties
 * gives every resulting object a hidden class of its own, a new map per added property. That class metadata
 * (~2 KB a record here) is promoted by the scavenger and piles up in old space until a full GC, so the
 * runner's peak memory grew with the number of calls (issue 9; bench case runner-memory, docs/performance.md).
 */
function toRecord(call: PlannedCall, startedAt: string, end: CallEnd): CallRecord {
  const record: Omit<CallRecord, 'endpoint' | 'mode' | 'result'> & { endpoint: Endpoint; mode: PlannedCall['mode']; result?: EndpointResult } = {
    v: RECORD_SCHEMA_VERSION,
    key: call.key,
    document_id: call.document.id,
    repeat: call.repeat,
    started_at: startedAt,
    endpoint: call.endpoint,
    mode: call.mode,
    status: end.status,
    attempts: end.attempts,
    latency_ms: end.latency_ms,
    last_attempt_ms: end.last_attempt_ms,
    from_cache: end.from_cache,
  };
  if (end.status === 'ok') {
    record.result = end.result;
    const pages = pagesOf(call.endpoint, end.result);
    if (pages !== undefined) record.pages = pages;
  } else {
    record.error = end.error;
  }
  // The endpoint/mode/result triple matches by construction: `send` answered for `call.endpoint`.
  return record as CallRecord;
}

/** What is sent besides the document: also the parameter part of the cache key. */
async function callParams(call: PlannedCall, dataset: Dataset): Promise<unknown> {
  switch (call.endpoint) {
    case 'extract':
      return { schema: dataset.schema, fast: call.mode === 'fast', customContext: call.document.customContext ?? dataset.customContext ?? null };
    case 'compare':
      return { baselineMarkdown: call.document.baseline.markdown ? await readUtf8File(call.document.baseline.markdown) : null };
    case 'split':
      return {};
    case 'process':
      return { includeBoundingBoxes: true, extractMetadata: true, extractSignature: true, extractImages: true };
  }
}

function send(call: PlannedCall, input: DocumentInput, params: unknown, client: ServiceClient, signal: AbortSignal): Promise<CallOutcome<EndpointResult>> {
  switch (call.endpoint) {
    case 'extract': {
      const p = params as { schema: Dataset['schema']; fast: boolean; customContext: string | null };
      return client.extract(input, { schema: p.schema, fast: p.fast, ...(p.customContext ? { customContext: p.customContext } : {}) }, signal);
    }
    case 'compare': {
      const p = params as { baselineMarkdown: string | null };
      return client.compare(input, p.baselineMarkdown === null ? {} : { baselineMarkdown: p.baselineMarkdown }, signal);
    }
    case 'split':
      return client.split(input, signal);
    case 'process':
      return client.process(input, params as Parameters<ServiceClient['process']>[1], signal);
  }
}

/** Pages the service reported, when it reported a positive count. */
function pagesOf(endpoint: Endpoint, result: EndpointResult): number | undefined {
  const pages =
    endpoint === 'extract'
      ? (result as { pagesProcessed: number | null }).pagesProcessed
      : endpoint === 'process'
        ? (result as { pageCount: number | null }).pageCount
        : (result as { pages: unknown[] }).pages.length;
  return typeof pages === 'number' && pages > 0 ? pages : undefined;
}

function errorRecord(error: ServiceError): CallErrorRecord {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.serviceCode !== undefined ? { serviceCode: error.serviceCode } : {}),
    ...(error.bodyExcerpt !== undefined ? { bodyExcerpt: error.bodyExcerpt } : {}),
  };
}

/** Failures that say "the service is down" rather than "this document is bad". */
function looksLikeOutage(error: CallErrorRecord | undefined): boolean {
  if (!error) return false;
  if (error.code === 'SERVICE_NETWORK' || error.code === 'SERVICE_TIMEOUT') return true;
  return error.code === 'SERVICE_HTTP' && error.status !== undefined && (error.status >= 500 || error.status === 429);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
