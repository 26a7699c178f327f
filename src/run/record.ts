/**
 * One line of results.jsonl: one finished call. Raw and durable: everything later stages need is here, so
 * scores and reports can be rebuilt without calling the service again.
 */
import type { Endpoint, Mode } from '../types.js';
import type { CompareResult, ExtractResult, ProcessResult, SplitResult } from '../service/types.js';

export const RECORD_SCHEMA_VERSION = 1;

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

interface CallRecordBase {
  v: typeof RECORD_SCHEMA_VERSION | 2;
  /** The configured system that answered (version 2); a version-1 record belongs to the run's single system. */
  system?: string;
  /** What the call consumed, as the system reported it (version 2). */
  usage?: { pages?: number; input_tokens?: number; output_tokens?: number };
  /** USD, from the system's price and usage; absent when the system has no price (version 2). */
  cost_usd?: number;
  /** `${document_id}|${endpoint}|${mode ?? '-'}|${repeat}`: unique within a run. */
  key: string;
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
}

export type CallRecord =
  | (CallRecordBase & { endpoint: 'extract'; mode: Mode; result?: ExtractResult })
  | (CallRecordBase & { endpoint: 'compare'; mode: null; result?: CompareResult })
  | (CallRecordBase & { endpoint: 'split'; mode: null; result?: SplitResult })
  | (CallRecordBase & { endpoint: 'process'; mode: null; result?: ProcessResult });

export function callKey(documentId: string, endpoint: Endpoint, mode: Mode | null, repeat: number): string {
  return `${documentId}|${endpoint}|${mode ?? '-'}|${repeat}`;
}
