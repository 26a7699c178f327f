/**
 * What scoring a stored run produces: `summary.json` (the headline numbers of every system, stable and
 * documented in docs/summary-json.md, with `schema_version`) and `documents.jsonl` (one line per document
 * with every system's scores and everything a drill-down shows). Reporters read only these and run.json:
 * they format, never re-score. Version-1 files are read through `upgrade-v1.ts`.
 */
import type { Endpoint, Mode } from '../types.js';
import type { RegionPage } from '../service/index.js';
import type { DecisionFamily, FieldError, Verdict, LatencyStats } from '../score/index.js';

/** 2: several systems per run (`systems.<name>`), leaderboard and comparisons with the reference. docs/summary-json.md. */
export const SUMMARY_SCHEMA_VERSION = 2;

/**
 * Percentiles of one latency population, as the latency scorer computes them (without `min`); the method is
 * named so numbers can be reproduced. `failed` calls are counted and shown, never dropped, but not in the
 * percentiles.
 */
export type LatencyBlock = Omit<LatencyStats, 'min' | 'method'> & { method: string };

export interface ExtractionBlock {
  /** Micro over leaf fields, normalised pass: the headline. */
  precision: number;
  recall: number;
  f1: number;
  strict_precision: number;
  strict_recall: number;
  strict_f1: number;
  /** Mean of per-document F1. */
  macro_f1: number;
  /** Documents with no FP and no FN: the straight-through rate. */
  exact_match_rate: number;
  /** Calls whose response could not be read as JSON: counted as empty output. */
  parse_failures: number;
  parse_failure_rate: number;
  /** Documents scored (with truth JSON). */
  documents: number;
  /** Of those, documents whose call failed: scored as empty output. */
  failed: number;
  /** Line items matched with every field equal, as an F1 over items. */
  line_item_f1: number | null;
  /** Mean |predicted items − truth items|. */
  item_count_error: number | null;
  /** ANLS* over free-text fields (secondary). */
  anls: number | null;
  tp: number;
  fp: number;
  fn: number;
}

export interface MarkdownBlock {
  /** Micro: 1 − Σedits / Σmaxlen over all pages (headline). */
  similarity: number;
  /** Mean over pages. */
  similarity_macro: number;
  raw_similarity: number;
  word_precision: number;
  word_recall: number;
  /** Mean TEDS over truth tables; null when the truth has no tables. */
  teds: number | null;
  teds_structure: number | null;
  documents: number;
  pages: number;
  /** Documents with no output (failed call, or no baseline): similarity 0. */
  failed: number;
  /** Pages where truth and output are both empty (similarity 1), reported apart. */
  both_empty_pages: number;
}

export interface ComparisonBlock {
  /** Aggregate of the system − aggregate of the reference on the paired documents (micro where the headline is micro). */
  delta: number;
  ci95: [number, number];
  wins: number;
  losses: number;
  ties: number;
  p_sign: number | null;
  p_wilcoxon: number | null;
  documents: number;
}

/** Confidences are on the service's 0–100 scale throughout; accuracies are field F1 in [0, 1]. */
export interface ConfidenceBlock {
  /** Mean confidence, 0–100. */
  mean: number | null;
  ece: number | null;
  adaptive_ece: number | null;
  brier: number | null;
  auroc: number | null;
  /** Lowest confidence (0–100) at which accepted documents reach the target field F1; null if none. */
  auto_accept_threshold: number | null;
  auto_accept_share: number | null;
  /** The target accuracy (mean field F1) used. */
  auto_accept_target: number;
  documents: number;
  /** Reliability table: equal-width bins over 0–100 (`lo`, `hi`, mean `confidence` on 0–100; `accuracy` 0–1). */
  bins: { lo: number; hi: number; count: number; confidence: number | null; accuracy: number | null }[];
  /** Risk–coverage: accepting documents with confidence ≥ threshold. */
  risk_coverage: { threshold: number; coverage: number; accuracy: number }[];
}

export interface RegionsBlock {
  at50: { precision: number; recall: number; f1: number };
  at75: { precision: number; recall: number; f1: number };
  mean_iou: number | null;
  char_accuracy: number;
  documents: number;
  failed: number;
}

export interface TagBreakdown {
  documents: number;
  failed: number;
  /** Per mode: micro field F1 (normalised). */
  extraction_f1: Partial<Record<Mode, number>>;
  exact_match_rate: Partial<Record<Mode, number>>;
  /** Micro markdown similarity of the documents with this tag; null without markdown scores. */
  similarity: number | null;
}

export interface FieldRow {
  /** Field path with indices collapsed, e.g. `codes[].cpt`. */
  path: string;
  mode: Mode;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  missing: number;
  hallucinated: number;
  wrong_value: number;
  format_only: number;
}

