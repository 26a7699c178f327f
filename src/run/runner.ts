/**
 * Executes the planned calls of every system: each system concurrency-limited (overall and per endpoint)
 * and optionally rate-capped on its own, served from the cache where possible, each finished call appended
 * to results.jsonl as it lands. A failed call is recorded and the run goes on; a rejected key (stop now), an
 * outage or a budget reached (stop starting) ends that system's calls early. The first interrupt stops new calls of every
 * system and lets in-flight ones finish.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import pThrottle from 'p-throttle';
import type { Dataset, DatasetDocument, Endpoint } from '../types.js';
import type { DocumentInput, EndpointResult, ServiceError } from '../service/index.js';
import {
  type CommonSystemOptions,
  type OperationRequest,
  type Price,
  type ReportedIdentity,
  type System,
  type SystemOutcome,
  type Usage,
  computeCost,
} from '../systems/index.js';
import type { Logger } from '../logger.js';
import { readUtf8File } from '../dataset/index.js';
import { cacheKey, type ResponseCache } from './cache.js';
import type { PlannedCall } from './plan.js';
import {
  checkCallRecord,
  RECORD_SCHEMA_VERSION,
  type CallErrorRecord,
  type CallRecord,
  type UsageRecord,
  type ResultsWriter,
} from '../run-dir/index.js';
import { isDocbenchError } from '../errors.js';
import type { RunCounts, RunEvent, StopReason } from './events.js';
import type { BudgetLedger } from './budget.js';

/** One system of the run with the settings its calls run under. */
export interface RunnerSystem {
  system: System;
  common: CommonSystemOptions;
}

export interface ExecuteOptions {
  dataset: Dataset;
  calls: PlannedCall[];
  /** Keys already successful in this run directory (resume): skipped. */
  done: ReadonlySet<string>;
  /** Every system a planned call names. */
  systems: readonly RunnerSystem[];
  cache: ResponseCache | null;
  writer: ResultsWriter;
  /** Caps per endpoint, applied inside each system's own pool. */
  endpointConcurrency: Partial<Record<Endpoint, number>>;
  /** After this many consecutive outage-like failures of one system, that system starts no new calls. */
  outageThreshold: number;
  /** Aborted on the first Ctrl-C: no new calls start. */
  stopSignal?: AbortSignal;
  /** Spending limits: a system whose next call could pass one starts no new calls (src/run/budget.ts). */
  budget?: BudgetLedger;
  onEvent?: (event: RunEvent) => void;
  logger: Logger;
}

/** Why one system's calls stopped early while the others went on. */
export interface SystemStop {
  reason: StopReason;
  message: string;
}

export interface ExecuteResult {
  counts: RunCounts;
  /** The run's own stop (interrupt, unwritable output), else the first system's. */
  stopReason: StopReason | null;
  stopMessage: string | null;
  /** Systems whose calls stopped early (key rejected, outage), by name. */
  systemStops: ReadonlyMap<string, SystemStop>;
}

/**
 * Each system runs its own pool of `concurrency` workers (its own option, the run's by default), with its own
 * rate cap and per-endpoint caps: a slow system fills only its own slots and never starves a fast one, so
 * the calls in flight are at most the sum of the systems' concurrencies. A rejected key or an outage stops
 * that system's calls only; an interrupt or an unwritable results file stops every system.
 */
