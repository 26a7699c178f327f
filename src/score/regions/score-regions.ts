/**
 * Region fidelity of one document's /split output against its truth regions (docs/metrics/regions.md): one-to-one
 * Hungarian matching on IoU per page; precision / recall / F1 at IoU ≥ 0.5 and ≥ 0.75; mean IoU of the
 * matches; character accuracy of the text inside matched regions. Higher is better for all of them.
 */
import type { RegionPage } from '../../service/index.js';
import { checkOptionalUnit, checkUnit } from '../shared/check-metric.js';
import { assignMinimum } from '../shared/assign.js';
import { computeMatchRates } from '../shared/match-rates.js';
import { countCodePoints, levenshteinCodePoints } from '../shared/code-point-levenshtein.js';
import { normalizeForSimilarity } from '../markdown/normalize-text.js';
import { checkBox, computeIoU, POINTS_PER_INCH, type BoxProblem } from './box-geometry.js';
import { pageReadingOrder, type PageReadingOrder } from './reading-order.js';

/** Options of {@link scoreRegions}. */
export interface RegionScoreOptions {
  /** How far (inches) a box may overshoot the page edge and still be valid. @default 2/72 (two points) */
  toleranceIn?: number;
}

/** Precision / recall / F1 at one IoU threshold. */
export interface ThresholdScore {
  precision: number;
  recall: number;
  f1: number;
  /** Matched pairs whose IoU reaches the threshold. */
  truePositives: number;
}

/** The counts every region figure is computed from; summing them over documents gives micro aggregates. */
export interface RegionCounts {
  /** Predicted boxes, invalid ones included (they count as unmatched predictions). */
  predictedBoxes: number;
  /** Valid truth boxes (invalid truth boxes are excluded from scoring and reported). */
  truthBoxes: number;
  invalidPredictedBoxes: number;
  invalidTruthBoxes: number;
  /** Hungarian pairs with IoU > 0. */
  matches: number;
  iouSum: number;
  truePositives50: number;
  truePositives75: number;
  /** Σ edits between the texts of pairs with IoU ≥ 0.5 (normalised as for markdown, code points). */
  matchedEdits: number;
  /** Σ max(text lengths) over the same pairs. */
  matchedLength: number;
  /** Σ text length of every box not in such a pair: missed truth text and spurious predicted text. */
  unmatchedLength: number;
  /** Σ normalised ARD of the pages with a pair at IoU ≥ 0.5, and how many such pages (reading order). */
  readingOrderSum: number;
  readingOrderPages: number;
}

/**
 * A box that failed validation. `index` is its position in the page's `bounding_boxes` (pooled in input order
 * when a page number repeats).
 */
export interface InvalidBox {
  side: 'predicted' | 'truth';
  page: number;
  index: number;
  problem: BoxProblem;
}

/** One Hungarian pair. Indices are positions in the page's `bounding_boxes`. */
export interface RegionMatch {
  page: number;
  truthIndex: number;
  predictedIndex: number;
  iou: number;
}

/** {@link scoreRegions}. */
export interface RegionsScore extends RegionCounts {
  at50: ThresholdScore;
  at75: ThresholdScore;
  /** Mean IoU over the matches; `null` when nothing matched. */
  meanIoU: number | null;
  /** 1 − (Σ matched edits + Σ unmatched text) / (Σ matched max length + Σ unmatched text). */
  charAccuracy: number;
  /** Mean normalised ARD over the pages with a pair at IoU ≥ 0.5 (docs/metrics/regions.md); null: none. */
  readingOrder: number | null;
  /** Each such page's order, truth's and prediction's. */
  pageOrders: PageReadingOrder[];
  matchList: RegionMatch[];
  invalidBoxes: InvalidBox[];
  /** Truth pages the prediction lacks (all their boxes unmatched). */
  missingPages: number[];
  /** Predicted pages the truth lacks (all their boxes unmatched). */
  extraPages: number[];
  /** Pages whose predicted and truth sizes differ by more than one point: boxes are still compared in inches. */
  pageSizeMismatches: number[];
  /** The call failed (`null` prediction): everything counts as missed. */
  failed: boolean;
}

