/**
 * What scoring a stored run produces: `summary.json` (the headline numbers, stable and documented, with
 * `schema_version`) and `documents.jsonl` (one line per document with everything a drill-down shows).
 * Reporters read only these and run.json: they format, never re-score.
 */
import type { Endpoint, Mode } from '../types.js';
import type { RegionPage } from '../service/types.js';
import type { FieldError, Verdict } from '../score/extraction/index.js';
import type { LatencyStats } from '../score/latency.js';

export const SUMMARY_SCHEMA_VERSION = 1;

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
  /** mean(a) − mean(b) per document (service − incumbent). */
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
  similarity_service: number | null;
  similarity_baseline: number | null;
}

export interface FieldRow {
  /** Field path with indices collapsed, e.g. `codes[].cpt`. */
  path: string;
  mode: Mode | 'baseline';
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

export interface RunSummary {
  schema_version: typeof SUMMARY_SCHEMA_VERSION;
  run_id: string;
  status: string;
  dataset: { name: string; version: string | null; content_hash: string };
  service: { base_url: string | null; local: boolean };
  /** A document failed when any of its calls failed. */
  documents: { total: number; succeeded: number; failed: number };
  /** Per endpoint ("compare", "split", "process") and per extract mode ("extract:fast"). */
  calls: Record<string, { calls: number; failed: number; attempts: number; retried: number; from_cache: number }>;
  /** Per call, client wall time including retries. Keys as in `calls`. */
  latency_ms: Record<string, LatencyBlock>;
  /** The same divided by the document's page count. */
  latency_per_page_ms: Record<string, LatencyBlock>;
  /** The service's own processing_time_ms (/v1/process), when reported. */
  service_processing_ms?: LatencyBlock;
  extraction: Partial<Record<Mode, ExtractionBlock>>;
  /** The incumbent's baseline JSON, scored the same way, where it exists. */
  extraction_baseline?: ExtractionBlock;
  markdown?: {
    service: MarkdownBlock;
    baseline?: MarkdownBlock;
    head_to_head?: ComparisonBlock;
    /** Where no truth markdown exists: similarity between service and incumbent output (change, not accuracy). */
    drift?: { similarity: number; documents: number };
  };
  confidence: Partial<Record<Mode, ConfidenceBlock>>;
  regions?: RegionsBlock;
  /** With --repeat N: how much the service's answers vary between identical calls. */
  repeat?: { runs: number; f1_std_mean: Partial<Record<Mode, number>>; similarity_std_mean: number | null };
  /** tag key → tag value → headline metrics. */
  by_tag: Record<string, Record<string, TagBreakdown>>;
  /** Per field path and mode (and the incumbent's baseline JSON), worst F1 first. */
  fields: FieldRow[];
  /** What could not be scored for lack of truth or baseline files, per kind: document counts. */
  skipped: { truth_json: number; truth_markdown: number; truth_regions: number; baseline_markdown: number; baseline_json: number };
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

/** One line of documents.jsonl. */
export interface DocumentEvaluation {
  document_id: string;
  tags: Record<string, string>;
  /** failed: every call failed; partial: some did; ok: none did. */
  status: 'ok' | 'partial' | 'failed';
  errors: { endpoint: Endpoint; mode: Mode | null; code: string; message: string; status?: number }[];
  dashboard_url: string | null;
  comparison_id: string | null;
  pages: number | null;
  extraction: Partial<Record<Mode, DocumentExtraction>>;
  extraction_baseline?: DocumentExtraction;
  markdown?: {
    service?: DocumentMarkdown;
    baseline?: DocumentMarkdown;
    /** service − incumbent similarity. */
    delta?: number;
    drift?: number;
    teds?: number | null;
  };
  regions?: { f1_at50: number; f1_at75: number; mean_iou: number | null; char_accuracy: number };
  /** Per call key as in summary.calls: client wall time, ms. */
  latency_ms: Record<string, number>;
  /** For the drill-down: truth, service and incumbent markdown per page (null where absent). */
  texts?: { truth: string[] | null; service: string[] | null; baseline: string[] | null };
  /** For the drill-down: truth and predicted regions (page outlines in points, boxes in inches). */
  region_pages?: { truth: RegionPage[]; predicted: RegionPage[] };
}

/** One threshold check of the quality gate (gate.json). */
export interface GateCheck {
  /** e.g. "extraction.slow.f1", "markdown.service.similarity", "latency_ms.extract:slow.p95", "fields.slow.codes[].cpt.f1". */
  metric: string;
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
  document_failures: { document_id: string; reasons: string[] }[];
}
