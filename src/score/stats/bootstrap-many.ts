/**
 * Many paired bootstraps with the same seed in one pass — `docbench diff` bootstraps every headline metric and
 * every field path, ~100 statistics over up to 10,000 documents. Each result is exactly what
 * `pairedBootstrap(n, statistic, options)` returns, because the draws are the same:
 *
 * - `pairedBootstrap` draws resample r's document i as `floor(u[r·n + i] · n)`, where u is the one stream of
 *   `createRandom(seed)`. The stream does not depend on n or on the statistic, so it is generated once, in
 *   chunks, and every bootstrap reads it at its own pace.
 * - Bootstraps with the same n therefore draw the same index arrays (whatever documents the positions stand
 *   for): the indices of a resample are drawn once per n and every statistic of that size is evaluated on them.
 * - A statistic that is a function of integer sums (`CountedResampleStatistic`, e.g. micro F1 from summed
 *   TP/FP/FN) is evaluated from how often each document was drawn: integer sums below 2^53 are exact in any
 *   order, so the value is the same as summing the draws one by one.
 */
import { DocbenchError } from '../../errors.js';
import { checkMetric } from '../shared/check-metric.js';
import { createRandom } from '../../random.js';
import {
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  isCountedStatistic,
  summarizeResamples,
  type BootstrapOptions,
  type BootstrapResult,
  type CountedResampleStatistic,
  type ResampleStatistic,
} from './bootstrap.js';

/** One bootstrap of `pairedBootstrapMany`: `statistic` over `n` paired documents. */
export interface BootstrapRequest {
  n: number;
  statistic: ResampleStatistic;
}

/** Uniforms generated at a time: 256 KiB, shared by every bootstrap while it is in cache. */
const CHUNK = 1 << 15;

interface SizeGroup {
  n: number;
  /** Draws this group consumes in all: resamples · n. */
  total: number;
  plain: { statistic: ResampleStatistic; slot: number }[];
  counted: { statistic: CountedResampleStatistic; slot: number }[];
  indices: Uint32Array;
  /** Times each document was drawn in the current resample; only when a counted statistic needs it. */
  multiplicities: Uint32Array | null;
  /** Position within the current resample, and the resample. */
  position: number;
  resample: number;
}

/** Each request's value in every resample, and their sum. */
interface ResampledValues {
  values: Float64Array[];
  sums: Float64Array;
}

/**
 * Bootstraps every request with the same seed, resamples and level. Returns, in request order, exactly
 * `requests.map((q) => pairedBootstrap(q.n, q.statistic, options))`, in time proportional to the distinct
 * sizes rather than the number of statistics.
 * @throws DocbenchError `INPUT_INVALID` as `pairedBootstrap` does.
 */
export function pairedBootstrapMany(
  requests: readonly BootstrapRequest[],
  options: BootstrapOptions = {},
): BootstrapResult[] {
  const seed = options.seed ?? DEFAULT_SEED;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new DocbenchError(
      'INPUT_INVALID',
      `pairedBootstrapMany: resamples must be a positive integer, got ${resamples}`,
    );
  if (!(level > 0 && level < 1))
    throw new DocbenchError('INPUT_INVALID', `pairedBootstrapMany: level must be in (0, 1), got ${level}`);
  const { groups, estimates } = groupBySize(requests, resamples);
  const resampled: ResampledValues = {
    values: requests.map(() => new Float64Array(resamples)),
    sums: new Float64Array(requests.length),
  };

  const random = createRandom(seed);
  const chunk = new Float64Array(CHUNK);
  const longest = Math.max(0, ...groups.map((g) => g.total));
  for (let start = 0; start < longest; start += CHUNK) {
    const length = Math.min(CHUNK, longest - start);
    for (let k = 0; k < length; k++) chunk[k] = random();
    for (const group of groups) {
      if (group.total <= start) continue;
      drawFromChunk(group, chunk, Math.min(length, group.total - start), resampled);
    }
  }
  const { values, sums } = resampled;
  return requests.map((_, slot) => summarizeResamples(estimates[slot]!, values[slot]!, sums[slot]!, seed, level));
}

/** The requests grouped by size (in order of first appearance), and each request's estimate on its documents as
 * they are. */
function groupBySize(
  requests: readonly BootstrapRequest[],
  resamples: number,
): { groups: SizeGroup[]; estimates: number[] } {
  const groups = new Map<number, SizeGroup>();
  const estimates = requests.map(({ n, statistic }, slot) => {
    if (!Number.isInteger(n) || n < 1)
      throw new DocbenchError(
        'INPUT_INVALID',
        `pairedBootstrapMany: request ${slot} needs at least one document, got ${n}`,
      );
    let group = groups.get(n);
    if (!group) {
      group = {
        n,
        total: resamples * n,
        plain: [],
        counted: [],
        indices: new Uint32Array(n),
        multiplicities: null,
        position: 0,
        resample: 0,
      };
      groups.set(n, group);
    }
    if (isCountedStatistic(statistic)) group.counted.push({ statistic, slot });
    else group.plain.push({ statistic, slot });
    for (let i = 0; i < n; i++) group.indices[i] = i;
    return checkMetric('bootstrap estimate', statistic(group.indices));
  });
  for (const group of groups.values()) if (group.counted.length > 0) group.multiplicities = new Uint32Array(group.n);
  return { groups: [...groups.values()], estimates };
}

/** Draws the group's next `count` documents from the chunk of uniforms, evaluating its statistics at the end of
 * each resample. */
function drawFromChunk(group: SizeGroup, chunk: Float64Array, count: number, resampled: ResampledValues): void {
  const { n, indices, multiplicities } = group;
  const countedOnly = group.plain.length === 0;
  let i = group.position;
  let k = 0;
  // Whole stretches of one resample at a time, so the inner loops do nothing but draw; the index array is
  // needed only by plain statistics, the multiplicities only by counted ones.
  while (k < count) {
    const stretch = Math.min(n - i, count - k);
    const end = k + stretch;
    if (countedOnly) {
      // A group is created for a request, so with no plain statistic it has counted ones and multiplicities.
      for (; k < end; k++) multiplicities![Math.floor(chunk[k]! * n)]!++;
    } else if (multiplicities) {
      for (; k < end; k++, i++) {
        const drawn = Math.floor(chunk[k]! * n);
        indices[i] = drawn;
        multiplicities[drawn]!++;
      }
    } else {
      for (; k < end; k++, i++) indices[i] = Math.floor(chunk[k]! * n);
    }
    if (countedOnly) i += stretch;
    if (i === n) {
      evaluateResample(group, resampled);
      i = 0;
    }
  }
  group.position = i;
}

/** Every statistic of the group on the resample just drawn; clears the multiplicities for the next. */
function evaluateResample(group: SizeGroup, { values, sums }: ResampledValues): void {
  const r = group.resample++;
  for (const { statistic, slot } of group.plain) {
    const value = statistic(group.indices);
    values[slot]![r] = value;
    sums[slot]! += value;
  }
  if (group.multiplicities) {
    for (const { statistic, slot } of group.counted) {
      const value = statistic.fromMultiplicities(group.multiplicities);
      values[slot]![r] = value;
      sums[slot]! += value;
    }
    group.multiplicities.fill(0);
  }
}
