/**
 * A run of stored systems only (nothing called): named as such in summary.md and report.html, and run.json
 * and summary.md tell the phases apart — calls, scoring, statistics, reports — with their durations.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writeStoredDataset } from '../helpers/stored-dataset.js';
import type { RunManifest } from '../../src/run-dir/index.js';

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-stored-run-'));
  await writeStoredDataset(path.join(tmp, 'dataset'), 12);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('docbench run over stored systems only', () => {
  it('names the run by its stored systems and records every phase with its duration', async () => {
    const run = path.join(tmp, 'run');
    const result = await runCli(
      [
        'run',
        '--dataset',
        'dataset',
        '--config',
        'dataset/docbench.config.yaml',
        '--endpoints',
        'extract,compare',
        '--modes',
        'fast',
        '--no-cache',
        '--no-gate',
        '--out',
        run,
      ],
      tmp,
    );
    expect(result.code).toBe(0);
    // Phases as quick as these print no progress: only the calls' lines.
    expect(result.stderr).not.toMatch(/scoring|statistics|reports/);
    const manifest = JSON.parse(await readFile(path.join(run, 'run.json'), 'utf8')) as RunManifest;
    const phases = manifest.phases!;
    for (const ms of [phases.calls_ms, phases.scoring_ms, phases.statistics_ms, phases.reports_ms])
      expect(ms).toBeGreaterThanOrEqual(0);
    // The run's duration covers the phases after the calls too.
    expect(manifest.duration_ms).toBeGreaterThanOrEqual(
      phases.calls_ms + phases.scoring_ms! + phases.statistics_ms! + phases.reports_ms!,
    );
    const summary = await readFile(path.join(run, 'summary.md'), 'utf8');
    expect(summary).toContain('stored outputs only (incumbent, candidate)');
    expect(summary).not.toContain('local reference service');
    expect(summary).toMatch(/^Time: calls \d+ s · scoring \d+ s · statistics \d+ s · reports \d+ s$/m);
    expect(await readFile(path.join(run, 'report.html'), 'utf8')).toContain(
      'stored outputs only (incumbent, candidate)',
    );
  });
});
