/**
 * Marks the text detector takes for text. On a fax, a thin rule between table rows breaks into dashes and dots,
 * and the detector finds a region along it that the recogniser reads as `ee` or `..`; such a line, standing
 * between two rows of a table, ends the table there and its remaining rows lose their header. A detected region
 * less than half as tall as the page's typical one, read as at most two characters, is such a mark: text that
 * short is never printed that small on its own (CHANGELOG.md, "Faxed pages").
 */
import type { Fragment } from './layout/types.js';
import { median } from './median.js';

/** A region this much shorter than the page's median region height is thinner than any line of text. */
const MAX_HEIGHT_SHARE = 0.5;
/** …and it is a mark when it reads as at most this many characters. */
const MAX_MARK_CHARS = 2;

/** The words without thin marks. Words are PP-OCR's: each spans its detected region's full height. */
export function dropThinMarks(words: Fragment[]): Fragment[] {
  const typical = median(words.map((w) => w.box.y1 - w.box.y0));
  return words.filter(
    (w) => w.box.y1 - w.box.y0 >= typical * MAX_HEIGHT_SHARE || [...w.text.trim()].length > MAX_MARK_CHARS,
  );
}
