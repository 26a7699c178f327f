/**
 * Aggregation of per-document extraction scores (docs/metrics/extraction.md "Aggregates"). Per-document scoring and
 * aggregation are separate so a report can aggregate any subset (a tier, a document type) without re-scoring.
 */
import { DocbenchError } from '../../errors.js';
import { checkMetric, checkUnit } from '../shared/check-metric.js';
import { computePrf, sumMisses } from './ratios.js';
import type { Counts, ExtractionScore, FieldError, MissCounts, PrfScore, Verdict } from './types.js';

/** Mean precision, recall and F1 over documents. Higher is better. */
export interface MacroScore {
  precision: number;
  recall: number;
  f1: number;
}

/** Counts and ratios of one collapsed field path across documents. */
export interface PathAggregate extends PrfScore {
  /** Collapsed path, e.g. `codes[].cpt`. */
  path: string;
  strict: PrfScore;
  /** Error taxonomy counts (each field counted once, under its normalised-pass error). */
  errors: Record<FieldError, number>;
  /** Mean ANLS of the path's fields, for free-text paths; null otherwise. Higher is better. */
  anls: number | null;
  /** The path's misses by where the truth value was; null when no document was scored with markdown. */
  misses: MissCounts | null;
}

/** Line-item exact matching: an item counts when it is matched and every leaf in it agrees. */
export interface ItemAggregate {
  truth: number;
  predicted: number;
  exact: number;
  /** exact / predicted; null when no line items exist on either side. */
  precision: number | null;
  /** exact / truth; null when no line items exist on either side. */
  recall: number | null;
  /** 2·exact / (truth + predicted); null when no line items exist on either side. */
  f1: number | null;
}

/** The aggregate of a set of documents. */
export interface ExtractionAggregate {
  documents: number;
  /** Headline: P/R/F1 from counts summed over all documents (normalised pass). */
  micro: PrfScore;
  /** The same over the strict pass. */
  strict: PrfScore;
  /** Mean per-document P/R/F1 (a document with truth `{}` and prediction `{}` scores 1). */
  macro: MacroScore;
  strictMacro: MacroScore;
  /** Share of documents with no FP and no FN: the straight-through rate. */
  exactMatchRate: number;
  strictExactMatchRate: number;
  /** Share of documents whose call failed or whose output did not parse (scored as `{}`). Lower is better. */
  parseFailureRate: number;
  parseFailures: number;
  /** Per collapsed path, sorted by path. */
  byPath: PathAggregate[];
  items: ItemAggregate;
  /** Mean over documents of Σ |#predicted items − #truth items|. Lower is better. */
  itemCountError: number;
  /** Mean document ANLS* over documents that have free-text fields; null when none has. */
  anls: { mean: number; documents: number } | null;
  /**
   * Misses by where the truth value was, over the documents scored with the system's markdown
   * (docs/metrics/extraction.md "Reading or extraction"); null when none was.
   */
  misses: MissCounts | null;
}

const ERRORS: FieldError[] = ['missing', 'hallucinated', 'wrong_value', 'format_only'];

function addVerdict(counts: Counts, verdict: Verdict): void {
  if (verdict === 'tp') counts.tp++;
  if (verdict === 'fp' || verdict === 'fp+fn') counts.fp++;
  if (verdict === 'fn' || verdict === 'fp+fn') counts.fn++;
}

function mean(values: number[], name: string): number {
  return checkMetric(name, values.reduce((sum, v) => sum + v, 0) / values.length);
}

/** The sum over documents of one number of each. */
function sumOver(documents: readonly ExtractionScore[], pick: (d: ExtractionScore) => number): number {
  return documents.reduce((total, d) => total + pick(d), 0);
}

/**
 * Aggregates per-document scores. Every document counts — failed calls were scored as empty output.
 * @throws DocbenchError `INPUT_INVALID` when `documents` is empty (no number would mean anything).
 */
