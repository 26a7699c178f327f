/**
 * The building blocks of docbench's own file formats (the endpoints' results, src/endpoint-results.ts; the run
 * directory's files, src/run-dir/formats/). Each format is one TypeBox definition: the JSON Schema a reader
 * checks a file against and, through `Static`, the TypeScript type the code reads and writes, so the two
 * cannot drift. Imported at run time only by the formats, which load with a file's first check.
 */
import { Type, type SchemaOptions, type Static, type TSchema } from '@sinclair/typebox';
import { ENDPOINTS, MODES, type Mode } from './types.js';

/** A string out of `values`, as one `enum` (a mismatch reads "expected one of …"). */
export function oneOf<const T extends readonly (string | number | null)[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, enum: [...values] });
}

/** `T` or null, as one `type: [t, 'null']` (a mismatch reads "expected number or null"). */
function orNull<T>(type: 'number' | 'string' | 'integer', options: SchemaOptions = {}) {
  return Type.Unsafe<T | null>({ ...options, type: [type, 'null'] });
}

export const num = Type.Number();
export const nonNegative = Type.Number({ minimum: 0 });
/** A count of things: a whole number, zero or more. */
export const count = Type.Integer({ minimum: 0 });
/** A rate or score in [0, 1]. */
export const share = Type.Number({ minimum: 0, maximum: 1 });
export const nullableNum = orNull<number>('number');
export const nullableNonNegative = orNull<number>('number', { minimum: 0 });
export const nullableShare = orNull<number>('number', { minimum: 0, maximum: 1 });
export const nullableCount = orNull<number>('integer', { minimum: 0 });
export const nullableString = orNull<string>('string');
/** A [low, high] interval. */
export const interval = Type.Unsafe<[number, number]>({
  type: 'array',
  items: { type: 'number' },
  minItems: 2,
  maxItems: 2,
});
export const nullableInterval = Type.Union([interval, Type.Null()]);
/** A system's configured name (docs/systems.md). */
export const systemName = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,39}$' });
export const endpoint = oneOf(ENDPOINTS);
export const mode = oneOf(MODES);
export const nullableMode = oneOf([...MODES, null] as const);
/** Any JSON value kept as it was written (a truth or a prediction, a provider's raw response). */
export const anyValue = Type.Unknown();

/** An object keyed by extract mode (`fast`, `slow`), each optional. */
export function byMode<T extends TSchema>(value: T) {
  return Type.Unsafe<Partial<Record<Mode, Static<T>>>>({
    type: 'object',
    propertyNames: { enum: [...MODES] },
    additionalProperties: value,
  });
}

/** An object with any keys, each holding `value`. */
export function keyed<T extends TSchema>(value: T) {
  return Type.Record(Type.String(), value);
}
