/**
 * Reports over a stored, scored run: report.html (+ drilldown/), documents.csv, fields.csv, tags.csv, junit.xml
 * and summary.md, all from one view model. Written at the end of every run and rebuilt by `docbench report`.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { silentLogger, type Logger } from '../logger.js';
import { isDocbenchError } from '../errors.js';
import { buildReportView } from './build-view.js';
import { openStoredRun, type DocumentEvaluation, type ReadDocumentsOptions } from '../run-dir/index.js';
import { startPhase, type PhaseListener } from '../phases.js';
import { drilldownReporter } from './reporters/drilldown-reporter.js';
import { documentsCsvReporter, fieldsCsvReporter, tagsCsvReporter } from './reporters/csv-reporters.js';
import { htmlReporter } from './reporters/html-reporter.js';
import { junitReporter } from './reporters/junit-reporter.js';
import { markdownReporter } from './reporters/markdown-reporter.js';
import { REPORT_FORMATS, type ReportFormat, type Reporter } from './reporters/reporter.js';
import type { ReportView } from './view-types.js';
import { loadTemplates } from './templates.js';
import { preloadCsv } from '../render/index.js';
import { usableEarlyRows, type EarlyReportWork } from './early-reports.js';

export { REPORT_FORMATS, type ReportFormat } from './reporters/reporter.js';
export { formatTerminalSummary, type TerminalSummaryOptions } from './terminal-summary.js';
export { buildReportView } from './build-view.js';
export type { ReportView, DocumentRow } from './view-types.js';
export { toScriptJsonHtml } from './embed-json.js';
export { loadTemplates } from './templates.js';

/** Loads what the reporters load on first use: the templates and the CSV writer. */
export async function preloadReporters(): Promise<void> {
  preloadCsv();
  await loadTemplates();
}
export { earlyReportInputs, startEarlyReports, type EarlyReports, type EarlyReportWork } from './early-reports.js';
export type { SystemsOutline } from './leaderboard-view.js';

/** What renderReports wrote, and what failed (one reporter failing never stops the others). */
export interface ReportOutcome {
  /** Absolute paths; the drill-down directory as one entry ending in a separator. */
  written: string[];
  failed: { file: string; error: string }[];
  /** The view the reports were written from (for the terminal summary). */
  view: ReportView;
}

export interface RenderReportsOptions {
  logger?: Logger;
  /** @default every format in REPORT_FORMATS */
  formats?: ReportFormat[];
  /** Told of the reports phase: one step per document read, for the view and again for the drill-downs. */
  onPhase?: PhaseListener;
  /** What was made during the run's calls (startEarlyReports): the rows and drill-down parts kept where they
   * are this report's, the parts removed otherwise. */
  early?: EarlyReportWork;
}

/** Every reporter, in the order they run. */
const REPORTERS: Reporter[] = [
  htmlReporter,
  drilldownReporter,
  documentsCsvReporter,
  fieldsCsvReporter,
  tagsCsvReporter,
  junitReporter,
  markdownReporter,
];

/**
 * Reads run.json, summary.json, gate.json and documents.jsonl (streamed) from `runDir`, builds the view
 * model once and runs each requested reporter. Input errors (not a run directory, not scored, damaged
 * files) throw a UsageError naming the file; a reporter's failure is collected in `failed`.
 */
export async function renderReports(runDir: string, options: RenderReportsOptions = {}): Promise<ReportOutcome> {
  try {
    return await renderEveryReport(runDir, options);
  } finally {
    // The drill-down reporter adopts the early parts' directory or removes it; what it did not take goes here.
    const parts = options.early?.drilldowns;
    if (parts) await rm(parts.dir, { recursive: true, force: true });
  }
}

async function renderEveryReport(runDir: string, options: RenderReportsOptions): Promise<ReportOutcome> {
  const logger = options.logger ?? silentLogger;
  const formats = new Set(options.formats ?? REPORT_FORMATS);
  const inputs = await openStoredRun(runDir);
  const passes = formats.has('drilldown') ? 2 : 1;
  const phase = startPhase('reports', inputs.manifest.dataset.documents_selected * passes, options.onPhase);
  const counted = async function* (options?: ReadDocumentsOptions): AsyncIterable<DocumentEvaluation> {
    // The documents passed over count as read.
    for (let i = 0; i < (options?.from ?? 0); i++) phase.step();
    for await (const doc of inputs.documents(options)) {
      yield doc;
      phase.step();
    }
  };
  const start = usableEarlyRows(options.early, inputs);
  const view = await buildReportView(
    inputs,
    counted(start ? { from: start.rows.length } : undefined),
    start ?? undefined,
  );
  const outcome: ReportOutcome = { written: [], failed: [], view };
  for (const reporter of REPORTERS) {
    if (!formats.has(reporter.format)) continue;
    try {
      const files = await reporter.write({
        runDir,
        inputs,
        view,
        logger,
        documents: counted,
        startedAt: phase.startedAt,
        ...(options.early ? { early: options.early } : {}),
      });
      outcome.written.push(...files);
      logger.debug(`wrote ${files.join(', ')}`);
    } catch (error) {
      const message = isDocbenchError(error) ? error.message : error instanceof Error ? error.message : String(error);
      outcome.failed.push({ file: path.join(runDir, reporter.output), error: message });
      logger.error(`could not write ${reporter.output}: ${message}`);
    }
  }
  phase.end();
  return outcome;
}
