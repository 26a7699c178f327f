import { describe, expect, it } from 'vitest';
import { inkOf } from '../../src/local/ink-mask.js';
import type { GreyPage } from '../../src/pdf/index.js';

/** Paper shaded from 230 on the left to 120 on the right (darker than a fixed ink cut at 140), with a stroke of 60% of the paper's grey every 50 px. */
function shadedPage(): GreyPage {
  const width = 400;
  const height = 100;
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const paper = 230 - (110 * x) / width;
      pixels[y * width + x] = Math.round(x % 50 === 25 ? paper * 0.6 : paper);
    }
  return { width, height, dpi: 200, dpiKnown: true, pixels };
}

describe('ink judged against the paper around it', () => {
  it('finds the strokes on bright and dark paper alike, and no ink in the paper', () => {
    const page = shadedPage();
    const { mask } = inkOf(page);
    const row = 50 * page.width;
    const inkColumns = Array.from({ length: page.width }, (_, x) => x).filter((x) => mask[row + x] === 1);
    expect(inkColumns).toEqual([25, 75, 125, 175, 225, 275, 325, 375]);
  });
});
