/** Binning for ECE: equal-width bins with an explicit edge rule, and equal-mass bins for adaptive ECE. */
import { checkUnit } from '../shared/check-metric.js';
import type { BinEdgeRule, ReliabilityBin } from './types.js';

/** A prepared sample: confidence on 0–100 and 0–1, correctness in [0, 1]. */
export interface Sample {
  percent: number;
  p: number;
  y: number;
}

/**
 * Bin index of a 0–100 confidence. Computed on the 0–100 scale (`percent × bins / 100`) so integer scores that
 * sit on an edge land exactly: with 10 bins, 90 × 10 / 100 = 9 with no floating-point error.
 */
export function binIndex(percent: number, bins: number, rule: BinEdgeRule): number {
  const position = (percent * bins) / 100;
  if (rule === '(lo,hi]') return Math.max(0, Math.ceil(position) - 1);
  return Math.min(bins - 1, Math.floor(position));
}

function summarize(samples: readonly Sample[], lo: number, hi: number): ReliabilityBin {
  if (samples.length === 0) return { lo, hi, count: 0, meanConfidence: null, accuracy: null, gap: null };
  let confidence = 0;
  let correct = 0;
  for (const s of samples) {
    confidence += s.p;
    correct += s.y;
  }
  const meanConfidence = confidence / samples.length;
  const accuracy = correct / samples.length;
  return { lo, hi, count: samples.length, meanConfidence, accuracy, gap: Math.abs(accuracy - meanConfidence) };
}

/** Σ (n_b / N) · |acc_b − conf_b| over the bins. */
export function expectedCalibrationError(bins: readonly ReliabilityBin[], total: number, name: string): number {
  let ece = 0;
  for (const bin of bins) if (bin.gap !== null) ece += (bin.count / total) * bin.gap;
  return checkUnit(name, ece);
}

/** The reliability table over `bins` equal-width bins of [0, 1]. */
export function equalWidthBins(samples: readonly Sample[], bins: number, rule: BinEdgeRule): ReliabilityBin[] {
  const groups: Sample[][] = Array.from({ length: bins }, () => []);
  for (const s of samples) groups[binIndex(s.percent, bins, rule)]!.push(s);
  return groups.map((group, b) => summarize(group, b / bins, (b + 1) / bins));
}

/**
 * Equal-mass bins (Nixon et al. 2019, "Measuring Calibration in Deep Learning"): samples sorted by confidence
 * (then correctness, so the result does not depend on input order) and cut into min(bins, N) groups whose sizes
 * differ by at most one. `lo`/`hi` are the smallest and largest confidence in each group.
 */
export function equalMassBins(samples: readonly Sample[], bins: number): ReliabilityBin[] {
  const sorted = [...samples].sort((a, b) => a.p - b.p || a.y - b.y);
  const count = Math.min(bins, sorted.length);
  const out: ReliabilityBin[] = [];
  for (let b = 0; b < count; b++) {
    const group = sorted.slice(Math.floor((b * sorted.length) / count), Math.floor(((b + 1) * sorted.length) / count));
    out.push(summarize(group, group[0]!.p, group[group.length - 1]!.p));
  }
  return out;
}
