/**
 * The docbench library API. Everything a program may use is exported here; nothing else is public.
 *
 * The asynchronous entry points that only a run or a report needs (the runner, merge, evaluation, finalize,
 * the local service, the reporters, gate, diff, baselines and history) are forwarders that import their
 * module on the first call: importing docbench loads none of those modules (test/startup/lazy-load.test.ts). Their signatures are
 * the implementations' own. The synchronous ones are exported from their own modules, not from the folders'
 * index files, which import the asynchronous ones too.
 */
import type * as RunBenchmarkModule from './run/run-benchmark.js';
import type * as MergeModule from './run/merge.js';
import type * as PlanBenchmarkModule from './run/plan-benchmark.js';
import type * as EvaluateRunModule from './evaluate/evaluate-run.js';
import type * as FinalizeModule from './finalize.js';
import type * as LocalModule from '@docbench/local-engine';
import type * as ReportModule from './report/index.js';
import type * as BuildViewModule from './report/build-view.js';
import type * as RunGateModule from './gate/run-gate.js';
import type * as DiffRunsModule from './gate/diff-runs.js';
import type * as BaselinesModule from './gate/baselines.js';
import type * as HistoryModule from './gate/history.js';

export { DocbenchError, UsageError, ExitCode, isDocbenchError } from './errors.js';
export type { DocbenchErrorCode } from './errors.js';
export type { Logger } from './logger.js';
export { createConsoleLogger, silentLogger } from './logger.js';
export * from './types.js';
export type * from './service/types.js';
export type { CallRecord, CallErrorRecord } from './run-dir/record.js';
export { DOCBENCH_VERSION } from './version.js';
export {
  validateDataset,
  loadDataset,
  readTruthJson,
  readBaselineJson,
  readMarkdownPages,
  readRegionPages,
  initDataset,
  generateSampleDataset,
  computeContentHash,
  DEFAULT_MAX_FILE_BYTES,
} from './dataset/index.js';
export type { DatasetProblem, DatasetValidation } from './dataset/index.js';
export { formatTerminalSummary } from './report/terminal-summary.js';
export { REPORT_FORMATS } from './report/reporters/reporter.js';
export type {
  ReportOutcome,
  RenderReportsOptions,
  ReportFormat,
  ReportView,
  TerminalSummaryOptions,
} from './report/index.js';
export * from './score/index.js';
export { createClient, ServiceError, isServiceError, DEFAULT_RETRY_POLICY, DEFAULT_AUTH } from './service/index.js';
export type {
  ClientOptions,
  ServiceClient,
  CallOutcome,
  DocumentInput,
  ExtractParams,
  CompareParams,
  ProcessParams,
  RetryPolicy,
  AuthHeader,
} from './service/index.js';
export { resolveConfig, describeConfig } from './config.js';
export type { ResolvedConfig, ConfigOverrides } from './config.js';
export type { RunBenchmarkOptions, RunBenchmarkResult } from './run/run-benchmark.js';
export type { PlanBenchmarkOptions, PlanResult } from './run/plan-benchmark.js';
export type { SystemEstimate } from './run/estimate.js';
export type { RunManifest } from './run-dir/manifest.js';
export type { RunEvent, RunCounts } from './run/events.js';
export type * from './run-dir/evaluation-types.js';
export type { LocalService, LocalServiceOptions } from '@docbench/local-engine';
export { parseGateSection, applyGateFlags } from './gate/thresholds.js';
export { evaluateGate } from './gate/evaluate-gate.js';
export { compareRuns } from './gate/compare-runs.js';
export type {
  GateThresholds,
  GateFlags,
  DiffSettings,
  DiffResult,
  MetricDiff,
  FieldDiff,
  BaselineEntry,
  HistoryRow,
} from './gate/index.js';

/** Runs a benchmark: plan, calls, results.jsonl and run.json (src/run/run-benchmark.ts). */
export async function runBenchmark(
  ...args: Parameters<typeof RunBenchmarkModule.runBenchmark>
): ReturnType<typeof RunBenchmarkModule.runBenchmark> {
  return (await import('./run/run-benchmark.js')).runBenchmark(...args);
}

