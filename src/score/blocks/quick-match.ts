/**
 * OmniDocBench's quick matching of truth blocks to output blocks (its `match_gt2pred_quick`; docs/metrics.md
 * "Blocks"), followed step by step, quirks included, because its published figures depend on them:
 *
 * 1. Pairs closer than 0.25 (normalised edit distance) are fixed; every other truth block may take a run of
 *    consecutive output blocks that together read as it (an output that split one paragraph in several).
 * 2. A one-to-one assignment of truth blocks to output blocks (or runs) on normalised edit distance; pairs
 *    above 0.7 are undone.
 * 3. A truth block still unmatched joins an output block that contains it approximately (fuzzy window under
 *    0.4): several truth blocks then share one output block (an output that merged paragraphs).
 * 4. What is still unmatched is paired on raw edit distance when both sides have leftovers; leftover output
 *    blocks with no truth left form one extra entry; a truth block left when no output block is left appears
 *    twice in the result (OmniDocBench's merge step lists it once from the match and once as unmatched), so
 *    it counts twice in the text edit distance and in the truth reading order.
 *
 * Indices: blocks whose raw or normalised text is empty are dropped before matching, but the order and
 * position of an entry are looked up in the unfiltered lists by the filtered index, as OmniDocBench does.
 */
import { assignMinimum } from '../shared/assign.js';
import { levenshteinCodePoints } from '../shared/code-point-levenshtein.js';
import { hasCloseWindow } from './fuzzy-window.js';

export interface MatchTruthItem {
  raw: string;
  normalized: string;
  category: string;
  /** The block's reading-order number; null when it has none. */
  order: number | null;
}

export interface MatchOutputItem {
  raw: string;
  normalized: string;
  position: number;
}

/** One entry of the match: truth blocks (indices into the filtered truth) against output blocks. */
export interface MatchEntry {
  /** Filtered truth indices; empty for output blocks that matched no truth block. */
  truth: number[];
  /** Filtered output indices; empty for a truth block nothing matched. */
  output: number[];
  /** The order numbers of `truth` (null where a block has none). */
  truthOrder: (number | null)[];
  /** Where the first output block starts; null when `output` is empty. */
  outputPosition: number | null;
  /** Normalised texts, joined as OmniDocBench joins them for its edit distance. */
  truthText: string;
  outputText: string;
  /** The entry's truth category (the most frequent scored one); '' for an output-only entry. */
  category: string;
}

function normalizedDistance(a: string, b: string): number {
  if (a === b) return 0;
  const { distance, lengthA, lengthB } = levenshteinCodePoints(a, b);
  return distance / Math.max(lengthA, lengthB);
}

function distanceMatrix(truth: readonly string[], output: readonly string[]): number[][] {
  return truth.map((t) => output.map((o) => normalizedDistance(t, o)));
}

/** OmniDocBench's `judge_pred_merge`: whether adding the last output block to the run still reads as `truth`. */
function runGrows(truth: string, run: readonly string[]): { merge: boolean; more: boolean } {
  const current = run.slice(0, -1).join(' ');
  const merged = run.join(' ');
  if (normalizedDistance(truth, merged) > normalizedDistance(truth, current)) return { merge: false, more: false };
  if (!run.slice(0, -1).every((part) => hasCloseWindow(truth, part, 0.6, true))) return { merge: false, more: false };
  const merge = hasCloseWindow(truth, run[run.length - 1]!, 0.6, false);
  return { merge, more: Array.from(merged).length <= Array.from(truth).length };
}

