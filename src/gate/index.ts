/**
 * The regression gate: thresholds (gate.json), run-to-run diffs, pinned baselines and the run history. The diff
 * (compare-runs.ts and what renders it, with src/score's statistics) is behind forwarders that load it on the
 * first diff: every command that reads a config reads its gate section from here, and `docbench run` loaded
 * ~70 modules it never used before its first call (docs/performance.md, "Runner").
 */
import type * as DiffRunsModule from './diff-runs.js';
import type * as DiffHtmlModule from './diff-html.js';
import type * as ReadDiffRunModule from './read-diff-run.js';
import type { DiffResult } from './diff-types.js';

export {
  parseGateSection,
  readGateSection,
  applyGateFlags,
  hasGateChecks,
  createEmptyThresholds,
  DEFAULT_DIFF_SETTINGS,
} from './thresholds.js';
export type {
  GateThresholds,
  GateFlags,
  DiffSettings,
  ModeThresholds,
  FieldThresholds,
  TagThresholds,
  LatencyThresholds,
} from './thresholds.js';
export { evaluateGate, type GateDocument, type GateEvaluation } from './evaluate-gate.js';
export { applyGate, formatGateVerdict, formatGateFailures } from './run-gate.js';
export type { CompareRunsOptions } from './compare-runs.js';
export type { DiffRun, DiffDocument } from './read-diff-run.js';
export type { DiffRunsOptions, DiffRunsOutcome } from './diff-runs.js';
export type { DiffResult, MetricDiff, FieldDiff, FlipDiff, LatencyDiff, DiffRunInfo } from './diff-types.js';
export {
  readBaselineStore,
  setBaseline,
  unsetBaseline,
  resolveBaseline,
  baselinesFile,
  BASELINES_FILE,
  type BaselineEntry,
  type BaselineStore,
} from './baselines.js';
export { loadGateTemplates } from './page-templates.js';
export {
  buildHistory,
  buildHistoryView,
  scanRuns,
  toHistoryCsv,
  toHistoryRow,
  sortHistory,
  HISTORY_COLUMNS,
  type HistoryRow,
  type HistoryOutcome,
  type BuildHistoryOptions,
} from './history.js';

/** Compares two run directories and writes the diff (diff-runs.ts). */
export async function diffRunDirectories(
  ...args: Parameters<typeof DiffRunsModule.diffRunDirectories>
): ReturnType<typeof DiffRunsModule.diffRunDirectories> {
  return (await import('./diff-runs.js')).diffRunDirectories(...args);
}

/** The verdict of a diff in a few lines, as `docbench diff` prints it (diff-runs.ts). */
export async function formatDiffVerdict(result: DiffResult): Promise<string> {
  return (await import('./diff-runs.js')).formatDiffVerdict(result);
}

/** diff.html of a diff (diff-html.ts). */
export async function renderDiffHtml(
  ...args: Parameters<typeof DiffHtmlModule.renderDiffHtml>
): ReturnType<typeof DiffHtmlModule.renderDiffHtml> {
  return (await import('./diff-html.js')).renderDiffHtml(...args);
}

/** What a diff reads of one run directory (read-diff-run.ts). */
export async function readDiffRun(
  ...args: Parameters<typeof ReadDiffRunModule.readDiffRun>
): ReturnType<typeof ReadDiffRunModule.readDiffRun> {
  return (await import('./read-diff-run.js')).readDiffRun(...args);
}
