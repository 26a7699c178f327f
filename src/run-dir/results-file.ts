/**
 * Reading results.jsonl (written by results-writer.ts's ResultsWriter). Every line is checked against
 * its endpoint's format (formats/results.ts). A last line without its newline is a write torn by a crash: dropped and reported, as
 * `--resume` cuts it too. Any other bad line is damage, and stops the reader with the file, line and path.
 */
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { upgradeRecord, type CallRecord } from './record.js';
import { checkShape, parseJsonText, type FileCheck, type FileRole } from './check-file.js';
import { runDirPath } from './layout.js';
import { createInterner, type Interner } from './intern.js';

/** A line the reader dropped (only ever a torn last line). */
export interface ReadIssue {
  line: number;
  problem: string;
}

function resultsRole(runDir: string): FileRole {
  return {
    file: runDirPath(runDir, 'results'),
    hint: 'results.jsonl is the raw record of the calls: restore it from a copy, or delete the damaged line and rerun with --resume to call those documents again',
  };
}

/**
 * Streams the records of `runDir`'s results.jsonl (none when the file does not exist yet). A torn last
 * line is skipped and reported in `issues`. Version-1 lines are read as calls of `v1System`, the run's
 * single system (`v1SystemName` of its manifest). @throws UsageError (exit 2) on any other line that is
 * not a record.
 */
