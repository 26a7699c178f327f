/**
 * Several systems in one run (docs/systems.md): a service (interface), a program (command) and the dataset's stored
 * incumbent. A run SIGKILLed twice and resumed ends with the records of an uninterrupted run; a system whose
 * every call fails is reported failed while the others complete; an outage or a rejected key stops that
 * system's calls only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { killAfter, readJson, readJsonl, runCli, spawnCli } from '../helpers/cli.js';

const DOCUMENTS = 10;
let work: string;
let dataset: string;
const services: FakeService[] = [];

/** A program that really reads the document: its markdown names the file's size and first bytes. */
const PROGRAM = `import { readFileSync } from 'node:fs';
const [operation, file] = process.argv.slice(2);
const bytes = readFileSync(file);
if (process.env.BROKEN) { process.stderr.write('cannot open ' + file + '\\n'); process.exit(2); }
if (operation === 'compare') process.stdout.write('# ' + bytes.length + ' bytes\\n\\n' + bytes.subarray(0, 8).toString('hex'));
else process.stdout.write(JSON.stringify({ response: { size: bytes.length } }));
`;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-systems-drill-'));
  dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(DOCUMENTS));
  await writeFile(path.join(work, 'reader.mjs'), PROGRAM);
});

afterAll(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  if (work) await rm(work, { recursive: true, force: true });
});

async function fake(options: FakeServiceOptions = {}): Promise<FakeService> {
  const service = await startFakeService(options);
  services.push(service);
  return service;
}

/** A working directory with a config of three systems; `broken` makes the program fail every call. */
async function setup(
  name: string,
  service: FakeService,
  options: { broken?: boolean; key?: string; outageThreshold?: number } = {},
): Promise<string> {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir);
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    stringify({
      retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 2 },
      cacheDir: 'cache',
      ...(options.outageThreshold ? { outageThreshold: options.outageThreshold } : {}),
      systems: {
        candidate: {
          kind: 'interface',
          baseUrl: service.baseUrl,
          ...(options.key ? { apiKeyEnv: 'CANDIDATE_KEY' } : {}),
        },
        reader: {
          kind: 'command',
          command: ['node', '../reader.mjs', '{operation}', '{file}'],
          concurrency: 2,
          ...(options.broken ? { env: { BROKEN: '1' } } : {}),
        },
        incumbent: { kind: 'stored' },
      },
    }),
  );
  return dir;
}

/**
 * The final record of each key, without what differs between runs: timing, attempts, and the addresses of
 * the run's own directory and fake service (which the service quotes in its dashboard URLs).
 */
async function comparableRecords(runDir: string, service: FakeService): Promise<Record<string, unknown>[]> {
  const latest = new Map<string, Record<string, unknown>>();
  const text = (await import('node:fs/promises').then((fs) => fs.readFile(path.join(runDir, 'results.jsonl'), 'utf8')))
    .replaceAll(service.baseUrl, 'SERVICE')
    .replaceAll(path.dirname(runDir), 'WORK');
  for (const line of text.split('\n').filter(Boolean)) {
    const record = JSON.parse(line) as Record<string, unknown>;
    latest.set(record.key as string, record);
  }
  return [...latest.values()]
    .map(({ started_at: _s, latency_ms: _l, last_attempt_ms: _a, attempts: _n, from_cache: _c, ...rest }) => rest)
    .sort((a, b) => String(a.key).localeCompare(String(b.key)));
}

