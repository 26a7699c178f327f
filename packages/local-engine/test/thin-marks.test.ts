import { describe, expect, it } from 'vitest';
import type { Fragment } from '../src/layout/types.js';
import { dropThinMarks } from '../src/thin-marks.js';

function word(text: string, y0: number, height: number): Fragment {
  return { text, box: { x0: 10, y0, x1: 40, y1: y0 + height }, fontSize: height * 0.9, confidence: 70 };
}

describe('dropThinMarks', () => {
  it('drops a region far thinner than the page’s text read as a character or two (a broken rule)', () => {
    const rows = [word('03/02/2025', 100, 12), word('$25.00', 100, 12), word('ee', 113, 5), word('$90.00', 118, 12)];
    expect(dropThinMarks(rows).map((w) => w.text)).toEqual(['03/02/2025', '$25.00', '$90.00']);
  });

  it('keeps short words of text height, and longer text however small', () => {
    const rows = [word('Total', 100, 12), word('A', 100, 12), word('1', 120, 10), word('Page 2 of 3', 140, 5)];
    expect(dropThinMarks(rows).map((w) => w.text)).toEqual(['Total', 'A', '1', 'Page 2 of 3']);
  });
});
