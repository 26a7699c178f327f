/**
 * `docbench dataset import cord`: the fixture in CORD v2's published layout (test/fixtures/import/cord/README.md)
 * imported, validated and scored through a stored system, every figure computed by hand here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { f1, FIXTURES, readJson, roundTrip } from './import-round-trip.js';

const SOURCE = path.join(FIXTURES, 'cord');

interface Quad {
  x1: number;
  y1: number;
  x3: number;
  y3: number;
}
interface CordJson {
  gt_parse: Record<string, unknown>;
  valid_line: { words: { quad: Quad; text: string }[] }[];
}

describe('dataset import cord', () => {
  it('takes gt_parse as truth (menu always a list), a schema of the fields present, a region per valid_line; scored by hand', async () => {
    const source = (split: string, id: string) =>
      readJson(path.join(SOURCE, split, 'json', `${id}.json`)) as Promise<CordJson>;
    const first = await source('train', 'receipt_00000');
    const second = await source('train', 'receipt_00001');
    const dev = await source('dev', 'receipt_00100');
    const firstTruth = first.gt_parse as { total: Record<string, string> };
    const { dataset, imported, summary } = await roundTrip('cord', SOURCE, {
      // 11 leaves, the change wrong: 10 TP, 1 FP, 1 FN.
      'receipt_00000.json': JSON.stringify({
        ...first.gt_parse,
        total: { ...firstTruth.total, changeprice: '11,000' },
      }),
      // 6 leaves, the sub-item missing: 4 TP, 2 FN.
      'receipt_00001.json': JSON.stringify({
        menu: [{ nm: 'KOPI SUSU', cnt: '1', price: '18,000' }],
        total: { total_price: '23,000' },
      }),
      // 5 leaves, all right.
      'receipt_00100.json': JSON.stringify(dev.gt_parse),
    });
    expect(imported.stdout + imported.stderr).toContain('imported 3 documents');
    expect(imported.stdout + imported.stderr).toContain('skipped 1 (receipt_00101: no json/ annotation)');

    // The one-item receipt's object became a list of one, and so did its sub-item.
    const menu = (second.gt_parse as { menu: Record<string, unknown> }).menu;
    expect(await readJson(path.join(dataset, 'truth', 'receipt_00001.json'))).toEqual({
      menu: [{ ...menu, sub: [menu.sub] }],
      total: { total_price: '23,000' },
    });
    expect(await readJson(path.join(dataset, 'truth', 'receipt_00000.json'))).toEqual(first.gt_parse);
    const schema = (await readJson(path.join(dataset, 'schema.json'))) as {
      properties: Record<string, { type: string }>;
    };
    expect(Object.keys(schema.properties)).toEqual(['menu', 'sub_total', 'total']);
    expect(schema.properties.menu).toMatchObject({
      type: 'array',
      items: { type: 'object', properties: { sub: { type: 'array', items: { type: 'object' } } } },
    });

    const regions = (await readJson(path.join(dataset, 'truth', 'receipt_00000.regions.json'))) as {
      bounding_boxes: { bounding_box: Record<string, number>; content: string }[];
    }[];
    expect(regions[0]!.bounding_boxes).toHaveLength(first.valid_line.length);
    const words = first.valid_line[0]!.words;
    // 100 dpi: pixels / 100 = inches.
    expect(regions[0]!.bounding_boxes[0]).toEqual({
      bounding_box: {
        min_x: words[0]!.quad.x1 / 100,
        min_y: Math.min(...words.map((w) => w.quad.y1)) / 100,
        max_x: words.at(-1)!.quad.x3 / 100,
        max_y: Math.max(...words.map((w) => w.quad.y3)) / 100,
      },
      content: words.map((w) => w.text).join(' '),
    });

    const extraction = (summary.systems.team!.extraction as Record<string, Record<string, number>>).slow!;
    expect(extraction).toMatchObject({ tp: 19, fp: 1, fn: 3, documents: 3 });
    expect(extraction.f1).toBeCloseTo(f1(19, 1, 3), 12);
    expect(extraction.exact_match_rate).toBeCloseTo(1 / 3, 12);
    const bySplit = summary.systems.team!.by_tag.split!;
    expect(bySplit.train!.documents).toBe(2);
    expect(bySplit.train!.extraction_f1.slow).toBeCloseTo(f1(14, 1, 3), 12);
    expect(bySplit.dev!.extraction_f1.slow).toBe(1);
  });
});
