/**
 * The worked examples of docs/metrics/*.md are tests: each table marked `<!-- examples:NAME -->` is read from
 * the page and every row is scored, so the documented contract and the code cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreExtraction } from '../../src/score/extraction/index.js';
import { markdownSimilarity } from '../../src/score/markdown/index.js';
import type { Json, JsonSchema } from '../../src/types.js';

function readExampleTable(page: string, name: string): string[][] {
  const text = readFileSync(new URL(`../../docs/metrics/${page}`, import.meta.url), 'utf8');
  const marker = `<!-- examples:${name} -->`;
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`docs/metrics/${page}: no ${marker}`);
  const lines = text
    .slice(start + marker.length)
    .trimStart()
    .split('\n');
  const rows: string[][] = [];
  // Skip the header and the |---| line; the table ends at the first line that is not a row. No example
  // contains a `|` of its own, so cells split on every one.
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** `` `x` `` → x; a cell of two backticks is the empty string. */
function unquote(cell: string): string {
  return cell.replace(/^`+ ?|`+$/g, '');
}

function readCounts(cell: string): [number, number, number] {
  const [tp, fp, fn] = cell.split('/').map(Number);
  return [tp!, fp!, fn!];
}

function readFraction(cell: string): number {
  const [numerator, denominator = '1'] = cell.split('/');
  return Number(numerator) / Number(denominator);
}

function schemaOf(cell: string): JsonSchema | undefined {
  if (cell === '') return undefined;
  const properties = Object.fromEntries(cell.split(',').map((key) => [key.trim(), { type: 'string' }]));
  return { type: 'object', properties } as JsonSchema;
}

describe('docs/metrics/extraction.md worked examples', () => {
  const rows = readExampleTable('extraction.md', 'extraction');

  it('has the examples', () => {
    expect(rows.length).toBeGreaterThanOrEqual(9);
  });

  for (const [truth, prediction, schema, normalised, f1, strict, shows] of rows) {
    it(shows!, () => {
      const options = { schema: schemaOf(schema!) };
      const score = scoreExtraction(
        JSON.parse(unquote(truth!)) as Json,
        JSON.parse(unquote(prediction!)) as Json,
        options,
      );
      expect([score.tp, score.fp, score.fn]).toEqual(readCounts(normalised!));
      expect(score.f1).toBeCloseTo(Number(f1), 3);
      expect([score.strict.tp, score.strict.fp, score.strict.fn]).toEqual(readCounts(strict!));
    });
  }
});

describe('docs/metrics/markdown.md worked examples', () => {
  const rows = readExampleTable('markdown.md', 'markdown');

  it('has the examples', () => {
    expect(rows.length).toBeGreaterThanOrEqual(4);
  });

  for (const [prediction, truth, , edits, length, ned] of rows) {
    it(`${prediction} vs ${truth}: NED ${ned}`, () => {
      const score = markdownSimilarity(unquote(prediction!), unquote(truth!));
      expect(score.edits).toBe(Number(edits));
      expect(score.length).toBe(Number(length));
      expect(score.ned).toBeCloseTo(readFraction(ned!), 12);
    });
  }
});
