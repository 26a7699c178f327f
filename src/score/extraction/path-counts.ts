/** Per-document counts of each field path, for paired comparisons of one path (docs/metrics/extraction.md, docs/metrics/comparison.md). */

/** tp, fp, fn of one field path in one document. */
export type PathCounts = [tp: number, fp: number, fn: number];

/**
 * `codes[1].units` → `codes[].units`: the per-path aggregation key of docs/metrics/extraction.md ("per field path with
 * indices collapsed"). documents.jsonl keeps the indexed path for the drill-down.
 */
export function collapseFieldPath(fieldPath: string): string {
  return fieldPath.replace(/\[\d+\]/g, '[]');
}

/** A document's field verdicts counted per collapsed path; verdicts other than tp/fp/fn/fp+fn count nothing. */
export function countFieldPaths(fields: readonly { path: string; verdict: unknown }[]): Map<string, PathCounts> {
  const paths = new Map<string, PathCounts>();
  for (const field of fields) {
    const key = collapseFieldPath(field.path);
    const counts = paths.get(key) ?? [0, 0, 0];
    if (field.verdict === 'tp') counts[0]++;
    if (field.verdict === 'fp' || field.verdict === 'fp+fn') counts[1]++;
    if (field.verdict === 'fn' || field.verdict === 'fp+fn') counts[2]++;
    paths.set(key, counts);
  }
  return paths;
}
