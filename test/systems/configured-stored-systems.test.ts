/**
 * A run whose configured systems are all stored answers, on a dataset with baseline files: the incumbent made of
 * those files is the reference the systems are compared with, never the primary system the gate and the headline
 * describe (docs/systems.md, docs/gate.md "Systems").
 */
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, runCli } from '../helpers/cli.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';

let work: string;
let dataset: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-configured-stored-'));
  dataset = await writeTinyDataset(path.join(work, 'tiny'), tinyDocuments(4));
  // The candidate's stored answers are the truth itself: every field right.
  const outputs = path.join(dataset, 'outputs', 'candidate');
  await mkdir(outputs, { recursive: true });
  for (const file of await readdir(path.join(dataset, 'truth')))
    await cp(path.join(dataset, 'truth', file), path.join(outputs, file));
  await writeFile(
    path.join(work, 'docbench.config.yaml'),
    stringify({ cacheDir: 'cache', systems: { candidate: { kind: 'stored' } }, gate: { min_f1: 0.99 } }),
  );
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('configured stored systems beside a dataset with baseline files', () => {
  it('gates the configured system against the incumbent made of the baseline files', async () => {
    const out = path.join(work, 'run');
    const result = await runCli(['run', '--dataset', dataset, '--out', out], work);
    expect(result.code, result.stderr).toBe(0);
    const summary = await readJson(path.join(out, 'summary.json'));
    expect(summary).toMatchObject({ primary: 'candidate', reference: 'incumbent' });
    expect(Object.keys(summary.systems).sort()).toEqual(['candidate', 'incumbent']);
    const gate = await readJson(path.join(out, 'gate.json'));
    const checks = gate.checks as { system: string; metric: string }[];
    expect(checks.length).toBeGreaterThan(0);
    expect(new Set(checks.map((check) => check.system))).toEqual(new Set(['candidate']));
    expect(result.stdout).toContain('quality gate: passed');
  });

  it('names the incumbent as the reference in docbench systems', async () => {
    const result = await runCli(['systems', '--dataset', dataset], work);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/incumbent\s+stored\s+scored from the dataset's baseline files {2}← reference/);
  });
});
