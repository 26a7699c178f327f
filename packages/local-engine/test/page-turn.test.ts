import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import {
  isSideways,
  turnPage,
  turnRegionsClockwise,
  turnRegionsHalf,
  uprightTurn,
  type TurnReaders,
} from '../src/page-turn.js';
import type { PixelRegion } from '../src/ruled-lines.js';
import { silentLogger } from '../src/contract.js';
import { makeClaimPdf, renderPdfToPng } from './fixtures.js';

const wide = (y: number): PixelRegion => ({ x0: 10, y0: y, x1: 210, y1: y + 20 });
const tall = (x: number): PixelRegion => ({ x0: x, y0: 10, x1: x + 20, y1: 210 });
const lines = (make: (at: number) => PixelRegion, count: number) =>
  Array.from({ length: count }, (_, i) => make(30 * i));

/** A white page with one black rectangle. */
function pageWith(width: number, height: number, mark: PixelRegion) {
  const pixels = new Uint8Array(width * height).fill(255);
  for (let y = mark.y0; y < mark.y1; y++) for (let x = mark.x0; x < mark.x1; x++) pixels[y * width + x] = 0;
  return { width, height, pixels, dpi: 200, dpiKnown: true };
}

function darkBox(page: { width: number; height: number; pixels: Uint8Array }): PixelRegion {
  let [x0, y0, x1, y1] = [page.width, page.height, 0, 0];
  for (let y = 0; y < page.height; y++)
    for (let x = 0; x < page.width; x++)
      if (page.pixels[y * page.width + x]! < 128) {
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
      }
  return { x0, y0, x1, y1 };
}

/** Readers that must not be asked (an upright page with wide lines needs only the classifier). */
const readers = (upsideDown: number[], readability: (width: number) => number): TurnReaders => ({
  classify: async (_batch, count) => Float32Array.from(upsideDown.slice(0, count)),
  readability: async (page) => readability(page.width),
});

describe('which way up a scanned page is', () => {
  it('calls a page sideways only when its elongated regions are mostly tall', () => {
    expect(isSideways(lines(tall, 6))).toBe(true);
    expect(isSideways(lines(wide, 6))).toBe(false);
    // Square regions (box digits) and a few tall rules say nothing.
    expect(isSideways([...lines(tall, 3), { x0: 0, y0: 0, x1: 20, y1: 20 }])).toBe(false);
    expect(isSideways([...lines(tall, 6), ...lines(wide, 4)])).toBe(false);
  });

  it('moves regions as turnPage moves the pixels, a quarter and a half turn', async () => {
    const mark = { x0: 10, y0: 5, x1: 60, y1: 15 };
    const page = pageWith(100, 40, mark);
    const quarter = await turnPage(page, 90);
    expect([quarter.width, quarter.height]).toEqual([40, 100]);
    expect(darkBox(quarter)).toEqual(turnRegionsClockwise([mark], page.height)[0]);
    const half = await turnPage(page, 180);
    expect(darkBox(half)).toEqual(turnRegionsHalf([mark], page.width, page.height)[0]);
  });

  it('turns an upright-looking page over only on three sure votes, more than say upright', async () => {
    const page = pageWith(300, 300, { x0: 0, y0: 0, x1: 1, y1: 1 });
    const regions = lines(wide, 6);
    const never = () => {
      throw new Error('an upright-looking page is not read both ways');
    };
    expect(await uprightTurn(page, regions, readers([0.99, 0.95, 0.92, 0.1, 0.02, 0.5], never))).toBe(180);
    expect(await uprightTurn(page, regions, readers([0.99, 0.95, 0.5, 0.5, 0.02, 0.5], never))).toBe(0);
    expect(await uprightTurn(page, regions, readers([0.99, 0.95, 0.92, 0.01, 0.02, 0.05], never))).toBe(0);
  });

  it('turns a sideways page whichever quarter the recogniser reads more surely', async () => {
    const page = pageWith(300, 200, { x0: 0, y0: 0, x1: 1, y1: 1 });
    const regions = lines(tall, 6);
    // Both turned pages are 200 wide; the readability callback tells them apart by the call order.
    let calls = 0;
    const secondSurer = readers([], () => ++calls);
    expect(await uprightTurn(page, regions, secondSurer)).toBe(270);
    calls = 0;
    const firstSurer = readers([], () => -++calls);
    expect(await uprightTurn(page, regions, firstSurer)).toBe(90);
  });
});

describe('the local engine on a page scanned the wrong way up (PP-OCR)', () => {
  // Upright, the same page is read in pp-ocr.test.ts.
  it('reads a page turned a quarter either way or upside down as it reads it upright', async () => {
    const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 1, logger: silentLogger });
    try {
      const upright = await renderPdfToPng(await makeClaimPdf());
      for (const angle of [90, 180, 270]) {
        const png = await sharp(upright).rotate(angle).png().toBuffer();
        const doc = await engine.analyse({ bytes: png, format: 'png', filename: `claim-${angle}.png` });
        const text = doc.pages[0]!.lines.map((line) => line.text).join('\n');
        for (const phrase of ['CLAIM FORM', 'Total Charges: $310.50', 'Office visit'])
          expect(text, `turned ${angle}°`).toContain(phrase);
        // The page is read as it stands upright: a Letter page, taller than wide.
        expect(doc.pages[0]!.height).toBeGreaterThan(doc.pages[0]!.width);
      }
    } finally {
      await engine.close();
    }
  }, 120_000);
});
