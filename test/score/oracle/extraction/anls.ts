/**
 * ANLS* (Peer et al., 2024, "ANLS* – A Universal Document Processing Metric for Generative Large Language
 * Models"), following the reference implementation deepopinion/anls_star_metric: leaves score
 * 1 − NLD (0 below the threshold), objects by key union, lists by Hungarian matching on pairwise ANLS, and the
 * document score is Σ leaf scores / Σ pairwise lengths. Ground-truth alternatives (Python tuples) do not exist
 * in JSON and are not supported.
 *
 * Values are prepared once (normalised text, its length in code points, a JSON key for equality), because a
 * list of n text items costs n × m leaf comparisons.
 */
import type { Json } from '../../../../src/types.js';
import { checkUnit } from '../../../../src/score/shared/check-metric.js';
import { assignMaximum } from '../shared/assign.js';
import { countCodePointEdits, countCodePoints } from '../../../../src/score/shared/code-point-levenshtein.js';

/** @default 0.5, the threshold of ANLS since ST-VQA. */
export const ANLS_THRESHOLD = 0.5;

/** The reference's leaf normalisation: lowercase, trim, collapse whitespace. */
function normalizeLeaf(value: string | number | boolean): string {
  return String(value).trim().toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
}

function similarity(a: string, aLength: number, b: string, bLength: number, threshold: number): number {
  if (a === b) return 1;
  const length = Math.max(aLength, bLength);
  // The length gap is a lower bound on the distance: skip the distance when it already fails the threshold.
  if (1 - Math.abs(aLength - bLength) / length < threshold) return 0;
  const value = 1 - countCodePointEdits(a, b) / length;
  return value < threshold ? 0 : value;
}

/** ANLS of two scalars: 1 − NLD when that is ≥ threshold, else 0; two empty strings score 1. Higher is better. */
export function anlsLeaf(
  truth: string | number | boolean,
  prediction: string | number | boolean,
  threshold = ANLS_THRESHOLD,
): number {
  const a = normalizeLeaf(truth);
  const b = normalizeLeaf(prediction);
  return similarity(a, countCodePoints(a), b, countCodePoints(b), threshold);
}

type Node =
  | { kind: 'none'; length: 1; key: string; noneLike: true }
  | { kind: 'leaf'; length: 1; key: string; noneLike: boolean; text: string; codePoints: number; id: number }
  | { kind: 'list'; length: number; key: string; noneLike: boolean; items: Node[] }
  | {
      kind: 'dict';
      length: number;
      key: string;
      noneLike: boolean;
      keys: string[];
      values: Node[];
      entries: Map<string, Node>;
    };

const NONE: Node = { kind: 'none', length: 1, key: 'null', noneLike: true };

/** Texts interned to small integers, so the similarity memo is keyed by a number, not a concatenated string. */
type TextIds = Map<string, number>;

function prepare(value: Json | undefined, ids: TextIds): Node {
  if (value === undefined || value === null) return NONE;
  if (Array.isArray(value)) {
    const items = value.map((v) => prepare(v, ids));
    return {
      kind: 'list',
      items,
      length: items.reduce((s, n) => s + n.length, 0),
      key: JSON.stringify(value),
      noneLike: items.length === 0,
    };
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    const values = keys.map((k) => prepare(value[k], ids));
    const length = values.reduce((s, n) => s + n.length, 0);
    const entries = new Map(keys.map((k, i) => [k, values[i]!] as const));
    return { kind: 'dict', keys, values, entries, length, key: JSON.stringify(value), noneLike: keys.length === 0 };
  }
  const text = normalizeLeaf(value);
  let id = ids.get(text);
  if (id === undefined) {
    id = ids.size;
    ids.set(text, id);
  }
  return {
    kind: 'leaf',
    length: 1,
    key: JSON.stringify(value),
    noneLike: value === '',
    text,
    codePoints: countCodePoints(text),
    id,
  };
}

interface Partial {
  nls: number;
  length: number;
}