export async function executeCalls(options: ExecuteOptions): Promise<ExecuteResult> {
  const { calls, done, logger } = options;
  const emit = options.onEvent ?? (() => {});
  const pending = calls.filter((call) => !done.has(call.key));
  const counts: RunCounts = {
    planned: calls.length,
    alreadyDone: calls.length - pending.length,
    recorded: 0,
    succeeded: 0,
    failed: 0,
    fromCache: 0,
    notStarted: 0,
  };
  emit({
    type: 'run-start',
    planned: calls.length,
    alreadyDone: counts.alreadyDone,
    documents: new Set(calls.map((c) => c.document.id)).size,
    ...(options.budget ? { spentUsd: Object.fromEntries(options.budget.spent()) } : {}),
  });

  const run: RunState = { options, counts, emit, stop: null, lanes: [] };
  const onStopSignal = () =>
    stopRun(run, 'interrupted', 'interrupted: finishing the calls in flight, starting no new ones', false);
  if (options.stopSignal?.aborted) onStopSignal();
  options.stopSignal?.addEventListener('abort', onStopSignal, { once: true });

  const bySystem = new Map<string, PlannedCall[]>(options.systems.map(({ system }) => [system.name, []]));
  for (const call of pending) {
    const queue = bySystem.get(call.system);
    if (!queue) throw new Error(`planned call ${call.key} names no system of the run`);
    queue.push(call);
  }
  run.lanes = options.systems.map((entry) => createLane(run, entry));
  try {
    await Promise.all(run.lanes.map((lane) => lane.drain(bySystem.get(lane.name)!)));
  } finally {
    options.stopSignal?.removeEventListener('abort', onStopSignal);
  }
  const systemStops = new Map<string, SystemStop>();
  for (const lane of run.lanes) if (lane.stop) systemStops.set(lane.name, lane.stop);
  const first = run.stop ?? systemStops.values().next().value ?? null;
  if (first !== null) logger.debug(`run stopped: ${first.message}`);
  emit({ type: 'run-end', counts, stopReason: first?.reason ?? null });
  return { counts, stopReason: first?.reason ?? null, stopMessage: first?.message ?? null, systemStops };
}

interface RunState {
  options: ExecuteOptions;
  counts: RunCounts;
  emit: (event: RunEvent) => void;
  /** Set when the whole run stops (interrupt, unwritable output). */
  stop: SystemStop | null;
  lanes: Lane[];
}

interface Lane {
  name: string;
  stop: SystemStop | null;
  /** Aborting it cancels this system's calls in flight. */
  hardStop: AbortController;
  drain(calls: PlannedCall[]): Promise<void>;
}

function stopRun(run: RunState, reason: StopReason, message: string, cancelInFlight: boolean): void {
  if (run.stop === null) {
    run.stop = { reason, message };
    run.emit({ type: 'stopping', reason, message });
  }
  if (cancelInFlight) for (const lane of run.lanes) lane.hardStop.abort(new Error(message));
}

/** One system's queue: its own workers, caps, rate and stop state. */
function createLane(run: RunState, { system, common }: RunnerSystem): Lane {
  const { options, counts } = run;
  const hardStop = new AbortController();
  // Every call in flight listens on it: more than Node's default of 10 is expected, not a leak.
  setMaxListeners(common.concurrency + 10, hardStop.signal);
  let consecutiveOutageFailures = 0;
  const lane: Lane = { name: system.name, stop: null, hardStop, drain };
  const stopped = () => run.stop !== null || lane.stop !== null;
  const stopLane = (reason: StopReason, message: string, cancelInFlight: boolean) => {
    if (lane.stop === null) {
      lane.stop = { reason, message };
      run.emit({ type: 'stopping', reason, message, system: system.name });
    }
    if (cancelInFlight) hardStop.abort(new Error(message));
  };

  const limitFor = endpointLimits(options, common);
  // Evenly spaced starts: one call every 1/rate seconds.
  const waitForRate = common.ratePerSecond
    ? pThrottle({ limit: 1, interval: 1000 / common.ratePerSecond })(() => undefined)
    : null;

  const runOne = async (call: PlannedCall): Promise<void> => {
    if (waitForRate) await waitForRate();
    if (stopped()) {
      counts.notStarted++;
      return;
    }
    const admission = options.budget?.admit(call) ?? { ok: true, reserved: 0 };
    if (!admission.ok) {
      stopLane('budget', admission.message, false);
      counts.notStarted++;
      return;
    }
    run.emit({ type: 'call-start', key: call.key });
    const record = await performCall(call, system, common, options, hardStop.signal);
    options.budget?.settle(call, admission.reserved, record);
    if (record === null) {
      // Cancelled in flight by a hard stop: not an answer of the system, so not recorded; --resume redoes it.
      counts.notStarted++;
      return;
    }
    try {
      options.writer.append(record);
    } catch (error) {
      stopRun(run, 'output', (error as Error).message, true);
      counts.notStarted++;
      return;
    }
    consecutiveOutageFailures = countRecorded(run, system.name, call, record, consecutiveOutageFailures, stopLane);
    run.emit({ type: 'call-done', record });
  };

  // A fixed pool of workers pulls calls from one iterator: memory holds the calls in flight, not a promise
  // per call of the dataset.
  async function drain(calls: PlannedCall[]): Promise<void> {
    const queue = calls.values();
    const worker = async (): Promise<void> => {
      for (let next = queue.next(); !next.done; next = queue.next()) {
        if (stopped()) {
          counts.notStarted++;
          continue;
        }
        const call = next.value;
        await limitFor(call.endpoint)(() => runOne(call));
      }
    };
    await Promise.all(Array.from({ length: Math.min(common.concurrency, Math.max(calls.length, 1)) }, worker));
  }
  return lane;
}

