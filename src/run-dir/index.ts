/**
 * The run directory: every file name (layout.ts) and the typed, validated readers and writers of its data
 * files. run/, evaluate/, gate/, report/ and the commands reach a run's files only through here; see
 * docs/run-directory.md for the files, their schema versions and who reads them.
 */
export { RUN_DIR_FILES, DIFF_FILES, HISTORY_FILES, runDirPath, comparisonPagePath, type RunDirFile } from './layout.js';
export { readManifest, writeManifest } from './manifest-file.js';
export {
  indexFinalRecords,
  openRecordReader,
  readResults,
  readFinalRecords,
  checkCallRecord,
  type ReadIssue,
  type RecordLocation,
  type FinalRecordEntry,
  type FinalRecordIndex,
  type ReadRecordIndex,
} from './results-file.js';
export { readSummary, readScoredSummary, writeSummary } from './summary-file.js';
export { createInterner, type Interner } from './intern.js';
export {
  readDocuments,
  openDocumentsWriter,
  type DocumentsWriter,
  type ReadDocumentsOptions,
} from './documents-file.js';
export { readGate, writeGate, clearGate, GATE_SCHEMA_VERSION } from './gate-file.js';
export { openStoredRun, checkRunDirectory, type StoredRun } from './stored-run.js';
export { ResultsWriter } from './results-writer.js';
export { preloadRunFormats } from './preload.js';
/** The formats of run.json and results.jsonl lines (written by run/), with their helpers. */
export {
  MANIFEST_SCHEMA_VERSION,
  INCUMBENT,
  v1SystemName,
  createRunId,
  runSystems,
  primarySystem,
  tallyReported,
  changedReports,
} from './manifest.js';
export type {
  RunManifest,
  RunPhases,
  RunStatus,
  ManifestSystem,
  ManifestEstimate,
  ReportedTally,
  Selection,
  StopReason,
} from './manifest.js';
export { RECORD_SCHEMA_VERSION, callKey, upgradeRecord } from './record.js';
export type { CallRecord, CallErrorRecord, UsageRecord } from './record.js';
/** The formats of summary.json, documents.jsonl lines and gate.json (written by evaluate/ and gate/). */
export type {
  RunSummary,
  ExtractionBlock,
  MarkdownBlock,
  ComparisonBlock,
  ConfidenceBlock,
  RegionsBlock,
  TagBreakdown,
  FieldRow,
  LatencyBlock,
  DocumentEvaluation,
  DocumentExtraction,
  DocumentMarkdown,
  FieldVerdict,
  GateCheck,
  GateResult,
  SystemSummary,
  SystemDocument,
  CostBlock,
  LeaderboardBlock,
  LeaderboardRow,
  SystemComparisonBlock,
  FieldLeader,
  Disagreement,
} from './evaluation-types.js';
export { SUMMARY_SCHEMA_VERSION } from './evaluation-types.js';
export { upgradeSummaryV1, upgradeDocumentV1 } from './upgrade-v1.js';
export type { RunSummaryV1, DocumentEvaluationV1 } from './summary-v1.js';
