/**
 * The whole caption printed after a check box, over as many lines as it wraps onto: `☒ Hazardous` over
 * `Condition` in a narrow table cell (docs/reference.md, "Check boxes"). The label search reads one line at a
 * time, so a caption that wraps is found on neither of its lines; the box's own caption, put together here, is
 * what a field's label is compared with instead.
 */
import type { CheckBox, Fragment, PageLayout, TextLine } from '../layout/types.js';
import { startsWithLabel } from './find-values.js';

/** Most lines a caption runs on under its first: a box's caption is a few words. */
const MAX_CAPTION_LINES = 2;
/** Widest gap between a caption's lines, in ems: line spacing, not the gap to the next row of boxes. */
const CAPTION_LINE_GAP = 0.6;
/** Type sizes of one caption's lines stay within this ratio. */
const CAPTION_SIZE_RATIO = 1.3;

function centreY(box: CheckBox): number {
  return (box.box.y0 + box.box.y1) / 2;
}

/** Where the box's column ends: at the next box to its right on its row (centres within half a side), else open. */
function columnEnd(box: CheckBox, boxes: CheckBox[]): number {
  const side = box.box.y1 - box.box.y0;
  const right = boxes.filter((b) => Math.abs(centreY(b) - centreY(box)) <= side / 2 && b.box.x0 >= box.box.x1);
  return Math.min(Infinity, ...right.map((b) => b.box.x0));
}

/** The fragments of a line that lie in a column. */
function inColumn(line: TextLine, x0: number, x1: number): Fragment[] {
  return line.fragments.filter((f) => f.box.x0 >= x0 && f.box.x1 <= x1 + 1);
}

/**
 * The caption after `box` whose first word is `option` (on the box's right): the option's words up to the next box
 * of the row, then each line right under it that continues it. A caption that wraps inside its cell goes on under
 * the box or under its own first word (flush or hanging), in a like type, at line spacing, within the box's
 * column, and on a line of its own: a line beside another box is that box's caption (`☐ Slips, Trips, Falls`
 * under `☒ Equipment`), and one that starts with a label (`Comments:`) is the next field.
 */
export function captionAfter(box: CheckBox, option: Fragment, page: PageLayout, boxes: CheckBox[]): string {
  const side = box.box.y1 - box.box.y0;
  const end = columnEnd(box, boxes);
  const first = page.lines.find((l) => l.fragments.includes(option));
  if (!first) return option.text;
  const parts = [inColumn(first, option.box.x0, end)];
  let last = first;
  while (parts.length <= MAX_CAPTION_LINES) {
    const em = last.fontSize;
    const below = page.lines
      .filter((l) => l.box.y0 >= last.box.y1 - em * 0.3 && inColumn(l, box.box.x0 - side, end).length > 0)
      .sort((a, b) => a.box.y0 - b.box.y0)[0];
    if (!below || below.box.y0 - last.box.y1 > em * CAPTION_LINE_GAP) break;
    const words = inColumn(below, box.box.x0 - side, end);
    const x0 = words[0]!.box.x0;
    const size = below.fontSize / em;
    if (x0 > option.box.x0 + side || size > CAPTION_SIZE_RATIO || size < 1 / CAPTION_SIZE_RATIO) break;
    if (startsWithLabel(words.map((w) => w.text).join(' '))) break;
    const besideABox = boxes.some(
      (b) =>
        centreY(b) >= below.box.y0 && centreY(b) <= below.box.y1 && b.box.x1 <= end && b.box.x1 >= box.box.x0 - side,
    );
    if (besideABox) break;
    parts.push(words);
    last = below;
  }
  return parts
    .flat()
    .map((f) => f.text)
    .join(' ');
}