describe('systems drill', () => {
  it('a three-system run SIGKILLed twice and resumed ends with the records of an uninterrupted run', {
    timeout: 120_000,
  }, async () => {
    const cleanService = await fake();
    const clean = await setup('clean', cleanService);
    const reference = await runCli(['run', '--dataset', dataset, '--out', 'run', '--no-cache', '--quiet'], clean);
    expect(reference.code, reference.stderr).toBe(0);
    const expected = await comparableRecords(path.join(clean, 'run'), cleanService);
    // candidate: extract + compare; reader: extract + compare; incumbent: compare (baseline markdown only).
    expect(expected).toHaveLength(DOCUMENTS * 5);
    expect(new Set(expected.map((r) => r.system))).toEqual(new Set(['candidate', 'reader', 'incumbent']));

    const slowService = await fake({ latencyMs: 40 });
    const killed = await setup('killed', slowService);
    const results = path.join(killed, 'run', 'results.jsonl');
    let recorded = 0;
    for (const [kill, more] of [
      [0, 7],
      [1, 9],
    ] as const) {
      const args =
        kill === 0 ? ['run', '--dataset', dataset, '--out', 'run', '--no-cache'] : ['run', '--resume', 'run'];
      recorded = await killAfter(spawnCli([...args, '--quiet'], killed), results, recorded + more);
      expect(recorded).toBeLessThan(DOCUMENTS * 5);
      expect(await readJson(path.join(killed, 'run', 'run.json'))).toMatchObject({ status: 'running' });
    }
    const resumed = await runCli(['run', '--resume', 'run', '--quiet'], killed);
    expect(resumed.code, resumed.stderr).toBe(0);
    // The fake services differ only in their latency: the answers, and so the records, are the same.
    expect(await comparableRecords(path.join(killed, 'run'), slowService)).toEqual(expected);
    const manifest = await readJson(path.join(killed, 'run', 'run.json'));
    expect(manifest).toMatchObject({
      status: 'completed',
      reference: 'incumbent',
      counts: { planned: DOCUMENTS * 5, recorded: DOCUMENTS * 5, succeeded: DOCUMENTS * 5 },
    });
    expect(manifest.invocations).toHaveLength(3);
  });

  it('a system whose every call fails is reported failed while the others complete', async () => {
    const dir = await setup('broken', await fake(), { broken: true });
    const { code, stdout, stderr } = await runCli(['run', '--dataset', dataset, '--out', 'run'], dir);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(
      /system reader failed: every one of its 20 calls failed \(first: node exited with code 2: cannot open .*\.pdf\)/,
    );
    expect(stdout).toMatch(/systems: candidate 20\/20 ok · reader 0\/20 ok, 20 failed · incumbent 10\/10 ok/);
    const records = await readJsonl(path.join(dir, 'run', 'results.jsonl'));
    expect(
      records
        .filter((r) => r.system === 'reader')
        .every(
          (r) =>
            r.status === 'failed' &&
            r.error.code === 'SYSTEM_COMMAND_FAILED' &&
            /cannot open/.test(r.error.bodyExcerpt),
        ),
    ).toBe(true);
    expect(records.filter((r) => r.system !== 'reader').every((r) => r.status === 'ok')).toBe(true);
    const manifest = await readJson(path.join(dir, 'run', 'run.json'));
    expect(manifest.status).toBe('completed');
    expect(
      manifest.systems.map((s: { name: string; counts: { succeeded: number; failed: number } }) => [
        s.name,
        s.counts.succeeded,
        s.counts.failed,
      ]),
    ).toEqual([
      ['candidate', 20, 0],
      ['reader', 0, 20],
      ['incumbent', 10, 0],
    ]);
  });

  it('an outage of one system stops its calls only: the others complete, the run says which stopped', async () => {
    const service = await fake({ fault: () => ({ status: 503 }) });
    const dir = await setup('outage', service, { outageThreshold: 3 });
    const { code, stderr } = await runCli(['run', '--dataset', dataset, '--out', 'run'], dir);
    expect(code).toBe(3);
    expect(stderr).toMatch(/candidate: 3 calls in a row failed like an outage/);
    const manifest = await readJson(path.join(dir, 'run', 'run.json'));
    expect(manifest).toMatchObject({ status: 'stopped', stop_reason: 'outage' });
    const bySystem = Object.fromEntries(manifest.systems.map((s: { name: string }) => [s.name, s]));
    expect(bySystem.candidate).toMatchObject({ stop_reason: 'outage', counts: { succeeded: 0 } });
    expect(bySystem.candidate.counts.recorded).toBeLessThan(20);
    expect(bySystem.reader).toMatchObject({ stop_reason: null, counts: { planned: 20, succeeded: 20 } });
    expect(bySystem.incumbent).toMatchObject({ stop_reason: null, counts: { planned: 10, succeeded: 10 } });
  });

  it('a rejected key stops that system at once, and its key never reaches another system or a file', async () => {
    const service = await fake({ apiKey: 'the-right-key' });
    const dir = await setup('auth', service, { key: 'CANDIDATE_KEY' });
    await writeFile(
      path.join(work, 'reader.mjs'),
      PROGRAM.replace('const bytes', 'if (process.env.CANDIDATE_KEY) process.exit(9);\nconst bytes'),
    );
    try {
      const { code, stderr } = await runCli(['run', '--dataset', dataset, '--out', 'run', '--verbose'], dir, {
        CANDIDATE_KEY: 'a-wrong-key-1234',
      });
      expect(code).toBe(3);
      expect(stderr).toMatch(/candidate: the system rejected the API key \(HTTP 401\)/);
      const manifest = await readJson(path.join(dir, 'run', 'run.json'));
      const bySystem = Object.fromEntries(manifest.systems.map((s: { name: string }) => [s.name, s]));
      expect(bySystem.candidate.stop_reason).toBe('auth');
      // The program never saw the candidate's key (it would have exited 9).
      expect(bySystem.reader).toMatchObject({ stop_reason: null, counts: { succeeded: 20 } });
      const { readFile } = await import('node:fs/promises');
      for (const file of ['run.json', 'results.jsonl'])
        expect(await readFile(path.join(dir, 'run', file), 'utf8')).not.toContain('a-wrong-key-1234');
      expect(stderr).not.toContain('a-wrong-key-1234');
    } finally {
      await writeFile(path.join(work, 'reader.mjs'), PROGRAM);
    }
  });
});
