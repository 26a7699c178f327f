/**
 * Rule checks in `docbench diff` (docs/checks.md): each document's decided checks per category, and the macro
 * pass rate (mean of the categories' pass rates) recomputed on the documents a resample draws.
 */
import type { SystemDocument } from '../run-dir/index.js';

/** Per category: checks decided and passed on one document. */
export type CategoryCounts = Map<string, { total: number; passed: number }>;

export function readCheckCounts(checks: SystemDocument['checks']): CategoryCounts | null {
  if (!checks) return null;
  const counts: CategoryCounts = new Map();
  for (const result of checks.results) {
    if (result.status === 'unsupported') continue;
    const entry = counts.get(result.category) ?? { total: 0, passed: 0 };
    entry.total++;
    if (result.status === 'passed') entry.passed++;
    counts.set(result.category, entry);
  }
  return counts;
}

/** The macro pass rate over `documents` (all of them, or those `indices` draw, repeats counted). */
export function macroPassRate(documents: readonly CategoryCounts[], indices?: ArrayLike<number>): number {
  const sums = new Map<string, { total: number; passed: number }>();
  const add = (counts: CategoryCounts) => {
    for (const [category, c] of counts) {
      const sum = sums.get(category) ?? { total: 0, passed: 0 };
      sum.total += c.total;
      sum.passed += c.passed;
      sums.set(category, sum);
    }
  };
  if (indices) for (let i = 0; i < indices.length; i++) add(documents[indices[i] as number] as CategoryCounts);
  else documents.forEach(add);
  const rates = [...sums.values()].filter((s) => s.total > 0).map((s) => s.passed / s.total);
  return rates.length === 0 ? 0 : rates.reduce((a, b) => a + b, 0) / rates.length;
}

/** One document's own pass rate (every decided check), for the paired per-document tests. */
export function documentPassRate(counts: CategoryCounts): number {
  let total = 0;
  let passed = 0;
  for (const c of counts.values()) {
    total += c.total;
    passed += c.passed;
  }
  return total === 0 ? 0 : passed / total;
}
