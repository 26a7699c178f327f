/**
 * The scanned tiers: a rendered page is rotated, blurred, its contrast flattened, then noise, uneven light,
 * speckle and fax binarisation are applied; the result is encoded as PNG, JPEG, TIFF or pages of a scanned
 * PDF. Geometry and filters run in sharp (deterministic); the noise is drawn from the seeded PRNG rather than
 * libvips' generator, whose seed sharp does not expose.
 */
import sharp from 'sharp';
import type { Random } from './prng.js';
import type { GreyImage } from './render-raster.js';

export const TIERS = ['digital', 'clean_scan', 'photo', 'fax'] as const;
export type Tier = (typeof TIERS)[number];
export type ScanTier = Exclude<Tier, 'digital'>;

/** How one tier degrades a page. Angles in degrees; noise as a grey-level standard deviation. */
export interface ScanProfile {
  dpi: number;
  rotation: [number, number];
  blurSigma: number;
  /** Output = a·input + b: a < 1 with b > 0 washes the page out. */
  contrast: [number, number];
  noiseSigma: number;
  /** Share of pixels flipped to black or white (dust, toner specks). */
  speckle: number;
  /** Darkening toward one corner, in grey levels (a photo under a desk lamp). */
  shading: number;
  /** Fax binarisation: pixels below this become black, others white. */
  threshold?: number;
  /** Share of scan lines lost in transmission (fax). */
  dropLines: number;
}

export const SCAN_PROFILES: Record<ScanTier, ScanProfile> = {
  clean_scan: {
    dpi: 200,
    rotation: [0.2, 0.8],
    blurSigma: 0.5,
    contrast: [0.9, 14],
    noiseSigma: 0,
    speckle: 0,
    shading: 0,
    dropLines: 0,
  },
  photo: {
    dpi: 180,
    rotation: [1, 2.5],
    blurSigma: 0.9,
    contrast: [0.7, 50],
    noiseSigma: 7,
    speckle: 0,
    shading: 55,
    dropLines: 0,
  },
  fax: {
    dpi: 150,
    rotation: [0.4, 1.4],
    blurSigma: 0.55,
    contrast: [1, 0],
    noiseSigma: 26,
    speckle: 0.002,
    shading: 0,
    threshold: 150,
    dropLines: 0.006,
  },
};

function clamp(value: number): number {
  return Math.min(Math.max(value, 0), 255);
}

/** Applies one tier's degradations to a rendered page. The page keeps its size: rotation crops the corners. */
export async function degradePage(image: GreyImage, tier: ScanTier, random: Random): Promise<GreyImage> {
  const profile = SCAN_PROFILES[tier];
  const angle = (random.chance(0.5) ? -1 : 1) * random.float(profile.rotation[0], profile.rotation[1]);
  const raw = { raw: { width: image.width, height: image.height, channels: 1 as const } };
  const rotated = await sharp(image.pixels, raw)
    .rotate(angle, { background: '#ffffff' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.floor((rotated.info.width - image.width) / 2);
  const top = Math.floor((rotated.info.height - image.height) / 2);
  const filtered = await sharp(rotated.data, {
    raw: { width: rotated.info.width, height: rotated.info.height, channels: 1 },
  })
    .extract({ left, top, width: image.width, height: image.height })
    .blur(profile.blurSigma)
    .linear(profile.contrast[0], profile.contrast[1])
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const pixels = new Uint8Array(filtered);
  const { width, height } = image;
  const cornerX = random.chance(0.5) ? 0 : width;
  const cornerY = random.chance(0.5) ? 0 : height;
  const diagonal = Math.hypot(width, height);
  // Gaussian draws from a table: one uniform draw per pixel instead of Box–Muller's two plus log and cos.
  const gaussians = Float32Array.from({ length: 4096 }, () => random.gaussian());
  const drop = new Set<number>();
  for (let y = 0; y < height; y++) if (random.chance(profile.dropLines)) drop.add(y);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let value = pixels[i]!;
      if (profile.shading > 0) value -= profile.shading * (1 - Math.hypot(x - cornerX, y - cornerY) / diagonal);
      if (profile.noiseSigma > 0) value += profile.noiseSigma * gaussians[(random.next() * 4096) | 0]!;
      if (profile.speckle > 0 && random.chance(profile.speckle)) value = random.chance(0.5) ? 0 : 255;
      if (profile.threshold !== undefined) value = value < profile.threshold ? 0 : 255;
      if (drop.has(y)) value = 255;
      pixels[i] = clamp(Math.round(value));
    }
  }
  return { width, height, dpi: image.dpi, pixels };
}

export type ImageFormat = 'png' | 'jpeg' | 'tiff';

function toSharp(image: GreyImage): sharp.Sharp {
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 1 } }).toColourspace('b-w');
}

/** PNG (lossless greyscale) or JPEG (greyscale, quality by tier) of one page, with its DPI recorded. */
export async function encodePage(image: GreyImage, format: 'png' | 'jpeg', tier: ScanTier): Promise<Buffer> {
  const pipeline = toSharp(image).withMetadata({ density: image.dpi });
  if (format === 'png') return pipeline.png({ compressionLevel: 9 }).toBuffer();
  return pipeline.jpeg({ quality: tier === 'clean_scan' ? 82 : tier === 'photo' ? 62 : 55 }).toBuffer();
}

/** One TIFF with every page: CCITT Group 4 for bilevel fax pages, LZW greyscale otherwise. */
export async function encodeTiff(pages: GreyImage[], tier: ScanTier): Promise<Buffer> {
  const first = pages[0]!;
  const resolution = first.dpi / 25.4; // sharp takes pixels per millimetre
  const options: sharp.TiffOptions =
    tier === 'fax' ? { compression: 'ccittfax4', bitdepth: 1 } : { compression: 'lzw', predictor: 'horizontal' };
  const input =
    pages.length === 1
      ? toSharp(first)
      : // Joining pages adds an alpha channel; Group 4 needs a single bilevel band.
        sharp(await Promise.all(pages.map((page) => toSharp(page).png({ compressionLevel: 1 }).toBuffer())), {
          join: { animated: true },
        })
          .removeAlpha()
          .toColourspace('b-w');
  return input.tiff({ ...options, xres: resolution, yres: resolution, resolutionUnit: 'inch' }).toBuffer();
}
