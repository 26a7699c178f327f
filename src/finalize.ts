/**
 * After every run (and merge): score the stored run, apply the quality gate, then write the reports. All
 * read only the run directory and the dataset's truth, so `docbench gate` and `docbench report` can redo
 * the later steps. The gate comes before the reports so report.html, summary.md and junit.xml include it.
 */
import type { Dataset } from './types.js';
import type { Logger } from './logger.js';
import { evaluateRun, startEarlyScoring, type EarlyScoring, type RunSystems } from './evaluate/index.js';
import {
  clearGate,
  preloadRunFormats,
  readGate,
  readManifest,
  runDirPath,
  writeManifest,
  type GateResult,
  type ReadRecordIndex,
} from './run-dir/index.js';
import type { PhaseListener, PhaseName } from './phases.js';
import {
  earlyReportInputs,
  formatTerminalSummary,
  preloadReporters,
  renderReports,
  startEarlyReports,
  type EarlyReports,
  type SystemsOutline,
} from './report/index.js';
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
  /** Told of each phase's start, progress and end (the CLI prints them on stderr). */
  onPhase?: PhaseListener;
  /** results.jsonl's index, when the caller has just read it (evaluateRun's option). */
  recordIndex?: ReadRecordIndex;
  /** What `docbench run` did during its calls (startEarlyWork): the documents scored, their rows and drill-downs. */
  early?: EarlyWork;
}

export interface FinalizeOutcome {
  /** The gate's verdict, or null when no threshold is configured. */
  gate: GateResult | null;
}

export async function finalizeRun(runDir: string, options: FinalizeOptions): Promise<FinalizeOutcome> {
  const started = performance.now();
  const durations = new Map<PhaseName, number>();
  const onPhase: PhaseListener = (event) => {
    if (event.type === 'phase-end') durations.set(event.phase, event.ms);
    options.onPhase?.(event);
  };
  // A gate.json kept as it is will be read by the reports: check it before anything is rewritten.
  if (!options.gate) await readGate(runDir);
  await evaluateRun(runDir, {
    dataset: options.dataset,
    logger: options.logger,
    onPhase,
    ...(options.recordIndex ? { recordIndex: options.recordIndex } : {}),
    ...(options.early ? { scoredEarly: options.early.scoring } : {}),
  });
  // Early scoring has handed over: no more documents reach the early reports.
  const earlyReports = (await options.early?.reports.finish()) ?? undefined;
  let gate: GateResult | null = null;
  if (options.gate && hasGateChecks(options.gate))
    gate = await applyGate(runDir, options.gate, { logger: options.logger });
  else if (options.gate) await clearGate(runDir);
  // The reports show how long the calls, scoring and statistics took; run.json gets the reports' time after.
  await recordPhases(runDir, durations, started);
  const outcome = await renderReports(runDir, {
    logger: options.logger,
    onPhase,
    ...(earlyReports ? { early: earlyReports } : {}),
  });
  await recordPhases(runDir, durations, started);
  if (options.print) {
    options.logger.info(formatTerminalSummary(outcome.view, { reportPath: runDirPath(runDir, 'reportHtml') }));
    if (gate) for (const line of formatGateFailures(gate)) options.logger.info(line);
  }
  return { gate };
}

/** The work `docbench run` does while its calls wait on the network (docs/performance.md, "The tail"). */
export interface EarlyWork {
  /** Each document scored as soon as its calls are recorded. */
  scoring: EarlyScoring;
  /** Each document's table row made, and each complete drill-down part rendered, as soon as it is scored. */
  reports: EarlyReports;
}

export async function startEarlyWork(runDir: string, { dataset }: { dataset: Dataset }): Promise<EarlyWork> {
  const manifest = await readManifest(runDir);
  let reports: EarlyReports | null = null;
  const scoring = await startEarlyScoring(runDir, {
    dataset,
    // Documents are handed over only after this function returns (documentRecorded), so none is missed.
    onScored: (position, line) => reports?.add(position, line) ?? Promise.resolve(),
  });
  reports = startEarlyReports(runDir, earlyReportInputs(manifest, systemsOutline(scoring.systems)));
  return { scoring, reports };
}

/** The systems as summary.json will name them, from the systems early scoring scores against. */
function systemsOutline(run: RunSystems): SystemsOutline {
  return {
    system_names: run.systems.map((system) => system.name),
    systems: Object.fromEntries(run.systems.map((system) => [system.name, { kind: system.kind }])),
    reference: run.reference,
    primary: run.primary,
  };
}

/**
 * Loads now what finalizeRun loads on first use (the run files' formats and checks, the report templates, the CSV
 * writer):
 * `docbench run` calls it while its calls wait on the network (src/run-dir/preload.ts).
 */
export async function preloadFinalize(): Promise<void> {
  await Promise.all([preloadRunFormats(), preloadReporters()]);
}

/**
 * run.json's `phases` and duration: the calls' time as the runner recorded it (a run written before phases
 * existed: its whole duration, which then covered the calls only) plus everything since `started`.
 */
async function recordPhases(runDir: string, durations: ReadonlyMap<PhaseName, number>, started: number): Promise<void> {
  const manifest = await readManifest(runDir);
  const calls = manifest.phases?.calls_ms ?? manifest.duration_ms;
  const ms = (phase: PhaseName) => {
    const value = durations.get(phase);
    return value === undefined ? null : Math.round(value);
  };
  manifest.phases = {
    calls_ms: calls,
    scoring_ms: ms('scoring'),
    statistics_ms: ms('statistics'),
    reports_ms: ms('reports'),
  };
  manifest.duration_ms = Math.round(calls + (performance.now() - started));
  await writeManifest(runDir, manifest);
}
