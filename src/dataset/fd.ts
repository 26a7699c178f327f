/**
 * Promise wrappers over node:fs's callback functions, for the dataset's reads that stay on the thread pool
 * (large files' chunks, documents the hash did not read; small files go through read-pool.ts). fs/promises'
 * FileHandle costs far more per operation: over 10,000 small files (open, fstat, read, close each, 32 at
 * once) it took 4–6× the wall time and ~2× the CPU of these wrappers (docs/performance.md).
 */
import { close, fstat, open, read, type Stats } from 'node:fs';

export function openFile(file: string): Promise<number> {
  return new Promise((resolve, reject) => open(file, 'r', (error, fd) => (error ? reject(error) : resolve(fd))));
}

export function statFd(fd: number): Promise<Stats> {
  return new Promise((resolve, reject) => fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))));
}

/** Reads up to `length` bytes at `position` into `buffer` (from offset `offset`); resolves with the count read. */
export function readFd(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, offset, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );
}

export function closeFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => close(fd, (error) => (error ? reject(error) : resolve())));
}