type Candidate = { subset: number[]; cost: number };

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * OmniDocBench's `get_final_subset`: overlapping candidate runs are grouped, and in each group the "path"
 * of mutually disjoint runs with the least mean cost wins. Its list handling is kept as written (a run
 * replaced while its path is being scanned is met again at the path's end).
 */
function chooseRuns(candidates: Candidate[]): number[][] {
  if (candidates.length === 0) return [];
  const sorted = candidates.map((c, i) => ({ ...c, i })).sort((a, b) => a.subset[0]! - b.subset[0]! || a.i - b.i);
  const groups: Candidate[][] = [[sorted[0]!]];
  for (const item of sorted.slice(1)) {
    const group = groups[groups.length - 1]!;
    const overlaps = group.some((member) => item.subset.some((index) => member.subset.includes(index)));
    if (overlaps) group.push(item);
    else groups.push([item]);
  }
  const chosen: number[][] = [];
  for (const group of groups) {
    if (group.length === 1) {
      chosen.push(group[0]!.subset);
      continue;
    }
    const paths: Candidate[][] = [[group[0]!]];
    for (const subset of group.slice(1)) {
      let newPath = true;
      for (const path of paths) {
        let duplicate = false;
        let same = false;
        for (let k = 0; k < path.length; k += 1) {
          const item = path[k]!;
          if (sameList(item.subset, subset.subset)) {
            duplicate = true;
            same = true;
            if (item.cost > subset.cost) {
              path.splice(k, 1);
              path.push(subset);
            }
          } else if (item.subset.some((index) => subset.subset.includes(index))) {
            duplicate = true;
          }
        }
        if (!duplicate) {
          path.push(subset);
          newPath = false;
        }
        if (same) newPath = false;
      }
      if (newPath) paths.push([subset]);
    }
    let best = Number.POSITIVE_INFINITY;
    let bestPath: Candidate[] = [];
    for (const path of paths) {
      const mean = path.reduce((sum, item) => sum + item.cost, 0) / path.length;
      if (mean < best) {
        best = mean;
        bestPath = path;
      }
    }
    chosen.push(...bestPath.map((item) => item.subset));
  }
  return chosen;
}

/** Step 1 (OmniDocBench's `deal_with_truncated`): output runs that may stand for one truth block. */
function groupOutputRuns(costs: number[][], truth: readonly string[], output: readonly string[]): number[][] {
  const fixedTruth = new Set<number>();
  const fixedOutput = new Set<number>();
  for (const [t, row] of costs.entries()) {
    for (const [o, cost] of row.entries()) {
      if (cost < 0.25) {
        fixedTruth.add(t);
        fixedOutput.add(o);
      }
    }
  }
  const freeOutput = output.map((_, o) => o).filter((o) => !fixedOutput.has(o));
  const candidates: Candidate[] = [];
  for (let t = 0; t < truth.length; t += 1) {
    if (fixedTruth.has(t)) continue;
    let best: Candidate | null = null;
    for (const start of freeOutput) {
      let step = 1;
      const run = [output[start]!];
      while (start + step < output.length && !fixedOutput.has(start + step)) {
        run.push(output[start + step]!);
        const { merge, more } = runGrows(truth[t]!, run);
        if (!merge) break;
        step += 1;
        if (!more) break;
      }
      const subset = Array.from({ length: step }, (_, k) => start + k);
      const cost = normalizedDistance(truth[t]!, subset.map((o) => output[o]).join(' '));
      if (best === null || cost < best.cost) best = { subset, cost };
    }
    if (best !== null && best.subset.length > 0) candidates.push(best);
  }
  const runs = chooseRuns(candidates);
  const columns: number[][] = output.map((_, o) => [o]);
  for (const run of runs) {
    const at = columns.findIndex((column) => column.length === 1 && column[0] === run[0]);
    if (at < 0) continue;
    columns.splice(at, run.length, run);
  }
  return columns;
}

interface Converted {
  truth: number | null;
  output: number[];
}

/** Steps 2–4 up to OmniDocBench's `convert_final_matches`. */
function matchLeftovers(truth: readonly string[], output: readonly string[]): Converted[] {
  const single = distanceMatrix(truth, output);
  const columns = groupOutputRuns(single, truth, output);
  // A column of one output block keeps its distances; only the runs' joined texts are measured again.
  const costs = truth.map((t, row) =>
    columns.map((column) =>
      column.length === 1 ? single[row]![column[0]!]! : normalizedDistance(t, column.map((o) => output[o]).join(' ')),
    ),
  );
  const assigned = new Map<number, number>(assignMinimum(costs, columns.length));

  const matches = new Map<number, number[]>();
  const unmatchedTruth: number[] = [];
  for (let t = 0; t < truth.length; t += 1) {
    const column = assigned.get(t);
    if (column === undefined || costs[t]![column]! > 0.7) unmatchedTruth.push(t);
    else {
      const run = columns[column]!;
      matches.set(
        t,
        Array.from({ length: run[run.length - 1]! - run[0]! + 1 }, (_, k) => run[0]! + k),
      );
    }
  }

  // Step 3: every output block (matched or not) may take unmatched truth blocks it contains.
  const contained = new Map<number, number[]>();
  output.forEach((text, o) => {
    const inside = unmatchedTruth.filter((t) => hasCloseWindow(text, truth[t]!, 0.4, false));
    if (inside.length > 0) contained.set(o, inside);
  });

  const finalMatches = new Map<string, { output: number[]; truth: number[] }>();
  const processed = new Set<number>();
  for (const [t, outputs] of matches) {
    const key = [...outputs].sort((a, b) => a - b).join(',');
    const existing = finalMatches.get(key);
    if (existing !== undefined) {
      if (!processed.has(t)) existing.truth.push(t);
    } else finalMatches.set(key, { output: [...outputs].sort((a, b) => a - b), truth: [t] });
    processed.add(t);
  }
  for (const [o, truths] of contained) {
    const key = String(o);
    const existing = finalMatches.get(key);
    const fresh = truths.filter((t) => !processed.has(t));
    if (existing !== undefined) existing.truth.push(...fresh);
    else finalMatches.set(key, { output: [o], truth: fresh });
    for (const t of fresh) processed.add(t);
  }

  const converted: Converted[] = [];
  const matchedTruth = new Set<number>();
  const matchedOutput = new Set<number>();
  for (const match of finalMatches.values()) {
    for (const t of [...new Set(match.truth)].sort((a, b) => a - b)) converted.push({ truth: t, output: match.output });
    for (const t of match.truth) matchedTruth.add(t);
    for (const o of match.output) matchedOutput.add(o);
  }
  const leftTruth = truth.map((_, t) => t).filter((t) => !matchedTruth.has(t));
  const leftOutput = output.map((_, o) => o).filter((o) => !matchedOutput.has(o));
  if (leftOutput.length > 0) {
    if (leftTruth.length > 0) {
      const raw = leftTruth.map((t) => leftOutput.map((o) => levenshteinCodePoints(truth[t]!, output[o]!).distance));
      for (const [row, column] of assignMinimum(raw, leftOutput.length)) {
        converted.push({ truth: leftTruth[row]!, output: [leftOutput[column]!] });
      }
    } else converted.push({ truth: null, output: leftOutput });
  } else for (const t of leftTruth) converted.push({ truth: t, output: [] });
  return converted;
}

/** OmniDocBench's `merge_duplicates_add_unmatched`: entries sharing output blocks merged; the twice-listed miss. */
function mergeEntries(converted: readonly Converted[], truthCount: number): Converted[][] {
  const merged: Converted[][] = [];
  const seenOutput = new Set<string>();
  const processed = new Set<number | null>();
  for (const entry of converted) {
    if (entry.output.length === 0) continue;
    const key = entry.output.join(',');
    if (seenOutput.has(key)) continue;
    const group = [entry];
    for (const other of converted) {
      if (other !== entry && other.output.join(',') === key) {
        group.push(other);
        processed.add(other.truth);
      }
    }
    merged.push(group);
    seenOutput.add(key);
    processed.add(entry.truth);
  }
  for (const entry of converted) if (!processed.has(entry.truth)) merged.push([entry]);
  for (let t = 0; t < truthCount; t += 1) if (!processed.has(t)) merged.push([{ truth: t, output: [] }]);
  return merged;
}

/** Categories OmniDocBench matches among the text but does not score (docs/metrics.md "Blocks"). */
export const UNSCORED_TEXT_CATEGORIES: ReadonlySet<string> = new Set([
  'figure_caption',
  'figure_footnote',
  'table_caption',
  'table_footnote',
  'code_algorithm',
  'code_algorithm_caption',
  'header',
  'footer',
  'page_footnote',
  'page_number',
  'equation_caption',
]);

/** The most frequent category, scored ones first (ties: the first met), as OmniDocBench names an entry. */
function entryCategory(categories: readonly string[]): string {
  const scored = categories.filter((c) => !UNSCORED_TEXT_CATEGORIES.has(c));
  const pool = scored.length > 0 ? scored : categories;
  const counts = new Map<string, number>();
  for (const c of pool) counts.set(c, (counts.get(c) ?? 0) + 1);
  let best = '';
  let bestCount = 0;
  for (const [c, n] of counts) {
    if (n > bestCount) {
      best = c;
      bestCount = n;
    }
  }
  return best;
}

/** Truth blocks (in reading order) against output blocks (in position order). */
export function matchBlocks(
  truthItems: readonly MatchTruthItem[],
  outputItems: readonly MatchOutputItem[],
): MatchEntry[] {
  const truth = truthItems.filter((item) => item.raw !== '' && item.normalized !== '');
  const output = outputItems.filter((item) => item.raw !== '' && item.normalized !== '');
  const truthTexts = truth.map((item) => item.normalized);
  const outputTexts = output.map((item) => item.normalized);
  const entry = (t: number[], o: number[]): MatchEntry => ({
    truth: t,
    output: o,
    truthOrder: t.map((index) => truthItems[index]?.order ?? null),
    outputPosition: o.length > 0 ? (outputItems[o[0]!]?.position ?? null) : null,
    truthText: t.map((index) => truthTexts[index]).join(''),
    outputText: o.map((index) => outputTexts[index]).join(''),
    category: t.length > 0 ? entryCategory(t.map((index) => truth[index]!.category)) : '',
  });
  if (truth.length === 0) return output.map((_, o) => entry([], [o]));
  if (output.length === 0) return truth.map((_, t) => entry([t], []));
  if (truth.length === 1 && output.length === 1) return [entry([0], [0])];
  return mergeEntries(matchLeftovers(truthTexts, outputTexts), truth.length).map((group) =>
    entry(
      group.flatMap((c) => (c.truth === null ? [] : [c.truth])),
      group[0]!.output,
    ),
  );
}

/**
 * OmniDocBench's `match_gt2pred_simple`, used for tables: one assignment on normalised edit distance of the
 * raw strings, no threshold; unassigned truth blocks get no output. Output-only entries are left out.
 */
export function matchSimple(truth: readonly string[], output: readonly string[]): (number | null)[] {
  if (output.length === 0) return truth.map(() => null);
  // One table on each side: the assignment pairs them whatever their distance.
  if (truth.length === 1 && output.length === 1) return [0];
  const assigned = new Map<number, number>(assignMinimum(distanceMatrix(truth, output), output.length));
  return truth.map((_, t) => assigned.get(t) ?? null);
}
