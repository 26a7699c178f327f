/**
 * A check decided over a system's repeats of a page, and pass rates over many checks, as olmOCR-bench's
 * benchmark.py reports them (docs/checks.md, "Scoring"): a check passes when more than half its repeats pass;
 * a category's pass rate is its passed checks over its checks; the headline (macro) is the mean of the
 * categories' rates. Math checks are unsupported: left out of every count and rate, and named.
 */
import { runCheck } from './run-check.js';
import { type Check, type CheckType, UNSUPPORTED_CHECK_TYPES } from './types.js';

/** What one check decided on one system's output. */
export interface CheckResult {
  id: string;
  type: CheckType;
  category: string;
  page: number;
  status: 'passed' | 'failed' | 'unsupported';
  /** Why it failed (the first failing repeat's explanation); '' otherwise. */
  explanation: string;
  /** Repeats that passed, of those decided. */
  repeats_passed: number;
  repeats: number;
  /** The texts the check looks for, to highlight in the page's markdown. */
  texts: string[];
}

/** The texts a check looks for (normalised), for a reader to find them in the markdown. */
function checkTexts(check: Check): string[] {
  switch (check.type) {
    case 'present':
    case 'absent':
    case 'format':
      return [check.text];
    case 'order':
      return [check.before, check.after];
    case 'table':
      return [check.cell, check.up, check.down, check.left, check.right, check.top_heading, check.left_heading].filter(
        (t) => t !== '',
      );
    case 'footnote':
      return [check.marker];
    case 'math':
      return [check.math];
    case 'baseline':
      return [];
  }
}

/**
 * Decides `check` on each repeat's pages (null: the repeat has no output); a page the output lacks fails that
 * repeat, as a missing markdown file does in olmOCR-bench.
 */
export function decideCheck(check: Check, repeats: ReadonlyArray<readonly string[] | null>): CheckResult {
  const result: CheckResult = {
    id: check.id,
    type: check.type,
    category: check.category,
    page: check.page,
    status: 'failed',
    explanation: '',
    repeats_passed: 0,
    repeats: repeats.length,
    texts: checkTexts(check),
  };
  if (UNSUPPORTED_CHECK_TYPES.has(check.type)) {
    result.status = 'unsupported';
    result.explanation = `${check.type} checks are not decided by docbench`;
    return result;
  }
  const explanations: string[] = [];
  for (const pages of repeats) {
    const page = pages?.[check.page - 1];
    if (page === undefined) {
      explanations.push(pages === null ? 'no output for the document' : `no markdown for page ${check.page}`);
      continue;
    }
    const outcome = runCheck(check, page);
    if (outcome.passed) result.repeats_passed++;
    else explanations.push(outcome.explanation);
  }
  if (repeats.length === 0) explanations.push('no output for the document');
  result.status = result.repeats_passed > repeats.length / 2 ? 'passed' : 'failed';
  if (result.status === 'failed') result.explanation = explanations[0] ?? '';
  return result;
}

/**
 * olmOCR-bench adds a baseline check (no blank page, no run-away repetition, no stray scripts) on page 1 of
 * every document that has none, in its own category `baseline`.
 */
export function withBaselineChecks(checks: readonly Check[], documentPaths: readonly string[]): Check[] {
  const covered = new Set(checks.filter((c) => c.type === 'baseline').map((c) => c.pdf));
  const added: Check[] = documentPaths
    .filter((pdf) => !covered.has(pdf))
    .map((pdf) => ({
      pdf,
      page: 1,
      id: `${pdf}_baseline`,
      type: 'baseline',
      max_diffs: 0,
      checked: null,
      url: null,
      category: 'baseline',
      max_length: null,
      max_length_skips_image_alt_tags: false,
      max_repeats: 30,
      check_disallowed_characters: true,
    }));
  return [...checks, ...added];
}

export interface PassCount {
  total: number;
  passed: number;
  pass_rate: number | null;
}

export interface ChecksSummary extends PassCount {
  /** Mean of the categories' pass rates: olmOCR-bench's headline score. */
  macro_pass_rate: number | null;
  by_category: Record<string, PassCount>;
  by_type: Record<string, PassCount>;
  /** Checks not decided (math): counted here, in no rate. */
  unsupported: { total: number; by_type: Record<string, number> };
}

const rate = (passed: number, total: number): number | null => (total === 0 ? null : passed / total);

function tally(into: Record<string, PassCount>, key: string, passed: boolean): void {
  const entry = into[key] ?? { total: 0, passed: 0, pass_rate: null };
  into[key] = entry;
  entry.total++;
  if (passed) entry.passed++;
  entry.pass_rate = rate(entry.passed, entry.total);
}

/** Pass counts and rates over every check result of a system. */
export function summarizeChecks(results: Iterable<CheckResult>): ChecksSummary {
  const summary: ChecksSummary = {
    total: 0,
    passed: 0,
    pass_rate: null,
    macro_pass_rate: null,
    by_category: {},
    by_type: {},
    unsupported: { total: 0, by_type: {} },
  };
  for (const result of results) {
    if (result.status === 'unsupported') {
      summary.unsupported.total++;
      summary.unsupported.by_type[result.type] = (summary.unsupported.by_type[result.type] ?? 0) + 1;
      continue;
    }
    const passed = result.status === 'passed';
    summary.total++;
    if (passed) summary.passed++;
    tally(summary.by_category, result.category, passed);
    tally(summary.by_type, result.type, passed);
  }
  summary.pass_rate = rate(summary.passed, summary.total);
  summary.macro_pass_rate = macroPassRate(Object.values(summary.by_category));
  return summary;
}

/** The mean of the categories' pass rates (categories without a decided check have none). */
export function macroPassRate(categories: readonly PassCount[]): number | null {
  const rates = categories.flatMap((c) => (c.pass_rate === null ? [] : [c.pass_rate]));
  return rates.length === 0 ? null : rates.reduce((a, b) => a + b, 0) / rates.length;
}

/** Per category: a document's decided checks and how many passed. */
export type CategoryCounts = Map<string, { total: number; passed: number }>;

export function countCategories(
  results: ReadonlyArray<Pick<CheckResult, 'category'> & { status: string }>,
): CategoryCounts {
  const counts: CategoryCounts = new Map();
  for (const r of results) {
    if (r.status === 'unsupported') continue;
    const entry = counts.get(r.category) ?? { total: 0, passed: 0 };
    entry.total++;
    if (r.status === 'passed') entry.passed++;
    counts.set(r.category, entry);
  }
  return counts;
}

/** A document's own pass rate over its decided checks (the per-document value of paired tests). */
export function documentPassRate(counts: CategoryCounts): number {
  let total = 0;
  let passed = 0;
  for (const c of counts.values()) {
    total += c.total;
    passed += c.passed;
  }
  return total === 0 ? 0 : passed / total;
}

/** The macro pass rate (mean of the categories' pass rates) of the documents `indices` draw, repeats counted. */
export function macroOver(documents: readonly CategoryCounts[], indices: ArrayLike<number>): number {
  const sums = new Map<string, { total: number; passed: number }>();
  for (let i = 0; i < indices.length; i++) {
    for (const [category, c] of documents[indices[i] as number] as CategoryCounts) {
      const sum = sums.get(category) ?? { total: 0, passed: 0 };
      sum.total += c.total;
      sum.passed += c.passed;
      sums.set(category, sum);
    }
  }
  let rates = 0;
  let counted = 0;
  for (const s of sums.values()) {
    if (s.total === 0) continue;
    rates += s.passed / s.total;
    counted++;
  }
  return counted === 0 ? 0 : rates / counted;
}
