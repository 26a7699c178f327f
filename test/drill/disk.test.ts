/**
 * Disk drill: an output directory that cannot be written, or a disk that fills up mid-run, ends
 * the run with a clear error and exit 3, and nothing claims to be complete: run.json never says
 * "completed", no summary or report is left behind as if the run had finished. After space is freed,
 * --resume completes the run with nothing lost.
 *
 * Tests run as root in CI, where permission bits do not stop writes: the unwritable case uses an --out
 * whose parent is a regular file (ENOTDIR, which stops root too), and permission bits only when not root.
 * The full disk runs everywhere, with no mount rights: `node:fs` is wrapped so that the results file's own
 * write(2) call (ResultsWriter.append → writeSync) sees a disk with a byte budget — a short write, then
 * ENOSPC — exactly what the kernel returns when a disk fills mid-line. The same drill also runs with a real
 * kernel failure: a child whose file-size limit (ulimit -f) makes writes fail with EFBIG.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { comparableDocuments, comparableSummary, readJson, readJsonl, runCli, spawnCli } from '../helpers/cli.js';

/** The simulated disk: files opened under `dir` share `free` bytes; their descriptors are tracked in `fds`. */
const disk = vi.hoisted(() => ({ dir: '\0', free: Number.POSITIVE_INFINITY, fds: new Set<number>() }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = ((file: Parameters<typeof fs.openSync>[0], ...rest: unknown[]) => {
    const fd = (fs.openSync as (...args: unknown[]) => number)(file, ...rest);
    if (String(file).startsWith(disk.dir)) disk.fds.add(fd);
    return fd;
  }) as typeof fs.openSync;
  const closeSync = ((fd: number) => {
    disk.fds.delete(fd);
    fs.closeSync(fd);
  }) as typeof fs.closeSync;
  // Only the (fd, buffer, offset, length, position) form is budgeted: the one ResultsWriter uses.
  const writeSync = ((fd: number, buffer: Buffer, offset?: number, length?: number, position?: number | null) => {
    if (!disk.fds.has(fd) || typeof buffer === 'string')
      return (fs.writeSync as (...args: unknown[]) => number)(fd, buffer, offset, length, position);
    const fits = Math.min(length ?? buffer.length - (offset ?? 0), disk.free);
    if (fits <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
    const written = fs.writeSync(fd, buffer, offset, fits, position);
    disk.free -= written;
    return written;
  }) as typeof fs.writeSync;
  const wrapped = { ...fs, openSync, closeSync, writeSync };
  return { ...wrapped, default: wrapped };
});

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
  await writeFile(
    path.join(work, 'docbench.config.json'),
    JSON.stringify({ retry: { baseDelayMs: 5, maxDelayMs: 20 }, cacheDir: path.join(work, 'cache') }),
  );
});
afterEach(() => rm(work, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;

/** Nothing in `runDir` says the run finished. */
async function expectNothingClaimsCompletion(runDir: string): Promise<void> {
  if (existsSync(path.join(runDir, 'run.json')))
    expect((await readJson(path.join(runDir, 'run.json'))).status).not.toBe('completed');
  if (existsSync(path.join(runDir, 'summary.json')))
    expect((await readJson(path.join(runDir, 'summary.json'))).status).not.toBe('completed');
}

describe('an output directory that cannot be written', () => {
  it('--out under a regular file: exit 3, the path and reason named, nothing written', async () => {
    await writeFile(path.join(work, 'blocker'), 'a file, not a directory');
    const { code, stderr, stdout } = await runCli(
      ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'blocker/run'],
      work,
    );
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
      if (!tryBindReadOnly(path.join(work, 'locked')))
        return expect.fail('cannot make a read-only directory as root here (mount --bind -o ro failed)');
      try {
        const { code, stderr } = await runCli(
          ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'locked/run'],
          work,
        );
        expect(code).toBe(3);
        expect(stderr).toMatch(/cannot write .*locked\/run: read-only file system/);
        expect(existsSync(path.join(work, 'locked', 'run'))).toBe(false);
      } finally {
        execFileSync('umount', [path.join(work, 'locked')]);
      }
      return;
    }
    await chmod(path.join(work, 'locked'), 0o500);
    const { code, stderr } = await runCli(
      ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'locked/run'],
      work,
    );
    expect(code).toBe(3);
    expect(stderr).toMatch(/cannot write .*locked\/run: permission denied/);
    expect(existsSync(path.join(work, 'locked', 'run'))).toBe(false);
  });
});

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
 * Runs the drill on a disk that fills up: `injected` (ENOSPC from the results file's write(2), see the
 * `node:fs` wrapper above) or `ulimit` (a child whose files may not grow past 16 KiB: EFBIG from the kernel).
 */
