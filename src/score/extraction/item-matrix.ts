/**
 * The pair matrices of line-item matching (equal leaves, exactly-equal pairs, strictly-equal leaves for every
 * truth item × predicted item), filled without walking each pair's trees.
 *
 * Every item is split once into slots — one per key of the array's items (the union over both sides), or the
 * item itself when the items are not all objects. A pair's counts are sums over slots, so each slot is scored
 * for all n × m pairs in one tight loop:
 * - a scalar slot compares small integers: each leaf's canonical value is interned per slot (parsed form and
 *   string form separately, because a comparator compares the texts when either side did not parse — so
 *   "equal" is not transitive and one id per value would be wrong), and its raw value with its type for the
 *   strict pass. `comparator.equal` runs only for two different parsed values (money within its tolerance), at
 *   most once per distinct pair;
 * - any other slot (nested objects, nested lists, shapes that differ) is scored by the caller's tree walk, once
 *   per distinct pair of sub-trees: sub-trees are interned by a key that captures all the walk reads.
 * The counts are the ones the walk would give item by item: the oracle test (test/score/extraction-oracle.test.ts)
 * holds this to the letter.
 */
import type { Canonical, Comparator, Scalar } from '../normalize/index.js';
import type { ArrayNode, ScalarNode, TreeNode } from './prepare.js';

/** The counts of one pair, as the tree walk reports them. */
export interface PairCounts {
  /** Leaves equal in the normalised pass. */
  equal: number;
  /** Leaves strictly equal. */
  strict: number;
  /** Any FP or FN inside the pair. */
  mismatch: boolean;
}

/** Scores two sub-trees (either may be absent) with the full tree walk, counts only. */
export type CountPair = (truth: TreeNode | undefined, prediction: TreeNode | undefined) => PairCounts;

/** Row-major n × m matrices (truth item i, predicted item j at i·m + j). */
export interface ItemMatrices {
  equal: Int32Array;
  /** 1 when the pair has no FP and no FN; always 0 for lists of scalars (no "exact item" there). */
  exact: Uint8Array;
  strict: Int32Array;
}

type Items = ArrayNode['items'];

/**
 * The most pairs of distinct values (or sub-trees) per slot whose comparisons are memoised. A memo pays when
 * values repeat (codes, dates, units); with more distinct values than this allows, they rarely do.
 */
const MEMO_LIMIT = 1 << 12;

/**
 * Fills the matrices of `scoreArray`'s assignment. `structured` is the array's flag: for a list of scalars the
 * items themselves are compared and no pair is "exact".
 */
export function fillItemMatrices(
  truthItems: Items,
  predictedItems: Items,
  structured: boolean,
  countPair: CountPair,
): ItemMatrices {
  const n = truthItems.length;
  const m = predictedItems.length;
  const matrices: ItemMatrices = {
    equal: new Int32Array(n * m),
    exact: new Uint8Array(n * m),
    strict: new Int32Array(n * m),
  };
  const mismatch = new Uint8Array(n * m);
  const truthValues = truthItems.map((item) => item.node);
  const predictedValues = predictedItems.map((item) => item.node);
  const allObjects =
    structured &&
    truthValues.every((node) => node.kind === 'object') &&
    predictedValues.every((node) => node.kind === 'object');
  if (allObjects) {
    for (const key of collectKeys(truthValues, predictedValues)) {
      const slot = (node: TreeNode) => {
        const child = node.kind === 'object' ? node.children.get(key) : undefined;
        return child === undefined || child.kind === 'empty' ? undefined : child;
      };
      fillSlot(truthValues.map(slot), predictedValues.map(slot), matrices, mismatch, countPair);
    }
  } else {
    fillSlot(truthValues, predictedValues, matrices, mismatch, countPair);
  }
  if (structured) for (let k = 0; k < n * m; k++) matrices.exact[k] = mismatch[k] ? 0 : 1;
  return matrices;
}

/** The union of the items' keys; order does not matter (a pair's counts are sums over keys). */
function collectKeys(truthValues: TreeNode[], predictedValues: TreeNode[]): Set<string> {
  const keys = new Set<string>();
  for (const node of truthValues) if (node.kind === 'object') for (const key of node.keys) keys.add(key);
  for (const node of predictedValues) if (node.kind === 'object') for (const key of node.keys) keys.add(key);
  return keys;
}

