/** The PNG handed to OCR: scaled, and with `denoise` cleared of specks (a 3×3 median) while text strokes stay. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeGreyPng } from '../src/index.js';

/** A white 40×40 page with one dark pixel (a speck) and a dark 3-pixel-wide vertical bar (a stroke). */
function page() {
  const pixels = new Uint8Array(40 * 40).fill(255);
  pixels[10 * 40 + 10] = 0;
  for (let y = 5; y < 35; y++) for (let x = 25; x < 28; x++) pixels[y * 40 + x] = 0;
  return { width: 40, height: 40, dpi: 150, pixels };
}

async function darkPixels(png: Buffer, region: (x: number, y: number) => boolean): Promise<number> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (region(x / 2, y / 2) && data[(y * info.width + x) * info.channels]! < 128) dark++;
  return dark;
}

describe('encodeGreyPng', () => {
  it('scales the page and records the scaled density', async () => {
    const png = await encodeGreyPng(page(), 2);
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height, Math.round(meta.density!)]).toEqual([80, 80, 300]);
  });

  it('with denoise, removes an isolated speck and keeps a stroke', async () => {
    const speck = (x: number, y: number) => x < 15 && y < 15;
    const stroke = (x: number) => x >= 20;
    // Scaled 2×, the speck covers a few pixels, with a grey halo from the resampling: the median keeps at most its core.
    const speckBefore = await darkPixels(await encodeGreyPng(page(), 2), speck);
    expect(speckBefore).toBeGreaterThanOrEqual(3);
    const cleaned = await encodeGreyPng(page(), 2, { denoise: true });
    expect(await darkPixels(cleaned, speck)).toBeLessThanOrEqual(1);
    // At its own size, a one-pixel speck is gone.
    expect(await darkPixels(await encodeGreyPng(page(), 1, { denoise: true }), (x, y) => speck(x * 2, y * 2))).toBe(0);
    expect(await darkPixels(cleaned, stroke)).toBeGreaterThan(
      0.9 * (await darkPixels(await encodeGreyPng(page(), 2), stroke)),
    );
  });
});
