/**
 * The report's view model: everything the templates, the CSV and JUnit writers, summary.md and the terminal
 * summary print, computed once from run.json, summary.json, documents.jsonl and gate.json. Numbers are kept
 * raw (for CSV and the page's sorting) next to their formatted text (for templates, which hold no logic).
 */
import type { CheckCells, ChecksSectionView } from './checks-view.js';
import type { BlocksHeadline } from './blocks-view.js';
import type { FieldRow, GateCheck, RunPhases, TagBreakdown } from '../run-dir/index.js';
import type { Mode } from '../types.js';
import type { ChartView } from '../render/index.js';

/** One labelled figure of the header or a card. */
export interface LabelledValue {
  label: string;
  value: string;
  /** Extra text shown smaller, e.g. the full content hash. */
  detail?: string;
  /** For colour coding: the text always says the same thing, colour only repeats it. */
  tone?: Tone;
}

/** good / bad / warn / neutral: CSS classes, always beside a text label (never colour alone). */
export type Tone = 'good' | 'bad' | 'warn' | 'neutral';

export interface RunHeaderView {
  run_id: string;
  title: string;
  dataset: {
    name: string;
    version: string | null;
    content_hash: string;
    content_hash_short: string;
    documents_selected: number;
    documents_total: number;
  };
  service: { description: string; local: boolean };
  modes: Mode[];
  endpoints: string[];
  docbench_version: string;
  docbench_commit: string | null;
  created_at: string;
  date: string;
  duration: string;
  /** Milliseconds per phase, as run.json records them (null: a run written before phases were). */
  phases: RunPhases | null;
  status: string;
  /** Shown as a warning when the run did not complete. */
  incomplete_message: string | null;
  facts: LabelledValue[];
}

export interface FailureView {
  documents_failed: number;
  documents_partial: number;
  documents_total: number;
  message: string;
  /** Error codes with counts, most frequent first; `hint` says what to do where the code alone does not. */
  codes: { code: string; count: number; hint?: string }[];
}

/** What each system said it was, and its answers cut short (src/report/provenance-view.ts). */
export interface ProvenanceView {
  rows: {
    system: string;
    kind: string;
    /** Per reported name, its values with their counts (`gpt-4o-2024-08-06 (12)`); `changed`: more than one. */
    reported: { name: string; values: string; changed: boolean }[];
    truncated: number;
    /** With --repeat: whether the repetitions agreed, in words; '' without repetitions. */
    repeats: string;
  }[];
  /** A value that changed within the run, answers cut short: one sentence each. */
  warnings: string[];
}

export interface GateView {
  passed: boolean;
  verdict: string;
  tone: Tone;
  checks: (GateCheck & { threshold_text: string; actual_text: string; verdict: string; tone: Tone })[];
  document_failures: number;
}

/** Headline extraction figures for one mode. */
export interface ModeHeadline {
  mode: Mode;
  f1: number | null;
  strict_f1: number | null;
  precision: number | null;
  recall: number | null;
  macro_f1: number | null;
  exact_match_rate: number | null;
  parse_failures: number;
  documents: number;
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
  latency_failed: number;
  confidence_mean: number | null;
  ece: number | null;
  text: {
    f1: string;
    strict_f1: string;
    precision: string;
    recall: string;
    macro_f1: string;
    exact_match_rate: string;
    p50: string;
    p95: string;
    confidence_mean: string;
    ece: string;
  };
}

export interface MarkdownHeadline {
  system: string;
  /** The system it is compared with; null when it is the reference itself or there is none. */
  reference: string | null;
  /** Null when there is no truth markdown (only drift). */
  service: number | null;
  baseline: number | null;
  delta: number | null;
  ci95: [number, number] | null;
  significant: boolean | null;
  /** e.g. "the service is better by 4.2 points; significant". */
  verdict: string;
  tone: Tone;
  wins: number | null;
  losses: number | null;
  ties: number | null;
  documents: number;
  text: {
    service: string;
    baseline: string;
    delta: string;
    ci95: string;
    raw_similarity: string;
    teds: string;
    word_recall: string;
    wins_losses_ties: string;
  };
  drift: { similarity: number; documents: number; text: string } | null;
}

export interface HeadlineView {
  /** The system these figures describe (the run's primary system). */
  system: string;
  modes: ModeHeadline[];
  markdown: MarkdownHeadline | null;
  /** The block metrics (blocks-view.ts); null without them. */
  blocks: BlocksHeadline | null;
  regions: LabelledValue[] | null;
}

/** One system of the run, as every per-system table and chart names it. */
export interface SystemView {
  name: string;
  kind: string;
  /** "reference", "primary" or "". */
  role: string;
  /** Series colour class (s0 …). */
  cls: string;
}