/** What a system's calls cost, from the prices and usage the runner recorded (`cost_usd` per record). */
export interface CostBlock {
  /** USD over every recorded call of the first repetition. */
  total_usd: number;
  /** Divided by the pages of the documents it was charged for (null when no page counts are known). */
  per_page_usd: number | null;
  per_document_usd: number;
  /** Total ÷ correct fields (true positives) of the main extraction mode; null without extraction scores or with none correct. */
  per_correct_field_usd: number | null;
  /** Calls with a recorded cost, and all calls. A system without prices has no cost block at all. */
  priced_calls: number;
  calls: number;
}

/** One system's figures: the blocks a single-system summary had, scored by the same code on the same truth. */
export interface SystemSummary {
  /** `interface`, `local`, `stored`, `command`, … as run.json names it. */
  kind: string;
  /** A document failed when any of this system's calls for it failed. */
  documents: { total: number; succeeded: number; failed: number };
  /** Per endpoint ("compare", "split", "process") and per extract mode ("extract:fast"). */
  calls: Record<string, { calls: number; failed: number; attempts: number; retried: number; from_cache: number }>;
  /** Per call, client wall time including retries. Keys as in `calls`. Stored systems report 0 unless their meta files say otherwise. */
  latency_ms: Record<string, LatencyBlock>;
  /** The same divided by the document's page count. */
  latency_per_page_ms: Record<string, LatencyBlock>;
  /** The system's own processing_time_ms (/v1/process), when reported. */
  service_processing_ms?: LatencyBlock;
  extraction: Partial<Record<Mode, ExtractionBlock>>;
  markdown?: MarkdownBlock;
  /** Where no truth markdown exists: similarity between this system's and the reference's output (change, not accuracy). */
  markdown_drift?: { similarity: number; documents: number };
  confidence: Partial<Record<Mode, ConfidenceBlock>>;
  regions?: RegionsBlock;
  /** With --repeat N: how much the system's answers vary between identical calls. */
  repeat?: { runs: number; f1_std_mean: Partial<Record<Mode, number>>; similarity_std_mean: number | null };
  /** tag key → tag value → headline metrics. */
  by_tag: Record<string, Record<string, TagBreakdown>>;
  /** Per field path and mode, worst F1 first. */
  fields: FieldRow[];
  cost?: CostBlock;
}

/** A headline metric the leaderboard ranks and the comparisons test, e.g. `extraction.slow.f1`, `markdown.similarity`. */
export interface LeaderboardBlock {
  metric: string;
  /** Human label, e.g. "field F1 (slow)". */
  label: string;
  /**
   * Documents every system of `rows` was scored on for this metric: what the ranking compares. Absent in
   * summaries written before it was (their ranks are by each system's own figure).
   */
  shared_documents?: number;
  /**
   * Best first by `shared.value` (by `value` when no document is shared); ties share a rank.
   * `value`, `ci95`, `documents`: the system's own figure on all the documents it was scored on (`ci95` the
   * bootstrap 95% interval; null in runs scored with schema 1). `shared`: the same metric on the
   * `shared_documents` only (null when none is shared). `covers_fewer`: scored on fewer documents than the
   * system that covers the most.
   */
  rows: LeaderboardRow[];
}

/** One system in a leaderboard block. */
export interface LeaderboardRow {
  rank: number;
  system: string;
  value: number;
  ci95: [number, number] | null;
  documents: number;
  shared?: { value: number; ci95: [number, number]; documents: number } | null;
  covers_fewer?: boolean;
}

/** One system against the reference on one headline metric (paired by document). */
export interface SystemComparisonBlock extends ComparisonBlock {
  system: string;
  reference: string;
  metric: string;
  /**
   * The p the decision uses (docs/metrics/comparison.md "Decision rule"): for the system's primary metric its
   * own bootstrap p (a Holm family of one), for its other metrics Holm-adjusted among themselves. Null in runs
   * scored with schema 1, which kept only the markdown head-to-head.
   */
  p_holm: number | null;
  /** Which family `p_holm` was adjusted in; absent in summaries written before families. */
  family?: DecisionFamily;
  /** p_holm ≤ `decision.alpha` (schema 1: the interval excluded 0). */
  significant: boolean;
}

/**
 * Per field path and mode: the system with the highest F1 on the documents every system scored in that mode,
 * and whether its lead over the runner-up on them is significant.
 */
export interface FieldLeader {
  path: string;
  mode: Mode;
  best: string;
  f1: number;
  runner_up: string | null;
  runner_up_f1: number | null;
  /** Best − runner-up, micro F1 of the path, with its paired-bootstrap interval; null with one system. */
  delta: number | null;
  ci95: [number, number] | null;
  /** Holm-adjusted across the run's field paths. */
  p_holm: number | null;
  significant: boolean;
}

