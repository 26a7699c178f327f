/**
 * schema.json's check against its meta-schema (src/dataset/schema-subset.ts): draft-07, the dialect of a schema
 * without `$schema`, is checked by a fixed check (precompiled by the build) instead of ajv's own meta-schema,
 * which ajv compiles in every process; both must say the same about any schema.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { checkJsonSchema, compileSchema, formatAjvErrors } from '../../src/dataset/schema-subset.js';
import type { JsonSchema } from '../../src/types.js';
import { ROOT } from '../helpers/cli.js';

// The sample's schema names 2020-12: without its `$schema`, it is a draft-07 schema like most datasets'.
const { $schema: _dialect, ...sample } = JSON.parse(
  readFileSync(path.join(ROOT, 'datasets/sample-claims/schema.json'), 'utf8'),
) as JsonSchema;

/** ajv's own verdict on a draft-07 schema, as compileSchema gave it before the fixed check. */
function ajvOwnCheck(schema: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.validateSchema(schema as object) ? [] : formatAjvErrors(ajv.errors);
}

/** Schemas valid and not: the sample's, and copies with one of its nodes broken in the ways users break them. */
function candidates(): unknown[] {
  const broken: unknown[] = [
    sample,
    { type: 'object', properties: {} },
    { $schema: 'http://json-schema.org/draft-07/schema#' },
  ];
  for (const change of [
    { required: 'claim_number' },
    { required: ['a', 'a'] },
    { properties: [] },
    { type: 'text' },
    { type: ['string', 7] },
    { enum: 'A' },
    { description: 5 },
    { items: 3 },
    { minLength: -1 },
  ])
    broken.push(
      { ...sample, ...change },
      { ...sample, properties: { ...(sample.properties as object), x: { type: 'string', ...change } } },
    );
  return broken;
}

describe('checkJsonSchema', () => {
  it('says of draft-07 schemas what ajv says when it checks them itself, errors included', () => {
    let invalid = 0;
    for (const schema of candidates()) {
      const expected = ajvOwnCheck(schema);
      expect(checkJsonSchema(schema as JsonSchema), JSON.stringify(schema).slice(0, 120)).toEqual(expected);
      if (expected.length > 0) invalid += 1;
    }
    expect(invalid).toBeGreaterThanOrEqual(15);
  });

  it('checks the other dialects with their own meta-schema, and refuses an unknown one', () => {
    const later = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: 'a' };
    expect(checkJsonSchema(later as JsonSchema)).toEqual(['/required: must be array']);
    expect(checkJsonSchema({ ...later, required: ['a'] } as JsonSchema)).toEqual([]);
    expect(checkJsonSchema({ $schema: 'http://example.com/mine', type: 'object' } as JsonSchema)[0]).toMatch(
      /is not supported/,
    );
  });

  it('compileSchema refuses what checkJsonSchema refuses, and validates what it compiles', () => {
    expect(compileSchema({ ...sample, required: 'claim_number' } as unknown as JsonSchema)).toEqual({
      ok: false,
      errors: ['/required: must be array'],
    });
    const compiled = compileSchema({ type: 'object', properties: { d: { type: 'string', format: 'date' } } });
    expect(compiled.ok).toBe(true);
    if (compiled.ok) expect(compiled.validate({ d: '31/01/1970' })).toEqual(['/d: must match format "date"']);
  });
});
