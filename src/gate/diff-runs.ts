/**
 * `docbench diff`, as a library function: load two scored runs, refuse different datasets unless allowed,
 * compare them and write diff.json, diff.md and diff.html. The caller maps the verdict to the exit code.
 */
import path from 'node:path';
import { UsageError } from '../errors.js';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import { silentLogger, type Logger } from '../logger.js';
import { DIFF_FILES } from '../run-dir/index.js';
import { compareRuns, formatSigned } from './compare-runs.js';
import type { DiffResult } from './diff-types.js';
import { renderDiffHtml } from './diff-html.js';
import { toDiffMarkdown } from './diff-markdown.js';
import { describeLostField, lostFields } from './diff-wording.js';
import { readDiffRun } from './read-diff-run.js';
import type { DiffSettings } from './thresholds.js';

export interface DiffRunsOptions {
  settings: DiffSettings;
  /** Compare runs whose datasets differ (name or content hash), pairing documents by id. @default false */
  allowDatasetChange?: boolean;
  /** Where diff.* are written; null writes nothing. */
  outDir: string | null;
  /** The system compared in both runs (`--system`); default each run's primary system. */
  system?: string;
  logger?: Logger;
}

export interface DiffRunsOutcome {
  result: DiffResult;
  /** Absolute paths written. */
  written: string[];
}

export async function diffRunDirectories(
  baselineDir: string,
  candidateDir: string,
  options: DiffRunsOptions,
): Promise<DiffRunsOutcome> {
  const logger = options.logger ?? silentLogger;
  const [baseline, candidate] = await Promise.all([
    readDiffRun(baselineDir, 'baseline', options.system),
    readDiffRun(candidateDir, 'candidate', options.system),
  ]);
  const a = baseline.manifest.dataset;
  const b = candidate.manifest.dataset;
  const changed = a.name !== b.name || a.content_hash !== b.content_hash;
  if (changed && !options.allowDatasetChange) {
    const what =
      a.name !== b.name
        ? `dataset "${a.name}" vs "${b.name}"`
        : `dataset "${a.name}" with different contents (${a.content_hash.slice(0, 19)}… vs ${b.content_hash.slice(0, 19)}…)`;
    throw new UsageError(`the runs are of different datasets: ${what}`, {
      code: 'INPUT_INVALID',
      subject: candidateDir,
      hint: 'compare runs of the same dataset (pin a new baseline after changing it), or pass --allow-dataset-change to pair documents by id anyway',
    });
  }
  const result = compareRuns(baseline, candidate, { settings: options.settings, datasetChanged: changed });
  if (result.documents.paired === 0) {
    throw new UsageError(
      `the runs have no document id in common (baseline ${baseline.documents.size}, candidate ${candidate.documents.size} documents)`,
      {
        code: 'INPUT_INVALID',
        subject: candidateDir,
        hint: 'compare runs made with the same --filter/--shard/--limit selection',
      },
    );
  }
  for (const warning of result.warnings) logger.warn(warning);
  const written: string[] = [];
  if (options.outDir !== null) {
    const outputs: [string, () => Promise<string> | string][] = [
      [DIFF_FILES.json, () => toJson(result)],
      [DIFF_FILES.markdown, () => toDiffMarkdown(result)],
      [DIFF_FILES.html, () => renderDiffHtml(result)],
    ];
    for (const [name, render] of outputs) {
      const file = path.join(options.outDir, name);
      await writeFileAtomic(file, await render());
      written.push(file);
    }
  }
  return { result, written };
}

/** The verdict and its reasons, for the terminal. */
export function formatDiffVerdict(result: DiffResult): string {
  const lines = [
    ...result.provenance.map((change) => `changed: ${change.what}: ${change.baseline} → ${change.candidate}`),
    `diff: ${result.verdict === 'regression' ? 'REGRESSION' : 'no regression'} (${result.documents.paired} documents paired)`,
  ];
  for (const reason of result.reasons) lines.push(`  ${result.verdict === 'regression' ? '✗' : '·'} ${reason}`);
  const lost = lostFields(result);
  if (lost.length > 0) lines.push(`  field paths that lost: ${lost.map(describeLostField).join('; ')}`);
  // Without a regression verdict the reasons already name them.
  const blocks = (result.blocks ?? []).filter((b) => b.paired?.regression && b.paired.family !== 'primary');
  if (blocks.length > 0 && result.verdict === 'regression')
    lines.push(
      `  block metrics that regressed (not in the verdict): ${blocks.map((b) => `${b.label} ${formatSigned(b.paired!.delta)}, ${b.better} is better`).join('; ')}`,
    );
  if (result.power_note) lines.push(`  · ${result.power_note}`);
  return lines.join('\n');
}
