/**
 * The round trip every format's test makes (docs/datasets-import.md): `docbench dataset import` of a fixture with
 * a team's predictions, `docbench dataset validate`, then `docbench run` of the stored system they became, and
 * the run's summary.json, whose figures each test computes by hand.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';

export const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'import');

export interface RoundTrip {
  work: string;
  dataset: string;
  imported: CliResult;
  summary: {
    systems: Record<string, Record<string, unknown> & { by_tag: Record<string, Record<string, TagFigures>> }>;
  };
}

export interface TagFigures {
  documents: number;
  extraction_f1: Record<string, number>;
  similarity: number | null;
  ci95?: {
    extraction_f1: Record<string, [number, number]>;
    exact_match_rate: Record<string, [number, number]>;
    similarity: [number, number] | null;
  };
}

/** Imports `source` as `format` with `predictions` (file name → content) as the stored system `team`, and runs it. */
export async function roundTrip(
  format: string,
  source: string,
  predictions: Record<string, string>,
  extraArgs: string[] = [],
): Promise<RoundTrip> {
  const work = await mkdtemp(path.join(tmpdir(), `docbench-import-${format}-`));
  await mkdir(path.join(work, 'predictions'));
  for (const [name, content] of Object.entries(predictions)) {
    await writeFile(path.join(work, 'predictions', name), content);
  }
  const imported = await runCli(
    [
      'dataset',
      'import',
      format,
      source,
      '--out',
      'dataset',
      '--predictions',
      'predictions',
      '--as',
      'team',
      ...extraArgs,
    ],
    work,
  );
  expect(imported.code, imported.stderr).toBe(0);
  const dataset = path.join(work, 'dataset');
  const validated = await runCli(['dataset', 'validate', dataset], work);
  expect(validated.code, validated.stdout + validated.stderr).toBe(0);
  expect(validated.stdout + validated.stderr).not.toMatch(/warning/i);
  await writeFile(path.join(work, 'docbench.config.yaml'), 'systems:\n  team: { kind: stored }\n');
  const run = await runCli(['run', '--dataset', dataset, '--out', path.join(work, 'run'), '--quiet'], work);
  expect(run.code, run.stderr).toBe(0);
  const summary = JSON.parse(await readFile(path.join(work, 'run', 'summary.json'), 'utf8'));
  return { work, dataset, imported, summary };
}

export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** Micro F1 from summed counts: 2·TP / (2·TP + FP + FN) (docs/metrics/extraction.md). */
export function f1(tp: number, fp: number, fn: number): number {
  return (2 * tp) / (2 * tp + fp + fn);
}

/** The markdown metric's normalisation (docs/metrics/markdown.md): NFC, only letters, digits and underscore. */
export function normalisedLength(text: string): number {
  return [...text.normalize('NFC').replace(/[^\p{L}\p{N}_]/gu, '')].length;
}
