/**
 * Image decoding with sharp: every page of a PNG, JPEG or (multi-page) TIFF as 8-bit greyscale pixels, with
 * its resolution. Also the conversion of RGBA renders to greyscale and of greyscale pixels to PNG.
 */
import sharp from 'sharp';
import { darkenColouredInk } from './coloured-ink.js';

/** Resolution assumed when an image carries no density metadata: 1 pixel = 1 point. */
export const DEFAULT_IMAGE_DPI = 72;

/** One page of pixels, 1 byte per pixel (0 = black). */
export interface GreyPage {
  width: number;
  height: number;
  /** Pixels per inch, from the file's metadata or DEFAULT_IMAGE_DPI. */
  dpi: number;
  /** Whether `dpi` came from the file. */
  dpiKnown: boolean;
  pixels: Uint8Array;
}

/** Number of pages (frames) in an image file; 1 for PNG and JPEG. */
export async function countImagePages(bytes: Uint8Array): Promise<number> {
  const meta = await sharp(bytes).metadata();
  return meta.pages ?? 1;
}

/** Decodes one page (0-based) of an image file to greyscale. */
export async function decodeImagePage(bytes: Uint8Array, pageIndex: number): Promise<GreyPage> {
  const image = sharp(bytes, { page: pageIndex, limitInputPixels: 2 ** 28 });
  const meta = await image.metadata();
  // Transparent pixels read as white paper; one channel out whatever came in (grey+alpha, RGB, CMYK).
  const upright = image.rotate().flatten({ background: '#ffffff' });
  const { data, info } = await upright
    .clone()
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  // A colour page is also read in colour, to find a form printed in a dropout colour (coloured-ink.ts).
  if ((meta.channels ?? 1) >= 3) {
    const colour = await upright.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    darkenColouredInk(data, colour.data, colour.info.channels);
  }
  const dpiKnown = typeof meta.density === 'number' && meta.density > 0;
  return {
    width: info.width,
    height: info.height,
    dpi: dpiKnown ? (meta.density as number) : DEFAULT_IMAGE_DPI,
    dpiKnown,
    pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

/**
 * RGBA (as rendered by pdfjs) → greyscale, compositing transparent pixels onto white; a page printed in one
 * coloured ink has it darkened (coloured-ink.ts).
 */
export function rgbaToGrey(rgba: Uint8ClampedArray, width: number, height: number): Uint8Array {
  const grey = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
    const alpha = rgba[i + 3]! / 255;
    const luma = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
    grey[j] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  darkenColouredInk(grey, rgba, 4);
  return grey;
}

/**
 * Encodes greyscale pixels as PNG (what tesseract and zxing read), optionally scaled, and with `denoise` passed
 * through a 3×3 median filter after scaling (it removes specks and the ringing and JPEG blocks that scaling
 * magnifies, keeping edges).
 */
export async function encodeGreyPng(
  page: Pick<GreyPage, 'width' | 'height' | 'pixels' | 'dpi'>,
  scale = 1,
  options: { denoise?: boolean } = {},
): Promise<Buffer> {
  let image = sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } });
  if (scale !== 1)
    image = image.resize(Math.round(page.width * scale), Math.round(page.height * scale), { kernel: 'lanczos3' });
  if (options.denoise) image = image.median(3);
  // The density tells tesseract the scale of the text; without it, it guesses (and warns).
  return image
    .withMetadata({ density: page.dpi * scale })
    .png({ compressionLevel: 1 })
    .toBuffer();
}
