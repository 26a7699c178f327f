/**
 * Pages scanned sideways or upside down (a sheet fed the wrong way, a receipt photographed across): which
 * quarter turn makes their text upright. Read from what PP-OCR's detector found on the page, before anything is
 * recognised: text lines are wide, so a page whose lines are mostly tall lies on its side. Whether an upright-
 * looking page is upside down is PaddleOCR's own text-direction classifier's vote over its longest lines; which
 * way up a sideways page goes is whichever the recogniser reads with more certainty, since on blurred photos the
 * classifier was found unsure both ways (CHANGELOG.md, "Pages the wrong way up").
 */
import sharp from 'sharp';
import type { GreyPage } from '@docbench/pdf';
import type { PixelRegion } from './ruled-lines.js';

/** Clockwise turns, in degrees, that bring a page upright. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/** A line counts as tall or wide when its long side is at least this many times its short side. */
const LINE_ELONGATION = 2;
/** Fewer elongated regions than this say nothing about the page's direction. */
const MIN_LINES = 4;
/** Sideways when tall lines outnumber wide ones by this factor (vertical rules and stacked digits are tall too). */
const SIDEWAYS_MAJORITY = 2;
/** The classifier's input: PaddleOCR's cls_image_shape 3 × 48 × 192. */
export const CLS_HEIGHT = 48;
export const CLS_WIDTH = 192;
/** Lines the classifier reads per page, longest first. */
const CLS_LINES = 16;
/** Lines of a sideways page read each way to choose between them. */
const READ_LINES = 6;
/** A line's vote counts when the classifier is at least this sure (PaddleOCR's cls_thresh). */
const CLS_THRESHOLD = 0.9;
/** Upside down only when at least this many sure votes say so, and more than say upright. */
const MIN_UPSIDE_DOWN_VOTES = 3;

type Page = Pick<GreyPage, 'width' | 'height' | 'pixels'>;

/** Probability that each input line (CLS_HEIGHT × CLS_WIDTH, normalised, 3 channels) is upside down. */
export type DirectionClassifier = (batch: Float32Array, lines: number) => Promise<Float32Array>;
/** How surely the recogniser reads these lines of the page (higher is surer; comparable between pages). */
export type LineReadability = (page: Page, lines: PixelRegion[]) => Promise<number>;

/** What reads the page's lines: the direction classifier and the recogniser's certainty. */
export interface TurnReaders {
  classify: DirectionClassifier;
  readability: LineReadability;
}

function elongated(regions: readonly PixelRegion[], tall: boolean): PixelRegion[] {
  return regions.filter(({ x0, y0, x1, y1 }) => {
    const [long, short] = tall ? [y1 - y0, x1 - x0] : [x1 - x0, y1 - y0];
    return long >= LINE_ELONGATION * short;
  });
}

/** The page's text lines run top to bottom: the detector found mostly tall regions. */
export function isSideways(regions: readonly PixelRegion[]): boolean {
  const tall = elongated(regions, true).length;
  return tall >= MIN_LINES && tall > SIDEWAYS_MAJORITY * elongated(regions, false).length;
}

/** The regions of a page of `height` rows as they lie once the page is turned 90° clockwise. */
export function turnRegionsClockwise(regions: readonly PixelRegion[], height: number): PixelRegion[] {
  return regions.map(({ x0, y0, x1, y1 }) => ({ x0: height - y1, y0: x0, x1: height - y0, y1: x1 }));
}

/** The regions of a `width` × `height` page as they lie once the page is turned 180°. */
export function turnRegionsHalf(regions: readonly PixelRegion[], width: number, height: number): PixelRegion[] {
  return regions.map(({ x0, y0, x1, y1 }) => ({ x0: width - x1, y0: height - y1, x1: width - x0, y1: height - y0 }));
}

/** The page's longest wide regions, longest first: the lines that say most about its direction. */
function longestLines(regions: readonly PixelRegion[], count: number): PixelRegion[] {
  return elongated(regions, false)
    .sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0))
    .slice(0, count);
}

/** The page turned clockwise by a quarter turn (lossless: whole pixels move). */
export async function turnPage<T extends Page>(page: T, turn: QuarterTurn): Promise<T> {
  if (turn === 0) return page;
  const { data, info } = await sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .rotate(turn)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    ...page,
    width: info.width,
    height: info.height,
    pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

/** One line as the classifier reads it: resized to CLS_HEIGHT rows (at most CLS_WIDTH wide), zero-padded. */
async function classifierInput(page: Page, region: PixelRegion, into: Float32Array, offset: number): Promise<void> {
  const left = Math.max(0, Math.floor(region.x0));
  const top = Math.max(0, Math.floor(region.y0));
  const height = Math.max(1, Math.min(page.height, Math.ceil(region.y1)) - top);
  // A long line squeezed into the classifier's width is unreadable to it: a window of its start at its own
  // proportions instead.
  const width = Math.max(
    1,
    Math.min(page.width, Math.ceil(region.x1), left + Math.ceil((height * CLS_WIDTH) / CLS_HEIGHT)) - left,
  );
  const resizedWidth = Math.min(CLS_WIDTH, Math.max(1, Math.ceil((CLS_HEIGHT * width) / height)));
  const grey = await sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .extract({ left, top, width, height })
    .resize(resizedWidth, CLS_HEIGHT, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const plane = CLS_HEIGHT * CLS_WIDTH;
  for (let y = 0; y < CLS_HEIGHT; y++)
    for (let x = 0; x < resizedWidth; x++) {
      const v = grey[y * resizedWidth + x]! / 127.5 - 1;
      for (let c = 0; c < 3; c++) into[offset + c * plane + y * CLS_WIDTH + x] = v;
    }
}

/** Whether the classifier's sure votes over the page's longest wide lines say the page is upside down. */
export async function isUpsideDown(
  page: Page,
  regions: readonly PixelRegion[],
  classify: DirectionClassifier,
): Promise<boolean> {
  const lines = longestLines(regions, CLS_LINES);
  if (lines.length < MIN_LINES) return false;
  const size = 3 * CLS_HEIGHT * CLS_WIDTH;
  const batch = new Float32Array(size * lines.length);
  for (const [i, line] of lines.entries()) await classifierInput(page, line, batch, i * size);
  const upsideDown = await classify(batch, lines.length);
  let down = 0;
  let up = 0;
  for (const p of upsideDown) {
    if (p >= CLS_THRESHOLD) down++;
    else if (1 - p >= CLS_THRESHOLD) up++;
  }
  return down >= MIN_UPSIDE_DOWN_VOTES && down > up;
}

/**
 * The clockwise turn that brings the page upright, from the detector's regions on it. An upright-looking page is
 * turned over only on the classifier's clear vote (most pages are the right way up). A sideways page is as likely
 * one way as the other: it is turned a quarter each way and its longest lines read in both, and the surer
 * reading wins.
 */
export async function uprightTurn(
  page: Page,
  regions: readonly PixelRegion[],
  readers: TurnReaders,
): Promise<QuarterTurn> {
  if (!isSideways(regions)) return (await isUpsideDown(page, regions, readers.classify)) ? 180 : 0;
  const clockwise = await turnPage(page, 90);
  const lines = longestLines(turnRegionsClockwise(regions, page.height), READ_LINES);
  const anticlockwise = await turnPage(clockwise, 180);
  const flipped = turnRegionsHalf(lines, clockwise.width, clockwise.height);
  const [one, other] = [await readers.readability(clockwise, lines), await readers.readability(anticlockwise, flipped)];
  return other > one ? 270 : 90;
}
