/**
 * Just enough JSON Schema navigation for scoring: which schema node describes a key or an array item, and
 * whether a key is declared at all. `$ref` (local `#/…` pointers), `anyOf`/`oneOf`/`allOf` branches and
 * `type: [..., "null"]` are followed; everything else a validator would check is irrelevant here.
 */
import type { JsonSchema } from '../../types.js';

/** One node of a JSON Schema. */
export type SchemaNode = JsonSchema;

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows `$ref` pointers (at most 32 hops, so a cycle cannot hang the scorer). */
export function derefSchema(node: SchemaNode | undefined, root: SchemaNode): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#')) return current;
    let target: unknown = root;
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
      target = isNode(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    }
    current = isNode(target) ? target : undefined;
  }
  return current;
}

/** The node and its combinator branches, dereferenced: the places a property or a type may be declared. */
function branches(node: SchemaNode | undefined, root: SchemaNode, depth = 0): SchemaNode[] {
  const resolved = derefSchema(node, root);
  if (!resolved || depth > 8) return [];
  const out = [resolved];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = resolved[key];
    if (Array.isArray(list))
      for (const branch of list) if (isNode(branch)) out.push(...branches(branch, root, depth + 1));
  }
  return out;
}

/** Where a key of an object stands against its schema. */
export interface KeyLookup {
  /** False when the schema declares properties and this key is not among them: a key outside the schema. */
  declared: boolean;
  /** The schema of the key's value, when known. */
  node: SchemaNode | undefined;
}

/**
 * Looks a key up. Without a schema node, or on a node that declares no `properties`, every key is declared
 * (free-form objects count in full). `additionalProperties` given as a schema declares every other key.
 */
export function lookupKey(node: SchemaNode | undefined, key: string, root: SchemaNode): KeyLookup {
  if (!node) return { declared: true, node: undefined };
  let declaresProperties = false;
  let additional: SchemaNode | undefined;
  for (const branch of branches(node, root)) {
    const properties = branch.properties;
    if (isNode(properties)) {
      declaresProperties = true;
      if (Object.hasOwn(properties, key) && isNode(properties[key]))
        return { declared: true, node: derefSchema(properties[key], root) };
    }
    if (isNode(branch.additionalProperties)) additional = branch.additionalProperties;
  }
  if (additional) return { declared: true, node: derefSchema(additional, root) };
  return { declared: !declaresProperties, node: undefined };
}

/** The schema of an array's items (`items`, or the first of a tuple form). */
export function itemSchema(node: SchemaNode | undefined, root: SchemaNode): SchemaNode | undefined {
  for (const branch of branches(node, root)) {
    const items = branch.items;
    if (isNode(items)) return derefSchema(items, root);
    if (Array.isArray(items) && isNode(items[0])) return derefSchema(items[0], root);
  }
  return undefined;
}

/** The non-null types a node allows (`type`, across branches), e.g. `['number']`. */
export function schemaTypes(node: SchemaNode | undefined, root: SchemaNode): string[] {
  const types = new Set<string>();
  for (const branch of branches(node, root)) {
    const type = branch.type;
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string' && t !== 'null') types.add(t);
  }
  return [...types];
}

/** `format` and `description` of a node, across branches. */
export function schemaAnnotations(
  node: SchemaNode | undefined,
  root: SchemaNode,
): { format?: string; description: string } {
  let format: string | undefined;
  const descriptions: string[] = [];
  for (const branch of branches(node, root)) {
    if (typeof branch.format === 'string') format ??= branch.format;
    if (typeof branch.description === 'string') descriptions.push(branch.description);
    if (typeof branch.title === 'string') descriptions.push(branch.title);
  }
  return { format, description: descriptions.join(' ') };
}
