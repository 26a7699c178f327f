/**
 * How many pixels of a scanned page make an inch of its paper. The page's words are placed in points of the
 * paper and its sizes on paper measured with it (a check box is 0.08–0.25 in), so a page reads the same whatever
 * resolution its file states. A file's stated resolution is kept when it is one a scanner writes; 72 and 96 are
 * what image writers put when they know none (JFIF's and PNG tools' default, a screen's), and a file without one
 * is read as 72 (raster.ts). A CMS-1500 scanned at 200 DPI but saved stating 72 would have boxes of 0.28 in, too
 * large to be check boxes, and a phone photo's pixels per inch of paper are in no file. There the resolution is
 * read from the text: a document's words are about 0.15 in high (10–11 pt type; measured on the generated claim
 * form at 150–200 DPI and on dev-set receipts that state 150 DPI, CHANGELOG.md "Resolution").
 */
import type { GreyPage } from '@docbench/pdf';
import type { Fragment } from './layout/types.js';
import { median } from './median.js';

/** Stated resolutions at or below this are image writers' defaults, not a scanner's. */
const MAX_DEFAULT_DPI = 96;
/** Median height of a document's OCR'd words, in inches. */
const WORD_HEIGHT_IN = 0.15;
/** Fewer words than this say too little about the type size. */
const MIN_WORDS = 8;

/**
 * The median height of a page's OCR'd words in its pixels (`words` in points at the raster's stated resolution);
 * null when it has too few words to tell.
 */
export function medianWordHeightPx(raster: Pick<GreyPage, 'dpi'>, words: readonly Fragment[]): number | null {
  if (words.length < MIN_WORDS) return null;
  return median(words.map((w) => w.box.y1 - w.box.y0)) * (raster.dpi / 72);
}

/**
 * The page's pixels per inch of paper: the stated resolution when a scanner wrote it, else read from the median
 * height of its OCR'd words.
 */
export function paperResolution(raster: Pick<GreyPage, 'dpi' | 'dpiKnown'>, words: readonly Fragment[]): number {
  if (raster.dpiKnown && raster.dpi > MAX_DEFAULT_DPI) return raster.dpi;
  const heightPx = medianWordHeightPx(raster, words);
  return heightPx === null ? raster.dpi : heightPx / WORD_HEIGHT_IN;
}
