/**
 * A reporter turns the read-only view of a run into one output. Reporters are independent plug-ins: one
 * failing never stops the others (renderReports collects the error and carries on).
 */
import type { DocumentEvaluation } from '../../run-dir/index.js';
import type { Logger } from '../../logger.js';
import type { ReadDocumentsOptions, StoredRun } from '../../run-dir/index.js';
import type { ReportView } from '../view-types.js';
import type { EarlyReportWork } from '../early-reports.js';

/** The outputs `docbench report` can write; all by default. */
export const REPORT_FORMATS = [
  'html',
  'drilldown',
  'documents-csv',
  'fields-csv',
  'tags-csv',
  'junit',
  'markdown',
] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReporterContext {
  runDir: string;
  inputs: StoredRun;
  view: ReportView;
  logger: Logger;
  /** Streams documents.jsonl again, for reporters that need the full documents (drill-downs): from the start
   * or from the `from`th document. */
  documents(options?: ReadDocumentsOptions): AsyncIterable<DocumentEvaluation>;
  /** `performance.now()` when the reports phase started: summary.md, written last, gives the phase's time. */
  startedAt?: number;
  /** What was made during the run's calls: the drill-down reporter keeps or removes its parts. */
  early?: EarlyReportWork;
}

export interface Reporter {
  format: ReportFormat;
  /** The file (or directory, ending in `/`) it writes, relative to the run directory. */
  output: string;
  /** Writes the output; resolves to the absolute paths written. */
  write(context: ReporterContext): Promise<string[]>;
}
