/**
 * Win, loss or tie of one document between two systems, the one rule behind the markdown head-to-head and
 * compareSystems (docs/metrics/markdown.md: "ties within 0.005"), so a document counts the same in both.
 */

/** Per-document differences within this are ties. @default 0.005 */
export const DEFAULT_TIE_TOLERANCE = 0.005;

// Float slack so that 0.505 − 0.5 (= 0.0050000000000000044 in binary floating point) is a tie, as written.
const TIE_SLACK = 1e-9;

/** The outcome of one paired document, from the first system's side. */
export type PairedOutcome = 'win' | 'loss' | 'tie';

/** `delta` = first − second (higher is better): a tie when |delta| ≤ `tieTolerance`, else a win or a loss. */
export function classifyDelta(delta: number, tieTolerance: number): PairedOutcome {
  if (Math.abs(delta) <= tieTolerance + TIE_SLACK) return 'tie';
  return delta > 0 ? 'win' : 'loss';
}
