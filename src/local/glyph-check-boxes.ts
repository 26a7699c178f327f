/**
 * Check boxes printed as characters in a PDF's text layer: `☐ Yes ☒ No`, as word processors and form
 * generators write them. Each box glyph becomes a check box at its place in the run (positions interpolated
 * across the run, as for OCR words) and leaves the text, so the extraction reads it like a box found in a scan's
 * pixels (docs/local-service.md, "Forms: ruled boxes and check boxes").
 */
import type { CheckBox, Fragment } from './layout/types.js';

/** Box glyphs: empty, and ticked or crossed. */
const EMPTY_BOXES = new Set(['☐', '□', '❏', '❑']);
const MARKED_BOXES = new Set(['☑', '☒', '⊠', '▣']);

/** The runs without their box glyphs (a run split where one stood) and the boxes, in the runs' units. */
export function takeGlyphCheckBoxes(runs: Fragment[]): { runs: Fragment[]; checkBoxes: CheckBox[] } {
  const out: Fragment[] = [];
  const checkBoxes: CheckBox[] = [];
  for (const run of runs) {
    const chars = [...run.text];
    if (!chars.some((c) => EMPTY_BOXES.has(c) || MARKED_BOXES.has(c))) {
      out.push(run);
      continue;
    }
    const step = (run.box.x1 - run.box.x0) / chars.length;
    const xAt = (i: number) => run.box.x0 + step * i;
    let start = 0;
    const flush = (end: number): void => {
      const text = chars.slice(start, end).join('');
      const lead = text.length - text.trimStart().length;
      const trimmed = text.trim();
      if (trimmed)
        out.push({
          ...run,
          text: trimmed,
          box: { ...run.box, x0: xAt(start + lead), x1: xAt(start + lead + [...trimmed].length) },
        });
    };
    chars.forEach((c, i) => {
      const marked = MARKED_BOXES.has(c);
      if (!marked && !EMPTY_BOXES.has(c)) return;
      flush(i);
      // A box glyph is about as wide as it is high: centred on its advance, the run's height tall.
      const centre = xAt(i + 0.5);
      const half = Math.min(step, run.box.y1 - run.box.y0) / 2;
      checkBoxes.push({ box: { x0: centre - half, y0: run.box.y0, x1: centre + half, y1: run.box.y1 }, marked });
      start = i + 1;
    });
    flush(chars.length);
  }
  return { runs: out, checkBoxes };
}
