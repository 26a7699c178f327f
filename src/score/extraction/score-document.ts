/**
 * Field-F1 of one document (docs/metrics/extraction.md): micro P/R/F1 over leaf fields after DocILE-style line-item
 * matching, in a normalised and a strict pass over the same pairs, with a verdict per field.
 */
import type { Json, JsonObject } from '../../types.js';
import { assignMaximumPacked } from '../shared/assign.js';
import { anlsLeaf, anlsStar, ANLS_THRESHOLD } from './anls.js';
import {
  collectValueTypes,
  isPlainObject,
  prepareTree,
  type ArrayNode,
  type PrepareContext,
  type ObjectNode,
  type ScalarNode,
  type TreeNode,
} from './prepare.js';
import { fillItemMatrices, type PairCounts } from './item-matrix.js';
import { computePrf } from './ratios.js';
import { ComparatorTable, type ValueType } from './resolve-comparator.js';
import type { SchemaNode } from './schema.js';
import { indexWords, locateValue } from './locate-value.js';
import { createComparator } from '../normalize/index.js';
import { lazy } from '../../lazy.js';
import type {
  ExtractionScore,
  FieldError,
  FieldResult,
  MissCounts,
  NormalizationRecord,
  ScoreExtractionOptions,
  Verdict,
} from './types.js';

/** Default minimum length (code points) of a `string` truth value for its field to count as free text. */
export const LONG_TEXT_MIN_LENGTH = 40;

interface Tally {
  tp: number;
  fp: number;
  fn: number;
  stp: number;
  sfp: number;
  sfn: number;
  itemsTruth: number;
  itemsPredicted: number;
  itemsExact: number;
  countError: number;
}

interface Walk {
  tally: Tally;
  /** Field results are collected on the real pass only; the Hungarian matrix is filled with `fields: null`. */
  fields: FieldResult[] | null;
  textPaths: ReadonlySet<string>;
  anlsThreshold: number;
}

/** Where a pair sits: truth path, prediction path, collapsed path (all '' while filling the matrix). */
interface Location {
  t: string;
  p: string;
  c: string;
}

const NOWHERE: Location = { t: '', p: '', c: '' };

function newTally(): Tally {
  return {
    tp: 0,
    fp: 0,
    fn: 0,
    stp: 0,
    sfp: 0,
    sfn: 0,
    itemsTruth: 0,
    itemsPredicted: 0,
    itemsExact: 0,
    countError: 0,
  };
}

function resetTally(tally: Tally): void {
  tally.tp = tally.fp = tally.fn = tally.stp = tally.sfp = tally.sfn = 0;
  tally.itemsTruth = tally.itemsPredicted = tally.itemsExact = tally.countError = 0;
}

function isEmpty(node: TreeNode | undefined): boolean {
  return node === undefined || node.kind === 'empty';
}

function keyLocation(loc: Location, key: string, walk: Walk): Location {
  if (!walk.fields) return NOWHERE;
  const join = (base: string) => (base ? `${base}.${key}` : key);
  return { t: join(loc.t), p: join(loc.p), c: join(loc.c) };
}

function pushField(
  walk: Walk,
  loc: Location,
  t: TreeNode | undefined,
  p: TreeNode | undefined,
  result: Omit<FieldResult, 'path' | 'collapsedPath'>,
): void {
  const field: FieldResult = { path: t ? loc.t : loc.p, collapsedPath: loc.c, ...result };
  if (t && p && loc.p !== loc.t) field.predictionPath = loc.p;
  if (t) field.truth = t.raw;
  if (p) field.prediction = p.raw;
  walk.fields!.push(field);
}

