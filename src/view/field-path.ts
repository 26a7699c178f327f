/**
 * The concrete field paths the extraction scorer writes into documents.jsonl (`patient.name`,
 * `codes[2].units`, `diagnosis_codes[0]`): parsed once, then read and set inside a truth object. Keys are
 * identifiers as the scorer prints them; a path it could not have printed is refused.
 */
import { UsageError } from '../errors.js';
import type { Json, JsonObject } from '../types.js';

export type PathStep = { key: string } | { index: number };

const STEP = /^(?:\.?([^.[\]]+)|\[(\d{1,6})\])/;

export function parseFieldPath(text: string): PathStep[] {
  const steps: PathStep[] = [];
  let rest = text;
  while (rest.length > 0) {
    const match = STEP.exec(rest);
    if (!match || (steps.length === 0 && rest.startsWith('.'))) {
      throw new UsageError(`field path "${text}" cannot be read at "${rest}"`, {
        code: 'INPUT_INVALID',
        subject: 'path',
        hint: 'use a path as the drill-down shows it, e.g. codes[2].units',
      });
    }
    steps.push(match[1] !== undefined ? { key: match[1] } : { index: Number(match[2]) });
    rest = rest.slice(match[0].length);
  }
  if (steps.length === 0) throw new UsageError('empty field path', { code: 'INPUT_INVALID', subject: 'path' });
  // Keys such as __proto__ would reach Object.prototype through plain-object indexing.
  for (const step of steps)
    if ('key' in step && ['__proto__', 'constructor', 'prototype'].includes(step.key))
      throw new UsageError(`field path "${text}" names a reserved key`, { code: 'INPUT_INVALID', subject: 'path' });
  return steps;
}

/** The value at `steps`, or undefined when any step is absent. */
export function getAtPath(root: Json | undefined, steps: readonly PathStep[]): Json | undefined {
  let node: Json | undefined = root;
  for (const step of steps) {
    if ('index' in step) node = Array.isArray(node) ? node[step.index] : undefined;
    else
      node =
        node !== null && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, step.key)
          ? node[step.key]
          : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Sets the value at `steps` in place, creating missing objects and arrays on the way (an array grows to
 * the index; holes become null). A step that meets a value of the other kind is refused, never overwritten.
 */
export function setAtPath(root: JsonObject, steps: readonly PathStep[], value: Json): void {
  let node: Json = root;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    const next = steps[i + 1];
    const fresh = (): Json => (next !== undefined && 'index' in next ? [] : {});
    if ('index' in step) {
      if (!Array.isArray(node)) throw mismatch(steps, i, 'an array');
      while (node.length < step.index) node.push(null);
      if (last) node[step.index] = value;
      else node = node[step.index] ??= fresh();
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) throw mismatch(steps, i, 'an object');
      if (last) node[step.key] = value;
      else node = node[step.key] ??= fresh();
    }
  });
}

function mismatch(steps: readonly PathStep[], at: number, expected: string): UsageError {
  return new UsageError(`step ${at + 1} of ${formatFieldPath(steps)} expects ${expected} in the truth`, {
    code: 'INPUT_INVALID',
    subject: 'path',
    hint: 'edit the truth file by hand for a change of structure',
  });
}

export function formatFieldPath(steps: readonly PathStep[]): string {
  return steps.map((s, i) => ('index' in s ? `[${s.index}]` : i === 0 ? s.key : `.${s.key}`)).join('');
}
