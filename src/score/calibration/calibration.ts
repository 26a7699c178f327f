/** Confidence calibration of one system (docs/metrics/calibration.md): ECE, adaptive ECE, Brier, AUROC, risk–coverage. */
import { DocbenchError } from '../../errors.js';
import { checkUnit } from '../shared/check-metric.js';
import { computeAuroc } from './auroc.js';
import { equalMassBins, equalWidthBins, expectedCalibrationError, type Sample } from './reliability.js';
import { findAutoAccept, riskCoverageCurve } from './risk-coverage.js';
import type { CalibrationItem, CalibrationOptions, CalibrationResult } from './types.js';

/** @default 10 bins. */
export const DEFAULT_BINS = 10;
/** @default target accuracy 0.95 for auto-accept. */
export const DEFAULT_AUTO_ACCEPT_TARGET = 0.95;

function toSamples(items: readonly CalibrationItem[]): Sample[] {
  return items.map((item, i) => {
    const y = typeof item.correct === 'boolean' ? (item.correct ? 1 : 0) : item.correct;
    if (!Number.isFinite(item.confidence) || item.confidence < 0 || item.confidence > 100) {
      throw new DocbenchError(
        'INPUT_INVALID',
        `calibration: item ${i} has confidence ${String(item.confidence)}, outside 0–100`,
        {
          hint: 'pass confidence_score as the service returns it, on the 0–100 scale',
        },
      );
    }
    if (!Number.isFinite(y) || y < 0 || y > 1) {
      throw new DocbenchError(
        'INPUT_INVALID',
        `calibration: item ${i} has correctness ${String(item.correct)}, outside [0, 1]`,
      );
    }
    return { percent: item.confidence, p: item.confidence / 100, y };
  });
}

/**
 * Calibration of confidences (0–100) against measured correctness (0/1 exact match, or continuous field F1).
 *
 * Direction: lower is better for ECE, adaptive ECE and Brier; higher is better for AUROC and for the coverage
 * of auto-accept. Edge rule: `(lo, hi]` bins by default, 0 in the first bin — integer scores such as 90 land in
 * the bin that ends at 0.9 (docs/metrics/calibration.md). AUROC separates fully correct documents (correct = 1)
 * from the rest and is null when all or none are fully correct. autoAccept is null when no threshold reaches
 * the target.
 * @throws DocbenchError `INPUT_INVALID` for no items, a confidence outside 0–100, a correctness outside [0, 1],
 * or a bin count that is not a positive integer.
 * @example calibration([{ confidence: 95, correct: 1 }, { confidence: 20, correct: 0 }]).brier // 0.02125
 */
export function calibration(items: readonly CalibrationItem[], options: CalibrationOptions = {}): CalibrationResult {
  const bins = options.bins ?? DEFAULT_BINS;
  const edgeRule = options.edgeRule ?? '(lo,hi]';
  const target = options.target ?? DEFAULT_AUTO_ACCEPT_TARGET;
  if (!Number.isInteger(bins) || bins < 1)
    throw new DocbenchError('INPUT_INVALID', `calibration: bins must be a positive integer, got ${bins}`);
  if (!(target > 0 && target <= 1))
    throw new DocbenchError('INPUT_INVALID', `calibration: target must be in (0, 1], got ${target}`);
  if (items.length === 0) {
    throw new DocbenchError('INPUT_INVALID', 'calibration: no documents with a confidence score', {
      hint: 'calibration needs documents whose response carried confidence_score',
    });
  }
  const samples = toSamples(items);
  const n = samples.length;
  const table = equalWidthBins(samples, bins, edgeRule);
  const adaptiveBins = equalMassBins(samples, bins);
  const brier = samples.reduce((sum, s) => sum + (s.p - s.y) ** 2, 0) / n;
  const curve = riskCoverageCurve(samples);
  return {
    n,
    ece: expectedCalibrationError(table, n, 'ece'),
    adaptiveEce: expectedCalibrationError(adaptiveBins, n, 'adaptive ece'),
    brier: checkUnit('brier', brier),
    auroc: computeAuroc(
      samples.map((s) => s.p),
      samples.map((s) => s.y >= 1),
    ),
    edgeRule,
    bins: table,
    adaptiveBins,
    riskCoverage: curve,
    autoAccept: findAutoAccept(curve, target),
  };
}