/** A document on which the systems' scores differ most (largest max − min of the metric). */
export interface Disagreement {
  document_id: string;
  metric: string;
  spread: number;
  /** system → the document's score; null when the system has none for it. */
  values: Record<string, number | null>;
}

export interface RunSummary {
  schema_version: typeof SUMMARY_SCHEMA_VERSION;
  run_id: string;
  status: string;
  dataset: { name: string; version: string | null; content_hash: string };
  /** The systems in run order. */
  system_names: string[];
  /** What every other system is compared with (null with one system). */
  reference: string | null;
  /** The system the report's single-system sections describe: the first system that is not the reference. */
  primary: string;
  systems: Record<string, SystemSummary>;
  leaderboard: LeaderboardBlock[];
  comparisons: SystemComparisonBlock[];
  field_leaders: FieldLeader[];
  disagreements: Disagreement[];
  /**
   * The rule `comparisons` and `field_leaders` were decided by: two-sided at `alpha`; fewer than
   * `fewest_significant` documents that differ can never be significant. Absent in older summaries.
   */
  decision?: { alpha: number; sides: 'two-sided'; fewest_significant: number };
  /** What could not be scored for lack of truth files, per kind: document counts. */
  skipped: { truth_json: number; truth_markdown: number; truth_regions: number };
  /** Versions of the metric definitions, so numbers from different docbench versions are not mixed silently. */
  metric_versions: Record<string, string>;
}

/** One field as the drill-down shows it. Verdicts: see the extraction scorer's `Verdict` and `FieldError`. */
export interface FieldVerdict {
  path: string;
  truth: unknown;
  prediction: unknown;
  verdict: Verdict;
  strict_verdict: Verdict;
  error?: FieldError;
}

export interface DocumentExtraction {
  f1: number;
  precision: number;
  recall: number;
  strict_f1: number;
  exact_match: boolean;
  tp: number;
  fp: number;
  fn: number;
  parse_failure: boolean;
  confidence: number | null;
  fields: FieldVerdict[];
}

export interface DocumentMarkdown {
  similarity: number;
  /** Σ edits and Σ max length over the pages (normalised): what micro similarity sums across documents. */
  edits: number;
  length: number;
  raw_similarity: number;
  pages: { page: number; similarity: number }[];
}

/** One system's scores of one document. */
export interface SystemDocument {
  /** failed: every call failed; partial: some did; ok: none did. */
  status: 'ok' | 'partial' | 'failed';
  errors: { endpoint: Endpoint; mode: Mode | null; code: string; message: string; status?: number }[];
  dashboard_url: string | null;
  comparison_id: string | null;
  pages: number | null;
  extraction: Partial<Record<Mode, DocumentExtraction>>;
  markdown?: DocumentMarkdown & { teds: number | null };
  /** No truth markdown: similarity to the reference's output. */
  markdown_drift?: number;
  regions?: { f1_at50: number; f1_at75: number; mean_iou: number | null; char_accuracy: number };
  /** Per call key as in summary calls: client wall time, ms. */
  latency_ms: Record<string, number>;
  /** USD of this document's calls (first repetition); null when none was priced. */
  cost_usd: number | null;
}

/** One line of documents.jsonl: one document, every system that was planned for it. */
export interface DocumentEvaluation {
  document_id: string;
  tags: Record<string, string>;
  /** Keyed by system name, in run order. */
  systems: Record<string, SystemDocument>;
  /** For the drill-down: truth and each system's markdown per page (null where absent). */
  texts?: { truth: string[] | null; systems: Record<string, string[] | null> };
  /** For the drill-down: truth and each system's regions (page outlines in points, boxes in inches). */
  region_pages?: { truth: RegionPage[]; systems: Record<string, RegionPage[]> };
}

/** One threshold check of the quality gate (gate.json). */
export interface GateCheck {
  /** e.g. "extraction.slow.f1", "markdown.similarity", "latency_ms.extract:slow.p95", "fields.slow.codes[].cpt.f1". */
  metric: string;
  /** The system checked (absent in gate.json files written before runs had several systems). */
  system?: string;
  /** Tag scope when the threshold is per tag, e.g. "tier=fax". */
  scope?: string;
  op: '>=' | '<=';
  threshold: number;
  /** Null when the metric could not be computed (counts as failed). */
  actual: number | null;
  passed: boolean;
  message: string;
}

/** The gate's verdict on a run, written to gate.json; summary.md, junit.xml, the HTML and the exit code agree with it. */
export interface GateResult {
  passed: boolean;
  checks: GateCheck[];
  /** Per-document thresholds (junit): documents below them, with the reason. */
  document_failures: { document_id: string; system?: string; reasons: string[] }[];
}
