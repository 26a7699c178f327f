/**
 * Reading results.jsonl (written by run/results-file.ts's ResultsWriter). Every line is checked against
 * the record shape. A last line without its newline is a write torn by a crash: dropped and reported, as
 * `--resume` cuts it too. Any other bad line is damage, and stops the reader with the file, line and path.
 */
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ENDPOINTS, MODES } from '../types.js';
import { RECORD_SCHEMA_VERSION, type CallRecord } from '../run/record.js';
import { checkShape, compileFileCheck, parseJsonText, type FileRole } from './check-file.js';
import { nonNegative } from './schema-parts.js';
import { runDirPath } from './layout.js';


/** One line of results.jsonl, schema version 1 or 2 (`v`; 2 adds the system and what the call cost). */
const RECORD = {
  type: 'object',
  required: ['v', 'key', 'document_id', 'endpoint', 'mode', 'repeat', 'status', 'attempts', 'latency_ms', 'started_at', 'from_cache'],
  properties: {
    v: { enum: [RECORD_SCHEMA_VERSION, 2] },
    system: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,39}$' },
    usage: { type: 'object', properties: { pages: { type: 'integer', minimum: 0 }, input_tokens: { type: 'integer', minimum: 0 }, output_tokens: { type: 'integer', minimum: 0 } } },
    cost_usd: nonNegative,
    key: { type: 'string', minLength: 1 },
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
  },
  // An extract call has a mode; the other endpoints have none.
  if: { properties: { endpoint: { const: 'extract' } } },
  then: { properties: { mode: { enum: [...MODES] } } },
  else: { properties: { mode: { type: 'null' } } },
} as const;

const checkRecord = compileFileCheck<CallRecord>(RECORD);

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
 * line is skipped and reported in `issues`. @throws UsageError (exit 2) on any other line that is not a record.
 */
export async function* readResults(runDir: string, issues: ReadIssue[] = []): AsyncGenerator<CallRecord> {
  const role = resultsRole(runDir);
  if (!existsSync(role.file)) return;
  const lines = createInterface({ input: createReadStream(role.file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  let pending: string | null = null;
  for await (const line of lines) {
    if (pending !== null && pending.trim() !== '') yield parseRecord(pending, number, role);
    number++;
    pending = line;
  }
  if (pending !== null && pending.trim() !== '') {
    // readline cannot tell whether the last line had its newline: check the file's last byte.
    if (endsWithNewline(role.file)) yield parseRecord(pending, number, role);
    else issues.push({ line: number, problem: 'torn last line (the run was killed mid-write): dropped' });
  }
}

function parseRecord(line: string, number: number, role: FileRole): CallRecord {
  return checkShape(parseJsonText(line, role, number), checkRecord, role, number);
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
export async function readFinalRecords(runDir: string, issues: ReadIssue[] = []): Promise<CallRecord[]> {
  const latest = new Map<string, CallRecord>();
  for await (const record of readResults(runDir, issues)) latest.set(record.key, record);
  return [...latest.values()];
}
