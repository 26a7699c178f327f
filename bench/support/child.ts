/** Starting and stopping bench helper processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** Starts `tsx <script> args…` and resolves with its first stdout line. */
export async function startChild(script: string, args: string[]): Promise<{ child: ChildProcess; firstLine: string }> {
  const child = spawn(tsx, [path.join(root, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const firstLine = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before printing`)));
  });
  return { child, firstLine };
}

/** Runs `tsx <script> args…` (`node` for a .mjs script) to the end and parses its last stdout line as JSON. */
export async function runChildJson<T>(script: string, args: string[]): Promise<T> {
  const command = script.endsWith('.mjs') ? process.execPath : tsx;
  const child = spawn(command, [path.join(root, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Runs `command args…` to the end (output discarded, cwd as given); resolves with its wall time, ms. */
export async function timeProcess(command: string, args: string[], cwd: string = root): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
  return performance.now() - started;
}

/**
 * CPU time (user + system, ms) of every child of this process that has ended, from /proc/self/stat's
 * cutime and cstime (Linux, in USER_HZ = 100 ticks a second); null where there is no /proc. The difference
 * around one `timeProcess` is that process's CPU time, which a shared machine's load does not inflate.
 */
export function endedChildrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After the command name in parentheses: field 3 (state) onwards; cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

export const repoRoot = root;