/** Per-endpoint caps (p-limit) inside a system's pool: each endpoint's limit, made on its first call. */
function endpointLimits(options: ExecuteOptions, common: CommonSystemOptions): (endpoint: Endpoint) => LimitFunction {
  const perEndpoint = new Map<Endpoint, LimitFunction>();
  return (endpoint) => {
    let limit = perEndpoint.get(endpoint);
    if (!limit) {
      limit = pLimit(Math.min(options.endpointConcurrency[endpoint] ?? common.concurrency, common.concurrency));
      perEndpoint.set(endpoint, limit);
    }
    return limit;
  };
}

/**
 * Counts a recorded call, and stops its system's lane on a rejected key (at once) or on the outage threshold's
 * failure in a row that looks like an outage (no new calls). Returns the failures in a row that look like an
 * outage, this call included.
 */
function countRecorded(
  run: RunState,
  systemName: string,
  call: PlannedCall,
  record: CallRecord,
  outageFailuresBefore: number,
  stopLane: (reason: StopReason, message: string, cancelInFlight: boolean) => void,
): number {
  const { counts, options } = run;
  counts.recorded++;
  if (record.status === 'ok') {
    counts.succeeded++;
    if (record.from_cache) counts.fromCache++;
    return 0;
  }
  counts.failed++;
  if (record.error?.code === 'SERVICE_AUTH') {
    stopLane(
      'auth',
      `${systemName}: the system rejected the API key (HTTP ${record.error.status}) on ${call.endpoint} for ${call.document.id}: stopping its calls at once`,
      true,
    );
    return outageFailuresBefore;
  }
  if (!looksLikeOutage(record.error)) return 0;
  const outageFailures = outageFailuresBefore + 1;
  if (outageFailures >= options.outageThreshold) {
    stopLane(
      'outage',
      `${systemName}: ${outageFailures} calls in a row failed like an outage (last: ${record.error?.message}): starting no new calls of it`,
      false,
    );
  }
  return outageFailures;
}

/**
 * Up to this size (known from validation) a document is read synchronously. fs/promises' readFile makes four
 * thread-pool round trips (open, fstat, read, close), each with its promise and FileHandle bookkeeping: about
 * 0.4 ms of main-thread CPU a call, more than everything else docbench does for a small document (
 * docs/performance.md). A synchronous read of a file this small blocks the event loop for tens of
 * microseconds; larger files keep the asynchronous read so a big scan never stalls the calls in flight.
 */
const SYNC_READ_MAX_BYTES = 1024 * 1024;

/** Reads a document once per call: the OS page cache makes repeats cheap, and nothing large stays in memory. */
async function loadDocument(document: DatasetDocument): Promise<DocumentInput> {
  if (document.file) {
    const small = document.bytes !== undefined && document.bytes <= SYNC_READ_MAX_BYTES;
    const bytes = small ? readFileSync(document.file) : await readFile(document.file);
    return {
      bytes,
      filename: path.basename(document.file),
      contentType: document.mediaType ?? 'application/octet-stream',
    };
  }
  if (document.fileUrl) return { fileUrl: document.fileUrl };
  throw new Error(`document ${document.id} has neither a file nor a fileUrl`);
}

