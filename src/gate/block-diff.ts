/**
 * The block metrics in `docbench diff` (docs/gate.md §3, docs/metrics.md "Blocks"): each run's figure and the
 * change, reported beside the headline metrics but not part of the verdict (no paired test yet; a threshold
 * belongs in the gate: `max_reading_order_edit`, …). Edit distances are lower-is-better, so a positive Δ is
 * worse for them and better for TEDS.
 */
import type { RunSummary } from '../run-dir/index.js';
import { escapeMarkdown, formatDecimal } from '../render/index.js';

export interface BlockDiff {
  metric: string;
  label: string;
  /** Which way is better. */
  better: 'lower' | 'higher';
  baseline: number | null;
  candidate: number | null;
  /** candidate − baseline; null unless both have it. */
  delta: number | null;
}

const FIGURES = [
  ['text_edit', 'Text edit distance', 'lower'],
  ['reading_order_edit', 'Reading-order edit distance', 'lower'],
  ['formula_edit', 'Display-formula edit distance', 'lower'],
  ['table_teds', 'Table TEDS', 'higher'],
  ['table_teds_structure', 'Table TEDS (structure)', 'higher'],
  ['table_edit', 'Table edit distance', 'lower'],
] as const;

/** The rows for one system of each run; empty when neither run has block metrics. */
export function diffBlocks(
  baseline: RunSummary,
  candidate: RunSummary,
  system: string,
  baselineSystem = system,
): BlockDiff[] {
  const a = baseline.systems[baselineSystem]?.markdown?.blocks;
  const b = candidate.systems[system]?.markdown?.blocks;
  if (!a && !b) return [];
  return FIGURES.map(([figure, label, better]) => {
    const base = a?.[figure] ?? null;
    const cand = b?.[figure] ?? null;
    return {
      metric: `markdown.blocks.${figure}`,
      label,
      better,
      baseline: base,
      candidate: cand,
      delta: base !== null && cand !== null ? cand - base : null,
    };
  });
}

/** diff.md's section, or nothing. */
export function blockDiffMarkdown(rows: readonly BlockDiff[]): string[] {
  if (rows.length === 0) return [];
  const signed = (v: number | null) =>
    v === null ? '—' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${formatDecimal(Math.abs(v))}`;
  return [
    '## Block metrics (OmniDocBench end-to-end; each run over its own pages, reported, not in the verdict)',
    '',
    '| Metric | Better | Baseline | Candidate | Δ |',
    '|---|---|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${escapeMarkdown(r.label)} | ${r.better} | ${formatDecimal(r.baseline)} | ${formatDecimal(r.candidate)} | ${signed(r.delta)} |`,
    ),
    '',
  ];
}
