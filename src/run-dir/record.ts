/**
 * One line of results.jsonl: one finished call of one system. Raw and durable: everything later stages need
 * is here, so scores and reports can be rebuilt without calling any system again.
 *
 * Version 2 (several systems in one run, docs/systems.md) added `system` (and put it first in `key`), `usage`, `cost_usd` and `raw`. A version-1
 * line is read as a call of the run's single system (see `upgradeRecord`).
 */
import type { Endpoint, Mode } from '../types.js';
import type { CompareResult, ExtractResult, ProcessResult, SplitResult } from '../service/index.js';

export const RECORD_SCHEMA_VERSION = 2;

/** What went wrong with a failed call, without secrets. */
export interface CallErrorRecord {
  /** DocbenchError code, e.g. SERVICE_HTTP, SERVICE_TIMEOUT, SERVICE_RESPONSE_INVALID. */
  code: string;
  message: string;
  /** HTTP status of the last attempt, when there was a response. */
  status?: number;
  /** The service's own error code, e.g. `invalid_file_format`. */
  serviceCode?: string;
  retryable: boolean;
  /** First few hundred characters of the body, redacted. */
  bodyExcerpt?: string;
}

/** What one call consumed, as the system reported it. */
export interface UsageRecord {
  pages?: number;
  input_tokens?: number;
  output_tokens?: number;
}

interface CallRecordBase {
  v: typeof RECORD_SCHEMA_VERSION;
  /** `${system}|${document_id}|${endpoint}|${mode ?? '-'}|${repeat}`: unique within a run. */
  key: string;
  /** The configured name of the system that answered (`local`, `service`, `incumbent`, …). */
  system: string;
  document_id: string;
  /** 0-based index of the repetition (`--repeat N`). */
  repeat: number;
  status: 'ok' | 'failed';
  /** HTTP attempts made (1 = no retry). 0 when served from the cache. */
  attempts: number;
  /** Client wall time of the whole call including retries and backoff, ms. */
  latency_ms: number;
  /** Wall time of the last attempt alone, ms: the service's latency without our backoff. */
  last_attempt_ms: number;
  started_at: string;
  from_cache: boolean;
  /** Pages in the document as the service reported them, when it did. */
  pages?: number;
  error?: CallErrorRecord;
  usage?: UsageRecord;
  /** USD, from the system's `price` and the usage (or as a stored system's meta.json says); absent without a price. */
  cost_usd?: number;
  /** The provider's own response, redacted and size-capped, for kinds that normalise it. */
  raw?: unknown;
}

export type CallRecord =
  | (CallRecordBase & { endpoint: 'extract'; mode: Mode; result?: ExtractResult })
  | (CallRecordBase & { endpoint: 'compare'; mode: null; result?: CompareResult })
  | (CallRecordBase & { endpoint: 'split'; mode: null; result?: SplitResult })
  | (CallRecordBase & { endpoint: 'process'; mode: null; result?: ProcessResult });

export function callKey(system: string, documentId: string, endpoint: Endpoint, mode: Mode | null, repeat: number): string {
  return `${system}|${documentId}|${endpoint}|${mode ?? '-'}|${repeat}`;
}

/**
 * A version-1 record (no `system`) as the version-2 record of `system`, the run's single system; version-2
 * records are returned as they are. Null when `value` is neither.
 */
export function upgradeRecord(value: { v?: unknown; key?: unknown; system?: unknown }, system: string): CallRecord | null {
  if (typeof value.key !== 'string') return null;
  if (value.v === RECORD_SCHEMA_VERSION) return typeof value.system === 'string' ? (value as CallRecord) : null;
  if (value.v !== 1) return null;
  return { ...value, v: RECORD_SCHEMA_VERSION, key: `${system}|${value.key}`, system } as CallRecord;
}
