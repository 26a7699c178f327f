/**
 * A check: one short, verifiable fact about one page's markdown, in olmOCR-bench's JSONL format
 * (docs/checks.md). `category` is docbench's addition: the group a check's pass rate is reported in.
 */

export const CHECK_TYPES = ['present', 'absent', 'order', 'table', 'math', 'baseline', 'format', 'footnote'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

interface CheckBase {
  /** The document's path relative to `documents/`. */
  pdf: string;
  /** 1-based page number. */
  page: number;
  id: string;
  max_diffs: number;
  checked: 'verified' | 'rejected' | null;
  url: string | null;
  /** The group its pass rate counts in; the check's type when the line names none. */
  category: string;
}

export interface TextPresenceCheck extends CheckBase {
  type: 'present' | 'absent';
  /** Normalised (normalizeCheckText). */
  text: string;
  case_sensitive: boolean;
  first_n: number | null;
  last_n: number | null;
}

export interface OrderCheck extends CheckBase {
  type: 'order';
  before: string;
  after: string;
}

export interface TableCheck extends CheckBase {
  type: 'table';
  cell: string;
  up: string;
  down: string;
  left: string;
  right: string;
  top_heading: string;
  left_heading: string;
  ignore_markdown_tables: boolean;
}

export interface MathCheck extends CheckBase {
  type: 'math';
  math: string;
  ignore_dollar_delimited: boolean;
}

export interface BaselineCheck extends CheckBase {
  type: 'baseline';
  max_length: number | null;
  max_length_skips_image_alt_tags: boolean;
  max_repeats: number;
  check_disallowed_characters: boolean;
}

export interface FormatCheck extends CheckBase {
  type: 'format';
  text: string;
  format: 'heading' | 'bold' | 'italic';
  case_sensitive: boolean;
}

export interface FootnoteCheck extends CheckBase {
  type: 'footnote';
  marker: string;
  appears_before_marker: string | null;
  appears_after_marker: string | null;
}

export type Check =
  | TextPresenceCheck
  | OrderCheck
  | TableCheck
  | MathCheck
  | BaselineCheck
  | FormatCheck
  | FootnoteCheck;

/** What a check decided on one page's markdown; `explanation` says why it failed ('' when it passed). */
export interface CheckOutcome {
  passed: boolean;
  explanation: string;
}

/** Check types docbench cannot decide the way olmOCR-bench does (math needs KaTeX rendered in a browser). */
export const UNSUPPORTED_CHECK_TYPES: ReadonlySet<CheckType> = new Set(['math']);
