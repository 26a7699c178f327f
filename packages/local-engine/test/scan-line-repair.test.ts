import { describe, expect, it } from 'vitest';
import { repairLostScanLines } from '../src/scan-line-repair.js';
import type { GreyPage } from '@docbench/pdf';

function page(rows: string[]): GreyPage {
  const width = rows[0]!.length;
  const pixels = Uint8Array.from(
    rows
      .join('')
      .split('')
      .map((c) => (c === '#' ? 0 : 255)),
  );
  return { width, height: rows.length, dpi: 150, dpiKnown: true, pixels };
}

function rows(p: GreyPage): string[] {
  return Array.from({ length: p.height }, (_, y) =>
    Array.from({ length: p.width }, (_, x) => (p.pixels[y * p.width + x]! < 140 ? '#' : '.')).join(''),
  );
}

describe('repairLostScanLines', () => {
  it('rebuilds a blank row that cuts strokes running on above and below it', () => {
    const strokes = '#.#.#.#.#.#.#.#.#.#.';
    const lost = page([strokes, strokes, '....................', strokes, '###.................']);
    expect(rows(repairLostScanLines(lost))).toEqual([strokes, strokes, strokes, strokes, '###.................']);
  });

  it('leaves the white between lines of text alone, and pages with no lost row untouched', () => {
    const text = page(['#.#.#.#.#.#.#.#.#.#.', '....................', '....................', '.#.#.#.#.#.#.#.#.#.#']);
    expect(repairLostScanLines(text)).toBe(text);
    // A blank row with only a few strokes through it is a gap in the print, not a lost line.
    const few = page(['#.........#.........', '....................', '#.........#.........']);
    expect(repairLostScanLines(few)).toBe(few);
  });
});