/** Adds one slot's counts to every pair. `undefined` is an absent or empty value. */
function fillSlot(
  truth: (TreeNode | undefined)[],
  predicted: (TreeNode | undefined)[],
  matrices: ItemMatrices,
  mismatch: Uint8Array,
  countPair: CountPair,
): void {
  const comparator = sharedComparator(truth, predicted);
  if (comparator)
    fillScalarSlot(
      truth as (ScalarNode | undefined)[],
      predicted as (ScalarNode | undefined)[],
      comparator,
      matrices,
      mismatch,
    );
  else fillTreeSlot(truth, predicted, matrices, mismatch, countPair);
}

/** The one comparator of a slot whose every value is a scalar (or absent); null for any other slot. */
function sharedComparator(truth: (TreeNode | undefined)[], predicted: (TreeNode | undefined)[]): Comparator | null {
  let comparator: Comparator | null = null;
  for (const values of [truth, predicted]) {
    for (const node of values) {
      if (node === undefined) continue;
      // Scalars at one collapsed path share their comparator (one per path and document); anything else, or a
      // second comparator, takes the general path below.
      if (node.kind !== 'scalar' || (comparator !== null && node.comparator !== comparator)) return null;
      comparator = node.comparator;
    }
  }
  return comparator;
}

/** Interned forms of one scalar slot: parsed, text and raw ids per value (-1 = absent or did not parse). */
interface ScalarIds {
  parsed: Int32Array;
  text: Int32Array;
  raw: Int32Array;
}

interface Interner {
  parsedIds: Map<string | boolean, number>;
  /** A canonical value per parsed id, for `comparator.equal` on two different parsed values. */
  parsedCanon: Canonical[];
  textIds: Map<string, number>;
  rawIds: Map<Scalar, number>;
  rawCount: number;
}

/** A Map key equal for two parsed values exactly when they are the same value (decimals are normalised). */
function parsedKey(parsed: NonNullable<Canonical['parsed']>): string | boolean {
  if (typeof parsed === 'object') return `${parsed.coef}e-${parsed.scale}`;
  return typeof parsed === 'string' ? `s${parsed}` : parsed;
}

function internScalars(values: (ScalarNode | undefined)[], interner: Interner): ScalarIds {
  const ids: ScalarIds = {
    parsed: new Int32Array(values.length),
    text: new Int32Array(values.length),
    raw: new Int32Array(values.length),
  };
  for (let k = 0; k < values.length; k++) {
    const node = values[k];
    if (node === undefined) {
      ids.parsed[k] = ids.text[k] = ids.raw[k] = -1;
      continue;
    }
    const { parsed, text } = node.canon;
    if (parsed === null) ids.parsed[k] = -1;
    else {
      const key = parsedKey(parsed);
      let id = interner.parsedIds.get(key);
      if (id === undefined) {
        id = interner.parsedIds.size;
        interner.parsedIds.set(key, id);
        interner.parsedCanon.push(node.canon);
      }
      ids.parsed[k] = id;
    }
    let textId = interner.textIds.get(text);
    if (textId === undefined) {
      textId = interner.textIds.size;
      interner.textIds.set(text, textId);
    }
    ids.text[k] = textId;
    // Strict equality is `typeof a === typeof b && a === b`: a Map keyed by the raw value gives exactly that
    // (its keys are typed and 0 is -0), except NaN, which equals nothing, not even itself.
    const raw = node.raw;
    let rawId = Number.isNaN(raw) ? undefined : interner.rawIds.get(raw);
    if (rawId === undefined) {
      rawId = interner.rawCount++;
      if (!Number.isNaN(raw)) interner.rawIds.set(raw, rawId);
    }
    ids.raw[k] = rawId;
  }
  return ids;
}

