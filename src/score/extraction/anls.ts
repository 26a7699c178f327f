/**
 * ANLS* (Peer et al., 2024, "ANLS* – A Universal Document Processing Metric for Generative Large Language
 * Models"), following the reference implementation deepopinion/anls_star_metric: leaves score
 * 1 − NLD (0 below the threshold), objects by key union, lists by Hungarian matching on pairwise ANLS, and the
 * document score is Σ leaf scores / Σ pairwise lengths. Ground-truth alternatives (Python tuples) do not exist
 * in JSON and are not supported.
 */
import type { Json } from '../../types.js';
import { checkUnit } from '../stats/check-metric.js';
import { assignMaximum } from './assign.js';

/** @default 0.5, the threshold of ANLS since ST-VQA. */
export const ANLS_THRESHOLD = 0.5;

/**
 * Levenshtein distance in code points. Hand-written because fast-levenshtein counts UTF-16 units, and the
 * normalised distance must not depend on whether a character sits outside the BMP.
 */
export function levenshteinCodePoints(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let previous = new Int32Array(t.length + 1);
  let current = new Int32Array(t.length + 1);
  for (let j = 0; j <= t.length; j++) previous[j] = j;
  for (let i = 1; i <= s.length; i++) {
    current[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const substitution = previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[t.length]!;
}

/** The reference's leaf normalisation: lowercase, trim, collapse whitespace. */
function normalizeLeaf(value: string | number | boolean): string {
  return String(value).trim().toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
}

/** ANLS of two scalars: 1 − NLD when that is ≥ threshold, else 0; two empty strings score 1. Higher is better. */
export function anlsLeaf(truth: string | number | boolean, prediction: string | number | boolean, threshold = ANLS_THRESHOLD): number {
  const a = normalizeLeaf(truth);
  const b = normalizeLeaf(prediction);
  const length = Math.max(Array.from(a).length, Array.from(b).length);
  const similarity = length === 0 ? 1 : 1 - levenshteinCodePoints(a, b) / length;
  return similarity < threshold ? 0 : similarity;
}

type Value = Json | undefined;

function isNoneLike(value: Value): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function isPlainObject(value: Value): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Number of leaves (a None counts 1, like a leaf). */
function treeLength(value: Value): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, v) => sum + treeLength(v), 0);
  if (isPlainObject(value)) return Object.values(value).reduce<number>((sum, v) => sum + treeLength(v), 0);
  return 1;
}

interface Partial {
  nls: number;
  length: number;
}

function compare(truth: Value, prediction: Value, threshold: number): Partial {
  if (truth === undefined || truth === null) {
    return { nls: isNoneLike(prediction) ? 1 : 0, length: Math.max(1, treeLength(prediction)) };
  }
  if (Array.isArray(truth)) {
    if (!Array.isArray(prediction)) return { nls: 0, length: Math.max(treeLength(truth), treeLength(prediction)) };
    return compareLists(truth, prediction, threshold);
  }
  if (isPlainObject(truth)) {
    if (!isPlainObject(prediction)) return { nls: 0, length: Math.max(treeLength(truth), treeLength(prediction)) };
    let nls = 0;
    let length = 0;
    for (const key of new Set([...Object.keys(truth), ...Object.keys(prediction)])) {
      const truthValue = Object.hasOwn(truth, key) ? truth[key] : undefined;
      const predictedValue = Object.hasOwn(prediction, key) ? prediction[key] : undefined;
      // A key the truth lacks, predicted empty, is ignored (the paper's rule for hallucinated None keys).
      if (truthValue === undefined && isNoneLike(predictedValue)) continue;
      const part = compare(truthValue, predictedValue, threshold);
      nls += part.nls;
      length += part.length;
    }
    return { nls, length };
  }
  const isLeaf = typeof prediction === 'string' || typeof prediction === 'number' || typeof prediction === 'boolean';
  return {
    nls: isLeaf ? anlsLeaf(truth, prediction, threshold) : 0,
    length: Math.max(1, treeLength(prediction)),
  };
}

function compareLists(truth: Json[], prediction: Json[], threshold: number): Partial {
  const parts = truth.map((t) => prediction.map((p) => compare(t, p, threshold)));
  // Average per pair, nudged up for an exactly equal pair so ties resolve towards it (as the reference does).
  const weights = parts.map((row, i) =>
    row.map((part, j) => (part.length > 0 ? part.nls / part.length : 1) + (JSON.stringify(truth[i]) === JSON.stringify(prediction[j]) ? 1e-9 : 0)),
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
  truth.forEach((t, i) => void (usedTruth.has(i) || (length += treeLength(t))));
  prediction.forEach((p, j) => void (usedPrediction.has(j) || (length += treeLength(p))));
  return { nls, length };
}

/**
 * ANLS* of a prediction against the truth: in [0, 1], higher is better; 1 when both are empty structures.
 * @example anlsStar({ a: 'kitten' }, { a: 'sitting' }) // 1 − 3/7 ≈ 0.571
 */
export function anlsStar(truth: Json | undefined, prediction: Json | undefined, threshold = ANLS_THRESHOLD): number {
  const { nls, length } = compare(truth, prediction, threshold);
  return checkUnit('anls*', length === 0 ? 1 : nls / length);
}