export function aggregateExtraction(documents: readonly ExtractionScore[]): ExtractionAggregate {
  const n = documents.length;
  if (n === 0) {
    throw new DocbenchError('INPUT_INVALID', 'aggregateExtraction: no documents to aggregate', {
      hint: 'score at least one document; failed calls count as empty predictions, not as missing documents',
    });
  }
  const sum = (pick: (d: ExtractionScore) => number) => sumOver(documents, pick);
  const micro = computePrf({ tp: sum((d) => d.tp), fp: sum((d) => d.fp), fn: sum((d) => d.fn) }, 'extraction micro');
  const strict = computePrf(
    { tp: sum((d) => d.strict.tp), fp: sum((d) => d.strict.fp), fn: sum((d) => d.strict.fn) },
    'extraction strict micro',
  );
  const byPath = aggregateByPath(documents);
  return {
    documents: n,
    micro,
    strict,
    macro: macroScore(documents, (d) => d, 'extraction macro'),
    strictMacro: macroScore(documents, (d) => d.strict, 'extraction strict macro'),
    exactMatchRate: checkUnit('exact-match rate', sum((d) => (d.exactMatch ? 1 : 0)) / n),
    strictExactMatchRate: checkUnit('strict exact-match rate', sum((d) => (d.strict.exactMatch ? 1 : 0)) / n),
    parseFailureRate: checkUnit('parse-failure rate', sum((d) => (d.parseFailure ? 1 : 0)) / n),
    parseFailures: sum((d) => (d.parseFailure ? 1 : 0)),
    byPath,
    items: aggregateItems(documents),
    itemCountError: checkMetric('item count error', sum((d) => d.items.countError) / n, { min: 0 }),
    anls: meanAnls(documents),
    misses: sumMisses(documents.map((d) => d.misses)),
  };
}

/** Mean per-document precision, recall and F1 of one pass (`pick`: the normalised or the strict). */
function macroScore(
  documents: readonly ExtractionScore[],
  pick: (d: ExtractionScore) => PrfScore,
  label: string,
): MacroScore {
  return {
    precision: checkUnit(
      `${label} precision`,
      mean(
        documents.map((d) => pick(d).precision),
        label,
      ),
    ),
    recall: checkUnit(
      `${label} recall`,
      mean(
        documents.map((d) => pick(d).recall),
        label,
      ),
    ),
    f1: checkUnit(
      `${label} f1`,
      mean(
        documents.map((d) => pick(d).f1),
        label,
      ),
    ),
  };
}

/** Counts, errors and ANLS of each collapsed path, summed over documents (true negatives left out). */
function aggregateByPath(documents: readonly ExtractionScore[]): PathAggregate[] {
  const paths = new Map<
    string,
    { counts: Counts; strict: Counts; errors: Record<FieldError, number>; anls: number[]; misses: MissCounts | null }
  >();
  const attributed = documents.some((d) => d.misses !== null);
  for (const document of documents) {
    for (const field of document.fields) {
      if (field.verdict === 'tn') continue;
      let entry = paths.get(field.collapsedPath);
      if (!entry) {
        entry = {
          counts: { tp: 0, fp: 0, fn: 0 },
          strict: { tp: 0, fp: 0, fn: 0 },
          errors: { missing: 0, hallucinated: 0, wrong_value: 0, format_only: 0 },
          anls: [],
          misses: attributed ? { not_in_text: 0, in_text: 0 } : null,
        };
        paths.set(field.collapsedPath, entry);
      }
      addVerdict(entry.counts, field.verdict);
      addVerdict(entry.strict, field.strictVerdict);
      if (field.error) entry.errors[field.error]++;
      if (field.anls !== undefined) entry.anls.push(field.anls);
      if (field.miss && entry.misses) entry.misses[field.miss]++;
    }
  }
  return [...paths]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, entry]) => ({
      path,
      ...computePrf(entry.counts, `extraction ${path}`),
      strict: computePrf(entry.strict, `extraction strict ${path}`),
      errors: Object.fromEntries(ERRORS.map((e) => [e, entry.errors[e]])) as Record<FieldError, number>,
      anls: entry.anls.length > 0 ? checkUnit(`anls ${path}`, mean(entry.anls, `anls ${path}`)) : null,
      misses: entry.misses,
    }));
}

/** Line-item exact matching summed over documents. */
function aggregateItems(documents: readonly ExtractionScore[]): ItemAggregate {
  const truthItems = sumOver(documents, (d) => d.items.truth);
  const predictedItems = sumOver(documents, (d) => d.items.predicted);
  const exactItems = sumOver(documents, (d) => d.items.exact);
  const anyItems = truthItems + predictedItems > 0;
  return {
    truth: truthItems,
    predicted: predictedItems,
    exact: exactItems,
    precision: anyItems ? checkUnit('item precision', predictedItems === 0 ? 0 : exactItems / predictedItems) : null,
    recall: anyItems ? checkUnit('item recall', truthItems === 0 ? 0 : exactItems / truthItems) : null,
    f1: anyItems ? checkUnit('item exact f1', (2 * exactItems) / (truthItems + predictedItems)) : null,
  };
}

/** Mean document ANLS* over the documents that have free-text fields; null when none has. */
function meanAnls(documents: readonly ExtractionScore[]): ExtractionAggregate['anls'] {
  const withText = documents.filter((d) => d.anls !== null);
  return withText.length > 0
    ? {
        mean: checkUnit(
          'anls* mean',
          mean(
            withText.map((d) => d.anls!),
            'anls* mean',
          ),
        ),
        documents: withText.length,
      }
    : null;
}
