/**
 * The block metrics in `docbench diff` (docs/gate.md §3, docs/metrics.md "Blocks"): each run's figure and the
 * change, and for the edit distances, table TEDS and TEDS-S a paired test on the documents both runs scored (page
 * average, or mean over tables, recomputed on every resample; Holm among the block metrics). They decide the verdict only as `gate.diff.primary`; a
 * threshold belongs in the gate: `max_reading_order_edit`, …. Edit distances are lower-is-better, so a positive
 * Δ is worse for them and better for TEDS and TEDS-S.
 */
import type { RunSummary } from '../run-dir/index.js';
import type { DecisionFamily } from '../score/index.js';
import { escapeMarkdown, formatDecimal } from '../render/index.js';

/**
 * A block metric compared paired by document: Δ = candidate − baseline (positive is worse for an edit
 * distance, better for table TEDS and TEDS-S).
 */
export interface BlockPairedTest {
  documents: number;
  /** Candidate − baseline page average (table TEDS and TEDS-S: mean over tables) on the paired documents. */
  delta: number;
  ci95: [number, number];
  p_bootstrap: number;
  /** The decision p: its own as the primary metric, else Holm-adjusted among the block metrics. */
  p_adjusted: number;
  family: DecisionFamily;
  significant: boolean;
  /** Worse (an edit distance higher, TEDS lower) by more than the tolerance, and significant. */
  regression: boolean;
  improvement: boolean;
  /** Documents where the candidate does better / worse / within 0.005. */
  wins: number;
  losses: number;
  ties: number;
}

export interface BlockDiff {
  metric: string;
  label: string;
  /** Which way is better. */
  better: 'lower' | 'higher';
  baseline: number | null;
  candidate: number | null;
  /** candidate − baseline; null unless both have it. */
  delta: number | null;
  /** The paired test (edit distances, table TEDS and TEDS-S both runs scored); absent otherwise. */
  paired?: BlockPairedTest;
}

const FIGURES = [
  ['text_edit', 'Text edit distance', 'lower'],
  ['reading_order_edit', 'Reading-order edit distance', 'lower'],
  ['formula_edit', 'Display-formula edit distance', 'lower'],
  ['table_teds', 'Table TEDS', 'higher'],
  ['table_teds_structure', 'Table TEDS (structure)', 'higher'],
  ['table_edit', 'Table edit distance', 'lower'],
] as const;

/** The rows for one system of each run, with the paired tests by metric; empty when neither run has block metrics. */
export function diffBlocks(
  baseline: RunSummary,
  candidate: RunSummary,
  system: string,
  baselineSystem = system,
  paired: ReadonlyMap<string, BlockPairedTest> = new Map(),
): BlockDiff[] {
  const a = baseline.systems[baselineSystem]?.markdown?.blocks;
  const b = candidate.systems[system]?.markdown?.blocks;
  if (!a && !b) return [];
  return FIGURES.map(([figure, label, better]) => {
    const base = a?.[figure] ?? null;
    const cand = b?.[figure] ?? null;
    const metric = `markdown.blocks.${figure}`;
    const test = paired.get(metric);
    return {
      metric,
      label,
      better,
      baseline: base,
      candidate: cand,
      delta: base !== null && cand !== null ? cand - base : null,
      ...(test ? { paired: test } : {}),
    };
  });
}

/** diff.md's section, or nothing. */
export function blockDiffMarkdown(rows: readonly BlockDiff[]): string[] {
  if (rows.length === 0) return [];
  const signed = (v: number | null) =>
    v === null ? '—' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${formatDecimal(Math.abs(v))}`;
  return [
    '## Block metrics (OmniDocBench end-to-end; each run over its own pages; paired Δ on the documents both scored)',
    '',
    '| Metric | Better | Baseline | Candidate | Δ | Paired Δ (95% interval) | p (decision) | Verdict |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${escapeMarkdown(r.label)} | ${r.better} | ${formatDecimal(r.baseline)} | ${formatDecimal(r.candidate)} | ${signed(r.delta)} | ${r.paired ? `${signed(r.paired.delta)} (${signed(r.paired.ci95[0])} to ${signed(r.paired.ci95[1])}) on ${r.paired.documents}` : '—'} | ${r.paired ? formatDecimal(r.paired.p_adjusted) : '—'} | ${r.paired ? blockVerdict(r.paired) : 'not tested'} |`,
    ),
    '',
  ];
}

/** A paired block test in words; a regression is a significant change for the worse beyond the tolerance. */
export function blockVerdict(test: BlockPairedTest): string {
  const decided = test.family === 'primary' ? 'primary metric, in the verdict' : 'not in the verdict';
  if (test.regression) return `regression (worse; ${decided})`;
  if (test.improvement) return 'improvement (better)';
  return test.significant ? 'significant, within the tolerance' : 'no significant change';
}