/** IoU thresholds are compared with this slack: boxes given in decimal inches carry binary rounding noise. */
const THRESHOLD_EPSILON = 1e-9;

/**
 * Scores `predictedPages` (the /split `pages`, `null` when the call failed) against `truthPages`.
 * Pages pair by page number; boxes of repeated page numbers on one side are pooled.
 */
export function scoreRegions(
  predictedPages: readonly RegionPage[] | null,
  truthPages: readonly RegionPage[],
  options: RegionScoreOptions = {},
): RegionsScore {
  const toleranceIn = options.toleranceIn ?? 2 / POINTS_PER_INCH;
  const predicted = groupByPage(predictedPages ?? []);
  const truth = groupByPage(truthPages);
  const counts = emptyCounts();
  const matchList: RegionMatch[] = [];
  const invalidBoxes: InvalidBox[] = [];
  const missingPages: number[] = [];
  const extraPages: number[] = [];
  const pageSizeMismatches: number[] = [];
  const orders: PageReadingOrder[] = [];

  const pageNumbers = [...new Set([...truth.keys(), ...predicted.keys()])].sort((a, b) => a - b);
  for (const pageNumber of pageNumbers) {
    const truthPage = truth.get(pageNumber);
    const predictedPage = predicted.get(pageNumber);
    if (!predictedPage) missingPages.push(pageNumber);
    if (!truthPage) extraPages.push(pageNumber);
    if (truthPage && predictedPage && !sameSize(truthPage, predictedPage)) pageSizeMismatches.push(pageNumber);

    const validTruth = collectValidBoxes(truthPage, 'truth', toleranceIn, invalidBoxes);
    const validPredicted = collectValidBoxes(predictedPage, 'predicted', toleranceIn, invalidBoxes);
    counts.truthBoxes += validTruth.length;
    counts.predictedBoxes += predictedPage?.bounding_boxes.length ?? 0;

    const truthBoxes = truthPage?.bounding_boxes ?? [];
    const predictedBoxes = predictedPage?.bounding_boxes ?? [];
    const iou = validTruth.map((t) =>
      validPredicted.map((p) => computeIoU(truthBoxes[t]!.bounding_box, predictedBoxes[p]!.bounding_box)),
    );
    const textMatchedTruth = new Set<number>();
    const textMatchedPredicted = new Set<number>();
    const found: { truthIndex: number; predictedIndex: number }[] = [];
    for (const [row, column] of assignMinimum(iou.map((r) => r.map((v) => 1 - v)))) {
      const value = iou[row]![column]!;
      if (!(value > 0)) continue; // the assignment pairs everything it can; disjoint boxes are no match
      const truthIndex = validTruth[row]!;
      const predictedIndex = validPredicted[column]!;
      matchList.push({ page: pageNumber, truthIndex, predictedIndex, iou: value });
      counts.matches++;
      counts.iouSum += value;
      if (value >= 0.75 - THRESHOLD_EPSILON) counts.truePositives75++;
      if (value >= 0.5 - THRESHOLD_EPSILON) {
        counts.truePositives50++;
        const { distance, lengthA, lengthB } = levenshteinCodePoints(
          normalizeForSimilarity(predictedBoxes[predictedIndex]!.content),
          normalizeForSimilarity(truthBoxes[truthIndex]!.content),
        );
        counts.matchedEdits += distance;
        counts.matchedLength += Math.max(lengthA, lengthB);
        textMatchedTruth.add(truthIndex);
        textMatchedPredicted.add(predictedIndex);
        found.push({ truthIndex, predictedIndex });
      }
    }
    const order = pageReadingOrder(pageNumber, found);
    if (order) {
      orders.push(order);
      counts.readingOrderSum += order.ard;
      counts.readingOrderPages++;
    }
    for (const index of validTruth)
      if (!textMatchedTruth.has(index)) counts.unmatchedLength += textLength(truthBoxes[index]!.content);
    predictedBoxes.forEach((entry, index) => {
      if (!textMatchedPredicted.has(index)) counts.unmatchedLength += textLength(entry.content);
    });
  }
  counts.invalidPredictedBoxes = invalidBoxes.filter((b) => b.side === 'predicted').length;
  counts.invalidTruthBoxes = invalidBoxes.filter((b) => b.side === 'truth').length;
  return {
    ...summarizeRegionCounts(counts),
    pageOrders: orders,
    matchList,
    invalidBoxes,
    missingPages,
    extraPages,
    pageSizeMismatches,
    failed: predictedPages === null,
  };
}

