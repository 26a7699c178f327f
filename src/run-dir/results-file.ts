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

function parseRecord(line: string, number: number, role: FileRole, check: FileCheck<Parameters<typeof upgradeRecord>[0]>, v1System: string): CallRecord {
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
export async function readFinalRecords(runDir: string, v1System: string, issues: ReadIssue[] = []): Promise<CallRecord[]> {
  const latest = new Map<string, CallRecord>();
  for await (const record of readResults(runDir, v1System, issues)) latest.set(record.key, record);
  return [...latest.values()];
}
