/**
 * Disk drill (issue 10): an output directory that cannot be written, or a disk that fills up mid-run, ends
 * the run with a clear error and exit 3, and nothing claims to be complete: run.json never says
 * "completed", no summary or report is left behind as if the run had finished. After space is freed,
 * --resume completes the run with nothing lost.
 *
 * Tests run as root in CI, where permission bits do not stop writes: the unwritable case uses an --out
 * whose parent is a regular file (ENOTDIR, which stops root too), and permission bits only when not root.
 * The full disk is a real one: a 64 KiB tmpfs, mounted when the process may mount (root); otherwise the same
 * drill runs in a child whose file-size limit (ulimit -f) makes writes fail with EFBIG — the closest honest
 * stand-in for ENOSPC an unprivileged process has.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { comparableDocuments, comparableSummary, readJson, readJsonl, runCli, spawnCli } from '../helpers/cli.js';

let work: string;
let dataset: string;
let service: FakeService;

beforeAll(async () => {
  service = await startFakeService();
});
afterAll(() => service?.close());

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-disk-'));
  dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(12));
  await writeFile(path.join(work, 'docbench.config.json'), JSON.stringify({ retry: { baseDelayMs: 5, maxDelayMs: 20 }, cacheDir: path.join(work, 'cache') }));
});
afterEach(() => rm(work, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;

/** Nothing in `runDir` says the run finished. */
async function expectNothingClaimsCompletion(runDir: string): Promise<void> {
  if (existsSync(path.join(runDir, 'run.json'))) expect((await readJson(path.join(runDir, 'run.json'))).status).not.toBe('completed');
  if (existsSync(path.join(runDir, 'summary.json'))) expect((await readJson(path.join(runDir, 'summary.json'))).status).not.toBe('completed');
}

