/**
 * results.jsonl: one line per finished call, appended in completion order through one synchronous writer so
 * lines never interleave. A write() that returned is in the OS page cache and survives a crash of this
 * process (SIGKILL included); fsync at close also covers a crash of the machine for completed runs.
 */
import { closeSync, existsSync, fsyncSync, openSync, readSync, fstatSync, ftruncateSync, writeSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { unwritable } from '../fs-utils.js';
import type { Redactor } from '../service/redact.js';
import { RECORD_SCHEMA_VERSION, type CallRecord } from './record.js';

export const RESULTS_FILE = 'results.jsonl';

export class ResultsWriter {
  private constructor(
    private readonly file: string,
    private fd: number | null,
    private readonly redact: Redactor,
  ) {}

  /**
   * Opens for appending; a torn last line (a crash mid-write) is cut off first so the file stays valid.
   * `redact` removes the API key from every line, should a service echo it inside a result.
   */
  static open(file: string, redact: Redactor = (text) => text): ResultsWriter {
    let fd: number;
    try {
      fd = openSync(file, existsSync(file) ? 'r+' : 'w+');
      truncateTornTail(fd);
    } catch (error) {
      throw unwritable(file, error);
    }
    return new ResultsWriter(file, fd, redact);
  }

  append(record: CallRecord): void {
    if (this.fd === null) throw new Error(`results writer for ${this.file} is closed`);
    const line = Buffer.from(`${this.redact(JSON.stringify(record))}\n`, 'utf8');
    let position = -1;
    try {
      position = fstatSync(this.fd).size;
      // write(2) may write only part of the line (a disk filling up, a file-size limit): keep writing the
      // rest; a line is recorded only once all of it is in the file.
      for (let written = 0; written < line.length; ) written += writeSync(this.fd, line, written, line.length - written, position + written);
    } catch (error) {
      // Cut off whatever part of the line made it, so the file never holds a torn line that a later append
      // would glue onto the next record (both would then be unreadable).
      if (position >= 0) {
        try {
          ftruncateSync(this.fd, position);
        } catch {
          // Nothing more to do: the reader drops a torn last line, and --resume truncates it on open.
        }
      }
      throw unwritable(this.file, error);
    }
  }

  close(): void {
    if (this.fd === null) return;
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.fd = null;
    }
  }
}

/** Cuts the file after its last newline: whatever follows is a line torn by a crash. */
function truncateTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const chunk = Buffer.alloc(Math.min(size, 1 << 20));
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const length = end - start;
    readSync(fd, chunk, 0, length, start);
    const at = chunk.subarray(0, length).lastIndexOf(10);
    if (at !== -1) {
      const keep = start + at + 1;
      if (keep < size) ftruncateSync(fd, keep);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

export interface ReadIssue {
  line: number;
  problem: string;
}

/**
 * Streams the records of a results file. A last line without its newline is a torn write and is skipped
 * (reported in `issues`); a malformed line elsewhere is reported and skipped too.
 */
export async function* readResults(file: string, issues: ReadIssue[] = []): AsyncGenerator<CallRecord> {
  if (!existsSync(file)) return;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  let pending: string | null = null;
  for await (const line of lines) {
    if (pending !== null) {
      const record = parseLine(pending, number, issues);
      if (record) yield record;
    }
    number++;
    pending = line;
  }
  if (pending !== null && pending !== '') {
    // readline cannot tell whether the last line had its newline: check the file's last byte.
    const torn = !(await endsWithNewline(file));
    if (torn) issues.push({ line: number, problem: 'torn last line (the run was killed mid-write): dropped' });
    else {
      const record = parseLine(pending, number, issues);
      if (record) yield record;
    }
  }
}

function parseLine(line: string, number: number, issues: ReadIssue[]): CallRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    const record = JSON.parse(line) as CallRecord;
    if (record.v !== RECORD_SCHEMA_VERSION || typeof record.key !== 'string') {
      issues.push({ line: number, problem: `not a docbench v${RECORD_SCHEMA_VERSION} record` });
      return undefined;
    }
    return record;
  } catch {
    issues.push({ line: number, problem: 'not valid JSON' });
    return undefined;
  }
}

async function endsWithNewline(file: string): Promise<boolean> {
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
export async function readFinalRecords(file: string, issues: ReadIssue[] = []): Promise<CallRecord[]> {
  const latest = new Map<string, CallRecord>();
  for await (const record of readResults(file, issues)) latest.set(record.key, record);
  return [...latest.values()];
}
