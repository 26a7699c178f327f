/**
 * Skew correction for scans and photos before OCR: the angle whose horizontal projection of dark pixels is
 * sharpest (text lines line up), searched within ±5°, on a downsampled copy. Rows of a form drift across lines
 * when a page is turned by as little as 1°, so this matters more to the layout model than to tesseract.
 * Hand-written: a projection-profile search is a few lines and no maintained Node package offers it on raw pixels.
 */
import sharp from 'sharp';
import type { GreyPage } from '@docbench/pdf';

const SEARCH_DEGREES = 5;
const STEP_DEGREES = 0.1;
/** Angles smaller than this are left alone: rotating resamples the image and blurs it slightly. */
const MIN_CORRECTION_DEGREES = 0.15;

function otsuThreshold(pixels: Uint8Array): number {
  const histogram = new Array<number>(256).fill(0);
  for (const p of pixels) histogram[p]!++;
  const total = pixels.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * histogram[i]!;
  let sumBackground = 0;
  let weightBackground = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    weightBackground += histogram[t]!;
    if (weightBackground === 0) continue;
    const weightForeground = total - weightBackground;
    if (weightForeground === 0) break;
    sumBackground += t * histogram[t]!;
    const meanBackground = sumBackground / weightBackground;
    const meanForeground = (sum - sumBackground) / weightForeground;
    const between = weightBackground * weightForeground * (meanBackground - meanForeground) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** Estimates the skew in degrees (positive: lines fall to the right). */
export async function estimateSkew(page: GreyPage): Promise<number> {
  const width = Math.min(800, page.width);
  const { data, info } = await sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .resize({ width })
    // sharp converts to sRGB on output: keep one channel.
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const threshold = otsuThreshold(pixels);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (pixels[y * info.width + x]! < threshold) {
        xs.push(x);
        ys.push(y);
      }
  if (xs.length < 200) return 0;
  let bestAngle = 0;
  let bestScore = -1;
  const bins = new Float64Array(info.height * 2 + info.width);
  const offset = info.width;
  for (let deg = -SEARCH_DEGREES; deg <= SEARCH_DEGREES + 1e-9; deg += STEP_DEGREES) {
    const slope = Math.tan((deg * Math.PI) / 180);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i]! - xs[i]! * slope) + offset]!++;
    let score = 0;
    for (const count of bins) score += count * count;
    if (score > bestScore) {
      bestScore = score;
      bestAngle = deg;
    }
  }
  return Math.round(bestAngle * 100) / 100;
}

/** Returns the page turned level (same size, white corners), or the page itself when it is level. */
export async function deskewPage(page: GreyPage): Promise<{ page: GreyPage; angle: number }> {
  const angle = await estimateSkew(page);
  if (Math.abs(angle) < MIN_CORRECTION_DEGREES) return { page, angle: 0 };
  const rotated = await sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .rotate(-angle, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Rotation grows the canvas: cut the centre back to the original size so coordinates stay page coordinates.
  const left = Math.max(0, Math.floor((rotated.info.width - page.width) / 2));
  const top = Math.max(0, Math.floor((rotated.info.height - page.height) / 2));
  // Rotating with a background adds channels (colour, alpha): flatten onto white and keep one channel.
  const { data } = await sharp(rotated.data, {
    raw: { width: rotated.info.width, height: rotated.info.height, channels: rotated.info.channels },
  })
    .flatten({ background: '#ffffff' })
    .extract({ left, top, width: page.width, height: page.height })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { page: { ...page, pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }, angle };
}