export async function* readResults(
  runDir: string,
  v1System: string,
  issues: ReadIssue[] = [],
): AsyncGenerator<CallRecord> {
  const role = resultsRole(runDir);
  if (!existsSync(role.file)) return;
  const { checkRecord } = await import('./formats/results.js');
  const lines = createInterface({ input: createReadStream(role.file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  let pending: string | null = null;
  for await (const line of lines) {
    if (pending !== null && pending.trim() !== '') yield parseRecord(pending, number, role, checkRecord, v1System);
    number++;
    pending = line;
  }
  if (pending !== null && pending.trim() !== '') {
    // readline cannot tell whether the last line had its newline: check the file's last byte.
    if (endsWithNewline(role.file)) yield parseRecord(pending, number, role, checkRecord, v1System);
    else issues.push({ line: number, problem: 'torn last line (the run was killed mid-write): dropped' });
  }
}

/**
 * Checks a record that was not read from results.jsonl (the runner's, made from a cached answer) as the
 * reader checks a line, so a damaged cache entry is caught before it is written into a run.
 * @throws UsageError naming `source`, the JSON path and what was expected.
 */
export async function checkCallRecord(record: CallRecord, source: string): Promise<CallRecord> {
  const { checkRecord } = await import('./formats/results.js');
  return checkShape(record, checkRecord, { file: source, hint: 'it is not used' }) as CallRecord;
}

function parseRecord(
  line: string,
  number: number,
  role: FileRole,
  check: FileCheck<Parameters<typeof upgradeRecord>[0]>,
  v1System: string,
): CallRecord {
  // The shape check guarantees `key` and a `system` on version 2: upgrading cannot fail.
  return upgradeRecord(checkShape(parseJsonText(line, role, number), check, role, number), v1System)!;
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
export async function readFinalRecords(
  runDir: string,
  v1System: string,
  issues: ReadIssue[] = [],
): Promise<CallRecord[]> {
  const latest = new Map<string, CallRecord>();
  for await (const record of readResults(runDir, v1System, issues)) latest.set(record.key, record);
  return [...latest.values()];
}

/** Where a record's line is in results.jsonl: its byte offset and length (without the newline). */
export interface RecordLocation {
  offset: number;
  length: number;
}

/** A call's final record as its stub, and where its full line is. */
export interface FinalRecordEntry {
  record: CallRecord;
  at: RecordLocation;
}

/** Each call's final record as its stub, and where its full line is, by call key (indexFinalRecords). */
export type FinalRecordIndex = Map<string, FinalRecordEntry>;

/** An index of results.jsonl already read, with the lines it dropped: handed on so the file is not read twice. */
export interface ReadRecordIndex {
  index: FinalRecordIndex;
  issues: ReadIssue[];
}

/**
 * The final records of `runDir` as `readFinalRecords` gives them, but each as its stub (`toRecordStub`) — what
 * counting calls, attempts and cost needs — and where its full line is, for `openRecordReader`. So a large
 * run's scoring holds one small record per call, never every response's text at once.
 */
export async function indexFinalRecords(
  runDir: string,
  v1System: string,
  issues: ReadIssue[] = [],
): Promise<FinalRecordIndex> {
  const role = resultsRole(runDir);
  const latest: FinalRecordIndex = new Map();
  if (!existsSync(role.file)) return latest;
  const intern = createInterner();
  const { checkRecord } = await import('./formats/results.js');
  for await (const line of readLines(role.file)) {
    if (line.text.trim() === '') continue;
    if (!line.terminated) {
      issues.push({ line: line.number, problem: 'torn last line (the run was killed mid-write): dropped' });
      continue;
    }
    const record = parseRecord(line.text, line.number, role, checkRecord, v1System);
    latest.set(record.key, { record: toRecordStub(record, intern), at: { offset: line.offset, length: line.length } });
  }
  return latest;
}

/**
 * A record without its response (`result`, `raw`) and without what only its full form is read for (`started_at`,
 * `last_attempt_ms`, `latency_ms`, `usage`, `pages`; `reported` is kept for run.json's tally): a fresh object of one shape, its repeated strings shared,
 * since a large run holds one per call (docs/performance.md, "Scale"). Typed as the record it stands for.
 */
export function toRecordStub(record: CallRecord, intern: Interner): CallRecord {
  const stub: Record<string, unknown> = {
    v: record.v,
    key: record.key,
    system: intern(record.system),
    document_id: intern(record.document_id),
    repeat: record.repeat,
    endpoint: intern(record.endpoint),
    mode: intern(record.mode),
    status: intern(record.status),
    attempts: record.attempts,
    from_cache: record.from_cache,
  };
  if (record.cost_usd !== undefined) stub.cost_usd = record.cost_usd;
  if (record.reported !== undefined) stub.reported = record.reported;
  if (record.status === 'failed') stub.error = record.error;
  return stub as unknown as CallRecord;
}

/**
 * Reads full records back from results.jsonl at the locations `indexFinalRecords` gave. Close it after. The reads
 * are synchronous: the file was just written (or read to index it), so each line comes from the page cache in
 * microseconds, where an asynchronous read costs a thread-pool round trip; 2,000 of those were most of the
 * main thread's time while a run was scored (docs/performance.md, "Runner").
 */
export function openRecordReader(
  runDir: string,
  v1System: string,
): { read(at: RecordLocation): Promise<CallRecord>; close(): Promise<void> } {
  const role = resultsRole(runDir);
  // Opened with the first read: a run scored from baseline files alone may have no results.jsonl.
  let fd: number | undefined;
  // The format's module, imported once for the reader rather than once per record.
  let format: Promise<typeof import('./formats/results.js')> | undefined;
  return {
    async read(at) {
      format ??= import('./formats/results.js');
      const { checkRecord } = await format;
      fd ??= openSync(role.file, 'r');
      const buffer = Buffer.alloc(at.length);
      let filled = 0;
      // A file cut short since it was indexed gives a partial line, which the check reports with the file's name.
      for (let bytesRead = 1; filled < at.length && bytesRead > 0; filled += bytesRead)
        bytesRead = readSync(fd, buffer, filled, at.length - filled, at.offset + filled);
      return parseRecord(buffer.toString('utf8', 0, filled), 0, role, checkRecord, v1System);
    },
    close: async () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * The lines of a file with their byte offsets (readline gives none). `number` counts from 1, as messages do; `terminated` is false for a last line without its newline. A CR before the newline is not part
 * of the line.
 */
async function* readLines(
  file: string,
): AsyncGenerator<{ text: string; offset: number; length: number; number: number; terminated: boolean }> {
  let carry = Buffer.alloc(0);
  let carryOffset = 0;
  let number = 1;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let newline = data.indexOf(10, start); newline !== -1; newline = data.indexOf(10, start)) {
      const end = newline > start && data[newline - 1] === 13 ? newline - 1 : newline;
      yield {
        text: data.toString('utf8', start, end),
        offset: carryOffset + start,
        length: end - start,
        number: number++,
        terminated: true,
      };
      start = newline + 1;
    }
    carryOffset += start;
    data = data.subarray(start);
    carry = Buffer.from(data);
  }
  if (carry.length > 0)
    yield { text: carry.toString('utf8'), offset: carryOffset, length: carry.length, number, terminated: false };
}
