/**
 * The report's view model: everything the templates, the CSV and JUnit writers, summary.md and the terminal
 * summary print, computed once from run.json, summary.json, documents.jsonl and gate.json. Numbers are kept
 * raw (for CSV and the page's sorting) next to their formatted text (for templates, which hold no logic).
 */
import type { FieldRow, GateCheck, TagBreakdown } from '../run-dir/index.js';
import type { Mode } from '../types.js';
import { type ChartView } from '../render/index.js';

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
  dataset: { name: string; version: string | null; content_hash: string; content_hash_short: string; documents_selected: number; documents_total: number };
  service: { description: string; local: boolean };
  modes: Mode[];
  endpoints: string[];
  docbench_version: string;
  docbench_commit: string | null;
  created_at: string;
  date: string;
  duration: string;
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
  /** Error codes with counts, most frequent first. */
  codes: { code: string; count: number }[];
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
  service: number;
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
  text: { service: string; baseline: string; delta: string; ci95: string; raw_similarity: string; teds: string; word_recall: string; wins_losses_ties: string };
  drift: { similarity: number; documents: number; text: string } | null;
}

export interface HeadlineView {
  modes: ModeHeadline[];
  baseline_extraction: { f1: string; strict_f1: string; exact_match_rate: string; documents: number } | null;
  markdown: MarkdownHeadline | null;
  regions: LabelledValue[] | null;
}

/** A row of fields.csv / the fields table: summary.json's FieldRow plus its formatted text. */
export interface FieldRowView extends Omit<FieldRow, 'mode'> {
  mode: string;
  text: { precision: string; recall: string; f1: string };
  tone: Tone;
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
  rows: { value: string; documents: number; failed: number; f1: string[]; exact: string[]; similarity_service: string; similarity_baseline: string; tone: Tone }[];
}

/** One document as the table, the CSV and JUnit see it (no texts: those go to the drill-down). */
export interface DocumentRow {
  id: string;
  status: 'ok' | 'partial' | 'failed';
  /** Every failed call, one line each ("extract:slow SERVICE_HTTP 503 — …"); empty when none. */
  errors: string[];
  tags: Record<string, string>;
  pages: number | null;
  f1: Partial<Record<Mode, number | null>>;
  strict_f1: Partial<Record<Mode, number | null>>;
  exact: Partial<Record<Mode, boolean | null>>;
  confidence: Partial<Record<Mode, number | null>>;
  /** Per call key as in summary.latency_ms ("extract:slow", "compare"). */
  latency_ms: Record<string, number | null>;
  similarity_service: number | null;
  similarity_baseline: number | null;
  similarity_delta: number | null;
  /** As the service sent it (shown as text when it is not an http(s) URL). */
  dashboard_url: string | null;
  /** Only an absolute http(s) URL, else null. */
  dashboard_href: string | null;
  /** Relative to the run directory, e.g. `drilldown/claim-001-1a2b3c4d5e.html`. */
  drilldown: string;
  /** Reasons from gate.json document_failures; empty when none (or no gate). */
  gate_reasons: string[];
}

export interface DocumentsView {
  rows: DocumentRow[];
  tag_keys: string[];
  latency_keys: string[];
  counts: { total: number; ok: number; partial: number; failed: number; below_gate: number };
}

export interface ReportView {
  /** docbench version that wrote the report (may differ from the one that ran). */
  report_version: string;
  header: RunHeaderView;
  failures: FailureView | null;
  gate: GateView | null;
  modes: Mode[];
  headline: HeadlineView;
  fast_slow: FastSlowView | null;
  fields: FieldRowView[];
  calibration: CalibrationView[];
  latency: LatencyView;
  by_tag: TagTableView[];
  tag_breakdowns: Record<string, Record<string, TagBreakdown>>;
  documents: DocumentsView;
}
