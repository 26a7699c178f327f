/** What the runner tells its subscribers (progress display, logs), as one discriminated union. */
import type { CallRecord, StopReason } from '../run-dir/index.js';

/** Recorded in run.json, so its format is run-dir's. */
export type { StopReason };

export type RunEvent =
  /** `spentUsd`: with budgets, USD each system recorded in earlier invocations of the run. */
  | { type: 'run-start'; planned: number; alreadyDone: number; documents: number; spentUsd?: Record<string, number> }
  | { type: 'call-start'; key: string }
  | { type: 'call-done'; record: CallRecord }
  /** `system` set: only that system's calls stop; absent: the whole run's. */
  | { type: 'stopping'; reason: StopReason; message: string; system?: string }
  | { type: 'run-end'; counts: RunCounts; stopReason: StopReason | null };

export interface RunCounts {
  /** Calls the plan holds (all documents × endpoints × modes × repeats). */
  planned: number;
  /** Calls already successful in the run directory when this invocation started (--resume). */
  alreadyDone: number;
  /** Calls this invocation finished (recorded), successful or not. */
  recorded: number;
  succeeded: number;
  failed: number;
  fromCache: number;
  /** Calls not started because the run stopped early. */
  notStarted: number;
}
