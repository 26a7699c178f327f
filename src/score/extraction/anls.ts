/**
 * ANLS* (Peer et al., 2024, "ANLS* – A Universal Document Processing Metric for Generative Large Language
 * Models"), following the reference implementation deepopinion/anls_star_metric: leaves score
 * 1 − NLD (0 below the threshold), objects by key union, lists by Hungarian matching on pairwise ANLS, and the
 * document score is Σ leaf scores / Σ pairwise lengths. Ground-truth alternatives (Python tuples) do not exist
 * in JSON and are not supported.
 *
 * Values are prepared once (normalised text, its length in code points, a number for its JSON text), because a
 * list of n text items costs n × m leaf comparisons.
 */
import type { Json } from '../../types.js';
import { checkUnit } from '../shared/check-metric.js';
import { assignMaximumPacked } from '../shared/assign.js';
import { countCodePointEdits, countCodePoints } from '../shared/code-point-levenshtein.js';

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

/** `key` numbers the value's JSON text (equal texts, equal numbers): exactly equal pairs are nudged up in lists. */
type Node =
  | { kind: 'none'; length: 1; key: number; noneLike: true }
  | { kind: 'leaf'; length: 1; key: number; noneLike: boolean; text: string; codePoints: number; id: number }
  | { kind: 'list'; length: number; key: number; noneLike: boolean; items: Node[] }
  | {
      kind: 'dict';
      length: number;
      key: number;
      noneLike: boolean;
      keys: string[];
      values: Node[];
      entries: Map<string, Node>;
    };

/** The JSON text `null` is number 0 (see `createInterning`). */
const NONE: Node = { kind: 'none', length: 1, key: 0, noneLike: true };

/**
 * Texts and JSON texts interned to small integers, so the similarity memo is keyed by a number, not a
 * concatenated string, and a list's n × m pairs compare numbers, not long JSON texts with a common prefix.
 */
interface Interning {
  texts: Map<string, number>;
  json: Map<string, number>;
}

function createInterning(): Interning {
  // `null` first: NONE's key, and also a NaN leaf's (JSON.stringify(NaN) is "null"), as when keys were texts.
  return { texts: new Map(), json: new Map([['null', 0]]) };
}

function internJson(value: Json, interning: Interning): number {
  const text = JSON.stringify(value);
  let id = interning.json.get(text);
  if (id === undefined) {
    id = interning.json.size;
    interning.json.set(text, id);
  }
  return id;
}

function prepare(value: Json | undefined, interning: Interning): Node {
  if (value === undefined || value === null) return NONE;
  if (Array.isArray(value)) {
    const items = value.map((v) => prepare(v, interning));
    return {
      kind: 'list',
      items,
      length: items.reduce((s, n) => s + n.length, 0),
      key: internJson(value, interning),
      noneLike: items.length === 0,
    };
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    const values = keys.map((k) => prepare(value[k], interning));
    const length = values.reduce((s, n) => s + n.length, 0);
    const entries = new Map(keys.map((k, i) => [k, values[i]!] as const));
    return {
      kind: 'dict',
      keys,
      values,
      entries,
      length,
      key: internJson(value, interning),
      noneLike: keys.length === 0,
    };
  }
  const text = normalizeLeaf(value);
  let id = interning.texts.get(text);
  if (id === undefined) {
    id = interning.texts.size;
    interning.texts.set(text, id);
  }
  return {
    kind: 'leaf',
    length: 1,
    key: internJson(value, interning),
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
  const n = truth.length;
  const m = prediction.length;
  const pairNls = new Float64Array(n * m);
  const pairLength = new Float64Array(n * m);
  if (n > 0 && m > 0 && truth.every(isFlatDict) && prediction.every(isFlatDict)) {
    compareFlatDicts(truth as FlatDict[], prediction as FlatDict[], context, pairNls, pairLength);
  } else {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        const part = compare(truth[i]!, prediction[j]!, context);
        pairNls[i * m + j] = part.nls;
        pairLength[i * m + j] = part.length;
      }
    }
  }
  // Average per pair, nudged up for an exactly equal pair so ties resolve towards it (as the reference does).
  const weights = new Float64Array(n * m);
  const predictedKeys = Int32Array.from(prediction, (node) => node.key);
  for (let i = 0; i < n; i++) {
    const truthKey = truth[i]!.key;
    for (let j = 0; j < m; j++) {
      const k = i * m + j;
      weights[k] = (pairLength[k]! > 0 ? pairNls[k]! / pairLength[k]! : 1) + (truthKey === predictedKeys[j] ? 1e-9 : 0);
    }
  }
  const pairs = assignMaximumPacked(weights, n, m);
  let nls = 0;
  let length = 0;
  const usedTruth = new Uint8Array(n);
  const usedPrediction = new Uint8Array(m);
  for (const [i, j] of pairs) {
    nls += pairNls[i * m + j]!;
    length += pairLength[i * m + j]!;
    usedTruth[i] = 1;
    usedPrediction[j] = 1;
  }
  for (let i = 0; i < n; i++) if (!usedTruth[i]) length += truth[i]!.length;
  for (let j = 0; j < m; j++) if (!usedPrediction[j]) length += prediction[j]!.length;
  return { nls, length };
}

