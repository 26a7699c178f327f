/**
 * The docbench library API. Everything a program may use is exported here; nothing else is public.
 *
 * The asynchronous entry points that only a run needs (the runner, merge, evaluation, finalize, the local
 * service) are forwarders that import their module on the first call: importing docbench loads none of
 * those modules (issue 13). Their signatures are the implementations' own.
 */
import type * as RunBenchmarkModule from './run/run-benchmark.js';
import type * as MergeModule from './run/merge.js';
import type * as EvaluateRunModule from './evaluate/evaluate-run.js';
import type * as FinalizeModule from './finalize.js';
import type * as LocalModule from './local/index.js';

export { DocbenchError, UsageError, ExitCode, isDocbenchError } from './errors.js';
export type { DocbenchErrorCode } from './errors.js';
export type { Logger } from './logger.js';
export { createConsoleLogger, silentLogger } from './logger.js';
export * from './types.js';
export type * from './service/types.js';
export type { CallRecord, CallErrorRecord } from './run/record.js';
export { DOCBENCH_VERSION } from './version.js';
export { validateDataset, loadDataset, readTruthJson, readBaselineJson, readMarkdownPages, readRegionPages, initDataset, generateSampleDataset, computeContentHash, DEFAULT_MAX_FILE_BYTES } from './dataset/index.js';
export type { DatasetProblem, DatasetValidation } from './dataset/index.js';
export { renderReports, formatTerminalSummary, buildReportView, REPORT_FORMATS } from './report/index.js';
export type { ReportOutcome, RenderReportsOptions, ReportFormat, ReportView, TerminalSummaryOptions } from './report/index.js';
export * from './score/index.js';
export { createClient, ServiceError, isServiceError, DEFAULT_RETRY_POLICY, DEFAULT_AUTH } from './service/index.js';
export type { ClientOptions, ServiceClient, CallOutcome, DocumentInput, ExtractParams, CompareParams, ProcessParams, RetryPolicy, AuthHeader } from './service/index.js';
export { resolveConfig, describeConfig } from './config.js';
export type { ResolvedConfig, ConfigOverrides } from './config.js';
export type { RunBenchmarkOptions, RunBenchmarkResult } from './run/run-benchmark.js';
export type { RunManifest } from './run/manifest.js';
export type { RunEvent, RunCounts } from './run/events.js';
export type * from './evaluate/types.js';
export type { LocalService, LocalServiceOptions } from './local/index.js';
export { parseGateSection, applyGateFlags, evaluateGate, applyGate, compareRuns, diffRunDirectories, setBaseline, resolveBaseline, buildHistory } from './gate/index.js';
export type { GateThresholds, GateFlags, DiffSettings, DiffResult, MetricDiff, FieldDiff, BaselineEntry, HistoryRow } from './gate/index.js';

/** Runs a benchmark: plan, calls, results.jsonl and run.json (src/run/run-benchmark.ts). */
export async function runBenchmark(...args: Parameters<typeof RunBenchmarkModule.runBenchmark>): ReturnType<typeof RunBenchmarkModule.runBenchmark> {
  return (await import('./run/run-benchmark.js')).runBenchmark(...args);
}

/** Merges the run directories of shards into one (src/run/merge.ts). */
export async function mergeRuns(...args: Parameters<typeof MergeModule.mergeRuns>): ReturnType<typeof MergeModule.mergeRuns> {
  return (await import('./run/merge.js')).mergeRuns(...args);
}

/** Scores a stored run: summary.json and documents.jsonl (src/evaluate/evaluate-run.ts). */
export async function evaluateRun(...args: Parameters<typeof EvaluateRunModule.evaluateRun>): ReturnType<typeof EvaluateRunModule.evaluateRun> {
  return (await import('./evaluate/evaluate-run.js')).evaluateRun(...args);
}

/** Scores, gates and reports a finished run, as `docbench run` does after the calls (src/finalize.ts). */
export async function finalizeRun(...args: Parameters<typeof FinalizeModule.finalizeRun>): ReturnType<typeof FinalizeModule.finalizeRun> {
  return (await import('./finalize.js')).finalizeRun(...args);
}

/** Starts the local reference service and resolves once it listens (src/local/index.ts). */
export async function startLocalService(...args: Parameters<typeof LocalModule.startLocalService>): ReturnType<typeof LocalModule.startLocalService> {
  return (await import('./local/index.js')).startLocalService(...args);
}
