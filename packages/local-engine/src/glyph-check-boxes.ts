/**
 * Check boxes printed as characters in a PDF's text layer: `☐ Yes ☒ No`, as word processors and form
 * generators write them. Each box glyph becomes a check box at its place in the run (positions interpolated
 * across the run, as for OCR words) and leaves the text, so the extraction reads it like a box found in a scan's
 * pixels (CHANGELOG.md, "Forms: ruled boxes and check boxes").
 */
import type { CheckBox, Fragment } from './layout/types.js';
import { fragmentPieces } from './fragment-pieces.js';

/** Box glyphs: empty, and ticked or crossed. */
const EMPTY_BOXES = new Set(['☐', '□', '❏', '❑']);
const MARKED_BOXES = new Set(['☑', '☒', '⊠', '▣']);

function isBox(c: string): boolean {
  return EMPTY_BOXES.has(c) || MARKED_BOXES.has(c);
}

/** The runs without their box glyphs (a run split where one stood) and the boxes, in the runs' units. */
export function takeGlyphCheckBoxes(runs: Fragment[]): { runs: Fragment[]; checkBoxes: CheckBox[] } {
  const out: Fragment[] = [];
  const checkBoxes: CheckBox[] = [];
  for (const run of runs) {
    const chars = [...run.text];
    if (!chars.some(isBox)) {
      out.push(run);
      continue;
    }
    const step = (run.box.x1 - run.box.x0) / chars.length;
    out.push(...fragmentPieces(run, (i) => isBox(chars[i]!)));
    chars.forEach((c, i) => {
      if (!isBox(c)) return;
      // A box glyph is about as wide as it is high: centred on its advance, the run's height tall.
      const centre = run.box.x0 + step * (i + 0.5);
      const half = Math.min(step, run.box.y1 - run.box.y0) / 2;
      const box = { x0: centre - half, y0: run.box.y0, x1: centre + half, y1: run.box.y1 };
      checkBoxes.push({ box, marked: MARKED_BOXES.has(c) });
    });
  }
  return { runs: out, checkBoxes };
}
