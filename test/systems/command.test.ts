/**
 * The command protocol (docs/systems.md): placeholders and DOCBENCH_* variables, a minimal environment,
 * stdout read by the interface's readers (plain markdown for compare), and every failure — non-zero exit,
 * time-out (the whole process group killed), unreadable output — a failed call with the stderr excerpt,
 * redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../src/logger.js';
import { loadDataset } from '../../src/dataset/index.js';
import { createRedactor, DEFAULT_RETRY_POLICY } from '../../src/service/index.js';
import { commandKind } from '../../src/systems/kinds/command.js';
import type { Dataset } from '../../src/types.js';
import type { OperationRequest, System, SystemOutcome } from '../../src/systems/types.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { parseKindOptions } from '../../src/systems/config.js';

const SECRET = 'sk-test-0123456789abcdef';
const OTHER = 'other-system-key-abcdef';
let work: string;
let dataset: Dataset;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-command-'));
  dataset = await loadDataset(await writeTinyDataset(path.join(work, 'tiny'), tinyDocuments(1)), {
    logger: silentLogger,
  });
  // A program for every case, chosen by its first argument.
  await writeFile(
    path.join(work, 'tool.mjs'),
    `import { readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
const [mode, ...rest] = process.argv.slice(2);
const env = process.env;
switch (mode) {
  case 'extract': {
    const schema = JSON.parse(readFileSync(rest[1], 'utf8'));
    const bytes = readFileSync(rest[0]);
    process.stdout.write(JSON.stringify({ response: { name: env.DOCBENCH_ID, keys: Object.keys(schema.properties ?? {}).length, size: bytes.length, mode: env.DOCBENCH_MODE } }));
    break;
  }
  case 'markdown': process.stdout.write('# first' + '\\n' + env.DOCBENCH_PAGE_BREAK + '\\n' + '# second'); break;
  case 'env': process.stdout.write(JSON.stringify({ response: Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('DOCBENCH_'))) })); break;
  case 'fail': process.stderr.write('could not read the scan with key ' + env.MY_KEY + '\\n'); process.exit(3);
  case 'bare': process.stdout.write(JSON.stringify({ name: 'x' })); break;
  case 'garbage': process.stdout.write('not json at all'); break;
  case 'hang': {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    writeFileSync(rest[0], String(child.pid));
    setTimeout(() => {}, 60000);
    break;
  }
}
`,
  );
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function create(command: string[], extra: Record<string, unknown> = {}, timeoutMs = 20_000): Promise<System> {
  const options = parseKindOptions(commandKind, { command, ...extra }, 'systems.tool');
  return commandKind.create(options, {
    name: 'tool',
    common: {
      concurrency: 1,
      ratePerSecond: null,
      timeoutMs,
      retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 },
      price: null,
    },
    dataset,
    env: { PATH: process.env.PATH, HOME: 'fake-home-of-someone', MY_KEY: SECRET, OTHER_KEY: OTHER, UNRELATED: 'x' },
    redact: createRedactor([SECRET, OTHER]),
    cacheDir: path.join(work, 'cache'),
    baseDir: work,
    logger: silentLogger,
  });
}

async function call(system: System, request: OperationRequest): Promise<SystemOutcome> {
  const document = dataset.documents[0]!;
  const bytes = await readFile(document.file!);
  return system.call({
    document,
    input: { bytes, filename: 'doc.pdf', contentType: 'application/pdf' },
    request,
    signal: new AbortController().signal,
  });
}

const extract: OperationRequest = {
  operation: 'extract',
  mode: 'fast',
  schema: { type: 'object', properties: { a: {}, b: {} } },
  customContext: null,
};
const compare: OperationRequest = { operation: 'compare', mode: null, baselineMarkdown: null };

describe('command systems', () => {
  it('fill the placeholders and DOCBENCH_* variables, and read stdout with the interface reader', async () => {
    const system = await create(['node', 'tool.mjs', '{operation}', '{file}', '{schema}']);
    try {
      const outcome = await call(system, extract);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      const document = dataset.documents[0]!;
      expect(outcome.result).toMatchObject({
        data: {
          name: document.id,
          keys: dataset.schema.properties ? Object.keys(dataset.schema.properties).length : 0,
          size: document.bytes,
          mode: 'fast',
        },
        responseForm: 'object',
      });
      expect(outcome.attempts).toBe(1);
    } finally {
      await system.close();
    }
  });

  it('accept plain markdown for compare, split into pages at the page-break marker', async () => {
    const system = await create(['node', 'tool.mjs', 'markdown']);
    try {
      const outcome = await call(system, compare);
      expect(outcome.ok && outcome.result).toMatchObject({ pages: [{ content: '# first' }, { content: '# second' }] });
    } finally {
      await system.close();
    }
  });

  it('run with PATH, HOME, LANG, TMPDIR, env: and passEnv: only — never another system’s key', async () => {
    const system = await create(['node', 'tool.mjs', 'env'], { env: { OMP_THREAD_LIMIT: '1' }, passEnv: ['MY_KEY'] });
    try {
      const outcome = await call(system, extract);
      expect(outcome.ok && outcome.result).toMatchObject({
        data: { PATH: process.env.PATH, HOME: 'fake-home-of-someone', OMP_THREAD_LIMIT: '1', MY_KEY: SECRET },
      });
      expect(Object.keys((outcome.ok && (outcome.result as { data: object }).data) || {}).sort()).toEqual([
        'HOME',
        'MY_KEY',
        'OMP_THREAD_LIMIT',
        'PATH',
      ]);
    } finally {
      await system.close();
    }
  });

  it('record a non-zero exit as a failed call with the stderr excerpt, the key redacted', async () => {
    const system = await create(['node', 'tool.mjs', 'fail'], { passEnv: ['MY_KEY'] });
    try {
      const outcome = await call(system, extract);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe('SYSTEM_COMMAND_FAILED');
      expect(outcome.error.message).toMatch(/node exited with code 3: could not read the scan with key \[REDACTED\]/);
      expect(outcome.error.bodyExcerpt).toBe('could not read the scan with key [REDACTED]');
      expect(JSON.stringify(outcome.error)).not.toContain(SECRET);
    } finally {
      await system.close();
    }
  });

  it('fail unreadable output with the reader’s reason: not JSON, or an extraction printed without `response`', async () => {
    const garbage = await create(['node', 'tool.mjs', 'garbage']);
    const bare = await create(['node', 'tool.mjs', 'bare']);
    try {
      const a = await call(garbage, extract);
      expect(!a.ok && [a.error.code, a.error.message]).toEqual([
        'SERVICE_RESPONSE_INVALID',
        expect.stringMatching(/\(stdout\)` is not JSON/),
      ]);
      const b = await call(bare, extract);
      expect(!b.ok && b.error.message).toMatch(/`response` is missing: print \{"response"/);
    } finally {
      await garbage.close();
      await bare.close();
    }
  });

  it('kill the whole process group on a time-out', async () => {
    const pidFile = path.join(work, 'grandchild.pid');
    const system = await create(['node', 'tool.mjs', 'hang', pidFile], {}, 1500);
    try {
      const outcome = await call(system, extract);
      expect(!outcome.ok && outcome.error.code).toBe('SERVICE_TIMEOUT');
      const grandchild = Number(await readFile(pidFile, 'utf8'));
      // The grandchild was in the program's process group: dead with it (gone, or a zombie where the
      // container's init does not reap orphans).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stat = await readFile(`/proc/${grandchild}/stat`, 'utf8').catch(() => null);
      expect(stat === null || / Z /.test(stat), stat ?? '').toBe(true);
    } finally {
      await system.close();
    }
  });

  it('remove its scratch files (the schema) when closed', async () => {
    const system = await create(['node', 'tool.mjs', 'env']);
    const outcome = await call(system, { ...extract, customContext: 'claims from 2025' });
    expect(outcome.ok).toBe(true);
    const scratch = await import('node:fs/promises')
      .then((fs) => fs.readdir(tmpdir()))
      .then((names) => names.filter((n) => n.startsWith('docbench-command-')));
    await system.close();
    const after = await import('node:fs/promises')
      .then((fs) => fs.readdir(tmpdir()))
      .then((names) => names.filter((n) => n.startsWith('docbench-command-')));
    expect(after.length).toBeLessThan(scratch.length);
    expect(existsSync(work)).toBe(true);
  });
});
