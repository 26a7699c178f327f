/**
 * schema.json for sources whose truth is nested JSON without a published schema of its own (CORD's gt_parse,
 * DocILE's fields): built from the fields present in the imported truth. A field that is a list in any document
 * is a list in every one (an object where others have a list becomes a list of one), so that one schema fits
 * all truth files; scalars are strings unless every value seen is a number or every one a boolean
 * (docs/datasets-import.md).
 */
import type { JsonSchema } from '../../types.js';
import type { SourceFile } from './source-file.js';

interface Shape {
  objects: number;
  properties: Map<string, Shape>;
  scalars: Set<'string' | 'number' | 'boolean'>;
  /** Elements of the lists seen at this place. */
  items: Shape | null;
}

const emptyShape = (): Shape => ({ objects: 0, properties: new Map(), scalars: new Set(), items: null });

function observe(shape: Shape, value: unknown): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    shape.items ??= emptyShape();
    for (const element of value) observe(shape.items, element);
    return;
  }
  if (typeof value === 'object') {
    shape.objects += 1;
    for (const [key, child] of Object.entries(value)) {
      let property = shape.properties.get(key);
      if (!property) {
        property = emptyShape();
        shape.properties.set(key, property);
      }
      observe(property, child);
    }
    return;
  }
  shape.scalars.add(typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string');
}

function merge(into: Shape, from: Shape): Shape {
  const merged: Shape = {
    objects: into.objects + from.objects,
    properties: new Map(into.properties),
    scalars: new Set([...into.scalars, ...from.scalars]),
    items: into.items && from.items ? merge(into.items, from.items) : (into.items ?? from.items),
  };
  for (const [key, shape] of from.properties) {
    const seen = merged.properties.get(key);
    merged.properties.set(key, seen ? merge(seen, shape) : shape);
  }
  return merged;
}

/** Describes a field by its path (`menu[].nm`); undefined leaves it without a description. */
export type DescribeField = (fieldPath: string) => string | undefined;

function toSchema(
  shape: Shape,
  fieldPath: string,
  describe: DescribeField,
  lists: ReadonlySet<string>,
  isItem = false,
): JsonSchema {
  // A list's items are described by the list.
  const description = isItem ? undefined : describe(fieldPath);
  const annotated = (schema: JsonSchema): JsonSchema => (description ? { ...schema, description } : schema);
  if (shape.items || lists.has(fieldPath)) {
    // The values seen directly here are elements too: one object where others have a list of them.
    const { items: elements, ...direct } = shape;
    const itemShape = merge({ ...direct, items: null }, elements ?? emptyShape());
    return annotated({ type: 'array', items: toSchema(itemShape, `${fieldPath}[]`, describe, lists, true) });
  }
  if (shape.objects > 0) {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, child] of shape.properties) {
      properties[key] = toSchema(child, fieldPath === '' ? key : `${fieldPath}.${key}`, describe, lists);
    }
    return annotated({ type: 'object', properties });
  }
  const only = shape.scalars.size === 1 ? [...shape.scalars][0] : 'string';
  return annotated({ type: only ?? 'string' });
}

/**
 * The schema of `truths` (each a document's truth object). `lists` names paths that are lists even where every
 * source has a single object (CORD's `menu`).
 */
export function inferSchema(
  truths: readonly Record<string, unknown>[],
  describe: DescribeField,
  lists: readonly string[] = [],
): JsonSchema {
  const root = emptyShape();
  for (const truth of truths) observe(root, truth);
  // The root is always an object, even for a dataset without truth.
  root.objects = Math.max(root.objects, 1);
  return { type: 'object', ...toSchema(root, '', describe, new Set(lists)) };
}

/**
 * `value` made to fit `schema`: an object or scalar where a list is expected becomes a list of one, a number
 * or boolean where a string is expected becomes its text, nulls are left out. An object where a scalar is
 * expected (or the reverse) fails, naming the file and field.
 */
export function conformToSchema(value: unknown, schema: JsonSchema, source: SourceFile, at: string): unknown {
  if (schema.type === 'array') {
    const list = Array.isArray(value) ? value : [value];
    return list
      .filter((element) => element !== null && element !== undefined)
      .map((element, index) => conformToSchema(element, schema.items as JsonSchema, source, `${at}[${index}]`));
  }
  if (schema.type === 'object') {
    const object = source.object(value, at);
    const properties = schema.properties as Record<string, JsonSchema>;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(object)) {
      if (child === null || child === undefined) continue;
      const property = properties[key];
      if (!property) source.fail(`${at}.${key}`, 'has no place in the schema');
      out[key] = conformToSchema(child, property, source, `${at}.${key}`);
    }
    return out;
  }
  if (typeof value === 'object' && value !== null) source.fail(at, `must be a ${String(schema.type)}, not a structure`);
  return schema.type === 'string' ? String(value) : value;
}
