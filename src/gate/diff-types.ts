/**
 * diff.json: the comparison of a candidate run with a baseline run on the same documents (docs/metrics/comparison.md).
 * diff.md and diff.html are rendered from this object and nothing else.
 */
import type { BlockDiff } from './block-diff.js';
import type { Mode } from '../types.js';
import type { DecisionFamily } from '../score/index.js';
import type { DiffSettings } from './thresholds.js';

export const DIFF_SCHEMA_VERSION = 1;

/** One run as the diff names it. */
export interface DiffRunInfo {
  run_id: string;
  /** As given on the command line. */
  dir: string;
  created_at: string;
  status: string;
  dataset: { name: string; version: string | null; content_hash: string };
  service: string;
  /** The system of the run whose answers were compared. */
  system: string;
}

/** A headline metric: candidate − baseline, higher is better for every one of them. */
export interface MetricDiff {
  /** e.g. "extraction.slow.f1", "extraction.slow.exact_match_rate", "markdown.similarity", "regions.f1_at50". */
  metric: string;
  label: string;
  /** How the aggregate is computed on each bootstrap resample. */
  aggregate: string;
  documents: number;
  baseline: number;
  candidate: number;
  /** candidate − baseline. Negative = worse. */
  delta: number;
  /** Paired-bootstrap percentile 95% interval of delta. */
  ci95: [number, number];
  /** Two-sided p from the bootstrap: |Δ| / bootstrap standard error against the normal distribution. */
  p_bootstrap: number;
  /**
   * The p the verdict uses (docs/metrics/comparison.md "Decision rule"): p_bootstrap itself for the primary
   * metric, Holm-adjusted among the secondary metrics for the others.
   */
  p_adjusted: number;
  /** `primary`: tested alone at alpha; `secondary`: Holm among the other headline metrics. */
  family: DecisionFamily;
  /** p_adjusted ≤ alpha, whatever the size of Δ. */
  significant: boolean;
  /** Exact sign test on per-document wins/losses (ties within 0.005 dropped). */
  p_sign: number;
  /** Wilcoxon signed-rank on per-document differences (zeros dropped; exact n ≤ 25, else normal with continuity ½). */
  p_wilcoxon: number;
  /** Documents where the candidate is better / worse / within 0.005. */
  wins: number;
  losses: number;
  ties: number;
  /** Drop beyond the tolerance AND significant. */
  regression: boolean;
  /** Gain beyond the tolerance AND p_adjusted ≤ alpha. */
  improvement: boolean;
}

/** One field path in one mode: micro F1 over the documents where the path occurs in either run. */
export interface FieldDiff {
  mode: Mode;
  path: string;
  documents: number;
  baseline: { f1: number; tp: number; fp: number; fn: number };
  candidate: { f1: number; tp: number; fp: number; fn: number };
  delta: number;
  ci95: [number, number];
  p_bootstrap: number;
  /** Holm-adjusted across every field path of every mode. */
  p_adjusted: number;
  /** p_adjusted ≤ alpha. */
  significant: boolean;
  regression: boolean;
  improvement: boolean;
}

/** Documents whose exact match changed, per mode. */
export interface FlipDiff {
  mode: Mode;
  /** Exactly right in the baseline, wrong in the candidate. */
  to_wrong: string[];
  /** Wrong in the baseline, exactly right in the candidate. */
  to_correct: string[];
}

/** Client latency of one call key (e.g. "extract:slow"), paired by document. Lower is better. */
export interface LatencyDiff {
  key: string;
  documents: number;
  baseline: { p50: number | null; p95: number | null };
  candidate: { p50: number | null; p95: number | null };
  /** candidate − baseline, ms (positive = slower). */
  delta_p50: number | null;
  delta_p95: number | null;
  /** Mean of per-document differences, ms, with its paired-bootstrap interval. */
  mean_delta: number;
  ci95: [number, number];
  p_wilcoxon: number;
  /** Documents faster / slower in the candidate. */
  faster: number;
  slower: number;
}

/** One thing that differs between the runs besides their figures (src/gate/diff-provenance.ts). */
export interface ProvenanceChange {
  /** e.g. "vision: reported model", "vision: option extractPrompt", "dataset content hash", "normalisation: locale". */
  what: string;
  baseline: string;
  candidate: string;
}

export interface DiffResult {
  schema_version: typeof DIFF_SCHEMA_VERSION;
  /** "regression" makes `docbench diff` exit 1. */
  verdict: 'regression' | 'no regression';
  /** One sentence per reason for the verdict. */
  reasons: string[];
  baseline: DiffRunInfo;
  candidate: DiffRunInfo;
  /** `primary`: the primary metric the verdict used (the configured one, else the default); null with no headline metric. */
  settings: DiffSettings & { test: string; correction: string; tie_tolerance: number };
  dataset_changed: boolean;
  /**
   * What differs besides the figures, reported identity first: what the compared system said it was, its
   * kind and options, dataset, schema, normalisation and metric versions. Empty when nothing does.
   */
  provenance: ProvenanceChange[];
  documents: { paired: number; only_in_baseline: string[]; only_in_candidate: string[] };
  /** Status flips: documents whose calls succeeded in one run and failed in the other. */
  status_flips: { to_failed: string[]; to_ok: string[] };
  headline: MetricDiff[];
  fields: FieldDiff[];
  flips: FlipDiff[];
  latency: LatencyDiff[];
  /** The block metrics of each run (block-diff.ts): reported, not in the verdict; absent before they existed. */
  blocks?: BlockDiff[];
  warnings: string[];
  /** What the primary metric's test can find on these documents (docs/gate.md "Power"). */
  power: {
    documents: number;
    /** Fewer documents that differ can never be significant at alpha: the smallest k with 2 · 0.5^k ≤ alpha. */
    fewest_significant: number;
    alpha: number;
    tolerance: number;
  };
  /** With no regression on fewer than 100 paired documents: the smallest drop that could have been found, in words. */
  power_note: string | null;
}
