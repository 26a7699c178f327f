/** The commit of the docbench checkout that is running, for provenance; null outside a git checkout. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const run = promisify(execFile);

export async function findDocbenchCommit(): Promise<string | null> {
  const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const { stdout } = await run('git', ['rev-parse', 'HEAD'], { cwd: packageDir, timeout: 5000 });
    const commit = stdout.trim();
    return /^[0-9a-f]{40}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}
