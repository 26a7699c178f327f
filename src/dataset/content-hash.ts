/**
 * The dataset's content hash: what every run records, so two runs can prove they scored the same files.
 *
 * sha256 over every regular file below the root except the top-level README.md, in sorted order of the
 * relative path (POSIX separators, compared by code unit); for each file the hash takes the path, a NUL, the
 * byte length in decimal, a NUL, then the bytes. Symlinks count with their target's bytes when the target is
 * inside the dataset and are skipped otherwise (the validator reports those as errors).
 */
import { createHash, type Hash } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { closeFd, openFile, readFd } from './fd.js';
import path from 'node:path';
import { README_FILE } from './format.js';
import { readSmallFiles } from './read-pool.js';
import { isInside } from './safe-path.js';

/** Up to this size a file is read whole; larger ones are streamed in chunks. */
const WHOLE_FILE_MAX_BYTES = 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/**
 * Every file that counts, as sorted POSIX paths relative to `root`, with symlinks pointing out listed apart.
 * `linked` holds the files among them reached through a symlink: the others are regular files inside the
 * root, which the validator then need not resolve again.
 */
export async function listDatasetFiles(
  root: string,
): Promise<{ files: string[]; escaping: string[]; linked: Set<string> }> {
  const realRoot = await realpath(root);
  const files: string[] = [];
  const escaping: string[] = [];
  const linked = new Set<string>();
  async function walk(relativeDir: string): Promise<void> {
    const entries = await readdir(path.join(realRoot, relativeDir), { withFileTypes: true });
    for (const entry of entries) {
      const relative = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      const absolute = path.join(realRoot, relative);
      if (entry.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => undefined);
        if (!target || !isInside(realRoot, target)) {
          escaping.push(relative);
          continue;
        }
        const info = await stat(target);
        // A symlinked directory inside the dataset would be walked twice; count only linked files.
        if (info.isFile()) {
          files.push(relative);
          linked.add(relative);
        }
      } else if (entry.isDirectory()) {
        await walk(relative);
      } else if (entry.isFile()) {
        if (relative !== README_FILE) files.push(relative);
      }
    }
  }
  await walk('');
  files.sort();
  escaping.sort();
  return { files, escaping, linked };
}

/**
 * `sha256:<hex>` over the dataset's files (see the module comment for the exact byte stream). Small files
 * come whole from readSmallFiles (worker threads with synchronous reads: the thread pool's four round trips a
 * file cost more than the reads of 100,000 small documents). A large file's next chunk is read while the
 * current one is hashed, so the hash waits on the disk as little as possible (docs/performance.md).
 */
export async function computeContentHash(root: string): Promise<string> {
  const realRoot = await realpath(root);
  return hashDatasetFiles(realRoot, (await listDatasetFiles(realRoot)).files);
}

/**
 * Called once per file as it is hashed, with its size and first bytes (the whole file up to
 * WHOLE_FILE_MAX_BYTES, else its first chunk). `head` may be reused after the call returns: copy what you
 * keep. The validator sniffs documents here rather than opening each file a second time.
 */
export type HashedFileVisitor = (relative: string, size: number, head: Buffer) => void;

/** The content hash of `files` (as listDatasetFiles lists them) under the resolved root. */
export async function hashDatasetFiles(
  realRoot: string,
  files: readonly string[],
  visit?: HashedFileVisitor,
): Promise<string> {
  const hash = createHash('sha256');
  const absolute = files.map((relative) => path.join(realRoot, relative));
  let index = 0;
  for await (const { size, bytes } of readSmallFiles(absolute, WHOLE_FILE_MAX_BYTES)) {
    const relative = files[index]!;
    const file = absolute[index++]!;
    hash.update(`${relative}\0${size}\0`);
    if (bytes) {
      visit?.(relative, size, bytes);
      hash.update(bytes);
      continue;
    }
    const fd = await openFile(file);
    try {
      await hashChunks(fd, size, hash, (first) => visit?.(relative, size, first));
    } finally {
      await closeFd(fd);
    }
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * Hashes `size` bytes of an open file, reading the next chunk while the current one is hashed. `onFirst`
 * sees the first chunk before it is hashed.
 */
async function hashChunks(fd: number, size: number, hash: Hash, onFirst: (chunk: Buffer) => void): Promise<void> {
  const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
  const readAt = (position: number, buffer: Buffer) =>
    readFd(fd, buffer, 0, Math.min(CHUNK_BYTES, size - position), position);
  let position = 0;
  let pending = readAt(0, buffers[0]!);
  for (let turn = 0; position < size; turn++) {
    const buffer = buffers[turn % 2]!;
    const bytesRead = await pending;
    if (bytesRead === 0) throw new Error('the file shrank while it was hashed');
    position += bytesRead;
    if (position < size) pending = readAt(position, buffers[(turn + 1) % 2]!);
    const chunk = buffer.subarray(0, bytesRead);
    if (turn === 0) onFirst(chunk);
    hash.update(chunk);
  }
}
