/** Confidence calibration (docs/metrics/calibration.md). */
export { calibration, DEFAULT_BINS, DEFAULT_AUTO_ACCEPT_TARGET } from './calibration.js';
export { computeAuroc } from './auroc.js';
export { riskCoverageCurve, findAutoAccept } from './risk-coverage.js';
export { binIndex } from './reliability.js';
export type {
  AutoAccept,
  BinEdgeRule,
  CalibrationItem,
  CalibrationOptions,
  CalibrationResult,
  ReliabilityBin,
  RiskCoveragePoint,
} from './types.js';
