/**
 * results.jsonl: one line per finished call, appended in completion order through one synchronous writer so
 * lines never interleave. A write() that returned is in the OS page cache and survives a crash of this
 * process (SIGKILL included); fsync at close also covers a crash of the machine for completed runs. The
 * reader, which validates every line, is src/run-dir/results-file.ts.
 *
 * A run's writer that starts the file also indexes it as it writes (`writtenIndex`): the run scores from that
 * instead of reading the file back after its last call (docs/performance.md, "Runner").
 */
import { closeSync, existsSync, fsyncSync, openSync, readSync, fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { unwritable } from '../fs-utils.js';
import type { Redactor } from '../service/index.js';
import type { CallRecord } from './record.js';
import { createInterner } from './intern.js';
import { toRecordStub, type FinalRecordIndex } from './results-file.js';

export class ResultsWriter {
  /**
   * The final record of every call written, as `indexFinalRecords` reads it back; null when not asked for, or
   * when the file already held lines (a resumed run), which only a read of the file indexes.
   */
  private readonly index: FinalRecordIndex | null;
  private readonly intern = createInterner();

  /**
   * @param end where the next line goes: the file's size, kept here instead of asking the file system before
   *   every append (this writer is the file's only one).
   */
  private constructor(
    private readonly file: string,
    private fd: number | null,
    private readonly redact: Redactor,
    private end: number,
    index: boolean,
  ) {
    this.index = index && end === 0 ? new Map() : null;
  }

  /**
   * Opens for appending; a torn last line (a crash mid-write) is cut off first so the file stays valid.
   * `redact` removes the API key from every line, should a service echo it inside a result. With `index`, the
   * writer keeps the index of what it writes (`writtenIndex`).
   */
  static open(file: string, redact: Redactor = (text) => text, { index = false } = {}): ResultsWriter {
    let fd: number;
    let end: number;
    try {
      fd = openSync(file, existsSync(file) ? 'r+' : 'w+');
      end = truncateTornTail(fd);
    } catch (error) {
      throw unwritable(file, error);
    }
    return new ResultsWriter(file, fd, redact, end, index);
  }

  append(record: CallRecord): void {
    if (this.fd === null) throw new Error(`results writer for ${this.file} is closed`);
    const json = JSON.stringify(record);
    const redacted = this.redact(json);
    const line = Buffer.from(`${redacted}\n`, 'utf8');
    const position = this.end;
    try {
      // write(2) may write only part of the line (a disk filling up, a file-size limit): keep writing the
      // rest; a line is recorded only once all of it is in the file.
      for (let written = 0; written < line.length; )
        written += writeSync(this.fd, line, written, line.length - written, position + written);
    } catch (error) {
      // Cut off whatever part of the line made it, so the file never holds a torn line that a later append
      // would glue onto the next record (both would then be unreadable).
      try {
        ftruncateSync(this.fd, position);
      } catch {
        // Nothing more to do: the reader drops a torn last line, and --resume truncates it on open.
      }
      throw unwritable(this.file, error);
    }
    this.end = position + line.length;
    // The stub is of the line as written: a secret the redactor took out of an error message stays out.
    const written = redacted === json ? record : (JSON.parse(redacted) as CallRecord);
    this.index?.set(record.key, {
      record: toRecordStub(written, this.intern),
      at: { offset: position, length: line.length - 1 },
    });
  }

  /** The index of what this writer wrote (see `index`); null unless opened with `index` on a new file. */
  writtenIndex(): FinalRecordIndex | null {
    return this.index;
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

/** Cuts the file after its last newline (whatever follows is a line torn by a crash); returns its new size. */
function truncateTornTail(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
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
      return keep;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
  return 0;
}