describe('an output directory that cannot be written', () => {
  it('--out under a regular file: exit 3, the path and reason named, nothing written', async () => {
    await writeFile(path.join(work, 'blocker'), 'a file, not a directory');
    const { code, stderr, stdout } = await runCli(['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'blocker/run'], work);
    expect(code).toBe(3);
    expect(stderr).toMatch(/error: cannot write .*blocker\/run/);
    expect(stderr).toMatch(/hint: choose a writable directory with --out/);
    expect(stdout).not.toMatch(/report\.html/);
    expect(service.requests).toHaveLength(0);
  });

  it('--out in a read-only directory: exit 3, nothing written (permission bits when not root, a read-only mount when root)', async () => {
    await mkdir(path.join(work, 'locked'));
    if (isRoot) {
      // Root ignores permission bits; a read-only bind mount stops it (EROFS).
      if (!tryBindReadOnly(path.join(work, 'locked'))) return expect.fail('cannot make a read-only directory as root here (mount --bind -o ro failed)');
      try {
        const { code, stderr } = await runCli(['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'locked/run'], work);
        expect(code).toBe(3);
        expect(stderr).toMatch(/cannot write .*locked\/run: read-only file system/);
        expect(existsSync(path.join(work, 'locked', 'run'))).toBe(false);
      } finally {
        execFileSync('umount', [path.join(work, 'locked')]);
      }
      return;
    }
    await chmod(path.join(work, 'locked'), 0o500);
    const { code, stderr } = await runCli(['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'locked/run'], work);
    expect(code).toBe(3);
    expect(stderr).toMatch(/cannot write .*locked\/run: permission denied/);
    expect(existsSync(path.join(work, 'locked', 'run'))).toBe(false);
  });
});

/** Mounts a tmpfs of `bytes` at `dir`; false when this process may not mount. */
function tryMountTmpfs(dir: string, bytes: number): boolean {
  if (!isRoot) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Bind-mounts `dir` onto itself read-only; false when this process may not mount. */
function tryBindReadOnly(dir: string): boolean {
  try {
    execFileSync('mount', ['--bind', dir, dir], { stdio: 'ignore' });
  } catch {
    return false;
  }
  try {
    execFileSync('mount', ['-o', 'remount,bind,ro', dir], { stdio: 'ignore' });
    return true;
  } catch {
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return false;
  }
}

/**
 * Runs the drill on a disk that fills up: `tmpfs` (a 64 KiB tmpfs, ENOSPC) when this process may mount, or
 * a child under `ulimit -f` (EFBIG). Returns which one ran.
 */
async function fullDiskDrill(wanted: 'tmpfs' | 'ulimit'): Promise<'tmpfs' | 'ulimit'> {
  const clean = await runCli(['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'reference', '--no-cache', '--quiet'], work);
  expect(clean.code, clean.stderr).toBe(0);

  const disk = path.join(work, 'disk');
  await mkdir(disk);
  const mounted = wanted === 'tmpfs' && tryMountTmpfs(disk, 64 * 1024);
  try {
    let code: number;
    let stderr = '';
    const args = ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', path.join(disk, 'run'), '--no-cache', '--concurrency', '1'];
    if (mounted) {
      // Leave room for run.json and a few results, not for the whole run and its reports.
      await writeFile(path.join(disk, 'filler'), Buffer.alloc(52 * 1024));
      ({ code, stderr } = await runCli(args, work));
    } else {
      // A child whose files may not grow past 16 KiB (ulimit -f counts 1 KiB blocks): run.json fits, the
      // results and documents.jsonl do not. Node ignores SIGXFSZ, so such a write fails with EFBIG.
      const child = spawnCli(args, work, {}, { fileSizeLimitKiB: 16 });
      stderr = await new Promise<string>((resolve) => {
        let text = '';
        child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.once('exit', () => resolve(text));
      });
      code = child.exitCode ?? -1;
    }
    expect(code, stderr).toBe(3);
    expect(stderr).toMatch(mounted ? /cannot write .*: the disk is full/ : /cannot write .*(too large|EFBIG)/i);
    expect(stderr).toMatch(/docbench run --resume \S+run/);
    expect(stderr).not.toMatch(/unexpected error/);
    const runDir = path.join(disk, 'run');
    await expectNothingClaimsCompletion(runDir);

    // What was recorded is whole: a line the full disk cut short was taken back, not left torn.
    const text = await readFile(path.join(runDir, 'results.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const records = await readJsonl(path.join(runDir, 'results.jsonl'));
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(24);

    // Free the space (or lift the limit) and resume: the run completes and equals an uninterrupted one.
    if (mounted) await rm(path.join(disk, 'filler'));
    const resumed = await runCli(['run', '--resume', runDir, '--base-url', service.baseUrl, '--quiet'], work);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await comparableSummary(runDir)).toEqual(await comparableSummary(path.join(work, 'reference')));
    expect(await comparableDocuments(runDir)).toEqual(await comparableDocuments(path.join(work, 'reference')));
    expect(await readJsonl(path.join(runDir, 'results.jsonl'))).toHaveLength(24);
    expect((await readJson(path.join(runDir, 'run.json'))).status).toBe('completed');
  } finally {
    if (mounted) execFileSync('umount', [disk]);
  }
  return mounted ? 'tmpfs' : 'ulimit';
}

describe('a disk that fills up mid-run', () => {
  it('a full disk (tmpfs; ulimit -f where mounting is not allowed): exit 3, nothing claims completion, --resume completes with nothing lost', { timeout: 60_000 }, async () => {
    // Which one ran depends on the machine (a root container may still be denied mount): both are checked.
    expect(['tmpfs', 'ulimit']).toContain(await fullDiskDrill('tmpfs'));
  });

  it('a file-size limit hit while writing documents.jsonl (after run.json): exit 3 with the resume command, not an unexpected error', { timeout: 60_000 }, async () => {
    expect(await fullDiskDrill('ulimit')).toBe('ulimit');
  });
});