/** What a run would call and cost, with nothing called or written (src/run/plan-benchmark.ts). */
export async function planBenchmark(
  ...args: Parameters<typeof PlanBenchmarkModule.planBenchmark>
): ReturnType<typeof PlanBenchmarkModule.planBenchmark> {
  return (await import('./run/plan-benchmark.js')).planBenchmark(...args);
}

/** Merges the run directories of shards into one (src/run/merge.ts). */
export async function mergeRuns(
  ...args: Parameters<typeof MergeModule.mergeRuns>
): ReturnType<typeof MergeModule.mergeRuns> {
  return (await import('./run/merge.js')).mergeRuns(...args);
}

/** Scores a stored run: summary.json and documents.jsonl (src/evaluate/evaluate-run.ts). */
export async function evaluateRun(
  ...args: Parameters<typeof EvaluateRunModule.evaluateRun>
): ReturnType<typeof EvaluateRunModule.evaluateRun> {
  return (await import('./evaluate/evaluate-run.js')).evaluateRun(...args);
}

/** Scores, gates and reports a finished run, as `docbench run` does after the calls (src/finalize.ts). */
export async function finalizeRun(
  ...args: Parameters<typeof FinalizeModule.finalizeRun>
): ReturnType<typeof FinalizeModule.finalizeRun> {
  return (await import('./finalize.js')).finalizeRun(...args);
}

/** Starts the local reference service and resolves once it listens (the package @docbench/local-engine). */
export async function startLocalService(
  ...args: Parameters<typeof LocalModule.startLocalService>
): ReturnType<typeof LocalModule.startLocalService> {
  return (await import('@docbench/local-engine')).startLocalService(...args);
}

/** Writes the run's reports from its stored files (src/report/index.ts). */
export async function renderReports(
  ...args: Parameters<typeof ReportModule.renderReports>
): ReturnType<typeof ReportModule.renderReports> {
  return (await import('./report/index.js')).renderReports(...args);
}

/** Builds the view every report is rendered from (src/report/build-view.ts). */
export async function buildReportView(
  ...args: Parameters<typeof BuildViewModule.buildReportView>
): ReturnType<typeof BuildViewModule.buildReportView> {
  return (await import('./report/build-view.js')).buildReportView(...args);
}

/** Checks a scored run against thresholds and writes gate.json (src/gate/run-gate.ts). */
export async function applyGate(
  ...args: Parameters<typeof RunGateModule.applyGate>
): ReturnType<typeof RunGateModule.applyGate> {
  return (await import('./gate/run-gate.js')).applyGate(...args);
}

/** Compares two run directories and writes the diff (src/gate/diff-runs.ts). */
export async function diffRunDirectories(
  ...args: Parameters<typeof DiffRunsModule.diffRunDirectories>
): ReturnType<typeof DiffRunsModule.diffRunDirectories> {
  return (await import('./gate/diff-runs.js')).diffRunDirectories(...args);
}

/** Records a run as its dataset's baseline (src/gate/baselines.ts). */
export async function setBaseline(
  ...args: Parameters<typeof BaselinesModule.setBaseline>
): ReturnType<typeof BaselinesModule.setBaseline> {
  return (await import('./gate/baselines.js')).setBaseline(...args);
}

/** The baseline run recorded for a dataset, if any (src/gate/baselines.ts). */
export async function resolveBaseline(
  ...args: Parameters<typeof BaselinesModule.resolveBaseline>
): ReturnType<typeof BaselinesModule.resolveBaseline> {
  return (await import('./gate/baselines.js')).resolveBaseline(...args);
}

/** Builds the history of the runs under a reports folder (src/gate/history.ts). */
export async function buildHistory(
  ...args: Parameters<typeof HistoryModule.buildHistory>
): ReturnType<typeof HistoryModule.buildHistory> {
  return (await import('./gate/history.js')).buildHistory(...args);
}
