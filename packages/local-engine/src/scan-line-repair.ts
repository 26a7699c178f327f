/**
 * Scan lines lost in transmission. A fax drops a line now and then: one row of the page comes out blank, and
 * where it crosses a rule or a line of text it cuts every stroke in two (a check box loses its top side, a
 * letter its middle). Printed ink never does that (a blank row through strokes that run on above and below
 * it), so such a row is rebuilt from its neighbours before anything reads the page (docs/reference.md,
 * "Forms: ruled boxes and check boxes").
 */
import type { GreyPage } from '@docbench/pdf';

/** A pixel darker than this is ink (a fax page is black and white). */
const DARK = 140;
/** A blank row is a lost one when at least this many columns are ink both above and below it… */
const MIN_CROSSING_COLUMNS = 8;
/** …and these are at least this share of the ink in the row above (strokes run on through it). */
const MIN_CROSSING_SHARE = 0.2;

/** Whether row y holds no ink at all. */
function blankRow(page: GreyPage, y: number): boolean {
  const row = y * page.width;
  for (let x = 0; x < page.width; x++) if (page.pixels[row + x]! < DARK) return false;
  return true;
}

/**
 * The page with each lost scan line rebuilt: a blank row whose neighbours above and below have ink in the same
 * columns gets the lighter of the two at each column (ink only where the stroke runs through). The page itself
 * when no row was lost.
 */
export function repairLostScanLines(page: GreyPage): GreyPage {
  const { width, height } = page;
  let pixels: Uint8Array | null = null;
  for (let y = 1; y < height - 1; y++) {
    if (!blankRow(page, y)) continue;
    const above = (y - 1) * width;
    const below = (y + 1) * width;
    let inkAbove = 0;
    let crossing = 0;
    for (let x = 0; x < width; x++) {
      if (page.pixels[above + x]! >= DARK) continue;
      inkAbove++;
      if (page.pixels[below + x]! < DARK) crossing++;
    }
    if (crossing < MIN_CROSSING_COLUMNS || crossing < inkAbove * MIN_CROSSING_SHARE) continue;
    pixels ??= Uint8Array.from(page.pixels);
    for (let x = 0; x < width; x++) pixels[y * width + x] = Math.max(page.pixels[above + x]!, page.pixels[below + x]!);
  }
  return pixels ? { ...page, pixels } : page;
}
