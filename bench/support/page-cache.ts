/**
 * Dropping a file from the page cache without privileges, so that a bench can read it from the device: dd's
 * `iflag=nocache count=0` asks the kernel (posix_fadvise DONTNEED) to drop the file's clean pages, and
 * fincore (util-linux, mincore) then says how many bytes stayed resident. The file must have been fsync'ed:
 * dirty pages are not dropped.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Bytes of `file` in the page cache, from fincore. */
async function residentBytes(file: string): Promise<number> {
  const { stdout } = await run('fincore', ['--bytes', '--noheadings', '--output', 'RES', file]);
  const bytes = Number(stdout.trim());
  if (!Number.isInteger(bytes)) throw new Error(`fincore printed "${stdout.trim()}" for ${file}, not a byte count`);
  return bytes;
}

/**
 * Drops every file of `files` from the page cache and checks that none of its bytes stayed. Resolves with
 * undefined when that worked, else with why not (a tool missing, pages that would not go), for the bench
 * to print: a page-cached figure must never pass for a device read.
 */
export async function evictFromPageCache(files: readonly string[]): Promise<string | undefined> {
  for (const file of files) {
    try {
      await run('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
    } catch (error) {
      return `dd iflag=nocache failed on ${file}: ${(error as Error).message.trim()}`;
    }
    let resident: number;
    try {
      resident = await residentBytes(file);
    } catch (error) {
      return `cannot check the page cache with fincore: ${(error as Error).message.trim()}`;
    }
    if (resident > 0) return `${resident} bytes of ${file} stayed in the page cache after dd iflag=nocache`;
  }
  return undefined;
}
