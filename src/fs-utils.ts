/** Small file-system helpers shared by the store, the cache and the reporters. */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DocbenchError } from './errors.js';

/**
 * Writes a file so that readers see either the old or the complete new content, never a torn one: write a
 * sibling temp file, then rename (atomic on POSIX within one file system). Hand-written because the
 * maintained package (write-file-atomic 8) needs Node 22, and this is all we need of it.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temp, content);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw unwritable(file, error);
  }
}

/** A clear error for an output that cannot be written (permissions, full disk). */
export function unwritable(file: string, cause: unknown): DocbenchError {
  const code = (cause as { code?: string } | null)?.code;
  const reason =
    code === 'ENOSPC'
      ? 'the disk is full'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'read-only file system'
          : ((cause as Error)?.message ?? String(cause));
  return new DocbenchError('OUTPUT_UNWRITABLE', `cannot write ${file}: ${reason}`, {
    hint:
      code === 'ENOSPC'
        ? 'free some space, then rerun with --resume'
        : 'choose a writable directory with --out, or fix its permissions',
    cause,
  });
}

export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
