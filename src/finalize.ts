/**
 * After every run (and merge): score the stored run, then write the reports. Both read only the run
 * directory and the dataset's truth, so `docbench score` and `docbench report` can redo either step.
 */
import path from 'node:path';
import type { Dataset } from './types.js';
import type { Logger } from './logger.js';
import { evaluateRun } from './evaluate/evaluate-run.js';
import { formatTerminalSummary, renderReports } from './report/index.js';

export interface FinalizeOptions {
  dataset: Dataset;
  logger: Logger;
  /** Print the short summary table and the report path (the CLI's run and merge). */
  print: boolean;
}

export async function finalizeRun(runDir: string, options: FinalizeOptions): Promise<void> {
  await evaluateRun(runDir, { dataset: options.dataset, logger: options.logger });
  const outcome = await renderReports(runDir, { logger: options.logger });
  if (options.print) {
    options.logger.info(formatTerminalSummary(outcome.view, { reportPath: path.join(runDir, 'report.html') }));
  }
}
