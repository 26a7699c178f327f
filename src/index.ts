/** The docbench library API. Everything a program may use is exported here; nothing else is public. */
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
