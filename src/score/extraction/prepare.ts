/**
 * Turns a JSON value into a scoring tree once: keys outside the schema dropped (and listed), empties marked,
 * every scalar canonicalised by its field's comparator. The Hungarian matrix then compares canonical forms only.
 */
import type { Json, JsonObject } from '../../types.js';
import { isBlank, type Canonical, type Comparator, type Scalar } from '../normalize/index.js';
import type { ComparatorTable, ValueType } from './resolve-comparator.js';
import { itemSchema, lookupKey, type SchemaNode } from './schema.js';

/**
 * Empty per docs/metrics/extraction.md — null, absent, `""` (and whitespace-only), `[]`, `{}` — and, deeply, an object or
 * array whose every member is empty: `{"name": null}` is no more an answer than `{}`.
 */
export interface EmptyNode {
  kind: 'empty';
  raw: Json;
}
export interface ScalarNode {
  kind: 'scalar';
  raw: Scalar;
  canon: Canonical;
  comparator: Comparator;
  collapsedPath: string;
}
export interface ObjectNode {
  kind: 'object';
  raw: JsonObject;
  /** Keys that count, in document order. */
  keys: string[];
  children: Map<string, TreeNode>;
}
export interface ArrayNode {
  kind: 'array';
  raw: Json[];
  /** Non-empty elements with their original index; empty elements are dropped before matching. */
  items: { index: number; node: TreeNode }[];
  /** Holds objects or arrays: line items, matched with the Hungarian algorithm. Otherwise a multiset of scalars. */
  structured: boolean;
}
export type TreeNode = EmptyNode | ScalarNode | ObjectNode | ArrayNode;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shared state of one document's preparation. */
export interface PrepareContext {
  table: ComparatorTable;
  schemaRoot: SchemaNode;
  /** Drop keys outside the schema (true) or keep them (false). */
  ignoreExtraKeys: boolean;
  /** Collapsed paths of dropped keys. */
  unexpectedKeys: Set<string>;
  /**
   * Canonical forms already computed, per comparator and raw value: line items repeat codes, dates and
   * descriptions, and parsing (regular expressions, NFKC) is the costly part of preparing a tree.
   */
  canonical: Map<Comparator, Map<Scalar, Canonical>>;
}

/** Builds the scoring tree of `value`, found at `collapsedPath` under the field named `name`. */
export function prepareTree(
  value: Json,
  collapsedPath: string,
  name: string,
  schemaNode: SchemaNode | undefined,
  context: PrepareContext,
): TreeNode {
  if (value === null) return { kind: 'empty', raw: value };
  if (typeof value === 'string' && isBlank(value)) return { kind: 'empty', raw: value };
  if (Array.isArray(value)) {
    const items: ArrayNode['items'] = [];
    const childSchema = itemSchema(schemaNode, context.schemaRoot);
    let structured = false;
    value.forEach((element, index) => {
      const node = prepareTree(element, `${collapsedPath}[]`, name, childSchema, context);
      if (node.kind === 'empty') return;
      if (node.kind === 'object' || node.kind === 'array') structured = true;
      items.push({ index, node });
    });
    return items.length === 0 ? { kind: 'empty', raw: value } : { kind: 'array', raw: value, items, structured };
  }
  if (isPlainObject(value)) {
    const keys: string[] = [];
    const children = new Map<string, TreeNode>();
    let anyValue = false;
    for (const key of Object.keys(value)) {
      const childPath = collapsedPath ? `${collapsedPath}.${key}` : key;
      const lookup = lookupKey(schemaNode, key, context.schemaRoot);
      if (!lookup.declared && context.ignoreExtraKeys) {
        context.unexpectedKeys.add(childPath);
        continue;
      }
      const child = prepareTree(value[key]!, childPath, key, lookup.node, context);
      if (child.kind !== 'empty') anyValue = true;
      keys.push(key);
      children.set(key, child);
    }
    return anyValue ? { kind: 'object', raw: value, keys, children } : { kind: 'empty', raw: value };
  }
  const { comparator } = context.table.get(collapsedPath, name, schemaNode);
  return {
    kind: 'scalar',
    raw: value,
    canon: canonicalize(comparator, value, context.canonical),
    comparator,
    collapsedPath,
  };
}

/** `comparator.canonicalize(value)`, once per comparator and value (canonical forms are never mutated). */
function canonicalize(comparator: Comparator, value: Scalar, cache: PrepareContext['canonical']): Canonical {
  // A Map holds 0 and -0 as one key; -0 is rare enough to canonicalise on its own rather than reason about.
  if (Object.is(value, -0)) return comparator.canonicalize(value);
  let known = cache.get(comparator);
  if (!known) {
    known = new Map();
    cache.set(comparator, known);
  }
  let canon = known.get(value);
  if (canon === undefined) {
    canon = comparator.canonicalize(value);
    known.set(value, canon);
  }
  return canon;
}

/**
 * Records the JSON type of the first non-empty value at each collapsed path (truth first, then prediction):
 * the "value" step of comparator resolution. Also records the longest truth string per path, for ANLS*.
 */
export function collectValueTypes(
  value: Json | undefined,
  collapsedPath: string,
  types: Map<string, ValueType>,
  longestText?: Map<string, number>,
): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const element of value) collectValueTypes(element, `${collapsedPath}[]`, types, longestText);
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      collectValueTypes(child, collapsedPath ? `${collapsedPath}.${key}` : key, types, longestText);
    }
    return;
  }
  if (typeof value === 'string') {
    if (isBlank(value)) return;
    if (longestText)
      longestText.set(collapsedPath, Math.max(longestText.get(collapsedPath) ?? 0, Array.from(value.trim()).length));
  }
  if (!types.has(collapsedPath)) types.set(collapsedPath, typeof value as ValueType);
}
