/**
 * `docbench dataset import docile`: the fixture in DocILE's published layout (test/fixtures/import/docile/README.md)
 * imported, validated and scored through a stored system, every figure computed by hand here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { f1, FIXTURES, readJson, roundTrip } from './import-round-trip.js';

const SOURCE = path.join(FIXTURES, 'docile');
const [A, B, C] = ['0a1b2c3d4e5f60718293a4b5', '1b2c3d4e5f60718293a4b5c6', '2c3d4e5f60718293a4b5c6d7'];

interface Field {
  fieldtype: string;
  text: string;
  bbox: [number, number, number, number];
}

describe('dataset import docile', () => {
  it('gives KILE fields and LIR line items as truth, field boxes as regions; scored by hand', async () => {
    const truthA = {
      vendor_name: 'Acme Tools GmbH',
      document_id: 'INV-1001',
      date_issue: '04/03/2021',
      amount_total_gross: '1,190.00',
      line_items: [
        { line_item_description: 'Hammer', line_item_quantity: '2', line_item_amount_gross: '40.00' },
        { line_item_description: 'Drill', line_item_quantity: '1', line_item_amount_gross: '1,150.00' },
      ],
    };
    const { dataset, imported, summary } = await roundTrip('docile', SOURCE, {
      // 4 key fields right; the second item's quantity wrong: 9 TP, 1 FP, 1 FN.
      [`${A}.json`]: JSON.stringify({
        ...truthA,
        line_items: [truthA.line_items[0], { ...truthA.line_items[1], line_item_quantity: '2' }],
      }),
      // The vendor missed: 5 TP, 1 FN.
      [`${B}.json`]: JSON.stringify({
        document_id: 'INV-1002',
        amount_total_gross: '55.00',
        line_items: [{ line_item_description: 'Paper A4', line_item_quantity: '5', line_item_amount_gross: '55.00' }],
      }),
      [`${C}.json`]: JSON.stringify({ vendor_name: 'Gamma AG', document_id: 'INV-2001', amount_total_gross: '12.50' }),
    });
    expect(imported.stdout + imported.stderr).toContain('skipped 1 (3d4e5f60718293a4b5c6d7e8: no annotations/ file)');
    // The total is annotated twice: the first in reading order is the truth, both are regions.
    expect(await readJson(path.join(dataset, 'truth', `${A}.json`))).toEqual(truthA);
    const annotation = (await readJson(path.join(SOURCE, 'annotations', `${A}.json`))) as {
      field_extractions: Field[];
      line_item_extractions: Field[];
    };
    const fields = [...annotation.field_extractions, ...annotation.line_item_extractions];
    const regions = (await readJson(path.join(dataset, 'truth', `${A}.regions.json`))) as {
      width: number;
      height: number;
      bounding_boxes: { bounding_box: Record<string, number>; content: string }[];
    }[];
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ width: 612, height: 792 });
    expect(regions[0]!.bounding_boxes.map((box) => box.content)).toEqual(fields.map((field) => field.text));
    const [left, top, right, bottom] = fields[0]!.bbox;
    const inches = (value: number) => Math.round(value * 10_000) / 10_000;
    expect(regions[0]!.bounding_boxes[0]!.bounding_box).toEqual({
      min_x: inches(left * 8.5),
      min_y: inches(top * 11),
      max_x: inches(right * 8.5),
      max_y: inches(bottom * 11),
    });
    const schema = (await readJson(path.join(dataset, 'schema.json'))) as { properties: Record<string, unknown> };
    expect(schema.properties.line_items).toMatchObject({ type: 'array', items: { type: 'object' } });

    const team = summary.systems.team!;
    const extraction = (team.extraction as Record<string, Record<string, number>>).slow!;
    expect(extraction).toMatchObject({ tp: 17, fp: 1, fn: 2, documents: 3 });
    expect(extraction.f1).toBeCloseTo(f1(17, 1, 2), 12);
    expect(team.by_tag.split!.train!.extraction_f1.slow).toBeCloseTo(f1(14, 1, 2), 12);
    expect(team.by_tag.split!.val!.extraction_f1.slow).toBe(1);
    expect(team.by_tag.document_type!.purchase_order!.documents).toBe(1);
  });

  it('--split val imports only the documents val.json lists', async () => {
    const { summary } = await roundTrip('docile', SOURCE, { [`${C}.json`]: '{}' }, ['--split', 'val']);
    expect(Object.keys(summary.systems.team!.by_tag.split!)).toEqual(['val']);
  });
});
