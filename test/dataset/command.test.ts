import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import yargs from 'yargs';
import { afterEach, describe, expect, it } from 'vitest';
import { datasetCommand } from '../../src/commands/dataset.js';
import { globalOptions } from '../../src/commands/global-options.js';
import type { CliContext } from '../../src/commands/context.js';
import { createConsoleLogger } from '../../src/logger.js';
import { validFiles, writeDataset } from './fixture.js';

/** Runs `docbench dataset …` through the real command factory, capturing output and the exit code. */
async function runDataset(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  let code = 0;
  const context: CliContext = {
    env: {},
    cwd: process.cwd(),
    stdout,
    stderr,
    logger: (flags) => createConsoleLogger({ ...flags, stdout, stderr }),
    setExitCode: (value) => {
      code = value;
    },
    onInterrupt: () => () => {},
  };
  await yargs(['dataset', ...args])
    .options(globalOptions)
    .command(datasetCommand(context))
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message);
    })
    .parseAsync();
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const created: string[] = [];
afterEach(async () => {
  for (const dir of created.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('docbench dataset', () => {
  it('validate: a valid dataset exits 0 and prints the content hash', async () => {
    const root = await writeDataset(validFiles());
    created.push(root);
    const result = await runDataset(['validate', root]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/content hash: sha256:[0-9a-f]{64}/);
    expect(result.stderr).toBe('');
  });

  it('validate: errors exit 2 and name every file on stderr', async () => {
    const root = await writeDataset({
      ...validFiles(),
      'documents/empty.pdf': '',
      'truth/claim-1.json': { patient: {} },
    });
    created.push(root);
    const result = await runDataset(['validate', root]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('documents/empty.pdf: is empty (0 bytes)');
    expect(result.stderr).toContain('truth/claim-1.json: does not match schema.json');
  });

  it('init: scaffolds README, schema and folders; validate then reports only that it is empty', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'docbench-init-'));
    created.push(parent);
    const root = path.join(parent, 'mine');
    expect((await runDataset(['init', root])).code).toBe(0);
    expect((await readdir(root)).sort()).toEqual([
      'README.md',
      'baseline',
      'dataset.json',
      'documents',
      'schema.json',
      'truth',
    ]);
    const result = await runDataset(['validate', root]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')[0]).toBe('error: documents: the dataset has no documents');
    await expect(runDataset(['init', root])).rejects.toThrow(/not empty/);
  });
});