/** Scores a truth node against a prediction node; either may be absent. */
function scorePair(
  t: TreeNode | undefined,
  p: TreeNode | undefined,
  loc: Location,
  walk: Walk,
  force?: FieldError,
): void {
  const tEmpty = isEmpty(t);
  const pEmpty = isEmpty(p);
  if (tEmpty && pEmpty) {
    if (walk.fields && (t || p)) pushField(walk, loc, t, p, { verdict: 'tn', strictVerdict: 'tn' });
    return;
  }
  const tKind = tEmpty ? null : t!.kind;
  const pKind = pEmpty ? null : p!.kind;
  const tValue = tEmpty ? undefined : t;
  const pValue = pEmpty ? undefined : p;
  if ((tKind ?? 'object') === 'object' && (pKind ?? 'object') === 'object') {
    scoreObject(tValue as ObjectNode | undefined, pValue as ObjectNode | undefined, loc, walk, force);
  } else if ((tKind ?? 'array') === 'array' && (pKind ?? 'array') === 'array') {
    scoreArray(tValue as ArrayNode | undefined, pValue as ArrayNode | undefined, loc, walk, force);
  } else if ((tKind ?? 'scalar') === 'scalar' && (pKind ?? 'scalar') === 'scalar') {
    scoreLeaf(tValue as ScalarNode | undefined, pValue as ScalarNode | undefined, loc, walk, force);
  } else {
    // Different shapes (object vs scalar, list vs scalar…): every truth leaf is an FN and every predicted leaf
    // an FP, all classed as wrong values since both sides did answer.
    scorePair(t, undefined, loc, walk, 'wrong_value');
    scorePair(undefined, p, loc, walk, 'wrong_value');
  }
}

function scoreObject(
  t: ObjectNode | undefined,
  p: ObjectNode | undefined,
  loc: Location,
  walk: Walk,
  force?: FieldError,
): void {
  for (const key of t?.keys ?? [])
    scorePair(t!.children.get(key), p?.children.get(key), keyLocation(loc, key, walk), walk, force);
  for (const key of p?.keys ?? []) {
    if (!t?.children.has(key)) scorePair(undefined, p!.children.get(key), keyLocation(loc, key, walk), walk, force);
  }
}

function scoreLeaf(
  t: ScalarNode | undefined,
  p: ScalarNode | undefined,
  loc: Location,
  walk: Walk,
  force?: FieldError,
): void {
  const tally = walk.tally;
  let verdict: Verdict;
  let strictVerdict: Verdict;
  let error: FieldError | undefined;
  if (t && p) {
    const equal = t.comparator.equal(t.canon, p.canon);
    const strictEqual = typeof t.raw === typeof p.raw && t.raw === p.raw;
    if (equal) tally.tp++;
    else {
      tally.fp++;
      tally.fn++;
    }
    if (strictEqual) tally.stp++;
    else {
      tally.sfp++;
      tally.sfn++;
    }
    verdict = equal ? 'tp' : 'fp+fn';
    strictVerdict = strictEqual ? 'tp' : 'fp+fn';
    error = !equal ? 'wrong_value' : !strictEqual ? 'format_only' : undefined;
  } else if (t) {
    tally.fn++;
    tally.sfn++;
    verdict = strictVerdict = 'fn';
    error = force ?? 'missing';
  } else {
    tally.fp++;
    tally.sfp++;
    verdict = strictVerdict = 'fp';
    error = force ?? 'hallucinated';
  }
  if (!walk.fields) return;
  const node = (t ?? p)!;
  const result: Omit<FieldResult, 'path' | 'collapsedPath'> = {
    verdict,
    strictVerdict,
    comparator: node.comparator.type,
  };
  if (error) result.error = error;
  if (walk.textPaths.has(node.collapsedPath)) result.anls = t && p ? anlsLeaf(t.raw, p.raw, walk.anlsThreshold) : 0;
  pushField(walk, loc, t, p, result);
}

/**
 * Arrays: one-to-one assignment maximising the number of equal leaves (Hungarian), then fields scored inside
 * matched pairs only — never across items (see matchItems for how ties are broken).
 * A pair with no equal leaf is not a match: its truth item is missing and its predicted item hallucinated.
 */