/** The document part of the cache key: sha256 of its bytes, or its URL. */
export function documentIdentity(input: DocumentInput): string {
  return 'fileUrl' in input ? `url:${input.fileUrl}` : createHash('sha256').update(input.bytes).digest('hex');
}

/** How a call ended, before it becomes its record. */
type CallEnd = {
  attempts: number;
  latency_ms: number;
  last_attempt_ms: number;
  from_cache: boolean;
  /** A cached answer's: what the system reported when it gave it. */
  reported?: ReportedIdentity;
} & ({ status: 'ok'; result: EndpointResult } | { status: 'failed'; error: CallErrorRecord });

/** Runs one call (or serves it from the cache) and turns the outcome into its record; null if cancelled. */
async function performCall(
  call: PlannedCall,
  system: System,
  common: CommonSystemOptions,
  options: ExecuteOptions,
  signal: AbortSignal,
): Promise<CallRecord | null> {
  const startedAt = new Date().toISOString();
  let input: DocumentInput;
  let request: OperationRequest;
  try {
    input = await loadDocument(call.document);
    request = await buildRequest(call, options.dataset);
  } catch (error) {
    return toRecord(call, startedAt, {
      status: 'failed',
      attempts: 0,
      latency_ms: 0,
      last_attempt_ms: 0,
      from_cache: false,
      error: {
        code: 'INPUT_INVALID',
        message: `could not read the document or its baseline: ${(error as Error).message}`,
        retryable: false,
      },
    });
  }

  // Repeats measure the system's nondeterminism, so they always go past the cache.
  const cache = call.repeat === 0 && system.cacheable !== false ? options.cache : null;
  const key = cache
    ? cacheKey({
        service: system.identity,
        endpoint: call.endpoint,
        mode: call.mode,
        document: documentIdentity(input),
        params: cacheParams(request),
      })
    : '';
  if (cache) {
    const hit = await cache.get(key);
    if (hit) {
      const cached = toRecord(
        call,
        startedAt,
        {
          status: 'ok',
          attempts: hit.attempts,
          latency_ms: hit.latency_ms,
          last_attempt_ms: hit.last_attempt_ms,
          from_cache: true,
          result: hit.result,
          ...(hit.reported ? { reported: hit.reported } : {}),
        },
        common.price,
      );
      // A damaged entry (edited, or written by another version) is a miss: results.jsonl gets only what its reader accepts.
      try {
        return await checkCallRecord(cached, `the response cache's entry ${key}`);
      } catch (error) {
        if (!isDocbenchError(error)) throw error;
        options.logger.warn(`${error.message}; calling ${call.system} again for ${call.document.id} ${call.endpoint}`);
      }
    }
  }

  const outcome = await system.call({ document: call.document, input, request, signal, repeat: call.repeat });
  if (!outcome.ok && outcome.error.code === 'RUN_ABORTED') return null;
  const timing = {
    attempts: outcome.attempts,
    latency_ms: round(outcome.latencyMs),
    last_attempt_ms: round(outcome.lastAttemptMs),
    from_cache: false,
  };
  if (!outcome.ok)
    return toRecord(
      call,
      startedAt,
      { status: 'failed', ...timing, error: errorRecord(outcome.error) },
      common.price,
      outcome,
    );
  if (cache) {
    try {
      await cache.set(key, {
        result: outcome.result,
        attempts: timing.attempts,
        latency_ms: timing.latency_ms,
        last_attempt_ms: timing.last_attempt_ms,
        created_at: startedAt,
        ...(outcome.reported ? { reported: outcome.reported } : {}),
      });
    } catch (error) {
      options.logger.warn(`response cache not written (${(error as Error).message}); the run goes on without it`);
    }
  }
  return toRecord(call, startedAt, { status: 'ok', ...timing, result: outcome.result }, common.price, outcome);
}

