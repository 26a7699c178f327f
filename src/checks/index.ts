/**
 * Rule checks in olmOCR-bench's format (docs/checks.md): parse a definition, decide it on a page's markdown,
 * normalise text as the checks compare it. Published as `docbench/checks`.
 */
export { parseCheck } from './parse-check.js';
export { runCheck, trailingRepeats } from './run-check.js';
export { normalizeCheckText } from './text.js';
export { CHECK_TYPES, UNSUPPORTED_CHECK_TYPES } from './types.js';
export type {
  Check,
  CheckType,
  CheckOutcome,
  TextPresenceCheck,
  OrderCheck,
  TableCheck,
  MathCheck,
  BaselineCheck,
  FormatCheck,
  FootnoteCheck,
} from './types.js';
export {
  decideCheck,
  withBaselineChecks,
  summarizeChecks,
  macroPassRate,
  countCategories,
  documentPassRate,
  macroOver,
} from './score-checks.js';
export type { CheckResult, ChecksSummary, PassCount, CategoryCounts } from './score-checks.js';