/** The figures of {@link RegionsScore} computed from counts (one document's, or summed over documents). */
export function summarizeRegionCounts(
  counts: RegionCounts,
): RegionCounts & Pick<RegionsScore, 'at50' | 'at75' | 'meanIoU' | 'charAccuracy' | 'readingOrder'> {
  const charDenominator = counts.matchedLength + counts.unmatchedLength;
  return {
    ...counts,
    at50: scoreThreshold(counts.truePositives50, counts.predictedBoxes, counts.truthBoxes, 'IoU 0.5'),
    at75: scoreThreshold(counts.truePositives75, counts.predictedBoxes, counts.truthBoxes, 'IoU 0.75'),
    meanIoU: checkOptionalUnit('region mean IoU', counts.matches === 0 ? null : counts.iouSum / counts.matches),
    // No text on either side anywhere: nothing to get wrong.
    charAccuracy: checkUnit(
      'region character accuracy',
      charDenominator === 0 ? 1 : 1 - (counts.matchedEdits + counts.unmatchedLength) / charDenominator,
    ),
    readingOrder: checkOptionalUnit(
      'region reading order',
      counts.readingOrderPages === 0 ? null : counts.readingOrderSum / counts.readingOrderPages,
    ),
  };
}

/** Both sides without boxes → 1 (nothing to find, nothing invented); any other 0/0 → 0. */
function scoreThreshold(truePositives: number, predicted: number, truth: number, label: string): ThresholdScore {
  const { precision, recall, f1 } = computeMatchRates(
    truePositives,
    predicted,
    truth,
    (figure) => `region ${figure} at ${label}`,
  );
  return { precision, recall, f1, truePositives };
}

/** Sums per-document counts and recomputes the figures: micro aggregates over all boxes of all documents. */
export function aggregateRegions(
  scores: readonly RegionCounts[],
): ReturnType<typeof summarizeRegionCounts> & { documents: number } {
  const total = emptyCounts();
  for (const score of scores) for (const key of Object.keys(total) as (keyof RegionCounts)[]) total[key] += score[key];
  return { ...summarizeRegionCounts(total), documents: scores.length };
}

function emptyCounts(): RegionCounts {
  return {
    predictedBoxes: 0,
    truthBoxes: 0,
    invalidPredictedBoxes: 0,
    invalidTruthBoxes: 0,
    matches: 0,
    iouSum: 0,
    truePositives50: 0,
    truePositives75: 0,
    matchedEdits: 0,
    matchedLength: 0,
    unmatchedLength: 0,
    readingOrderSum: 0,
    readingOrderPages: 0,
  };
}

function textLength(content: string): number {
  return countCodePoints(normalizeForSimilarity(content));
}

/** Indices of the page's valid boxes, in input order; each invalid one is appended to `invalid`. */
function collectValidBoxes(
  page: RegionPage | undefined,
  side: InvalidBox['side'],
  toleranceIn: number,
  invalid: InvalidBox[],
): number[] {
  const valid: number[] = [];
  page?.bounding_boxes.forEach((entry, index) => {
    const problem = checkBox(entry.bounding_box, page.width, page.height, toleranceIn);
    if (problem) invalid.push({ side, page: page.page, index, problem });
    else valid.push(index);
  });
  return valid;
}

function groupByPage(pages: readonly RegionPage[]): Map<number, RegionPage> {
  const byNumber = new Map<number, RegionPage>();
  for (const page of pages) {
    const seen = byNumber.get(page.page);
    byNumber.set(
      page.page,
      seen ? { ...seen, bounding_boxes: [...seen.bounding_boxes, ...page.bounding_boxes] } : page,
    );
  }
  return byNumber;
}

function sameSize(a: RegionPage, b: RegionPage): boolean {
  return Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1;
}