export interface LeaderboardView {
  /** The metric the charts plot and the section leads with. */
  headline_metric: string;
  headline_label: string;
  metrics: {
    metric: string;
    label: string;
    /** What the ranking compares, e.g. "ranked on the 15 documents every system was scored on". */
    basis: string;
    /**
     * `value`, `value_text`, `ci_text`, `documents`: the figure the rank is from (on the shared documents when
     * summary.json has them); `own_text`: the system's own figure on all its documents, with their count;
     * `coverage`: "scored on 15 of 36 documents" for a system that covers fewer, else ''.
     */
    rows: {
      rank: number;
      system: string;
      cls: string;
      role: string;
      value: number;
      value_text: string;
      ci_text: string;
      documents: number;
      own_text: string;
      covers_fewer: boolean;
      coverage: string;
      cost_per_document: string;
      p50: string;
    }[];
  }[];
  cost_chart: ChartView | null;
  latency_chart: ChartView | null;
  /** Why a chart is missing, e.g. "no system has a price". */
  notes: string[];
}

export interface ComparisonRowView {
  system: string;
  reference: string;
  metric: string;
  delta: number;
  delta_text: string;
  ci_text: string;
  wins_losses_ties: string;
  p_sign: string;
  p_wilcoxon: string;
  p_holm: string;
  /** `primary` or `secondary` (docs/metrics/comparison.md "Decision rule"); '' in older summaries. */
  family: string;
  verdict: string;
  tone: Tone;
  documents: number;
}

export interface FieldLeaderView {
  path: string;
  mode: string;
  best: string;
  f1: string;
  runner_up: string;
  runner_up_f1: string;
  delta: string;
  ci_text: string;
  significant: boolean;
  verdict: string;
  tone: Tone;
}

export interface DisagreementView {
  id: string;
  /** Null for a document documents.jsonl does not hold (summary.json from another scoring). */
  drilldown: string | null;
  metric: string;
  spread: string;
  /** One per system, in run order. */
  values: string[];
}

/** A row of fields.csv / the fields table: summary.json's FieldRow of one system plus its formatted text. */
export interface FieldRowView extends Omit<FieldRow, 'mode'> {
  system: string;
  mode: string;
  text: { precision: string; recall: string; f1: string };
  tone: Tone;
}

/** The "reading or extraction" section (src/report/reading-view.ts). */
export interface ReadingView {
  rows: {
    system: string;
    mode: string;
    misses: string;
    not_in_text: string;
    not_in_text_share: string;
    in_text: string;
    in_text_share: string;
    not_in_text_width: number;
    in_text_width: number;
    verdict: string;
  }[];
  /** Per mode: pipelines by reader (rows) and extractor (columns); a cell is null where no pipeline pairs them. */
  grids: {
    mode: string;
    extractors: string[];
    rows: { reader: string; ceiling: boolean; cells: ({ system: string; f1: string; cost: string } | null)[] }[];
  }[];
}

export interface CalibrationView {
  mode: Mode;
  documents: number;
  figures: LabelledValue[];
  /** e.g. "accepting documents with confidence ≥ 87 gives 96% field F1 on 71% of documents". */
  auto_accept: string;
  reliability: ChartView;
  risk_coverage: ChartView;
  bins: { range: string; count: number; confidence: string; accuracy: string; gap: string }[];
}

export interface LatencyRowView {
  key: string;
  count: number;
  failed: number;
  p50: string;
  p90: string;
  p95: string;
  p99: string;
  mean: string;
  max: string;
  per_page_p50: string;
  per_page_p95: string;
}

export interface LatencyView {
  rows: LatencyRowView[];
  method: string | null;
  chart: ChartView | null;
  service_processing: LatencyRowView | null;
}

export interface FastSlowView {
  rows: { mode: Mode; f1: string; exact_match_rate: string; p50: string; p95: string; confidence_mean: string }[];
  /** e.g. "slow is 4.1 points more accurate (field F1) and 6.3× slower at p50". */
  summary: string;
  chart: ChartView;
}

export interface TagTableView {
  key: string;
  /** Column headers after the tag value, documents and failed: F1 per mode × system, then similarity per system. */
  columns: string[];
  rows: { value: string; documents: number; failed: number; cells: TagCellView[]; tone: Tone }[];
}

/** One system's figures for one tag value, as summary.json's by_tag holds them: a row of tags.csv. */
export interface TagFiguresRow {
  system: string;
  key: string;
  value: string;
  breakdown: TagBreakdown;
}

/** One system's figure for one tag value, with its bootstrap 95% interval and the documents it is over. */
export interface TagCellView {
  value: string;
  /** "62.0% – 95.1%"; empty without a figure or an interval. */
  ci: string;
  /** "40 documents"; empty without a figure. */
  documents: string;
}

