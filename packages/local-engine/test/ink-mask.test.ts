import { describe, expect, it } from 'vitest';
import { contrastInkShare, inkOf } from '../src/ink-mask.js';
import type { GreyPage } from '@docbench/pdf';

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

describe('the share of its paper below which a blurred page is ink', () => {
  /** Paper at 240 with bars of `ink` grey, and their one-pixel edges halfway between the two. */
  function barsPage(ink: number): GreyPage {
    const width = 300;
    const height = 60;
    const pixels = new Uint8Array(width * height).fill(240);
    for (let x = 20; x < 280; x += 10)
      for (let y = 10; y < 50; y++) {
        for (const dx of [1, 2, 3]) pixels[y * width + x + dx] = ink;
        for (const dx of [0, 4]) pixels[y * width + x + dx] = (ink + 240) / 2;
      }
    return { width, height, dpi: 200, dpiKnown: true, pixels };
  }

  it('stays at 0.7 on a sharp page and moves halfway between paper and ink when the ink has lost contrast', () => {
    expect(contrastInkShare(barsPage(20))).toBe(0.7);
    // Ink at 0.6 of the paper: pixels darker than 0.8 of it are ink.
    expect(contrastInkShare(barsPage(144))).toBeCloseTo(0.8, 2);
  });
});
