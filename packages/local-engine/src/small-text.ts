/**
 * Pages whose text is small in pixels: a form saved at 75–90 DPI, a photo or a scan downsized before it was sent.
 * PP-OCR's detector finds little of text a dozen pixels high and its recogniser misreads what it finds; the same
 * page upscaled (Lanczos) and read again gives both the stroke widths they were trained on. Measured on the
 * generated CMS-1500's clean 200-DPI scans resampled (CHANGELOG.md, "Small text"): field F1 at 75 DPI
 * 0.417 → 0.886, at 85 DPI 0.685 → 0.935, at 90 DPI 0.663 → 0.909; at 100 DPI, where some pages' words fall just
 * under the threshold, 0.935 → 0.915. Judged by the median height of the words the first reading found, in
 * pixels, so a page whose resolution is stated wrongly or not at all is judged alike; the dev set's receipts have
 * median word heights of 20–49 px and the bench's faxed forms ~22 px, none of which is upscaled.
 */
import type { GreyPage } from '@docbench/pdf';
import type { Fragment } from './layout/types.js';
import { medianWordHeightPx } from './paper-resolution.js';

/** A page whose words are less than this high (median, px) is read again upscaled. */
const MIN_WORD_PX = 15;
/**
 * …to bring its median word to about this height: a little over the 200-DPI forms' ~28 px read best (28 and 44 px
 * were tried, docs/reference.md).
 */
const TARGET_WORD_PX = 36;
/** Larger factors invent nothing more and cost time as the square. */
const MAX_FACTOR = 3;

/** How much to upscale a page read as `words` (points at the raster's DPI) before reading it again; 1 for none. */
export function smallTextFactor(raster: Pick<GreyPage, 'dpi'>, words: readonly Fragment[]): number {
  const heightPx = medianWordHeightPx(raster, words);
  return heightPx === null || heightPx >= MIN_WORD_PX ? 1 : Math.min(MAX_FACTOR, TARGET_WORD_PX / heightPx);
}
