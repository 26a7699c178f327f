/**
 * The run directory: every file name (layout.ts) and the typed, validated readers and writers of its data
 * files. run/, evaluate/, gate/, report/ and the commands reach a run's files only through here; see
 * docs/run-directory.md for the files, their schema versions and who reads them.
 */
export { RUN_DIR_FILES, DIFF_FILES, HISTORY_FILES, runDirPath, comparisonPagePath, type RunDirFile } from './layout.js';
export { readManifest, writeManifest } from './manifest-file.js';
export { readResults, readFinalRecords, type ReadIssue } from './results-file.js';
export { readSummary, readScoredSummary, writeSummary } from './summary-file.js';
export { readDocuments, openDocumentsWriter, type DocumentsWriter } from './documents-file.js';
export { readGate, writeGate, clearGate, GATE_SCHEMA_VERSION } from './gate-file.js';
export { openStoredRun, checkRunDirectory, type StoredRun } from './stored-run.js';
/** The formats of run.json and results.jsonl lines, for readers outside run/. */
export type { RunManifest, RunStatus } from '../run/manifest.js';
export type { CallRecord } from '../run/record.js';
/** The formats of summary.json, documents.jsonl lines and gate.json (written by evaluate/ and gate/). */
export type {
  RunSummary, ExtractionBlock, MarkdownBlock, ComparisonBlock, ConfidenceBlock, RegionsBlock, TagBreakdown, FieldRow, LatencyBlock,
  DocumentEvaluation, DocumentExtraction, DocumentMarkdown, FieldVerdict, GateCheck, GateResult,
  SystemSummary, SystemDocument, CostBlock, LeaderboardBlock, LeaderboardRow, SystemComparisonBlock, FieldLeader, Disagreement,
} from '../evaluate/types.js';
