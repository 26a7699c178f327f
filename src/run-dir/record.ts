/**
 * One line of results.jsonl: one finished call of one system. Raw and durable: everything later stages need
 * is here, so scores and reports can be rebuilt without calling any system again.
 *
 * Version 2 (several systems in one run, docs/systems.md) added `system` (and put it first in `key`), `usage`, `cost_usd` and `raw`. A version-1
 * line is read as a call of the run's single system (see `upgradeRecord`).
 */
import type { Endpoint, Mode } from '../types.js';
import type { Static } from '@sinclair/typebox';
import type { CallErrorFormat, CallRecordFormat, UsageFormat } from './formats/results.js';

export const RECORD_SCHEMA_VERSION = 2;

/** What went wrong with a failed call, without secrets. */
export type CallErrorRecord = Static<typeof CallErrorFormat>;

/** What one call consumed, as the system reported it. */
export type UsageRecord = Static<typeof UsageFormat>;

/**
 * One line: per endpoint, a successful call with that endpoint's result or a failed one with its error
 * (the format and its documentation: formats/results.ts).
 */
export type CallRecord = CallRecordFormat;

export function callKey(
  system: string,
  documentId: string,
  endpoint: Endpoint,
  mode: Mode | null,
  repeat: number,
): string {
  return `${system}|${documentId}|${endpoint}|${mode ?? '-'}|${repeat}`;
}

/**
 * A version-1 record (no `system`) as the version-2 record of `system`, the run's single system; version-2
 * records are returned as they are. Null when `value` is neither.
 */
export function upgradeRecord(
  value: { v?: unknown; key?: unknown; system?: unknown },
  system: string,
): CallRecord | null {
  if (typeof value.key !== 'string') return null;
  if (value.v === RECORD_SCHEMA_VERSION) return typeof value.system === 'string' ? (value as CallRecord) : null;
  if (value.v !== 1) return null;
  return { ...value, v: RECORD_SCHEMA_VERSION, key: `${system}|${value.key}`, system } as CallRecord;
}
