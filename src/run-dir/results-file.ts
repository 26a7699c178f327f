/**
 * Reading results.jsonl (written by results-writer.ts's ResultsWriter). Every line is checked against
 * the record shape. A last line without its newline is a write torn by a crash: dropped and reported, as
 * `--resume` cuts it too. Any other bad line is damage, and stops the reader with the file, line and path.
 */
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ENDPOINTS, MODES } from '../types.js';
import { RECORD_SCHEMA_VERSION, upgradeRecord, type CallRecord } from './record.js';
import { checkShape, defineFileCheck, parseJsonText, type FileRole } from './check-file.js';
import { nonNegative } from './schema-parts.js';
import { runDirPath } from './layout.js';


/**
 * One line of results.jsonl, schema version 2 (`v`), or 1 — the same without `system`, `usage`, `cost_usd`
 * and `raw` (runs made before systems; read as calls of the run's single system, see `upgradeRecord`).
 */
const RECORD = {
  type: 'object',
  required: ['v', 'key', 'document_id', 'endpoint', 'mode', 'repeat', 'status', 'attempts', 'latency_ms', 'started_at', 'from_cache'],
  properties: {
    v: { enum: [1, RECORD_SCHEMA_VERSION] },
    key: { type: 'string', minLength: 1 },
    system: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,39}$' },
    document_id: { type: 'string' },
    endpoint: { enum: [...ENDPOINTS] },
    mode: { enum: [...MODES, null] },
    repeat: { type: 'integer', minimum: 0 },
    status: { enum: ['ok', 'failed'] },
    attempts: { type: 'integer', minimum: 0 },
    latency_ms: nonNegative,
    last_attempt_ms: nonNegative,
    started_at: { type: 'string' },
    from_cache: { type: 'boolean' },
    pages: { type: 'integer', minimum: 0 },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } },
    result: { type: 'object' },
    usage: { type: 'object', properties: { pages: { type: 'integer', minimum: 0 }, input_tokens: { type: 'integer', minimum: 0 }, output_tokens: { type: 'integer', minimum: 0 } } },
    cost_usd: nonNegative,
  },
  allOf: [
    // An extract call has a mode; the other endpoints have none.
    {
      if: { properties: { endpoint: { const: 'extract' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
      then: { properties: { mode: { enum: [...MODES] } } },
      else: { properties: { mode: { type: 'null' } } },
    },
    // Version 2 names its system.
    {
      if: { properties: { v: { const: RECORD_SCHEMA_VERSION } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
      then: { required: ['system'] },
    },
  ],
} as const;

const checkRecord = defineFileCheck<CallRecord>('call-record', RECORD);

/** A line the reader dropped (only ever a torn last line). */
export interface ReadIssue {
  line: number;
  problem: string;
}

function resultsRole(runDir: string): FileRole {
  return { file: runDirPath(runDir, 'results'), hint: 'results.jsonl is the raw record of the calls: restore it from a copy, or delete the damaged line and rerun with --resume to call those documents again' };
}

/**
 * Streams the records of `runDir`'s results.jsonl (none when the file does not exist yet). A torn last
 * line is skipped and reported in `issues`. Version-1 lines are read as calls of `v1System`, the run's
 * single system (`v1SystemName` of its manifest). @throws UsageError (exit 2) on any other line that is
 * not a record.
 */
export async function* readResults(runDir: string, v1System: string, issues: ReadIssue[] = []): AsyncGenerator<CallRecord> {
  const role = resultsRole(runDir);
  if (!existsSync(role.file)) return;
  const lines = createInterface({ input: createReadStream(role.file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  let pending: string | null = null;
  for await (const line of lines) {
    if (pending !== null && pending.trim() !== '') yield parseRecord(pending, number, role, v1System);
    number++;
    pending = line;
  }
  if (pending !== null && pending.trim() !== '') {
    // readline cannot tell whether the last line had its newline: check the file's last byte.
    if (endsWithNewline(role.file)) yield parseRecord(pending, number, role, v1System);
    else issues.push({ line: number, problem: 'torn last line (the run was killed mid-write): dropped' });
  }
}

function parseRecord(line: string, number: number, role: FileRole, v1System: string): CallRecord {
  // The shape check guarantees `key` and a `system` on version 2: upgrading cannot fail.
  return upgradeRecord(checkShape(parseJsonText(line, role, number), checkRecord, role, number), v1System)!;
}

function endsWithNewline(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 10;
  } finally {
    closeSync(fd);
  }
}

/**
 * The final record of every call: a later line for the same key (a retry on --resume) replaces an earlier
 * one. Holds one record per call in memory, never one per line.
 */
export async function readFinalRecords(runDir: string, v1System: string, issues: ReadIssue[] = []): Promise<CallRecord[]> {
  const latest = new Map<string, CallRecord>();
  for await (const record of readResults(runDir, v1System, issues)) latest.set(record.key, record);
  return [...latest.values()];
}