function scoreArray(
  t: ArrayNode | undefined,
  p: ArrayNode | undefined,
  loc: Location,
  walk: Walk,
  force?: FieldError,
): void {
  const truthItems = t?.items ?? [];
  const predictedItems = p?.items ?? [];
  const structured = (t?.structured ?? false) || (p?.structured ?? false);
  const tally = walk.tally;
  if (structured) {
    tally.itemsTruth += truthItems.length;
    tally.itemsPredicted += predictedItems.length;
    tally.countError += Math.abs(truthItems.length - predictedItems.length);
  }
  if (!walk.fields) {
    countArray(truthItems, predictedItems, structured, walk);
    return;
  }
  const matchOf = new Map<number, number>();
  if (truthItems.length > 0 && predictedItems.length > 0) {
    for (const [i, j] of matchItems(truthItems, predictedItems, structured, walk)) matchOf.set(i, j);
  }
  const matchedPredictions = new Set(matchOf.values());
  const at = (base: string, index: number) => (walk.fields ? `${base}[${index}]` : '');
  const collapsed = walk.fields ? `${loc.c}[]` : '';
  truthItems.forEach((truthItem, i) => {
    const j = matchOf.get(i);
    if (j === undefined) {
      scorePair(truthItem.node, undefined, { t: at(loc.t, truthItem.index), p: '', c: collapsed }, walk, force);
      return;
    }
    const predictedItem = predictedItems[j]!;
    const before = tally.fp + tally.fn;
    scorePair(
      truthItem.node,
      predictedItem.node,
      { t: at(loc.t, truthItem.index), p: at(loc.p, predictedItem.index), c: collapsed },
      walk,
      force,
    );
    if (structured && tally.fp + tally.fn === before) tally.itemsExact++;
  });
  predictedItems.forEach((predictedItem, j) => {
    if (!matchedPredictions.has(j))
      scorePair(undefined, predictedItem.node, { t: '', p: at(loc.p, predictedItem.index), c: collapsed }, walk, force);
  });
}

/** scoreArray while filling a Hungarian matrix: counts only, no paths, no per-call closures. */
function countArray(
  truthItems: ArrayNode['items'],
  predictedItems: ArrayNode['items'],
  structured: boolean,
  walk: Walk,
): void {
  const tally = walk.tally;
  const truthMatched = new Uint8Array(truthItems.length);
  const predictedMatched = new Uint8Array(predictedItems.length);
  if (truthItems.length > 0 && predictedItems.length > 0) {
    for (const [i, j] of matchItems(truthItems, predictedItems, structured, walk)) {
      truthMatched[i] = 1;
      predictedMatched[j] = 1;
      const before = tally.fp + tally.fn;
      scorePair(truthItems[i]!.node, predictedItems[j]!.node, NOWHERE, walk);
      if (structured && tally.fp + tally.fn === before) tally.itemsExact++;
    }
  }
  for (let i = 0; i < truthItems.length; i++)
    if (!truthMatched[i]) scorePair(truthItems[i]!.node, undefined, NOWHERE, walk);
  for (let j = 0; j < predictedItems.length; j++)
    if (!predictedMatched[j]) scorePair(undefined, predictedItems[j]!.node, NOWHERE, walk);
}

/**
 * The Hungarian assignment of truth items to predicted items, keeping only pairs with an equal leaf. The
 * objective is lexicographic, folded into one integer weight: most equal leaves (the objective of docs/metrics/extraction.md),
 * then most exactly-equal items, then most strictly-equal leaves, then items kept at the same index. The lower
 * levels only break ties, so counts, exact items and strict counts are all independent of item order.
 */
