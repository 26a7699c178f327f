/**
 * A text fragment cut into pieces at some of its characters (box glyphs in a text run, an OCR word with a check
 * box read inside it). Runs and OCR words carry no per-character positions, so positions are interpolated
 * across the fragment's box by character count.
 */
import type { Fragment } from './layout/types.js';

/** The pieces of `fragment` between the characters `cut` picks (by index), trimmed; empty pieces left out. */
export function fragmentPieces(fragment: Fragment, cut: (index: number) => boolean): Fragment[] {
  const chars = [...fragment.text];
  const step = (fragment.box.x1 - fragment.box.x0) / chars.length;
  const xAt = (i: number) => fragment.box.x0 + step * i;
  const pieces: Fragment[] = [];
  let start = 0;
  for (let i = 0; i <= chars.length; i++) {
    if (i < chars.length && !cut(i)) continue;
    const piece = chars.slice(start, i);
    const lead = piece.findIndex((c) => c.trim() !== '');
    const text = piece.join('').trim();
    if (text)
      pieces.push({
        ...fragment,
        text,
        box: { ...fragment.box, x0: xAt(start + lead), x1: xAt(start + lead + [...text].length) },
      });
    start = i + 1;
  }
  return pieces;
}
