/** Result types of the extraction scorer (docs/metrics/extraction.md). */
import type { ComparatorSpec, ComparatorType, DateLocale, Json, JsonSchema } from '../../types.js';
import type { ComparatorSource } from './resolve-comparator.js';
import type { TextMatch } from './locate-value.js';

/** True positives, false positives, false negatives over leaf fields. */
export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/**
 * The misses (FN side: `fn` and `fp+fn` fields) of a system that also gave the document's markdown, by where the
 * truth value was (docs/metrics/extraction.md "Reading or extraction"): nowhere in that markdown (a reading
 * miss) or in it (an extraction miss).
 */
export interface MissCounts {
  not_in_text: number;
  in_text: number;
}

/** Counts with the ratios derived from them. Higher is better for precision, recall and F1. */
export interface PrfScore extends Counts {
  /** tp / (tp + fp); 1 when the document has nothing to find and nothing was found, 0 when nothing was predicted. */
  precision: number;
  /** tp / (tp + fn); 1 when nothing to find and nothing found, 0 when only hallucinations. */
  recall: number;
  /** 2·tp / (2·tp + fp + fn); 1 when tp = fp = fn = 0. */
  f1: number;
}

/**
 * The outcome of one leaf field. `fp+fn` is a value present on both sides that differs (it counts once as FP
 * and once as FN); `tn` is a field empty on both sides (not counted, listed for completeness).
 */
export type Verdict = 'tp' | 'fp' | 'fn' | 'fp+fn' | 'tn';

/**
 * Error taxonomy (docs/metrics/extraction.md): `missing` truth has a value, prediction empty; `hallucinated` the reverse;
 * `wrong_value` both have values that differ after normalisation (or the shapes differ: object vs scalar…);
 * `format_only` equal after normalisation but not strictly (counted TP in the normalised pass).
 */
export type FieldError = 'missing' | 'hallucinated' | 'wrong_value' | 'format_only';

/** One leaf field of one document, as the reports show it. */
export interface FieldResult {
  /** Path with indices, truth side when the truth has the field: `codes[1].units`. */
  path: string;
  /** Path on the prediction side when it differs from `path` (line items matched out of order). */
  predictionPath?: string;
  /** Path with indices collapsed: `codes[].units`. */
  collapsedPath: string;
  /** The truth value as written; absent when the truth lacks the field. */
  truth?: Json;
  /** The predicted value as written; absent when the prediction lacks the field. */
  prediction?: Json;
  /** Normalised-pass verdict. */
  verdict: Verdict;
  /** Strict-pass verdict (typed exact equality). */
  strictVerdict: Verdict;
  error?: FieldError;
  /** The comparator used in the normalised pass; absent on a `tn` entry, where nothing was compared. */
  comparator?: ComparatorType;
  /** ANLS of the pair, for free-text fields only (comparator `text`, or long strings). Higher is better. */
  anls?: number;
  /**
   * A miss (`fn`, `fp+fn`) scored with the system's markdown: whether the truth value is in it
   * (docs/metrics/extraction.md "Reading or extraction"). Absent without markdown, and on other verdicts.
   */
  miss?: keyof MissCounts;
  /** Where the markdown holds the truth value of an `in_text` miss. */
  textMatch?: TextMatch;
}

/** Line items (elements of arrays of objects) of one document, summed over all such arrays. */
export interface ItemCounts {
  /** Non-empty truth items. */
  truth: number;
  /** Non-empty predicted items. */
  predicted: number;
  /** Matched pairs whose every leaf agrees (normalised pass): no FP, no FN inside the pair. */
  exact: number;
  /** Σ over item arrays of |#predicted − #truth|. Lower is better. */
  countError: number;
}

/** How each collapsed path was compared, so a score can be reproduced. */
export interface NormalizationRecord {
  comparator: ComparatorType;
  source: ComparatorSource;
  /** Named normalisation steps, in order. */
  steps: string[];
}

/** The score of one document. Higher is better for every ratio; `items.countError` is lower-is-better. */
export interface ExtractionScore extends PrfScore {
  /** Strict pass: typed exact equality, same pairs as the normalised pass. */
  strict: PrfScore & { exactMatch: boolean };
  /** No FP and no FN in the normalised pass: the document could go straight through. */
  exactMatch: boolean;
  /** The call failed or the prediction was not a JSON object: scored as `{}` (every truth leaf FN). */
  parseFailure: boolean;
  fields: FieldResult[];
  items: ItemCounts;
  /** ANLS* over the free-text fields (threshold 0.5), null when the document has none. Secondary; never for codes. */
  anls: number | null;
  /** Collapsed paths of keys outside the schema that were ignored (`extraKeys: 'ignore'`). */
  unexpectedKeys: string[];
  /** Collapsed path → comparator and normalisation steps used. */
  normalization: Record<string, NormalizationRecord>;
  /** The misses by where the truth value was; null when no markdown of the system's was given (`text`). */
  misses: MissCounts | null;
}

/** Options of `scoreExtraction`. */
export interface ScoreExtractionOptions {
  /** The dataset's schema: drives comparators and which keys count. Without it every key counts. */
  schema?: JsonSchema;
  /** Per-field comparators keyed by collapsed path (`codes[].cpt`, `diagnoses[]`); a bare type is accepted. */
  comparators?: Record<string, ComparatorSpec | ComparatorType>;
  /** Order of ambiguous numeric dates (and of a lone `1.234` / `1,234` in numbers). @default 'US' */
  locale?: DateLocale;
  /** Keys outside the schema: ignored and listed in `unexpectedKeys`, or scored like any other. @default 'ignore' */
  extraKeys?: 'ignore' | 'count';
  /** The call failed or its output did not parse: score the prediction as `{}`. @default false */
  parseFailure?: boolean;
  /** ANLS threshold: a similarity below it scores 0. @default 0.5 */
  anlsThreshold?: number;
  /** A `string` field whose truth value has at least this many code points is free text for ANLS*. @default 40 */
  longTextMinLength?: number;
  /**
   * The system's own markdown of the document, one string per page: each miss is then classed by whether its
   * truth value is in it (`FieldResult.miss`, `misses`). Absent or null: nothing is claimed.
   */
  text?: readonly string[] | null;
}
