import { describe, expect, it } from 'vitest';
import { extractFields } from '../src/extract/extract-fields.js';
import { constrainsValue, FORMAT_CHECK_WEIGHT, withFormatCheck } from '../src/extract/field-confidence.js';
import { buildPageLayout } from '../src/layout/build-blocks.js';
import { buildRows } from '../src/layout/build-lines.js';
import type { Fragment } from '../src/layout/types.js';

/** A text-layer fragment at (x, y) in points, 10 pt type, ~5.5 pt a character. */
function at(text: string, x: number, y: number, confidence = 100): Fragment {
  return { text, box: { x0: x, y0: y, x1: x + text.length * 5.5, y1: y + 10 }, fontSize: 10, confidence };
}

function page(fragments: Fragment[]) {
  return [buildPageLayout(1, 612, 792, 'text-layer', buildRows(fragments))];
}

function qualityOf(result: ReturnType<typeof extractFields>, path: string): number {
  const field = result.fields.find((f) => f.path === path);
  if (!field) throw new Error(`no outcome for ${path}`);
  return field.quality;
}

describe('format check as evidence', () => {
  it('counts types, date formats, enums and patterns as checks, plain text as none', () => {
    expect(constrainsValue({ type: 'number' })).toBe(true);
    expect(constrainsValue({ type: 'boolean' })).toBe(true);
    expect(constrainsValue({ type: 'string', format: 'date' })).toBe(true);
    expect(constrainsValue({ type: 'string', enum: ['M', 'F'] })).toBe(true);
    expect(constrainsValue({ type: 'string', pattern: '^[A-Z]{3}$' })).toBe(true);
    expect(constrainsValue({ type: 'string' })).toBe(false);
    expect(constrainsValue({ type: 'string', format: 'email', enum: [] })).toBe(false);
  });

  it('removes part of the remaining doubt, keeping the order of qualities', () => {
    expect(withFormatCheck(0.4)).toBeCloseTo(1 - 0.6 * (1 - FORMAT_CHECK_WEIGHT), 10);
    expect(withFormatCheck(1)).toBe(1);
    expect(withFormatCheck(0)).toBe(FORMAT_CHECK_WEIGHT);
    expect(withFormatCheck(0.3)).toBeLessThan(withFormatCheck(0.5));
  });

  it('gives a value that parses as its field asks more quality than free text found the same way', () => {
    const schema = {
      type: 'object',
      properties: {
        visit_date: { type: 'string', format: 'date' },
        visit_note: { type: 'string' },
      },
    };
    // The same label wording, the same place, the same OCR confidence: only the format check differs.
    const result = extractFields(
      page([at('Visit Date: 03/05/2024', 72, 100, 80), at('Visit Note: follow up', 72, 200, 80)]),
      schema,
      { fast: false },
    );
    expect(result.data).toEqual({ visit_date: '2024-03-05', visit_note: 'follow up' });
    const note = qualityOf(result, 'visit_note');
    expect(note).toBeLessThan(1);
    expect(qualityOf(result, 'visit_date')).toBeCloseTo(withFormatCheck(note), 10);
  });

  it('gives no format evidence to a value that fails its check', () => {
    const schema = { type: 'object', properties: { amount: { type: 'number' }, note: { type: 'string' } } };
    // A number among words is read but fails the type check (it may be a label): half the quality, no more.
    const result = extractFields(
      page([at('Amount: 12 apples and pears', 72, 100, 80), at('Note: follow up', 72, 200, 80)]),
      schema,
      { fast: false },
    );
    expect(result.data.amount).toBe(12);
    expect(qualityOf(result, 'amount')).toBeCloseTo(qualityOf(result, 'note') * 0.5, 10);
  });
});