type FlatDict = Node & { kind: 'dict'; values: (Node & { kind: 'none' | 'leaf' })[] };

/** A dict of scalars (no nested list or dict): a line item's free-text projection. */
function isFlatDict(node: Node): node is FlatDict {
  return node.kind === 'dict' && node.values.every((value) => value.kind === 'leaf' || value.kind === 'none');
}

/**
 * `compare` for every pair of two lists of flat dicts, without a call or an allocation per pair: the keys are
 * numbered once, and each pair reads the predicted value of each truth key from a table. The sum runs over the
 * truth's keys in their order, as in `compare`, so every pair's figure is the same double.
 */
function compareFlatDicts(
  truth: FlatDict[],
  prediction: FlatDict[],
  context: Context,
  pairNls: Float64Array,
  pairLength: Float64Array,
): void {
  const m = prediction.length;
  const slots = new Map<string, number>();
  const slotOf = (key: string) => {
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = slots.size;
      slots.set(key, slot);
    }
    return slot;
  };
  const truthSlots = truth.map((dict) => dict.keys.map(slotOf));
  const predictedSlots = prediction.map((dict) => dict.keys.map(slotOf));
  // predictedValue[slot · m + j]: prediction j's value under that key, or undefined when it lacks the key.
  const predictedValue: (FlatDict['values'][number] | undefined)[] = new Array(slots.size * m).fill(undefined);
  // Keys of prediction j that count against any truth lacking them: those with a value (the others are ignored).
  const predictedCounted = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    const values = prediction[j]!.values;
    predictedSlots[j]!.forEach((slot, k) => {
      predictedValue[slot * m + j] = values[k]!;
      if (!values[k]!.noneLike) predictedCounted[j]!++;
    });
  }
  for (let i = 0; i < truth.length; i++) {
    const keys = truthSlots[i]!;
    const values = truth[i]!.values;
    for (let j = 0; j < m; j++) {
      let nls = 0;
      let shared = 0;
      for (let k = 0; k < keys.length; k++) {
        const value = values[k]!;
        const predicted = predictedValue[keys[k]! * m + j];
        if (predicted !== undefined && !predicted.noneLike) shared++;
        // compare(): a missing key is NONE; none against none-like scores 1, leaf against leaf its similarity.
        if (value.kind === 'none') {
          if (predicted === undefined || predicted.noneLike) nls += 1;
        } else if (predicted !== undefined && predicted.kind === 'leaf') {
          nls += leafSimilarity(value, predicted, context);
        }
      }
      // Each truth key adds length 1 (scalars have length 1); so does each counted predicted key the truth lacks.
      pairNls[i * m + j] = nls;
      pairLength[i * m + j] = keys.length + predictedCounted[j]! - shared;
    }
  }
}

/**
 * ANLS* of a prediction against the truth: in [0, 1], higher is better; 1 when both are empty structures.
 * @example anlsStar({ a: 'kitten' }, { a: 'sitting' }) // 1 − 3/7 ≈ 0.571
 */
export function anlsStar(truth: Json | undefined, prediction: Json | undefined, threshold = ANLS_THRESHOLD): number {
  const interning = createInterning();
  const truthTree = prepare(truth, interning);
  const predictedTree = prepare(prediction, interning);
  const { nls, length } = compare(truthTree, predictedTree, {
    threshold,
    memo: new Map(),
    texts: Math.max(1, interning.texts.size),
  });
  return checkUnit('anls*', length === 0 ? 1 : nls / length);
}