function fillScalarSlot(
  truth: (ScalarNode | undefined)[],
  predicted: (ScalarNode | undefined)[],
  comparator: Comparator,
  { equal, strict }: ItemMatrices,
  mismatch: Uint8Array,
): void {
  const interner: Interner = {
    parsedIds: new Map(),
    parsedCanon: [],
    textIds: new Map(),
    rawIds: new Map(),
    rawCount: 0,
  };
  const t = internScalars(truth, interner);
  const p = internScalars(predicted, interner);
  const parsedCount = interner.parsedIds.size;
  const canon = interner.parsedCanon;
  // equal() of two different parsed values, memoised: 0 unknown, 1 equal, 2 not equal.
  const memo = parsedCount * parsedCount <= MEMO_LIMIT ? new Uint8Array(parsedCount * parsedCount) : null;
  const n = truth.length;
  const m = predicted.length;
  for (let i = 0; i < n; i++) {
    const row = i * m;
    if (truth[i] === undefined) {
      for (let j = 0; j < m; j++) if (predicted[j] !== undefined) mismatch[row + j] = 1;
      continue;
    }
    const tParsed = t.parsed[i]!;
    const tText = t.text[i]!;
    const tRaw = t.raw[i]!;
    for (let j = 0; j < m; j++) {
      const pText = p.text[j]!;
      if (pText < 0) {
        mismatch[row + j] = 1;
        continue;
      }
      const pParsed = p.parsed[j]!;
      let same: boolean;
      if (tParsed >= 0 && pParsed >= 0) {
        if (tParsed === pParsed) same = true;
        else if (memo) {
          const at = tParsed * parsedCount + pParsed;
          if (memo[at] === 0) memo[at] = comparator.equal(canon[tParsed]!, canon[pParsed]!) ? 1 : 2;
          same = memo[at] === 1;
        } else same = comparator.equal(canon[tParsed]!, canon[pParsed]!);
      } else same = tText === pText;
      if (same) equal[row + j]!++;
      else mismatch[row + j] = 1;
      if (tRaw === p.raw[j]) strict[row + j]!++;
    }
  }
}

/**
 * A slot holding nested objects or lists (or shapes that differ): the tree walk scores each distinct pair of
 * sub-trees once. Two sub-trees with the same key score alike against anything.
 */
function fillTreeSlot(
  truth: (TreeNode | undefined)[],
  predicted: (TreeNode | undefined)[],
  { equal, strict }: ItemMatrices,
  mismatch: Uint8Array,
  countPair: CountPair,
): void {
  const keyIds = new Map<string, number>();
  const comparatorIds = new Map<Comparator, number>();
  const representative: (TreeNode | undefined)[] = [undefined];
  // Id 0 is the absent value.
  const intern = (node: TreeNode | undefined): number => {
    if (node === undefined) return 0;
    const key = structureKey(node, comparatorIds);
    let id = keyIds.get(key);
    if (id === undefined) {
      id = representative.length;
      keyIds.set(key, id);
      representative.push(node);
    }
    return id;
  };
  const t = truth.map(intern);
  const p = predicted.map(intern);
  const ids = representative.length;
  const memo = new Set(t).size * new Set(p).size <= MEMO_LIMIT ? new Map<number, PairCounts>() : null;
  const m = predicted.length;
  for (let i = 0; i < truth.length; i++) {
    const row = i * m;
    for (let j = 0; j < m; j++) {
      if (t[i] === 0 && p[j] === 0) continue;
      const at = t[i]! * ids + p[j]!;
      let counts = memo?.get(at);
      if (counts === undefined) {
        counts = countPair(representative[t[i]!], representative[p[j]!]);
        // countPair reuses its result object: keep a copy.
        if (memo) memo.set(at, { equal: counts.equal, strict: counts.strict, mismatch: counts.mismatch });
      }
      equal[row + j]! += counts.equal;
      strict[row + j]! += counts.strict;
      if (counts.mismatch) mismatch[row + j] = 1;
    }
  }
}

/**
 * A text that is the same for two sub-trees exactly when the count-only tree walk cannot tell them apart: kinds,
 * keys, list indices (they break ties), and for each scalar its comparator, type and value (its canonical form
 * is a function of those). Empty nodes are all alike to the walk.
 */
function structureKey(node: TreeNode, comparatorIds: Map<Comparator, number>): string {
  switch (node.kind) {
    case 'empty':
      return 'e';
    case 'scalar': {
      let id = comparatorIds.get(node.comparator);
      if (id === undefined) {
        id = comparatorIds.size;
        comparatorIds.set(node.comparator, id);
      }
      // String(-0) is "0" and 0 === -0, so the two are rightly one value; NaN behaves alike wherever it is.
      return `s${id}${typeof node.raw}${JSON.stringify(String(node.raw))}`;
    }
    case 'object':
      return `{${node.keys.map((key) => `${JSON.stringify(key)}:${structureKey(node.children.get(key)!, comparatorIds)}`).join(',')}}`;
    case 'array':
      return `[${node.structured ? 'S' : 'U'}${node.items.map((item) => `${item.index}:${structureKey(item.node, comparatorIds)}`).join(',')}]`;
  }
}
