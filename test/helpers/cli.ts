/**
 * Shared pieces of the drills: the CLI run in-process with captured output, a child `docbench` process
 * running the current sources (so a drill never tests a stale dist/), and readers for run outputs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../../src/cli.js';

export const ROOT = path.resolve(__dirname, '..', '..');
const CHILD_ENTRY = path.join(__dirname, 'cli-child.ts');
// By absolute URL: the child runs in a temp directory, from where `--import tsx` would not resolve.
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `docbench <args>` in-process in `cwd`, with only PATH and `env` in its environment. */
export async function runCli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    ({
      write: (chunk: string | Uint8Array) => {
        append(String(chunk));
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const code = await main(args, {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
  });
  // main() sets process.exitCode for the real CLI; a test process must not inherit it.
  process.exitCode = 0;
  return { code, stdout, stderr };
}

/**
 * Starts `docbench <args>` as a child process running the TypeScript sources through tsx. With
 * `fileSizeLimitKiB`, the child runs under `ulimit -f` (no file it writes may grow past that size).
 */
export function spawnCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  options: { fileSizeLimitKiB?: number } = {},
): ChildProcess {
  const command = [process.execPath, '--import', TSX_LOADER, CHILD_ENTRY, ...args];
  const spawnOptions = {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[],
  };
  if (options.fileSizeLimitKiB === undefined) return spawn(command[0]!, command.slice(1), spawnOptions);
  // `ulimit -f` counts 1 KiB blocks in bash and dash alike; "$0" "$@" passes the command through unquoted.
  return spawn('sh', ['-c', `ulimit -f ${options.fileSizeLimitKiB} && exec "$0" "$@"`, ...command], spawnOptions);
}

export async function readJsonl(file: string): Promise<Record<string, any>[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}

export async function readJson(file: string): Promise<any> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** Lines of a file that end with a newline (a line being written does not count); 0 if absent. */
export async function countCompleteLines(file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  const text = await readFile(file, 'utf8');
  return text.split('\n').length - 1;
}

/** Every file under `dir`, recursively, as absolute paths. */
export async function listFilesDeep(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** summary.json without what differs between two runs of the same calls: ids, times, latencies, URLs. */
export async function comparableSummary(runDir: string): Promise<unknown> {
  const summary = await readJson(path.join(runDir, 'summary.json'));
  const { run_id: _id, systems, ...rest } = summary;
  // Per system (summary.json schema 2): latencies and attempts vary between runs; calls and failures do not.
  const comparable = Object.fromEntries(
    Object.entries(systems as Record<string, Record<string, unknown>>).map(([name, block]) => {
      const { latency_ms: _l, latency_per_page_ms: _lp, service_processing_ms: _sp, calls, ...figures } = block;
      const callCounts = Object.fromEntries(
        Object.entries(calls as Record<string, { calls: number; failed: number }>).map(([k, v]) => [
          k,
          { calls: v.calls, failed: v.failed },
        ]),
      );
      return [name, { ...figures, calls: callCounts }];
    }),
  );
  return { ...rest, systems: comparable };
}

/** documents.jsonl without latencies and the dashboard URL (its host is the service's port). */
export async function comparableDocuments(runDir: string): Promise<unknown[]> {
  return (await readJsonl(path.join(runDir, 'documents.jsonl'))).map(({ systems, ...rest }) => ({
    ...rest,
    systems: Object.fromEntries(
      Object.entries(systems as Record<string, Record<string, unknown>>).map(
        ([name, { latency_ms: _l, dashboard_url: _d, ...figures }]) => [name, figures],
      ),
    ),
  }));
}

/** Waits until results.jsonl holds `lines` complete lines, then SIGKILLs the child; returns the count seen. */
export async function killAfter(child: ChildProcess, results: string, lines: number): Promise<number> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let finishedEarly = false;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  void exited.then(() => (finishedEarly = true));
  for (;;) {
    const seen = await countCompleteLines(results);
    if (seen >= lines) break;
    if (finishedEarly)
      throw new Error(`the child exited before recording ${lines} calls (it recorded ${seen}): ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill('SIGKILL');
  await exited;
  return countCompleteLines(results);
}
