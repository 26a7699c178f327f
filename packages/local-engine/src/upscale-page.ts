/**
 * A greyscale page resampled larger (Lanczos), its stated resolution scaled with it: for pages whose text is small
 * in pixels (small-text.ts) and, followed by a median that removes specks, for binarised pages (binarised-page.ts).
 */
import sharp from 'sharp';
import type { GreyPage } from '@docbench/pdf';

/** The page upscaled by `factor`; `medianSize` > 0 filters it with a median of that size after resampling. */
export async function upscalePage(page: GreyPage, factor: number, medianSize = 0): Promise<GreyPage> {
  const width = Math.round(page.width * factor);
  const height = Math.round(page.height * factor);
  const resized = sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } }).resize(
    width,
    height,
    { kernel: 'lanczos3', fit: 'fill' },
  );
  const pixels = await (medianSize > 0 ? resized.median(medianSize) : resized).toColourspace('b-w').raw().toBuffer();
  return { ...page, width, height, dpi: page.dpi * factor, pixels: new Uint8Array(pixels) };
}
