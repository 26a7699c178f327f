/**
 * Reads many small files, in order, on a few worker threads that use synchronous calls. For a file of a few
 * KiB, node:fs's thread pool costs four round trips (open, fstat, read, close), and queueing them kept the
 * main thread busier than the reads did; synchronous reads on the main thread instead wait on the disk one
 * file at a time when the files are not in the page cache. Workers keep several reads outstanding, use the
 * second core for the system calls, and answer a batch of files with one message (
 * docs/performance.md).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** A file of the list: its size and, when it is at most `maxBytes`, its bytes. */
export interface ReadFile {
  size: number;
  bytes?: Buffer;
}

/**
 * Below this many files the calling thread reads them itself: starting the workers took 0.4–0.7 s on the
 * loaded 2-core machine, a small file in the page cache ~10 µs to read synchronously.
 */
const POOL_MIN_FILES = 4096;
/** Outstanding reads for a cold disk; also the number of workers. */
const WORKERS = 4;
/** Files a worker reads per message… */
const BATCH_FILES = 256;
/** …unless they add up to this many bytes first: the rest of the batch goes back in the queue. */
const BATCH_BYTES = 4 * 1024 * 1024;
/**
 * Read ahead of the consumer at most (files, and bytes waiting to be consumed), so memory stays bounded when
 * the consumer is the slower side (hashing files that the page cache hands out faster).
 */
const AHEAD_FILES = 2048;
const AHEAD_BYTES = 64 * 1024 * 1024;

/** What a worker answers for a batch [start, end): the files [start, start + sizes.length) it read. */
interface BatchReply {
  start: number;
  end: number;
  /** Per file read, its size; the bytes of those of at most maxBytes are in `data`, one after the other. */
  sizes: number[];
  data: ArrayBuffer;
  /** Why the next file (at start + sizes.length) could not be read: node's error, its fields copied. */
  error?: { message: string; code?: string; errno?: number; syscall?: string; path?: string };
}

/**
 * The worker, as source text: it must run as it is under tsx/vitest (src/) and from dist/, so it is not a
 * module of its own. Same reads as readSmallFileSync below.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { closeSync, fstatSync, openSync, readSync } = require('node:fs');
let out = Buffer.allocUnsafeSlow(${BATCH_BYTES} * 2);
parentPort.on('message', ({ start, end, paths, maxBytes, batchBytes }) => {
  const sizes = [];
  let used = 0;
  let error;
  for (const file of paths) {
    if (sizes.length > 0 && used >= batchBytes) break;
    let fd;
    try {
      fd = openSync(file, 'r');
      const size = fstatSync(fd).size;
      if (size <= maxBytes) {
        if (used + size > out.length) {
          const larger = Buffer.allocUnsafeSlow(Math.max(out.length * 2, used + size));
          out.copy(larger, 0, 0, used);
          out = larger;
        }
        for (let filled = 0; filled < size; ) {
          const bytesRead = readSync(fd, out, used + filled, size - filled, filled);
          if (bytesRead === 0) throw new Error(file + ' shrank while it was read');
          filled += bytesRead;
        }
        used += size;
      }
      sizes.push(size);
    } catch (caught) {
      error = { message: caught.message, code: caught.code, errno: caught.errno, syscall: caught.syscall, path: caught.path };
      break;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  const data = out.buffer.slice(out.byteOffset, out.byteOffset + used);
  parentPort.postMessage({ start, end, sizes, data, error }, [data]);
});
`;

/** Reads one file synchronously: its size, and its bytes when it has at most `maxBytes`. */
function readSmallFileSync(file: string, maxBytes: number): ReadFile {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) return { size };
    const bytes = Buffer.allocUnsafe(size);
    for (let filled = 0; filled < size; ) {
      const bytesRead = readSync(fd, bytes, filled, size - filled, filled);
      if (bytesRead === 0) throw new Error(`${file} shrank while it was read`);
      filled += bytesRead;
    }
    return { size, bytes };
  } finally {
    closeSync(fd);
  }
}

/** An fs error as the worker saw it, rebuilt with the same message and fields. */
function rebuildError(error: NonNullable<BatchReply['error']>): Error {
  return Object.assign(new Error(error.message), error);
}

export interface ReadSmallFilesOptions {
  /** From this many files on, the reads go to worker threads. @default POOL_MIN_FILES (4096) */
  workersFrom?: number;
}

/**
 * Every file of `paths` in order: its size, and its bytes when it has at most `maxBytes` (a larger file is
 * left to the caller to stream). Rejects with the fs error of the first file that cannot be read.
 */
export async function* readSmallFiles(
  paths: readonly string[],
  maxBytes: number,
  options: ReadSmallFilesOptions = {},
): AsyncGenerator<ReadFile> {
  if (paths.length < (options.workersFrom ?? POOL_MIN_FILES)) {
    for (const file of paths) yield readSmallFileSync(file, maxBytes);
    return;
  }
  const workers = Array.from({ length: WORKERS }, () => new Worker(WORKER_SOURCE, { eval: true }));
  const ready = new Map<number, ReadFile>();
  /** Files that could not be read, by index: thrown when the consumer reaches them, not before. */
  const unreadable = new Map<number, Error>();
  let crashed: Error | undefined;
  /** Ranges not yet read, in order (a batch cut short puts its rest back in its place). */
  const queue: { start: number; end: number }[] = [];
  for (let start = 0; start < paths.length; start += BATCH_FILES)
    queue.push({ start, end: Math.min(start + BATCH_FILES, paths.length) });
  const idle: Worker[] = [];
  let consumed = 0;
  let buffered = 0;
  let wake: (() => void) | undefined;
  // The range holding the next file to consume always goes: the queue is in order, so it is the first one.
  const mayRead = (start: number) => start <= consumed || (start < consumed + AHEAD_FILES && buffered < AHEAD_BYTES);
  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0 && mayRead(queue[0]!.start)) {
      const { start, end } = queue.shift()!;
      idle.pop()!.postMessage({ start, end, paths: paths.slice(start, end), maxBytes, batchBytes: BATCH_BYTES });
    }
  };
  for (const worker of workers) {
    worker.on('message', (reply: BatchReply) => {
      let offset = 0;
      reply.sizes.forEach((size, index) => {
        const file: ReadFile = { size };
        if (size <= maxBytes) {
          file.bytes = Buffer.from(reply.data, offset, size);
          offset += size;
          buffered += size;
        }
        ready.set(reply.start + index, file);
      });
      const next = reply.start + reply.sizes.length;
      if (reply.error) unreadable.set(next, rebuildError(reply.error));
      else if (next < reply.end) {
        const after = queue.findIndex((range) => range.start > next);
        queue.splice(after === -1 ? queue.length : after, 0, { start: next, end: reply.end });
      }
      idle.push(worker);
      dispatch();
      wake?.();
    });
    worker.on('error', (error) => {
      crashed ??= error;
      wake?.();
    });
    idle.push(worker);
  }
  try {
    dispatch();
    while (consumed < paths.length) {
      const file = ready.get(consumed);
      if (file) {
        ready.delete(consumed++);
        buffered -= file.bytes?.length ?? 0;
        dispatch();
        yield file;
        continue;
      }
      const error = crashed ?? unreadable.get(consumed);
      if (error) throw error;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
