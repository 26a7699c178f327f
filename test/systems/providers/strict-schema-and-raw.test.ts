/** Strict structured-output schemas (OpenAI "Supported schemas" rules) and the capped, redacted raw record. */
import { describe, expect, it } from 'vitest';
import { fromStrictAnswer, toStrictSchema } from '../../../src/systems/providers/strict-schema.js';
import { captureRaw } from '../../../src/systems/providers/raw.js';
import { createRedactor } from '../../../src/service/redact.js';

describe('toStrictSchema / fromStrictAnswer', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      status: { enum: ['paid', 'open'] },
      extra: { description: 'anything' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { code: { type: 'string' }, note: { type: 'string' } },
          required: ['code'],
        },
      },
    },
    required: ['name'],
  };

  it('closes every object, requires every property, makes optional ones nullable and restates dropped keywords', () => {
    expect(toStrictSchema(schema)).toEqual({
      wrapped: false,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'status', 'extra', 'items'],
        properties: {
          name: { type: 'string', description: '(minLength: 1)' },
          status: { enum: ['paid', 'open', null] },
          extra: { anyOf: [{ description: 'anything' }, { type: 'null' }] },
          items: {
            type: ['array', 'null'],
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['code', 'note'],
              properties: { code: { type: 'string' }, note: { type: ['string', 'null'] } },
            },
          },
        },
      },
    });
  });

  it('drops the nulls of optional properties on the way back, keeps those of required ones', () => {
    expect(fromStrictAnswer({ name: null, status: null, items: [{ code: 'A', note: null }] }, schema, false)).toEqual({
      name: null,
      items: [{ code: 'A' }],
    });
  });

  it('wraps a non-object root and unwraps the answer', () => {
    const strict = toStrictSchema({ type: 'array', items: { type: 'string' } });
    expect(strict.wrapped).toBe(true);
    expect(strict.schema).toMatchObject({ type: 'object', required: ['value'], additionalProperties: false });
    expect(fromStrictAnswer({ value: ['a'] }, {}, true)).toEqual({ value: ['a'] });
  });
});

describe('captureRaw', () => {
  const redact = createRedactor(['secret-key-123']);

  it('redacts secrets wherever they appear', () => {
    expect(captureRaw({ echo: 'Bearer secret-key-123', nested: ['secret-key-123'] }, redact)).toEqual({
      echo: 'Bearer [REDACTED]',
      nested: ['[REDACTED]'],
    });
  });

  it('keeps only the head of a response over the cap, with its size', () => {
    const raw = captureRaw({ text: 'x'.repeat(1000) }, redact, 100) as {
      truncated: boolean;
      chars: number;
      head: string;
    };
    expect(raw.truncated).toBe(true);
    expect(raw.chars).toBe(JSON.stringify({ text: 'x'.repeat(1000) }).length);
    expect(raw.head).toHaveLength(100);
  });
});
