import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createDocumentAnalyser } from '../src/analyse-document.js';
import { isBinarised, smoothBinarisedPage } from '../src/binarised-page.js';
import type { PageOcr } from '../src/page-ocr.js';
import type { GreyPage } from '@docbench/pdf';

const WIDTH = 60;
const HEIGHT = 40;

/** A white page with a 4-px-wide vertical stroke at x 20–23 and one-pixel specks at the given points. */
function faxPage(specks: [number, number][], dpi = 150): GreyPage {
  const pixels = new Uint8Array(WIDTH * HEIGHT).fill(255);
  for (let y = 5; y < 35; y++) for (let x = 20; x < 24; x++) pixels[y * WIDTH + x] = 0;
  for (const [x, y] of specks) pixels[y * WIDTH + x] = 0;
  return { width: WIDTH, height: HEIGHT, dpi, dpiKnown: true, pixels };
}

function darkAt(page: GreyPage, x: number, y: number): boolean {
  return page.pixels[Math.round(y) * page.width + Math.round(x)]! < 128;
}

describe('isBinarised', () => {
  it('tells a pure black-and-white page from one with grey levels', () => {
    expect(isBinarised(faxPage([[5, 5]]))).toBe(true);
    const scan = faxPage([]);
    // A scan: paper a little grey, ink not quite black.
    const grey = { ...scan, pixels: scan.pixels.map((p) => (p === 255 ? 236 : 30)) };
    expect(isBinarised(grey)).toBe(false);
  });
});

describe('smoothBinarisedPage', () => {
  it('upscales a fax-resolution page by half, removes specks and keeps strokes', async () => {
    const smoothed = await smoothBinarisedPage(
      faxPage([
        [5, 5],
        [45, 30],
      ]),
    );
    expect(smoothed.dpi).toBe(225);
    expect([smoothed.width, smoothed.height]).toEqual([WIDTH * 1.5, HEIGHT * 1.5]);
    expect(darkAt(smoothed, 7.5, 7.5)).toBe(false);
    expect(darkAt(smoothed, 67.5, 45)).toBe(false);
    expect(darkAt(smoothed, 32, 30)).toBe(true);
  });

  it('does not upscale past 300 DPI, and leaves a page whose resolution is unknown as it is', async () => {
    expect((await smoothBinarisedPage(faxPage([], 250))).dpi).toBe(300);
    const unknown = { ...faxPage([], 150), dpiKnown: false };
    expect(await smoothBinarisedPage(unknown)).toBe(unknown);
    // 72 DPI is the writers' default, not a scan's resolution.
    const defaulted = faxPage([], 72);
    expect(await smoothBinarisedPage(defaulted)).toBe(defaulted);
    expect((await smoothBinarisedPage(faxPage([], 300))).width).toBe(WIDTH);
  });
});

describe('the analyser', () => {
  it('tells the OCR which pages came in binarised, judged before deskewing', async () => {
    const hints: boolean[] = [];
    const recording: PageOcr = {
      version: 'recording',
      read: (_raster, page) => {
        hints.push(page?.binarised ?? false);
        return Promise.resolve({ words: [], confidence: 0 });
      },
      close: () => Promise.resolve(),
    };
    const png = (page: GreyPage) =>
      sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
        .withMetadata({ density: page.dpi })
        .png()
        .toBuffer();
    const fax = faxPage([[5, 5]]);
    const analyser = createDocumentAnalyser(recording);
    await analyser.analyse(await png(fax), 'png');
    await analyser.analyse(await png({ ...fax, pixels: fax.pixels.map((p) => (p === 255 ? 236 : 30)) }), 'png');
    expect(hints).toEqual([true, false]);
  });
});
