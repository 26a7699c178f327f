/** The engine's label matching on markdown (a pipeline's `local` extractor, docs/systems.md). */
import { describe, expect, it } from 'vitest';
import { extractFieldsFromText } from '../src/index.js';

const SCHEMA = {
  type: 'object',
  properties: {
    patient_name: { type: 'string', description: 'Patient name' },
    total_charges: { type: 'number', description: 'Total charges' },
    service_lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { cpt: { type: 'string', description: 'CPT code' }, units: { type: 'integer' } },
      },
    },
  },
};

describe('extractFieldsFromText', () => {
  it('reads labelled values and a pipe table from markdown, decoration removed', async () => {
    const page = [
      '# Claim',
      '',
      '**Patient Name:** Maria Lopez',
      '',
      '| CPT | Units |',
      '|---|---|',
      '| 99213 | 2 |',
      '| 71045 | 1 |',
      '',
      'Total Charges: $1,234.50',
    ].join('\n');
    const { data, confidence } = await extractFieldsFromText([page], SCHEMA, { fast: false, locale: 'US' });
    expect(data.patient_name).toBe('Maria Lopez');
    expect(data.total_charges).toBe(1234.5);
    expect(data.service_lines).toEqual([
      { cpt: '99213', units: 2 },
      { cpt: '71045', units: 1 },
    ]);
    expect(confidence).toBeGreaterThan(0);
  });

  it('finds nothing in text that does not hold the values', async () => {
    const { data } = await extractFieldsFromText(['# Claim\n\nNothing to see.'], SCHEMA, { fast: true });
    expect(data.patient_name ?? null).toBeNull();
    expect(data.total_charges ?? null).toBeNull();
  });
});
