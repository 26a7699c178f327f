/**
 * Rule checks in `docbench diff` (docs/checks.md): each document's decided checks per category, from its
 * documents.jsonl results.
 */
import type { SystemDocument } from '../run-dir/index.js';
import { type CategoryCounts, countCategories } from '../checks/index.js';

export function readCheckCounts(checks: SystemDocument['checks']): CategoryCounts | null {
  return checks ? countCategories(checks.results) : null;
}
