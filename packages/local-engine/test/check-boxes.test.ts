import { describe, expect, it } from 'vitest';
import { dropBoxGlyphs, findCheckBoxes, withoutPrintedCharacters } from '../src/check-boxes.js';
import type { GreyPage } from '@docbench/pdf';

/** A blank page of `paper` grey, with helpers to draw ink of a given grey. */
function page(width: number, height: number, dpi: number, paper: number | ((x: number, y: number) => number)) {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) pixels[y * width + x] = typeof paper === 'number' ? paper : paper(x, y);
  const raster: GreyPage = { width, height, dpi, dpiKnown: true, pixels };
  const set = (x: number, y: number, grey: number) => {
    pixels[y * width + x] = grey;
  };
  const fill = (x0: number, y0: number, x1: number, y1: number, grey: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) set(x, y, grey);
  };
  /** A square outline, one pixel wide, `side` pixels from x0, y0. */
  const square = (x0: number, y0: number, side: number, grey: number) => {
    const x1 = x0 + side - 1;
    const y1 = y0 + side - 1;
    fill(x0, y0, x1, y0, grey);
    fill(x0, y1, x1, y1, grey);
    fill(x0, y0, x0, y1, grey);
    fill(x1, y0, x1, y1, grey);
  };
  /** An X from corner to corner inside a square. */
  const cross = (x0: number, y0: number, side: number, grey: number) => {
    for (let i = 3; i < side - 3; i++) {
      set(x0 + i, y0 + i, grey);
      set(x0 + side - 1 - i, y0 + i, grey);
    }
  };
  return { raster, set, fill, square, cross };
}

describe('findCheckBoxes', () => {
  it("finds a photo's grey boxes on grey, shaded paper, judged against the paper around them", () => {
    // Paper darkening from 230 to 180 across the page; rules at 145 and 120: lighter than a fixed ink cut at 140
    // on the bright side, and with the paper dark around them on the other.
    const p = page(400, 120, 180, (x) => Math.round(230 - (50 * x) / 400));
    p.square(40, 50, 20, 145);
    p.square(340, 50, 20, 120);
    p.cross(340, 50, 20, 120);
    const boxes = findCheckBoxes(p.raster);
    expect(boxes.map((b) => [Math.round(b.box.x0), b.marked])).toEqual([
      [16, false],
      [136, true],
    ]);
  });

  it("finds a fax's box whose sides noise broke into pieces, and one a speck widens", () => {
    const p = page(300, 100, 150, 255);
    // Three one-pixel gaps in every side (a sixth of it), at the same places in the top and bottom sides: two
    // components.
    p.square(40, 40, 18, 0);
    for (const at of [44, 49, 53]) {
      for (const y of [40, 57]) p.set(at, y, 255);
      for (const x of [40, 57]) p.set(x, at, 255);
    }
    // A stroke of noise touching the top rule of the second box: its component is three pixels taller.
    p.square(140, 40, 18, 0);
    for (const y of [37, 38, 39]) p.set(150, y, 0);
    const boxes = findCheckBoxes(p.raster);
    expect(boxes).toHaveLength(2);
    expect(boxes.every((b) => !b.marked)).toBe(true);
  });

  it('accepts a box with one side broken when the other three hold, but not an E, nor letter-size rings', () => {
    const p = page(400, 100, 150, 255);
    // A marked box whose top side lost most of its middle (a dropped scan line, a mark's stroke).
    p.square(40, 40, 18, 0);
    p.cross(40, 40, 18, 0);
    p.fill(46, 40, 51, 40, 255);
    // A bold E of box size: left, top and bottom strokes full, the open side two thirds its arms' ends.
    p.fill(140, 40, 143, 57, 0);
    for (const y of [40, 47, 54]) p.fill(140, y, 157, y + 3, 0);
    // A ring of caption-letter size (0.06 in at 150 DPI): an O, not a check box.
    p.square(240, 40, 9, 0);
    const boxes = findCheckBoxes(p.raster);
    expect(boxes.map((b) => [Math.round(b.box.x0), b.marked])).toEqual([[19, true]]);
  });

  it('finds a box whose mark was typed out of register across its side, marked, and one joined to a word, empty, at the size of the boxes that stand alone', () => {
    const draw = (withLoneBox: boolean) => {
      const p = page(500, 120, 200, 255);
      // A 0.1-in box (20 px at 200 DPI) and an X of its size typed 4 pt (11 px) right and 3 pt (8 px) down of it:
      // only the X's corner is inside, and the box and the X are one component of ink.
      p.square(40, 40, 20, 0);
      for (let i = 0; i < 18; i++) {
        p.fill(51 + i, 48 + i, 52 + i, 48 + i, 0);
        p.fill(68 - i, 48 + i, 69 - i, 48 + i, 0);
      }
      // An empty box whose right side a letter's stroke touches (a word printed tight against it).
      p.square(140, 40, 20, 0);
      p.fill(160, 44, 175, 45, 0);
      p.fill(174, 44, 175, 60, 0);
      // Two bold letters closing a square between them (strokes 0.03 in thick): not a box.
      p.fill(240, 40, 245, 62, 0);
      p.fill(240, 40, 262, 45, 0);
      p.fill(257, 40, 262, 62, 0);
      p.fill(240, 57, 262, 62, 0);
      p.fill(263, 50, 280, 55, 0);
      if (withLoneBox) p.square(340, 40, 20, 0);
      return findCheckBoxes(p.raster).map((b) => [Math.round(b.box.x0), b.marked]);
    };
    expect(draw(true)).toEqual([
      [122, false],
      [14, true],
      [50, false],
    ]);
    // Without a box standing alone there is no size to look for: a receipt's blocky digits close squares too.
    expect(draw(false)).toEqual([]);
  });

  it('finds the faint rules of a blurred page, judged against how dark its ink still is', () => {
    // Paper at 240 whose darkest ink reaches only 0.6 of it (text blurred by 2 px), and box rules at 0.75 of it:
    // lighter than a fixed share of 0.7, darker than halfway between the paper and the ink.
    const p = page(400, 100, 200, 240);
    for (let x = 200; x < 380; x += 6) p.fill(x, 30, x + 1, 60, 144);
    p.square(40, 40, 20, 180);
    p.square(100, 40, 20, 180);
    p.cross(100, 40, 20, 150);
    const boxes = findCheckBoxes(p.raster);
    expect(boxes.map((b) => [Math.round(b.box.x0), b.marked])).toEqual([
      [14, false],
      [36, true],
    ]);
  });

  it('never takes a printed dot or a letter under 12 pixels for a box, whatever resolution the file states', () => {
    // A dot-matrix receipt scanned without a stated resolution (72 DPI assumed): its colon is a square blob of
    // 8 pixels, 0.11 in at 72 DPI.
    const p = page(200, 60, 72, 250);
    p.fill(40, 20, 47, 27, 30);
    p.square(100, 20, 9, 30);
    expect(findCheckBoxes(p.raster)).toEqual([]);
  });

  it('finds a solid mark alone in a ruled cell as a marked box, but not a bullet before a word, nor a bold letter', () => {
    // A table's Yes/No cells at 150 DPI: 40 × 20 px rectangles (no square box), one holding a filled square.
    const p = page(400, 160, 150, 255);
    const cell = (x0: number, y0: number) => {
      p.fill(x0, y0, x0 + 39, y0, 0);
      p.fill(x0, y0 + 19, x0 + 39, y0 + 19, 0);
      p.fill(x0, y0, x0, y0 + 19, 0);
      p.fill(x0 + 39, y0, x0 + 39, y0 + 19, 0);
    };
    cell(40, 40);
    cell(79, 40);
    p.fill(95, 46, 103, 54, 0);
    // A bullet before a word on open paper, and a bold "H" (solid but for its gaps) in a cell of its own.
    p.fill(40, 110, 48, 118, 0);
    p.fill(56, 108, 58, 120, 0);
    p.fill(56, 108, 66, 110, 0);
    cell(200, 100);
    p.fill(214, 104, 216, 114, 0);
    p.fill(222, 104, 224, 114, 0);
    p.fill(214, 108, 224, 110, 0);
    const boxes = findCheckBoxes(p.raster);
    expect(boxes.map((b) => [Math.round((b.box.x0 * 150) / 72), Math.round((b.box.y0 * 150) / 72), b.marked])).toEqual([
      [95, 46, true],
    ]);
  });
});

