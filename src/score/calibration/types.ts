/** Types of the calibration scorer (docs/metrics/calibration.md). */

/** One document: the service's confidence (0–100) and how correct the document really was (0–1). */
export interface CalibrationItem {
  /** `confidence_score` as the service returns it, on a 0–100 scale. */
  confidence: number;
  /** 1/0 (exact match) or continuous (field F1) in [0, 1]; a boolean is read as 1/0. */
  correct: number | boolean;
}

/**
 * Which side of a bin is closed. `(lo,hi]` (default): a score of 90 falls in (0.8, 0.9]; 0 falls in the first
 * bin. `[lo,hi)`: 90 falls in [0.9, 1.0); 100 falls in the last bin.
 */
export type BinEdgeRule = '(lo,hi]' | '[lo,hi)';

export interface CalibrationOptions {
  /** Equal-width bins for ECE and the reliability table; also the bin count of adaptive ECE. @default 10 */
  bins?: number;
  /** @default '(lo,hi]' */
  edgeRule?: BinEdgeRule;
  /** Target mean correctness of auto-accepted documents. @default 0.95 */
  target?: number;
}

/** One row of the reliability table. Confidences are on the 0–1 scale. */
export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  /** Mean confidence of the bin; null when empty. */
  meanConfidence: number | null;
  /** Mean correctness of the bin; null when empty. */
  accuracy: number | null;
  /** |accuracy − meanConfidence|; null when empty. Lower is better. */
  gap: number | null;
}

/** One point of the risk–coverage curve: accept every document with confidence ≥ threshold. */
export interface RiskCoveragePoint {
  /** Confidence threshold on the 0–100 scale (a confidence that occurs in the data). */
  threshold: number;
  accepted: number;
  /** accepted / N. */
  coverage: number;
  /** Mean correctness of the accepted documents. Higher is better. */
  accuracy: number;
  /** 1 − accuracy. Lower is better. */
  risk: number;
}

/** The lowest threshold whose accepted documents still reach the target accuracy, and what it accepts. */
export interface AutoAccept extends RiskCoveragePoint {
  target: number;
}

/** Calibration of one system's confidences. */
export interface CalibrationResult {
  n: number;
  /** Expected calibration error over equal-width bins. Lower is better; 0 = perfectly calibrated. */
  ece: number;
  /** ECE over equal-mass bins (sorted by confidence, then correctness). Lower is better. */
  adaptiveEce: number;
  /** mean((p − y)²). Lower is better. */
  brier: number;
  /**
   * Probability that a fully correct document (correct = 1) has a higher confidence than one that is not,
   * ties ½. Higher is better; null when all documents are fully correct or none is.
   */
  auroc: number | null;
  edgeRule: BinEdgeRule;
  /** Reliability table: every equal-width bin, empty ones included. */
  bins: ReliabilityBin[];
  /** The equal-mass bins behind adaptive ECE. */
  adaptiveBins: ReliabilityBin[];
  /** From the highest threshold (least coverage) down to the lowest (coverage 1). */
  riskCoverage: RiskCoveragePoint[];
  /** null when no threshold reaches the target. */
  autoAccept: AutoAccept | null;
}
