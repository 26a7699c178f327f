/**
 * Progress of the phases after the calls (scoring, statistics, reports) for the terminal, beside the calls'
 * progress (progress.ts, whose bar library this file does not load: `docbench report` has no calls).
 */
import type { PhaseListener, PhaseName } from '../phases.js';
import type { ProgressOptions } from './progress.js';

/**
 * Progress of a phase that takes a while, in plain lines on both a TTY and a log (they have no bar): every
 * `intervalMs` while it runs (done / total with an ETA), then its time. A phase done within the first
 * interval prints nothing — a small run stays quiet; run.json and summary.md give every phase's time. Once
 * one phase was slow enough to print, the next ones also say when they start (statistics has no steps).
 */
export function createPhaseProgress(options: ProgressOptions): PhaseListener {
  if (options.quiet) return () => {};
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 10_000;
  let startedAt = now();
  let lastLine = startedAt;
  let printed = false;
  let slow = false;
  const line = (phase: PhaseName, done: number, total: number | null) => {
    lastLine = now();
    printed = true;
    slow = true;
    const elapsed = (lastLine - startedAt) / 1000;
    const eta = total !== null && done > 0 ? Math.round(((total - done) * elapsed) / done) : null;
    const share = total ? `${done}/${total} (${Math.floor((100 * done) / total)}%)` : 'running';
    options.stream.write(`${PHASE_LABELS[phase]}: ${share}${eta !== null ? `, ETA ${eta}s` : ''}\n`);
  };
  return (event) => {
    if (event.type === 'phase-start') {
      startedAt = now();
      lastLine = startedAt;
      printed = false;
      if (slow) options.stream.write(`${PHASE_LABELS[event.phase]}: started\n`);
    } else if (event.type === 'phase-progress' && now() - lastLine >= interval) {
      line(event.phase, event.done, event.total);
    } else if (event.type === 'phase-end' && (printed || event.ms >= interval)) {
      slow = true;
      options.stream.write(`${PHASE_LABELS[event.phase]}: done in ${(event.ms / 1000).toFixed(1)} s\n`);
    }
  };
}

const PHASE_LABELS: Record<PhaseName, string> = {
  scoring: 'scoring documents',
  statistics: 'statistics',
  reports: 'reports (document passes)',
};