describe('dropBoxGlyphs', () => {
  const box = (x0: number) => ({ box: { x0, y0: 0, x1: x0 + 10, y1: 10 }, marked: false });

  it("drops the OCR's reading of a box and splits a word at the box inside it", () => {
    // `M ☐ F ☒` read as one word `M口F凶`: the options M and F, not one word MF.
    const word = { text: 'M口F凶', box: { x0: 0, y0: 0, x1: 40, y1: 10 }, fontSize: 8, confidence: 90 };
    const got = dropBoxGlyphs([word], [box(10), box(30)]);
    expect(got.map((w) => [w.text, w.box.x0, w.box.x1])).toEqual([
      ['M', 0, 10],
      ['F', 20, 30],
    ]);
  });
});

describe('withoutPrintedCharacters', () => {
  /** A word on the line y 0–10 whose characters are 10 points wide from x0, and a box over its i-th character. */
  const word = (text: string, x0: number) => ({
    text,
    box: { x0, y0: 0, x1: x0 + 10 * [...text].length, y1: 10 },
    fontSize: 8,
    confidence: 90,
  });
  const boxOver = (x0: number, i: number) => ({
    box: { x0: x0 + 10 * i, y0: 0, x1: x0 + 10 * i + 10, y1: 10 },
    marked: true,
  });

  it("drops a box the OCR read as a letter or digit of a word's text, and keeps boxes read as signs or beside options", () => {
    const cases: [string, number, boolean][] = [
      // A blocky typeface's letters and digits, square enough to pass for boxes.
      ['CASH', 2, false],
      ['4.80', 2, false],
      // An O or 0 is what an empty square reads as: text only inside a word of other letters or in a number.
      ['TOTAL', 1, false],
      ['0.00', 3, false],
      ['M0F', 1, true],
      ['FO', 1, true],
      ['Self口', 4, true],
      ['m凶', 1, true],
      // A box read as a word of its own, whatever it was read as.
      ['i', 0, true],
    ];
    // The boxes of other lines say nothing about this word: its 0 is a digit beside the box on its 8.
    const below = { box: { x0: 120, y0: 20, x1: 130, y1: 30 }, marked: true };
    expect(withoutPrintedCharacters([boxOver(100, 0), below], [word('8.0', 100)])).toEqual([below]);
    for (const [text, at, kept] of cases) {
      const x0 = 100;
      expect(withoutPrintedCharacters([boxOver(x0, at)], [word(text, x0)]).length, text).toBe(kept ? 1 : 0);
    }
  });
});
