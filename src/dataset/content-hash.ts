/**
 * The dataset's content hash: what every run records, so two runs can prove they scored the same files.
 *
 * sha256 over every regular file below the root except the top-level README.md, in sorted order of the
 * relative path (POSIX separators, compared by code unit); for each file the hash takes the path, a NUL, the
 * byte length in decimal, a NUL, then the bytes. Symlinks count with their target's bytes when the target is
 * inside the dataset and are skipped otherwise (the validator reports those as errors).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { README_FILE } from './format.js';
import { isInside } from './safe-path.js';

/** Every file that counts, as sorted POSIX paths relative to `root`, with symlinks pointing out listed apart. */
export async function listDatasetFiles(root: string): Promise<{ files: string[]; escaping: string[] }> {
  const realRoot = await realpath(root);
  const files: string[] = [];
  const escaping: string[] = [];
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
        if (info.isFile()) files.push(relative);
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
  return { files, escaping };
}

/** `sha256:<hex>` over the dataset's files (see the module comment for the exact byte stream). */
export async function computeContentHash(root: string): Promise<string> {
  const realRoot = await realpath(root);
  const { files } = await listDatasetFiles(realRoot);
  const hash = createHash('sha256');
  for (const relative of files) {
    const bytes = await readFile(path.join(realRoot, relative));
    hash.update(`${relative}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest('hex')}`;
}
