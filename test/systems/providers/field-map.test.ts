/** mapFields: the rules docs/providers.md gives for field maps, on hand-made provider fields. */
import { describe, expect, it } from 'vitest';
import { mapFields, type FoundField } from '../../../src/systems/providers/field-map.js';

const field = (text: string | null, extra: Partial<FoundField> = {}): FoundField => ({
  text,
  confidence: 90,
  ...extra,
});
const source = (entries: Record<string, FoundField[]>) => new Map(Object.entries(entries));

describe('mapFields', () => {
  it('types text by the schema when no normalised value is given: currency signs and separators dropped, no digits no number', () => {
    const schema = {
      type: 'object',
      properties: { total: { type: 'number' }, tax: { type: 'number' }, paid: { type: 'boolean' } },
    };
    const { data } = mapFields(
      schema,
      {},
      source({ Total: [field('$1,234.50')], Tax: [field('N/A')], Paid: [field(null, { boolean: true })] }),
    );
    expect(data).toEqual({ total: 1234.5, paid: true });
  });

  it('matches a description by the longest provider name in it, and never uses one field twice', () => {
    const schema = {
      type: 'object',
      properties: {
        due: { type: 'string', description: 'The amount due on the invoice' },
        owed: { type: 'string', description: 'the amount due' },
      },
    };
    const { data } = mapFields(schema, {}, source({ Amount: [field('5')], AmountDue: [field('7')] }));
    expect(data).toEqual({ due: '7', owed: '5' });
  });

  it('gives a field with several values its most confident one, and the confidence of each filled field', () => {
    const schema = { type: 'object', properties: {} };
    const { data, confidences } = mapFields(
      schema,
      { name: 'patient_name' },
      source({ patient_name: [field('A. Patel', { confidence: 40 }), field('Amanda Patel', { confidence: 92 })] }),
    );
    expect(data).toEqual({ name: 'Amanda Patel' });
    expect(confidences).toEqual([92]);
  });
});
