/**
 * The decision rule every comparison docbench reports applies (docs/metrics/comparison.md "Decision rule"):
 * `docbench diff`, `run --compare-to` and summary.json's system comparisons decide "significant" here, so
 * the exit code and every sentence about significance come from one rule.
 *
 * - Two-sided: a p is the evidence of a difference in either direction (`bootstrapP`), and α is split
 *   between "worse" and "better", so calling unchanged systems either is at most α.
 * - Families: the primary metric is a family of one (its p decides as it is); the other headline metrics
 *   are Holm-adjusted among themselves; field paths are a family of their own (the caller's).
 */
import { DocbenchError } from '../../errors.js';
import { holmAdjust } from './holm.js';
import { signTest } from './sign-test.js';

/** Whether a comparison's p decides alone (the primary metric) or after Holm among the other headline metrics. */
export type DecisionFamily = 'primary' | 'secondary';

/**
 * The smallest p any two-sided test of `differing` paired outcomes can give: all of them going one way, the
 * exact sign test's 2 · 0.5^k. `bootstrapP` never goes below it.
 */
export function smallestPossibleP(differing: number): number {
  return signTest(differing, 0);
}

/**
 * The fewest documents that must differ for a comparison decided alone at `alpha` to be significant: the
 * smallest k with 2 · 0.5^k ≤ α (6 at α = 0.05). Fewer can never be significant, however large the drop.
 */
export function fewestSignificantDocuments(alpha: number): number {
  if (!(alpha > 0 && alpha < 1))
    throw new DocbenchError(
      'INPUT_INVALID',
      `fewestSignificantDocuments: alpha ${String(alpha)} is not between 0 and 1`,
    );
  let k = 1;
  while (smallestPossibleP(k) > alpha) k++;
  return k;
}

/**
 * The p each headline comparison is decided on, in input order: the primary's own p (a family of one), the
 * others Holm-adjusted among themselves. Adding or removing a secondary metric never changes the primary's.
 * @param primaryIndex index of the primary metric in `pValues`; -1 when none of them is primary.
 */
export function adjustHeadlineFamilies(
  pValues: readonly number[],
  primaryIndex: number,
): { p: number; family: DecisionFamily }[] {
  const secondary = pValues.flatMap((p, i) => (i === primaryIndex ? [] : [p]));
  const adjusted = secondary.length > 0 ? holmAdjust(secondary) : [];
  let next = 0;
  return pValues.map((p, i) =>
    i === primaryIndex ? { p, family: 'primary' } : { p: adjusted[next++]!, family: 'secondary' },
  );
}

/**
 * The primary metric among the headline metrics computed: `configured` when given, else field F1 of the
 * first mode (`extraction.<mode>.f1`, in the order of `available`), else markdown similarity, else the first.
 * @throws DocbenchError `INPUT_INVALID` naming `subject` when `configured` was not computed.
 */
export function choosePrimaryMetric(
  available: readonly string[],
  configured: string | null,
  subject = 'gate.diff.primary',
): string | null {
  if (configured !== null) {
    if (available.includes(configured)) return configured;
    throw new DocbenchError(
      'INPUT_INVALID',
      `${subject}: "${configured}" was not computed for these runs (they have ${available.length > 0 ? available.join(', ') : 'no headline metric'})`,
      {
        hint: `set ${subject} to one of the metrics both runs have, or leave it out for the default (field F1 of the first mode, else markdown similarity)`,
      },
    );
  }
  return (
    available.find((m) => /^extraction\.[a-z]+\.f1$/.test(m)) ??
    available.find((m) => m === 'markdown.similarity') ??
    available[0] ??
    null
  );
}