function matchItems(
  truthItems: ArrayNode['items'],
  predictedItems: ArrayNode['items'],
  structured: boolean,
  walk: Walk,
): [number, number][] {
  const n = truthItems.length;
  const m = predictedItems.length;
  const scratch: Walk = {
    tally: newTally(),
    fields: null,
    textPaths: walk.textPaths,
    anlsThreshold: walk.anlsThreshold,
  };
  const counts: PairCounts = { equal: 0, strict: 0, mismatch: false };
  const countPair = (a: TreeNode | undefined, b: TreeNode | undefined): PairCounts => {
    resetTally(scratch.tally);
    scorePair(a, b, NOWHERE, scratch);
    counts.equal = scratch.tally.tp;
    counts.strict = scratch.tally.stp;
    counts.mismatch = scratch.tally.fp !== 0 || scratch.tally.fn !== 0;
    return counts;
  };
  const { equal, exact, strict } = fillItemMatrices(truthItems, predictedItems, structured, countPair);
  // Each level's weight exceeds the largest total the levels below it can reach.
  const pairsBound = Math.min(n, m);
  let strictBound = 0;
  for (let i = 0; i < n; i++) {
    let best = -Infinity;
    for (let j = 0; j < m; j++) best = Math.max(best, strict[i * m + j]!);
    strictBound += best;
  }
  const strictWeight = pairsBound + 1;
  const exactWeight = strictBound * strictWeight + pairsBound + 1;
  const equalWeight = pairsBound * exactWeight + exactWeight;
  const weights = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    const truthIndex = truthItems[i]!.index;
    for (let j = 0; j < m; j++) {
      const k = i * m + j;
      weights[k] =
        equal[k]! * equalWeight +
        exact[k]! * exactWeight +
        strict[k]! * strictWeight +
        (truthIndex === predictedItems[j]!.index ? 1 : 0);
    }
  }
  return assignBest(weights, n, m).filter(([i, j]) => equal[i * m + j]! > 0);
}

/** A single row or column needs no Hungarian run: the best pair (the first, on a tie) is the answer. */
function assignBest(weights: Float64Array, rows: number, columns: number): [number, number][] {
  if (rows === 1 || columns === 1) {
    let best = 0;
    for (let k = 1; k < rows * columns; k++) if (weights[k]! > weights[best]!) best = k;
    return rows === 1 ? [[0, best]] : [[best, 0]];
  }
  return assignMaximumPacked(weights, rows, columns);
}

