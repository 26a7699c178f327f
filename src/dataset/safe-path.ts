/**
 * Keeps every file a dataset names inside the dataset directory: no absolute paths, no `..`, no symlink
 * whose target lies outside (a dataset from someone else must not make docbench upload ~/.ssh).
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

export type SafePathResult = { ok: true; absolute: string } | { ok: false; reason: string };

/** Checks a path written in dataset.json (relative to the dataset root) without touching the disk. */
export function checkRelativePath(relative: string): string | undefined {
  if (relative.trim() === '') return 'the path is empty';
  if (path.isAbsolute(relative) || path.win32.isAbsolute(relative))
    return `absolute path "${relative}" is not allowed; use a path relative to the dataset directory`;
  if (relative.split(/[\\/]/).includes('..'))
    return `path "${relative}" uses ".." and would leave the dataset directory`;
  return undefined;
}

/** True when `candidate` is `root` or lies below it. Both must be resolved. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Resolves `relative` under `realRoot` (the root's realpath) and follows symlinks: the final target must
 * still be inside. A missing file is reported as missing, not as an escape.
 */
export async function resolveInside(realRoot: string, relative: string): Promise<SafePathResult> {
  const lexical = checkRelativePath(relative);
  if (lexical) return { ok: false, reason: lexical };
  const absolute = path.join(realRoot, relative);
  try {
    await lstat(absolute);
  } catch {
    return { ok: false, reason: 'file not found' };
  }
  let target: string;
  try {
    target = await realpath(absolute);
  } catch {
    return { ok: false, reason: 'is a broken symlink' };
  }
  if (!isInside(realRoot, target))
    return { ok: false, reason: `is a symlink pointing outside the dataset directory (to ${target})` };
  return { ok: true, absolute };
}