/** Threshold and a memo of leaf similarities by text-id pair: line items often repeat the same texts. */
interface Context {
  threshold: number;
  memo: Map<number, number>;
  texts: number;
}

function leafSimilarity(truth: Node & { kind: 'leaf' }, prediction: Node & { kind: 'leaf' }, context: Context): number {
  if (truth.id === prediction.id) return 1;
  const key = truth.id * context.texts + prediction.id;
  let value = context.memo.get(key);
  if (value === undefined) {
    value = similarity(truth.text, truth.codePoints, prediction.text, prediction.codePoints, context.threshold);
    context.memo.set(key, value);
  }
  return value;
}

function compare(truth: Node, prediction: Node, context: Context): Partial {
  switch (truth.kind) {
    case 'none':
      return { nls: prediction.noneLike ? 1 : 0, length: Math.max(1, prediction.length) };
    case 'leaf':
      return {
        nls: prediction.kind === 'leaf' ? leafSimilarity(truth, prediction, context) : 0,
        length: Math.max(1, prediction.length),
      };
    case 'list':
      if (prediction.kind !== 'list') return { nls: 0, length: Math.max(truth.length, prediction.length) };
      return compareLists(truth.items, prediction.items, context);
    case 'dict': {
      if (prediction.kind !== 'dict') return { nls: 0, length: Math.max(truth.length, prediction.length) };
      let nls = 0;
      let length = 0;
      for (let k = 0; k < truth.keys.length; k++) {
        const part = compare(truth.values[k]!, prediction.entries.get(truth.keys[k]!) ?? NONE, context);
        nls += part.nls;
        length += part.length;
      }
      for (let k = 0; k < prediction.keys.length; k++) {
        const predictedValue = prediction.values[k]!;
        // A key the truth lacks, predicted empty, is ignored (the paper's rule for hallucinated None keys).
        if (truth.entries.has(prediction.keys[k]!) || predictedValue.noneLike) continue;
        const part = compare(NONE, predictedValue, context);
        nls += part.nls;
        length += part.length;
      }
      return { nls, length };
    }
  }
}

function compareLists(truth: Node[], prediction: Node[], context: Context): Partial {
  const parts = truth.map((t) => prediction.map((p) => compare(t, p, context)));
  // Average per pair, nudged up for an exactly equal pair so ties resolve towards it (as the reference does).
  const weights = parts.map((row, i) =>
    row.map(
      (part, j) => (part.length > 0 ? part.nls / part.length : 1) + (truth[i]!.key === prediction[j]!.key ? 1e-9 : 0),
    ),
  );
  const pairs = assignMaximum(weights, prediction.length);
  let nls = 0;
  let length = 0;
  const usedTruth = new Set<number>();
  const usedPrediction = new Set<number>();
  for (const [i, j] of pairs) {
    nls += parts[i]![j]!.nls;
    length += parts[i]![j]!.length;
    usedTruth.add(i);
    usedPrediction.add(j);
  }
  for (const [i, t] of truth.entries()) if (!usedTruth.has(i)) length += t.length;
  for (const [j, p] of prediction.entries()) if (!usedPrediction.has(j)) length += p.length;
  return { nls, length };
}

/**
 * ANLS* of a prediction against the truth: in [0, 1], higher is better; 1 when both are empty structures.
 * @example anlsStar({ a: 'kitten' }, { a: 'sitting' }) // 1 − 3/7 ≈ 0.571
 */
export function anlsStar(truth: Json | undefined, prediction: Json | undefined, threshold = ANLS_THRESHOLD): number {
  const ids: TextIds = new Map();
  const truthTree = prepare(truth, ids);
  const predictedTree = prepare(prediction, ids);
  const { nls, length } = compare(truthTree, predictedTree, {
    threshold,
    memo: new Map(),
    texts: Math.max(1, ids.size),
  });
  return checkUnit('anls*', length === 0 ? 1 : nls / length);
}
