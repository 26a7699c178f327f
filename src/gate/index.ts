/** The regression gate: thresholds (gate.json), run-to-run diffs, pinned baselines and the run history. */
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
export { compareRuns, type CompareRunsOptions } from './compare-runs.js';
export { bootstrapP } from '../score/index.js';
export { readDiffRun, collapseFieldPath, type DiffRun, type DiffDocument } from './read-diff-run.js';
export { diffRunDirectories, formatDiffVerdict, type DiffRunsOptions, type DiffRunsOutcome } from './diff-runs.js';
export { toDiffMarkdown } from './diff-markdown.js';
export { renderDiffHtml } from './diff-html.js';
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
