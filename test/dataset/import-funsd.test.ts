/**
 * `docbench dataset import funsd` and `xfund`: the fixtures in FUNSD's and XFUND's published layouts
 * (test/fixtures/import/funsd/README.md, xfund/README.md) imported, validated and scored through a stored
 * system, every figure computed by hand here.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { f1, FIXTURES, normalisedLength, readJson, roundTrip } from './import-round-trip.js';

describe('dataset import funsd', () => {
  it('gives each form its question → answer pairs, its entities in reading order, a region per entity; scored by hand', async () => {
    const memo = '## MEMORANDUM\n\nSubject:\n\nBudget review\n\ncc:\n\nFile\n';
    const { dataset, imported, summary } = await roundTrip('funsd', path.join(FIXTURES, 'funsd'), {
      // 5 questions: the second "Phone:" missed (FN); "Date:" is another form's question, not this one's (FP).
      '0000971160.json': JSON.stringify({
        'TO:': 'Dr. Jane Miller',
        'FROM:': 'R. Patel',
        'Phone:': '(212) 555-0147',
        'Remarks:': 'Please review before Friday.',
        'Date:': '1/1/99',
      }),
      // 3 questions, the brand wrong: 2 TP, 1 FP, 1 FN.
      '0000989556.json': JSON.stringify({ 'Date:': '4/12/96', 'Brand:': 'MARLBORO', 'Quantity:': '250 cartons' }),
      '82092117.json': JSON.stringify({ 'Subject:': 'Budget review', 'cc:': 'File' }),
      // The last answer left out.
      '82092117.md': memo.replace('\n\nFile\n', '\n'),
    });
    expect(imported.stdout + imported.stderr).toContain('imported 3 documents');
    expect(imported.stdout + imported.stderr).toContain('skipped 1 (82092118: no annotations/ file)');

    // Links are listed by both ends: each pair once; the repeated question keyed by its position; two answers joined.
    expect(await readJson(path.join(dataset, 'truth', '0000971160.json'))).toEqual({
      'TO:': 'Dr. Jane Miller',
      'FROM:': 'R. Patel',
      'Phone:': '(212) 555-0147',
      'Phone: (2)': '(212) 555-0199',
      'Remarks:': 'Please review before Friday.',
    });
    // A question without an answer is no pair.
    expect(await readJson(path.join(dataset, 'truth', '0000989556.json'))).toEqual({
      'Date:': '4/12/96',
      'Brand:': 'WINSTON',
      'Quantity:': '250 cartons',
    });
    expect(await readFile(path.join(dataset, 'truth', '82092117.md'), 'utf8')).toBe(memo);
    const annotation = (await readJson(
      path.join(FIXTURES, 'funsd', 'testing_data', 'annotations', '82092117.json'),
    )) as {
      form: { box: number[]; text: string }[];
    };
    const regions = (await readJson(path.join(dataset, 'truth', '82092117.regions.json'))) as {
      bounding_boxes: { bounding_box: Record<string, number>; content: string }[];
    }[];
    expect(regions[0]!.bounding_boxes).toEqual(
      annotation.form.map(({ box: [x0, y0, x1, y1], text }) => ({
        bounding_box: { min_x: x0! / 100, min_y: y0! / 100, max_x: x1! / 100, max_y: y1! / 100 },
        content: text,
      })),
    );
    const schema = (await readJson(path.join(dataset, 'schema.json'))) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toHaveLength(10);

    const team = summary.systems.team!;
    const extraction = (team.extraction as Record<string, Record<string, number>>).slow!;
    expect(extraction).toMatchObject({ tp: 8, fp: 2, fn: 2 });
    expect(extraction.f1).toBeCloseTo(f1(8, 2, 2), 12);
    const missing = normalisedLength('File');
    expect((team.markdown as { similarity: number }).similarity).toBeCloseTo(1 - missing / normalisedLength(memo), 12);
    expect(team.by_tag.split!.train!.extraction_f1.slow).toBeCloseTo(f1(6, 2, 2), 12);
    expect(team.by_tag.split!.test!.extraction_f1.slow).toBe(1);
    expect(team.by_tag.language!.en!.documents).toBe(3);
  });
});

describe('dataset import xfund', () => {
  it('reads a <lang>.<split>.json of documents[] with its images folder, tagging the language; scored by hand', async () => {
    const { dataset, imported, summary } = await roundTrip('xfund', path.join(FIXTURES, 'xfund'), {
      'de_val_0.json': JSON.stringify({ 'Name:': 'Jürgen Weiß', 'Straße:': 'Hauptstraße 5', 'Datum:': '03.05.2021' }),
      'de_val_1.json': JSON.stringify({ 'Kundennummer:': '48218' }),
    });
    expect(imported.stdout + imported.stderr).toContain('skipped 1 (de_val_2: no image de_val_2.jpg)');
    expect(await readJson(path.join(dataset, 'truth', 'de_val_0.json'))).toEqual({
      'Name:': 'Jürgen Weiß',
      'Datum:': '03.05.2021',
      'Straße:': 'Hauptstraße 5',
    });
    const manifest = (await readJson(path.join(dataset, 'dataset.json'))) as { documents: { tags: unknown }[] };
    expect(manifest.documents.map((document) => document.tags)).toEqual([
      { source: 'xfund', language: 'de', split: 'val' },
      { source: 'xfund', language: 'de', split: 'val' },
    ]);
    const team = summary.systems.team!;
    const extraction = (team.extraction as Record<string, Record<string, number>>).slow!;
    expect(extraction).toMatchObject({ tp: 3, fp: 1, fn: 1 });
    expect(team.by_tag.language!.de!.extraction_f1.slow).toBeCloseTo(f1(3, 1, 1), 12);
  });
});
