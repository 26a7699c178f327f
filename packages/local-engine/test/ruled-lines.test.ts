import { describe, expect, it } from 'vitest';
import { splitAtVerticalRules } from '../src/ruled-lines.js';
import type { GreyPage } from '@docbench/pdf';

describe('splitAtVerticalRules', () => {
  it("cuts a region at a photo's grey rule on bright paper, judged against the paper around it", () => {
    // Paper 230, a two-pixel rule at 145 down the middle: lighter than a fixed ink cut at 140.
    const width = 200;
    const height = 60;
    const pixels = new Uint8Array(width * height).fill(230);
    for (let y = 0; y < height; y++) {
      pixels[y * width + 100] = 145;
      pixels[y * width + 101] = 145;
    }
    const raster: GreyPage = { width, height, dpi: 180, dpiKnown: true, pixels };
    const pieces = splitAtVerticalRules(raster, [{ x0: 20, y0: 20, x1: 180, y1: 40 }]);
    expect(pieces.map((p) => [Math.round(p.x0), Math.round(p.x1), p.afterRule ?? false])).toEqual([
      [20, 98, false],
      [104, 180, true],
    ]);
  });
});
