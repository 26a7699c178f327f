/**
 * The words diff.md, diff.html and the terminal use for the diff's decisions, so the three say what
 * diff.json decided and nothing else: a row's result, and the field paths that lost.
 */
import type { DiffResult, FieldDiff } from './diff-types.js';
import { formatP, formatSigned } from './compare-runs.js';

/** The decided keys of a headline or field row. */
type DecidedRow = { regression: boolean; improvement: boolean; significant: boolean };

/** A row's result in words and its tone: a significant change within the tolerance is said to be significant. */
export function describeResult(row: DecidedRow): { result: string; tone: 'bad' | 'good' | 'neutral' } {
  if (row.regression) return { result: 'regression', tone: 'bad' };
  if (row.improvement) return { result: 'improvement', tone: 'good' };
  return { result: row.significant ? 'significant, within the tolerance' : 'not significant', tone: 'neutral' };
}

/** Field paths whose F1 dropped by more than the tolerance, significant or not: where a regression lost. */
export function lostFields(diff: DiffResult): FieldDiff[] {
  return diff.fields.filter((f) => f.delta < -diff.settings.tolerance);
}

/** "total (slow, −0.1000 on 6 documents, Holm-adjusted p 0.0938: not significant on its own)". */
export function describeLostField(f: FieldDiff): string {
  return `${f.path} (${f.mode}, ${formatSigned(f.delta)} on ${f.documents} documents, Holm-adjusted p ${formatP(f.p_adjusted)}${f.significant ? '' : ': not significant on its own'})`;
}
