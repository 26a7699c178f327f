/**
 * The dataset's JSON Schema → what OpenAI-style strict structured output accepts, and the answer back.
 * Strict mode (OpenAI "Structured Outputs" guide, "Supported schemas") requires: an object at the root;
 * every object with `additionalProperties: false` and every property listed in `required` (an optional
 * property is expressed as a union with null); only a subset of keywords. So:
 * - optional properties become nullable, and a null answer for them is dropped again on the way back
 *   (the dataset's truth omits what a document lacks; a null there would be scored as a wrong value);
 * - keywords outside the subset are removed and restated in the description, so the model still sees them;
 * - a non-object root is wrapped as `{ value: <schema> }` and unwrapped.
 */
import type { Json, JsonObject, JsonSchema } from '../../types.js';

/** Keywords strict mode accepts (kept as they are). */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  '$defs',
  '$ref',
  'title',
]);
/** Keywords without meaning for the answer (annotations of the schema document itself). */
const DROPPED_SILENTLY = new Set(['$schema', '$id', '$comment', 'examples', 'default', 'definitions']);

export interface StrictSchema {
  schema: JsonSchema;
  /** Whether the root was wrapped as `{ value: … }`. */
  wrapped: boolean;
}

export function toStrictSchema(schema: JsonSchema): StrictSchema {
  const wrapped = schema.type !== 'object' || typeof schema.properties !== 'object';
  const root = wrapped ? { type: 'object', properties: { value: schema }, required: ['value'] } : schema;
  return { schema: convert(root, false) as JsonSchema, wrapped };
}

function convert(node: unknown, nullable: boolean): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const restated: string[] = [];
  for (const [key, value] of Object.entries(source)) {
    if (KEPT.has(key)) out[key] = value;
    else if (!DROPPED_SILENTLY.has(key)) restated.push(`${key}: ${JSON.stringify(value)}`);
  }
  if (restated.length > 0) out.description = [source.description, `(${restated.join('; ')})`].filter(Boolean).join(' ');
  if (typeof source.properties === 'object' && source.properties !== null) {
    const required = new Set(Array.isArray(source.required) ? (source.required as string[]) : []);
    const properties: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(source.properties as Record<string, unknown>))
      properties[name] = convert(child, !required.has(name));
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
    if (out.type === undefined) out.type = 'object';
  }
  if (source.items !== undefined) out.items = convert(source.items, false);
  if (Array.isArray(source.anyOf)) out.anyOf = source.anyOf.map((branch) => convert(branch, false));
  if (typeof source.$defs === 'object' && source.$defs !== null) {
    out.$defs = Object.fromEntries(
      Object.entries(source.$defs as Record<string, unknown>).map(([name, def]) => [name, convert(def, false)]),
    );
  }
  return nullable ? makeNullable(out) : out;
}

function makeNullable(node: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  if (node.$ref !== undefined) return { anyOf: [node, { type: 'null' }] };
  const result: Record<string, unknown> = { ...node };
  if (Array.isArray(node.enum) && !node.enum.includes(null)) result.enum = [...node.enum, null];
  if (node.type === undefined) return Array.isArray(node.enum) ? result : { anyOf: [node, { type: 'null' }] };
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
  result.type = types.includes('null') ? types : [...types, 'null'];
  return result;
}

/** The strict answer → the shape of the dataset's schema: unwrapped, with nulls of optional properties dropped. */
export function fromStrictAnswer(answer: JsonObject, original: JsonSchema, wrapped: boolean): JsonObject {
  if (wrapped) {
    const value = answer.value;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { value: value ?? null };
  }
  return dropOptionalNulls(answer, original) as JsonObject;
}

function dropOptionalNulls(value: Json, schema: unknown): Json {
  if (typeof schema !== 'object' || schema === null) return value;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(value)) return value.map((item) => dropOptionalNulls(item, node.items));
  if (typeof value !== 'object' || value === null || typeof node.properties !== 'object' || node.properties === null)
    return value;
  const properties = node.properties as Record<string, unknown>;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null && !required.has(key) && !allowsNull(properties[key])) continue;
    out[key] = dropOptionalNulls(child, properties[key]);
  }
  return out;
}

function allowsNull(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { type } = schema as { type?: unknown };
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}
