/**
 * olmOCR-bench's own sample (shared reference data, read by path): imported as a dataset and run with its tool
 * folder as a stored system, it must give the figures olmOCR-bench's code gives on it, math left out
 * (../shared/reference/README.md): dataset 76/87, blanks 1/1, baseline 19/20, macro mean 0.9412.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const SAMPLE = path.resolve(ROOT, '..', 'shared', 'reference', 'olmocr-bench', 'olmocr', 'bench', 'sample_data');

describe('olmOCR-bench sample imported and run', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docbench-olmocr-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('imports, validates without schema.json, and reproduces the per-category pass rates', async () => {
    const dataset = path.join(dir, 'dataset');
    const imported = await runCli(['dataset', 'import', 'olmocr-bench', SAMPLE, '--out', dataset], dir);
    expect(imported.code, imported.stderr).toBe(0);
    const validated = await runCli(['dataset', 'validate', dataset], dir);
    expect(validated.code, validated.stderr + validated.stdout).toBe(0);

    await writeFile(
      path.join(dir, 'docbench.config.json'),
      JSON.stringify({ systems: { olmocr_pipeline: { kind: 'stored' } } }),
    );
    const out = path.join(dir, 'run');
    const run = await runCli(['run', '--dataset', dataset, '--endpoints', 'compare', '--out', out], dir);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8'));
    const checks = summary.systems.olmocr_pipeline.checks;
    expect(checks.by_category).toEqual({
      dataset: { total: 87, passed: 76, pass_rate: 76 / 87 },
      blanks: { total: 1, passed: 1, pass_rate: 1 },
      baseline: { total: 20, passed: 19, pass_rate: 0.95 },
    });
    expect(checks.macro_pass_rate).toBeCloseTo(0.9412, 4);
    expect(checks.unsupported.by_type).toEqual({ math: 12 });
  });
});