async function fullDiskDrill(how: 'injected' | 'ulimit'): Promise<void> {
  const clean = await runCli(
    [
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.baseUrl,
      '--systems',
      'service',
      '--out',
      'reference',
      '--no-cache',
      '--quiet',
    ],
    work,
  );
  expect(clean.code, clean.stderr).toBe(0);
  const referenceBytes = (await readFile(path.join(work, 'reference', 'results.jsonl'))).length;

  const runDir = path.join(work, 'disk', 'run');
  await mkdir(path.join(work, 'disk'));
  const args = [
    'run',
    '--dataset',
    dataset,
    '--base-url',
    service.baseUrl,
    '--systems',
    'service',
    '--out',
    runDir,
    '--no-cache',
    '--concurrency',
    '1',
  ];
  let code: number;
  let stderr: string;
  if (how === 'injected') {
    // Room for about a third of the results: the line that crosses the budget is written in part, then ENOSPC.
    disk.dir = runDir;
    disk.free = Math.floor(referenceBytes / 3);
    try {
      ({ code, stderr } = await runCli(args, work));
      expect(disk.free, 'the budget was used up: the ENOSPC path ran').toBe(0);
    } finally {
      disk.dir = '\0';
      disk.free = Number.POSITIVE_INFINITY;
    }
  } else {
    // ulimit -f counts 1 KiB blocks: run.json fits, the results and documents.jsonl do not. Node ignores
    // SIGXFSZ, so such a write fails with EFBIG.
    const child = spawnCli(args, work, {}, { fileSizeLimitKiB: 16 });
    stderr = await new Promise<string>((resolve) => {
      let text = '';
      child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('exit', () => resolve(text));
    });
    code = child.exitCode ?? -1;
  }
  expect(code, stderr).toBe(3);
  expect(stderr).toMatch(
    how === 'injected' ? /cannot write .*results\.jsonl: the disk is full/ : /cannot write .*(too large|EFBIG)/i,
  );
  if (how === 'injected') expect(stderr).toMatch(/free disk space\), then resume/);
  expect(stderr).toMatch(/docbench run --resume \S+run/);
  expect(stderr).not.toMatch(/unexpected error/);
  await expectNothingClaimsCompletion(runDir);

  // What was recorded is whole: a line the full disk cut short was taken back, not left torn.
  const text = await readFile(path.join(runDir, 'results.jsonl'), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const records = await readJsonl(path.join(runDir, 'results.jsonl'));
  expect(records.length).toBeGreaterThan(0);
  expect(records.length).toBeLessThan(24);

  // With space again (or no limit), resume: the run completes and equals an uninterrupted one.
  const resumed = await runCli(['run', '--resume', runDir, '--base-url', service.baseUrl, '--quiet'], work);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(await comparableSummary(runDir)).toEqual(await comparableSummary(path.join(work, 'reference')));
  expect(await comparableDocuments(runDir)).toEqual(await comparableDocuments(path.join(work, 'reference')));
  expect(await readJsonl(path.join(runDir, 'results.jsonl'))).toHaveLength(24);
  expect((await readJson(path.join(runDir, 'run.json'))).status).toBe('completed');
}

describe('a disk that fills up mid-run', () => {
  it('ENOSPC mid-line at the results file: exit 3 "the disk is full", the torn line taken back, --resume completes with nothing lost', {
    timeout: 60_000,
  }, async () => {
    await fullDiskDrill('injected');
  });

  it('a file-size limit hit while writing documents.jsonl (after run.json): exit 3 with the resume command, not an unexpected error', {
    timeout: 60_000,
  }, async () => {
    await fullDiskDrill('ulimit');
  });
});