/** Keeps only free-text leaves, for ANLS*. */
function projectText(node: TreeNode | undefined, textPaths: ReadonlySet<string>): Json | undefined {
  if (!node || node.kind === 'empty') return undefined;
  if (node.kind === 'scalar') return textPaths.has(node.collapsedPath) ? node.raw : undefined;
  if (node.kind === 'array') {
    const items = node.items.map((item) => projectText(item.node, textPaths)).filter((v): v is Json => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  const entries: [string, Json][] = [];
  for (const key of node.keys) {
    const child = projectText(node.children.get(key), textPaths);
    if (child !== undefined) entries.push([key, child]);
  }
  // fromEntries defines own properties, so a key named `__proto__` stays data.
  return entries.length > 0 ? (Object.fromEntries(entries) as JsonObject) : undefined;
}

/**
 * Scores one predicted JSON against its truth (docs/metrics/extraction.md, docs/metrics/extraction.md).
 *
 * Direction: higher is better for precision, recall, F1 and ANLS*; `items.countError` is lower-is-better.
 * Edge cases: truth `{}` and prediction `{}` → P = R = F1 = 1 and exactMatch; a failed call or unparseable
 * output (`parseFailure: true`, `prediction === undefined`, or a non-object prediction for an object truth)
 * is scored as `{}` — every truth leaf FN — and flagged `parseFailure`.
 *
 * @example
 * scoreExtraction({ name: 'John Smith', total: 125.5 }, { name: 'John Smith', total: '125.50' })
 * // → tp 2, fp 0, fn 0, f1 1; strict: tp 1, fp 1, fn 1, f1 0.5
 */
export function scoreExtraction(
  truth: Json,
  prediction: Json | undefined,
  options: ScoreExtractionOptions = {},
): ExtractionScore {
  const parseFailure =
    options.parseFailure === true ||
    prediction === undefined ||
    (isPlainObject(truth) && prediction !== null && !isPlainObject(prediction));
  const predicted: Json = parseFailure ? {} : (prediction as Json);
  const schemaRoot: SchemaNode = options.schema ?? {};
  const rootSchema = options.schema;

  const valueTypes = new Map<string, ValueType>();
  const longestText = new Map<string, number>();
  collectValueTypes(truth, '', valueTypes, longestText);
  collectValueTypes(predicted, '', valueTypes);
  const table = new ComparatorTable({
    comparators: options.comparators ?? {},
    schemaRoot,
    locale: options.locale ?? 'US',
    valueTypes,
  });
  const unexpectedKeys = new Set<string>();
  const context: PrepareContext = {
    table,
    schemaRoot,
    ignoreExtraKeys: (options.extraKeys ?? 'ignore') === 'ignore' && rootSchema !== undefined,
    unexpectedKeys,
    canonical: new Map(),
  };
  const truthTree = prepareTree(truth, '', '', rootSchema, context);
  const predictedTree = prepareTree(predicted, '', '', rootSchema, context);

  const minLength = options.longTextMinLength ?? LONG_TEXT_MIN_LENGTH;
  const textPaths = new Set<string>();
  const normalizationEntries: [string, NormalizationRecord][] = [];
  for (const [path, { comparator, source }] of [...table.resolved].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    normalizationEntries.push([path, { comparator: comparator.type, source, steps: comparator.steps }]);
    if (comparator.type === 'text' || (comparator.type === 'string' && (longestText.get(path) ?? 0) >= minLength))
      textPaths.add(path);
  }

  const normalization = Object.fromEntries(normalizationEntries) as Record<string, NormalizationRecord>;
  const anlsThreshold = options.anlsThreshold ?? ANLS_THRESHOLD;
  const walk: Walk = { tally: newTally(), fields: [], textPaths, anlsThreshold };
  scorePair(truthTree, predictedTree, NOWHERE, walk);
  const tally = walk.tally;

  let anls: number | null = null;
  if (textPaths.size > 0) {
    const truthText = projectText(truthTree, textPaths);
    const predictedText = projectText(predictedTree, textPaths);
    if (truthText !== undefined || predictedText !== undefined)
      anls = anlsStar(truthText ?? {}, predictedText ?? {}, anlsThreshold);
  }

  const misses = options.text ? attributeMisses(walk.fields!, options.text, table) : null;
  const normalized = computePrf({ tp: tally.tp, fp: tally.fp, fn: tally.fn });
  const strict = computePrf({ tp: tally.stp, fp: tally.sfp, fn: tally.sfn }, 'extraction strict');
  return {
    ...normalized,
    strict: { ...strict, exactMatch: strict.fp === 0 && strict.fn === 0 },
    exactMatch: normalized.fp === 0 && normalized.fn === 0,
    parseFailure,
    fields: walk.fields!,
    items: {
      truth: tally.itemsTruth,
      predicted: tally.itemsPredicted,
      exact: tally.itemsExact,
      countError: tally.countError,
    },
    anls,
    unexpectedKeys: [...unexpectedKeys].sort(),
    normalization,
    misses,
  };
}

/**
 * Marks each miss (the FN side: `fn`, `fp+fn`) `in_text` when its truth value is in the system's markdown as
 * the field's comparator reads it, else `not_in_text` (docs/metrics/extraction.md "Reading or extraction").
 */
function attributeMisses(fields: FieldResult[], text: readonly string[], table: ComparatorTable): MissCounts {
  const index = indexWords(text);
  const misses: MissCounts = { not_in_text: 0, in_text: 0 };
  for (const field of fields) {
    if ((field.verdict !== 'fn' && field.verdict !== 'fp+fn') || field.truth === undefined) continue;
    const comparator = table.resolved.get(field.collapsedPath)?.comparator ?? FALLBACK_COMPARATOR();
    const match = locateValue(field.truth, comparator, index);
    field.miss = match ? 'in_text' : 'not_in_text';
    if (match) field.textMatch = match;
    misses[field.miss]++;
  }
  return misses;
}

/** A truth object met by a scalar has no comparator of its own path: its leaves are looked for as strings. */
const FALLBACK_COMPARATOR = lazy(() => createComparator({ type: 'string' }));
