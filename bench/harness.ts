/**
 * The benchmark harness behind `npm run bench`. Each file in bench/cases/ exports `cases: BenchCase[]`;
 * a case measures in one run and reports figures, ratios where a comparison is meant, each with its target.
 * Nothing here is a timed test: figures are printed (and written with --json), never asserted in CI.
 */
export interface BenchFigure {
  /** What was measured, e.g. "efficiency at concurrency 8". */
  name: string;
  value: number;
  /** Unit shown after the value: "ms", "x", "MB", "pages/s", "ratio". */
  unit: string;
  /** The target, when there is one, e.g. { op: '>=', value: 0.95 }. */
  target?: { op: '<=' | '>=' | '<' | '>'; value: number };
  /** Extra context printed beside the figure. */
  note?: string;
}

export interface BenchCase {
  /** Short id used by `npm run bench -- --only <id>`. */
  id: string;
  title: string;
  run(): Promise<BenchFigure[]>;
}

export function meetsTarget(figure: BenchFigure): boolean | undefined {
  const target = figure.target;
  if (!target) return undefined;
  switch (target.op) {
    case '<=':
      return figure.value <= target.value;
    case '>=':
      return figure.value >= target.value;
    case '<':
      return figure.value < target.value;
    case '>':
      return figure.value > target.value;
  }
}

/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Runs `fn` until at least `minMs` have passed (and at least `minRuns` times); returns the median time, ms. */
export async function medianTimeMs(fn: () => unknown | Promise<unknown>, minRuns = 5, minMs = 200): Promise<number> {
  const times: number[] = [];
  const started = performance.now();
  while (times.length < minRuns || performance.now() - started < minMs) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
    if (times.length >= 1000) break;
  }
  return median(times);
}
