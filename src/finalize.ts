/**
 * After every run (and merge): score the stored run, apply the quality gate, then write the reports. All
 * read only the run directory and the dataset's truth, so `docbench gate` and `docbench report` can redo
 * the later steps. The gate comes before the reports so report.html, summary.md and junit.xml include it.
 */
import type { Dataset } from './types.js';
import type { Logger } from './logger.js';
import { evaluateRun } from './evaluate/index.js';
import { clearGate, readGate, runDirPath, type GateResult } from './run-dir/index.js';
import { formatTerminalSummary, renderReports } from './report/index.js';
import { applyGate, formatGateFailures, hasGateChecks, type GateThresholds } from './gate/index.js';

export interface FinalizeOptions {
  dataset: Dataset;
  logger: Logger;
  /** Print the short summary table and the report path (the CLI's run and merge). */
  print: boolean;
  /**
   * The gate's thresholds (config file + flags). With no check configured, a gate.json left by an earlier
   * invocation is removed. Undefined leaves gate.json alone (merge, which writes a fresh directory).
   */
  gate?: GateThresholds;
}

export interface FinalizeOutcome {
  /** The gate's verdict, or null when no threshold is configured. */
  gate: GateResult | null;
}

export async function finalizeRun(runDir: string, options: FinalizeOptions): Promise<FinalizeOutcome> {
  // A gate.json kept as it is will be read by the reports: check it before anything is rewritten.
  if (!options.gate) await readGate(runDir);
  await evaluateRun(runDir, { dataset: options.dataset, logger: options.logger });
  let gate: GateResult | null = null;
  if (options.gate && hasGateChecks(options.gate)) gate = await applyGate(runDir, options.gate, { logger: options.logger });
  else if (options.gate) await clearGate(runDir);
  const outcome = await renderReports(runDir, { logger: options.logger });
  if (options.print) {
    options.logger.info(formatTerminalSummary(outcome.view, { reportPath: runDirPath(runDir, 'reportHtml') }));
    if (gate) for (const line of formatGateFailures(gate)) options.logger.info(line);
  }
  return { gate };
}