/**
 * The record of one call, built as one object literal with its fields in a fixed order, then the optional
 * ones added. Not `{ ...base, more }`: on Node 20 (V8 11.3) an object spread followed by further properties
 * gives every resulting object a hidden class of its own, a new map per added property. That class metadata
 * (~2 KB a record here) is promoted by the scavenger and piles up in old space until a full GC, so the
 * runner's peak memory grew with the number of calls (bench case runner-memory, docs/performance.md).
 */
function toRecord(
  call: PlannedCall,
  startedAt: string,
  end: CallEnd,
  price: Price | null = null,
  outcome?: SystemOutcome,
): CallRecord {
  const record: Omit<CallRecord, 'endpoint' | 'mode' | 'status'> & {
    endpoint: Endpoint;
    mode: PlannedCall['mode'];
    status: CallEnd['status'];
    result?: EndpointResult;
    error?: CallErrorRecord;
  } = {
    v: RECORD_SCHEMA_VERSION,
    key: call.key,
    system: call.system,
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
  let pages: number | undefined;
  if (end.status === 'ok') {
    record.result = end.result;
    pages = pagesOf(call.endpoint, end.result);
    if (pages !== undefined) record.pages = pages;
  } else {
    record.error = end.error;
  }
  const usage = outcome?.usage;
  if (usage) record.usage = usageRecord(usage);
  // A cached answer cost nothing this time: only a call actually made is priced.
  const cost = end.from_cache
    ? undefined
    : ((outcome?.ok ? outcome.costUsd : undefined) ?? computeCost(price, usage, pages));
  if (cost !== undefined) record.cost_usd = cost;
  if (cost !== undefined && outcome?.ok && outcome.sharedCostUsd) record.shared_cost_usd = outcome.sharedCostUsd;
  if (outcome?.ok && outcome.raw !== undefined) record.raw = outcome.raw;
  const reported = outcome?.reported ?? end.reported;
  if (reported) record.reported = reported;
  // The endpoint/mode/status/result-or-error set matches by construction: the system answered for `call.endpoint`.
  return record as CallRecord;
}

/** What the system is asked besides the document. */
export async function buildRequest(call: PlannedCall, dataset: Dataset): Promise<OperationRequest> {
  switch (call.endpoint) {
    case 'extract':
      return {
        operation: 'extract',
        mode: call.mode ?? 'slow',
        schema: dataset.schema,
        customContext: call.document.customContext ?? dataset.customContext ?? null,
      };
    case 'compare':
      return {
        operation: 'compare',
        mode: null,
        baselineMarkdown: call.document.baseline.markdown ? await readUtf8File(call.document.baseline.markdown) : null,
      };
    case 'split':
      return { operation: 'split', mode: null };
    case 'process':
      return {
        operation: 'process',
        mode: null,
        params: { includeBoundingBoxes: true, extractMetadata: true, extractSignature: true, extractImages: true },
      };
  }
}

/** The parameter part of the cache key, as it was before systems existed (so earlier cache entries still hit). */
export function cacheParams(request: OperationRequest): unknown {
  switch (request.operation) {
    case 'extract':
      return { schema: request.schema, fast: request.mode === 'fast', customContext: request.customContext };
    case 'compare':
      return { baselineMarkdown: request.baselineMarkdown };
    case 'split':
      return {};
    case 'process':
      return request.params;
  }
}

function usageRecord(usage: Usage): UsageRecord {
  const record: UsageRecord = {};
  if (usage.pages !== undefined) record.pages = usage.pages;
  if (usage.inputTokens !== undefined) record.input_tokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) record.output_tokens = usage.outputTokens;
  return record;
}

/** Pages the service reported, when it reported a positive count. */
function pagesOf(endpoint: Endpoint, result: EndpointResult): number | undefined {
  // Looked at before it is trusted: a cached result is checked once its record is made.
  if (result === null || typeof result !== 'object') return undefined;
  const listed = (result as { pages?: unknown }).pages;
  const pages =
    endpoint === 'extract'
      ? (result as { pagesProcessed: number | null }).pagesProcessed
      : endpoint === 'process'
        ? (result as { pageCount: number | null }).pageCount
        : Array.isArray(listed)
          ? listed.length
          : undefined;
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