/** One system's figures for one document (no texts: those go to the drill-down). */
export interface SystemCells {
  system: string;
  status: 'ok' | 'partial' | 'failed';
  /** Every failed call, one line each ("extract:slow SERVICE_HTTP 503 — …"); empty when none. */
  errors: string[];
  f1: Partial<Record<Mode, number | null>>;
  strict_f1: Partial<Record<Mode, number | null>>;
  exact: Partial<Record<Mode, boolean | null>>;
  confidence: Partial<Record<Mode, number | null>>;
  /** Per call key as in the summary's latency_ms ("extract:slow", "compare"). */
  latency_ms: Record<string, number | null>;
  similarity: number | null;
  /** Δ similarity against the reference on this document; null for the reference or without both. */
  similarity_delta: number | null;
  /** The document's block metrics (docs/metrics.md "Blocks"); null without them. */
  blocks: {
    text_edit: number | null;
    reading_order_edit: number | null;
    formula_edit: number | null;
    table_teds: number | null;
    table_teds_structure: number | null;
    table_edit: number | null;
  } | null;
  /** The document's regions' reading order, normalised ARD (higher is better); null without one. */
  regions_reading_order: number | null;
  cost_usd: number | null;
  /** As the system sent it (shown as text when it is not an http(s) URL). */
  dashboard_url: string | null;
  /** Only an absolute http(s) URL, else null. */
  dashboard_href: string | null;
  /** Reasons from gate.json document_failures for this system; empty when none (or no gate). */
  gate_reasons: string[];
  /** Rule checks of this document on this system's markdown; null when it has none. */
  checks: CheckCells | null;
}

/** One document as the table, the CSV and JUnit see it: every system that was planned for it. */
export interface DocumentRow {
  id: string;
  /** The worst status of its systems. */
  status: 'ok' | 'partial' | 'failed';
  tags: Record<string, string>;
  pages: number | null;
  /** In run order; a system not planned for this document is absent. */
  systems: SystemCells[];
  /** Relative to the run directory, e.g. `drilldown/part-00001.html#claim-001-1a2b3c4d5e`. */
  drilldown: string;
  /** Every system's errors, each prefixed with the system's name. */
  errors: string[];
  /** Every system's gate reasons, each prefixed with the system's name. */
  gate_reasons: string[];
}

/** A numeric column of the documents table: one figure of one system. */
export interface DocumentColumn {
  /** `f1:slow:local`, `sim:incumbent`, `conf:fast:local`, `lat:compare:local`. */
  key: string;
  label: string;
  title: string;
  /** How the page formats it. */
  format: 'percent' | 'confidence' | 'ms' | 'usd';
  system: string;
  cls: string;
}

export interface DocumentsView {
  rows: DocumentRow[];
  columns: DocumentColumn[];
  tag_keys: string[];
  latency_keys: string[];
  /** Whether any system has rule checks (documents.csv's check columns). */
  check_columns: boolean;
  counts: { total: number; ok: number; partial: number; failed: number; below_gate: number };
}

/** One priced system in the cost section: estimate at the start against the recorded spend. */
export interface CostRowView {
  system: string;
  estimate: string;
  basis: string;
  spent: string;
  /** (spent − estimate) ÷ estimate, e.g. `-3.2%`; `—` when either is unknown or the system stopped early. */
  difference: string;
  budget: string;
  /** How far a system that stopped early got. */
  note: string;
}

/** The cost section: its rows, and the run-wide budget of the last invocation (null: none). */
export interface CostView {
  rows: CostRowView[];
  run_budget: string | null;
}

export interface ReportView {
  /** docbench version that wrote the report (may differ from the one that ran). */
  report_version: string;
  header: RunHeaderView;
  failures: FailureView | null;
  /** Null when no system reported what it was and no answer was cut short. */
  provenance: ProvenanceView | null;
  gate: GateView | null;
  modes: Mode[];
  systems: SystemView[];
  reference: string | null;
  primary: string;
  /** The level the comparisons were decided at (summary.json `decision.alpha`); '0.05' in older summaries. */
  decision_alpha: string;
  leaderboard: LeaderboardView;
  cost: CostView;
  reading: ReadingView;
  comparisons: ComparisonRowView[];
  field_leaders: FieldLeaderView[];
  disagreements: DisagreementView[];
  headline: HeadlineView;
  fast_slow: FastSlowView | null;
  fields: FieldRowView[];
  calibration: CalibrationView[];
  latency: LatencyView;
  by_tag: TagTableView[];
  /** Every system's by_tag figures, by tag key, tag value and system (tags.csv). */
  tag_rows: TagFiguresRow[];
  tag_breakdowns: Record<string, Record<string, TagBreakdown>>;
  documents: DocumentsView;
  /** Rule checks: pass rates and failing checks (null without checks). */
  checks: ChecksSectionView | null;
}
