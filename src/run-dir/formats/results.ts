/**
 * results.jsonl: one line per finished call (written by run/results-file.ts). Each endpoint's line has its
 * own format, and within it a successful call carries that endpoint's result and a failed one its error,
 * so a damaged line is named by file, line and JSON path before any scorer reads it. The results are the
 * endpoints' formats (src/endpoint-results.ts), what the service client returns.
 */
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import {
  CompareResultFormat,
  ExtractResultFormat,
  ProcessResultFormat,
  SplitResultFormat,
} from '../../endpoint-results.js';
import { RECORD_SCHEMA_VERSION } from '../record.js';
import { defineFileCheck } from '../check-file.js';
import { count, mode, nonNegative, systemName } from '../../format-parts.js';

/** What went wrong with a failed call, without secrets. */
export const CallErrorFormat = Type.Object({
  /** DocbenchError code, e.g. SERVICE_HTTP, SERVICE_TIMEOUT, SERVICE_RESPONSE_INVALID. */
  code: Type.String(),
  message: Type.String(),
  /** HTTP status of the last attempt, when there was a response. */
  status: Type.Optional(Type.Integer()),
  /** The service's own error code, e.g. `invalid_file_format`. */
  serviceCode: Type.Optional(Type.String()),
  retryable: Type.Boolean(),
  /** First few hundred characters of the body, redacted. */
  bodyExcerpt: Type.Optional(Type.String()),
});

/** What one call consumed, as the system reported it. */
export const UsageFormat = Type.Object({
  pages: Type.Optional(count),
  input_tokens: Type.Optional(count),
  output_tokens: Type.Optional(count),
});

/**
 * What the system said it was in this answer (model snapshot, fingerprint, API or model version), by the
 * provider's own names (docs/run-directory.md, "Reported identity").
 */
export const ReportedFormat = Type.Record(Type.String({ minLength: 1 }), Type.String());

/** What every call's line has, whatever its endpoint and status. */
const callProperties = {
  v: Type.Literal(RECORD_SCHEMA_VERSION),
  /** `${system}|${document_id}|${endpoint}|${mode ?? '-'}|${repeat}`: unique within a run. */
  key: Type.String({ minLength: 1 }),
  /** The configured name of the system that answered (`local`, `service`, `incumbent`, …). */
  system: systemName,
  document_id: Type.String(),
  /** 0-based index of the repetition (`--repeat N`). */
  repeat: count,
  /** HTTP attempts made (1 = no retry). 0 when served from the cache. */
  attempts: count,
  /** Client wall time of the whole call including retries and backoff, ms. */
  latency_ms: nonNegative,
  /** Wall time of the last attempt alone, ms: the service's latency without our backoff. */
  last_attempt_ms: nonNegative,
  started_at: Type.String(),
  from_cache: Type.Boolean(),
  /** Pages in the document as the service reported them, when it did. */
  pages: Type.Optional(count),
  usage: Type.Optional(UsageFormat),
  /** USD, from the system's `price` and the usage (or as a stored system's meta.json says); absent without a price. */
  cost_usd: Type.Optional(nonNegative),
  /**
   * Of `cost_usd`, USD another record of the run counts too: a reader's answer shared by pipelines
   * (docs/systems.md, "Shared reads"), which each of them includes while the provider charged it once.
   * Run-wide sums (`--max-cost`) subtract it, so they count that answer once. Absent: nothing shared.
   */
  shared_cost_usd: Type.Optional(nonNegative),
  /** The provider's own response, redacted and size-capped, for kinds that normalise it. */
  raw: Type.Optional(Type.Unknown()),
  /** What the system reported itself to be in this answer; absent when its responses say nothing of it. */
  reported: Type.Optional(ReportedFormat),
};

/** The two lines of one endpoint: a success with its result, a failure with its error. */
function callFormats<E extends string, M extends TProperties, R extends TObject>(
  endpoint: E,
  modeProperty: M,
  result: R,
) {
  const head = { ...callProperties, endpoint: Type.Literal(endpoint), ...modeProperty };
  return [
    Type.Object({ ...head, status: Type.Literal('ok'), result }),
    Type.Object({ ...head, status: Type.Literal('failed'), error: CallErrorFormat }),
  ] as const;
}

const noMode = { mode: Type.Null() };
export const ExtractCallFormats = callFormats('extract', { mode }, ExtractResultFormat);
export const CompareCallFormats = callFormats('compare', noMode, CompareResultFormat);
export const SplitCallFormats = callFormats('split', noMode, SplitResultFormat);
export const ProcessCallFormats = callFormats('process', noMode, ProcessResultFormat);
const CALL_FORMATS = [...ExtractCallFormats, ...CompareCallFormats, ...SplitCallFormats, ...ProcessCallFormats];

/** One line of results.jsonl (version 2). */
export type CallRecordFormat = Static<(typeof CALL_FORMATS)[number]>;

/**
 * The check of a line: the line's `endpoint` and `status` pick its one format (a plain union would report
 * the first format's mismatch, "endpoint must be extract", for a damaged compare line). A version-1 line is
 * the same without `system`.
 */
const RECORD = {
  type: 'object',
  required: ['v', 'endpoint', 'status'],
  properties: {
    v: { enum: [1, RECORD_SCHEMA_VERSION] },
    endpoint: { enum: [...new Set(CALL_FORMATS.map((f) => f.properties.endpoint.const))] },
    status: { enum: ['ok', 'failed'] },
  },
  allOf: CALL_FORMATS.map((format) => ({
    if: {
      properties: {
        endpoint: { const: format.properties.endpoint.const },
        status: { const: format.properties.status.const },
      },
    },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
    then: {
      ...format,
      properties: { ...format.properties, v: { enum: [1, RECORD_SCHEMA_VERSION] } },
      // Version 1 had no system: required only from version 2 on.
      required: format.required?.filter((name) => name !== 'system'),
      if: { properties: { v: { const: RECORD_SCHEMA_VERSION } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
      then: { required: ['system'] },
    },
  })),
};

export const checkRecord = defineFileCheck<
  CallRecordFormat | (Omit<CallRecordFormat, 'v' | 'system'> & { v: 1; system?: undefined })
>('call-record', RECORD);
