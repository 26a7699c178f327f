/**
 * The phases after the calls — scoring, statistics, reports — as events for the terminal (progress on stderr,
 * as the calls have) and durations for run.json and summary.md (docs/run-directory.md "phases").
 */

/** A phase of the work after the calls. */
export type PhaseName = 'scoring' | 'statistics' | 'reports';

export type PhaseEvent =
  /** `total`: documents the phase goes through, when it counts them. */
  | { type: 'phase-start'; phase: PhaseName; total: number | null }
  | { type: 'phase-progress'; phase: PhaseName; done: number; total: number | null }
  | { type: 'phase-end'; phase: PhaseName; done: number; ms: number };

export type PhaseListener = (event: PhaseEvent) => void;

/** One running phase: `step()` after each document, `end()` once; end returns the phase's duration, ms. */
export interface PhaseClock {
  /** `performance.now()` when the phase started. */
  startedAt: number;
  step(): void;
  end(): number;
}

/** Starts `phase`, telling `listener` (when given) of its start, every step and its end. */
export function startPhase(phase: PhaseName, total: number | null, listener?: PhaseListener): PhaseClock {
  const started = performance.now();
  let done = 0;
  listener?.({ type: 'phase-start', phase, total });
  return {
    startedAt: started,
    step() {
      done++;
      listener?.({ type: 'phase-progress', phase, done, total });
    },
    end() {
      const ms = performance.now() - started;
      listener?.({ type: 'phase-end', phase, done, ms });
      return ms;
    },
  };
}
