/** A page printed in one coloured ink is read as if that ink were black; a black page with some colour is not changed. */
import { describe, expect, it } from 'vitest';
import { darkenColouredInk } from '../src/coloured-ink.js';

type Rgb = readonly [number, number, number];
const WHITE: Rgb = [255, 255, 255];
const SIZE = 200;

/** A SIZE² RGB page of `paper`, painted by `paint(x, y)` where it returns a colour. */
function page(paper: Rgb, paint: (x: number, y: number) => Rgb | undefined) {
  const rgb = new Uint8Array(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) rgb.set(paint(x, y) ?? paper, (y * SIZE + x) * 3);
  // Grey by luminance, as the decoder gives it.
  const grey = new Uint8Array(SIZE * SIZE);
  for (let p = 0; p < grey.length; p++)
    grey[p] = Math.round(0.299 * rgb[3 * p]! + 0.587 * rgb[3 * p + 1]! + 0.114 * rgb[3 * p + 2]!);
  return { rgb, grey, before: Uint8Array.from(grey) };
}

/** A form's ruling every 20 px (2 px wide) in `ink`, and black typed text in the boxes' lower halves. */
function form(ink: Rgb) {
  return (x: number, y: number): Rgb | undefined => {
    if (x % 20 < 2 || y % 20 < 2) return ink;
    if (y % 20 >= 12 && y % 20 < 16 && x % 20 >= 6 && x % 20 < 9) return [0, 0, 0];
    return undefined;
  };
}

const at = (x: number, y: number) => y * SIZE + x;

describe('darkenColouredInk', () => {
  it('makes a light dropout red as dark as ink the rules are read from, and leaves the black text and paper', () => {
    const { rgb, grey, before } = page(WHITE, form([245, 150, 150]));
    // By luminance the red rule is 70% of the paper: the ink mask's limit, which its fainter edges miss.
    expect(before[at(0, 5)]).toBe(178);
    expect(darkenColouredInk(grey, rgb, 3)).toBe(true);
    expect(grey[at(0, 5)]).toBeLessThan(100);
    expect(grey[at(7, 13)]).toBe(0);
    expect(grey[at(10, 5)]).toBe(255);
  });

  it('darkens a green form the same way, measured against a warm paper', () => {
    const paper: Rgb = [245, 235, 215];
    const { rgb, grey, before } = page(paper, form([170, 225, 170]));
    expect(darkenColouredInk(grey, rgb, 3)).toBe(true);
    expect(grey[at(0, 5)]).toBeLessThan(before[at(0, 5)]! - 60);
    expect(grey[at(10, 5)]).toBe(before[at(10, 5)]);
  });

  it('leaves a black page whose strokes have the two coloured fringes of sub-pixel anti-aliasing', () => {
    const { rgb, grey, before } = page(WHITE, (x, y) => {
      if (y % 10 >= 6) return undefined;
      const column = x % 8;
      return column === 2
        ? [250, 140, 60]
        : column === 3 || column === 4
          ? [0, 0, 0]
          : column === 5
            ? [60, 140, 250]
            : undefined;
    });
    expect(darkenColouredInk(grey, rgb, 3)).toBe(false);
    expect(grey).toEqual(before);
  });

  it('leaves a black page with a blue link, and one with rows shaded in a light tint', () => {
    const link = page(WHITE, (x, y) => (y < 4 && x < 80 ? [5, 99, 193] : form([0, 0, 0])(x, y)));
    expect(darkenColouredInk(link.grey, link.rgb, 3)).toBe(false);
    expect(link.grey).toEqual(link.before);
    const shaded = page(WHITE, (x, y) => form([0, 0, 0])(x, y) ?? (y % 40 < 20 ? [225, 235, 250] : undefined));
    expect(darkenColouredInk(shaded.grey, shaded.rgb, 3)).toBe(false);
    expect(shaded.grey).toEqual(shaded.before);
  });
});
