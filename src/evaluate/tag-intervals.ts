/**
 * The bootstrap 95% intervals of a system's figures per tag value (summary.json `by_tag.<key>.<value>.ci95`,
 * docs/summary-json.md): each figure recomputed on resamples of the documents with that tag, by the statistic
 * the leaderboard uses for the whole run (micro F1 from summed counts, the exact-match share, micro similarity
 * from summed edits), all drawn in one seeded pass so the same run gives the same intervals.
 */
import type { Mode } from '../types.js';
import { pairedBootstrapMany, type BootstrapRequest } from '../score/index.js';
import type { TagBreakdown } from '../run-dir/index.js';
import { headlineMetrics, ownStatistic } from './compare-run-systems.js';
import type { SystemDocumentScores } from './kept-scores.js';

type TagIntervals = NonNullable<TagBreakdown['ci95']>;

/** The intervals of each group of documents (one group per tag value), in the order given. */
export function tagIntervals(
  groups: readonly (readonly SystemDocumentScores[])[],
  modes: readonly Mode[],
  seed: number,
): TagIntervals[] {
  // by_tag's intervals are of its field F1, exact match and similarity; the other headline metrics (block edit
  // distances, rule checks) have their figures per tag without an interval, or none per tag.
  const metrics = headlineMetrics(modes).filter(
    (metric) => metric.metric.startsWith('extraction.') || metric.metric === 'markdown.similarity',
  );
  const requests: BootstrapRequest[] = [];
  const slots = groups.map((documents) =>
    metrics.map((metric) => {
      const values = documents.flatMap((document) => {
        // None of these metrics reads rule checks.
        const read = metric.read(document, undefined);
        return read ? [read] : [];
      });
      return values.length === 0
        ? null
        : requests.push({ n: values.length, statistic: ownStatistic(metric.kind, values) }) - 1;
    }),
  );
  const boots = pairedBootstrapMany(requests, { seed });
  return slots.map((slot) => {
    const intervals: TagIntervals = { extraction_f1: {}, exact_match_rate: {}, similarity: null };
    metrics.forEach((metric, index) => {
      const at = slot[index];
      if (at === null || at === undefined) return;
      const interval = boots[at]!.interval;
      // The metric names are `extraction.<mode>.f1`, `extraction.<mode>.exact_match_rate`, `markdown.similarity`.
      const [, mode, figure] = metric.metric.split('.') as [string, Mode, string];
      if (metric.metric === 'markdown.similarity') intervals.similarity = interval;
      else if (figure === 'f1') intervals.extraction_f1[mode] = interval;
      else intervals.exact_match_rate[mode] = interval;
    });
    return intervals;
  });
}
