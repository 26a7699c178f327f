import { describe, expect, it } from 'vitest';
import type { Fragment } from '../src/layout/types.js';
import { paperResolution } from '../src/paper-resolution.js';

/** `count` words `height` points high. */
const words = (count: number, height: number): Fragment[] =>
  Array.from({ length: count }, (_, i) => ({
    text: `w${i}`,
    box: { x0: 10, y0: 20 * i, x1: 40, y1: 20 * i + height },
    fontSize: height,
    confidence: 90,
  }));

describe("a scanned page's pixels per inch of paper", () => {
  it("keeps a resolution a scanner states, and reads a writer's default or a missing one from the words", () => {
    expect(paperResolution({ dpi: 150, dpiKnown: true }, words(20, 8))).toBe(150);
    // Words 30 px high: a page scanned at 200 DPI, whatever 72 or 96 the file says.
    expect(paperResolution({ dpi: 72, dpiKnown: false }, words(20, 30))).toBeCloseTo(200);
    expect(paperResolution({ dpi: 72, dpiKnown: true }, words(20, 30))).toBeCloseTo(200);
    expect(paperResolution({ dpi: 96, dpiKnown: true }, words(20, 22.5))).toBeCloseTo(200);
  });

  it('keeps the stated resolution when too few words say how large the type is', () => {
    expect(paperResolution({ dpi: 72, dpiKnown: false }, words(5, 30))).toBe(72);
  });
});
