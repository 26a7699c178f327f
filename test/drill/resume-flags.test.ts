/**
 * `--resume` continues a run with the options it started with. A flag that would change what the run calls
 * or where it writes is refused (exit 2, the flag named, nothing written, no request); a flag that only
 * paces the calls is allowed and recorded in run.json's invocation entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { runCli } from '../helpers/cli.js';

let work: string;
let dataset: string;
let service: FakeService;

beforeAll(async () => {
  service = await startFakeService();
  work = await mkdtemp(path.join(tmpdir(), 'docbench-resume-flags-'));
  dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(3));
  const first = await runCli(
    ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'done', '--endpoints', 'extract', '--quiet'],
    work,
  );
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => {
  await service?.close();
  await rm(work, { recursive: true, force: true });
});

/** Every file under `dir` with its content: what "nothing written" is checked against. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = await readFile(file, 'utf8');
  }
  return files;
}

const resume = (extra: string[]) => ['run', '--resume', 'done', '--base-url', service.baseUrl, ...extra];

describe('--resume with a flag that shapes the run → exit 2, the flag named, nothing written', () => {
  const conflicting: [string, string[]][] = [
    ['--dataset', ['--dataset', 'data']],
    ['--out', ['--out', 'elsewhere']],
    ['--modes', ['--modes', 'fast']],
    ['--endpoints', ['--endpoints', 'extract,compare']],
    ['--limit', ['--limit', '1']],
    ['--sample', ['--sample', '2']],
    ['--seed', ['--seed', '7']],
    ['--filter', ['--filter', 'kind=bill']],
    ['--shard', ['--shard', '1/2']],
    ['--repeat', ['--repeat', '2']],
    ['--cache', ['--cache']],
    ['--no-cache', ['--no-cache']],
  ];

  for (const [name, flag] of conflicting) {
    it(name, async () => {
      const before = await snapshot(work);
      const requests = service.requests.length;
      const { code, stderr } = await runCli(resume(flag), work);
      expect(code, stderr).toBe(2);
      // --no-cache is yargs' negation of --cache: the message names the flag as declared.
      expect(stderr).toContain(name === '--no-cache' ? '--cache' : name);
      expect(stderr).toMatch(/--resume continues run done with the options it started with/);
      expect(await snapshot(work)).toEqual(before);
      expect(service.requests.length).toBe(requests);
    });
  }

  it('names every conflicting flag given at once', async () => {
    const { code, stderr } = await runCli(resume(['--modes', 'fast', '--limit', '1', '--filter', 'kind=bill']), work);
    expect(code).toBe(2);
    expect(stderr).toContain('--modes, --limit, --filter would change what it runs');
  });
});

describe('--resume with flags that only pace the calls', () => {
  it('is allowed, and records them in run.json for this invocation', async () => {
    const { code, stderr } = await runCli(
      resume(['--concurrency', '2', '--rate', '50', '--timeout', '30000', '--retries', '2', '--quiet']),
      work,
    );
    expect(code, stderr).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(work, 'done', 'run.json'), 'utf8')) as {
      invocations: Record<string, unknown>[];
    };
    expect(manifest.invocations).toHaveLength(2);
    expect(manifest.invocations[0]).toMatchObject({
      concurrency: 4,
      rate_per_second: null,
      timeout_ms: 600_000,
      retry_attempts: 4,
    });
    expect(manifest.invocations[1]).toMatchObject({
      concurrency: 2,
      rate_per_second: 50,
      timeout_ms: 30_000,
      retry_attempts: 2,
    });
  });
});
