/**
 * Check boxes on a page raster: small ruled squares, marked when ink (an X, a tick, a fill) sits inside them.
 * Connected components of dark pixels whose bounding box is a square of check-box size (0.06–0.25 in) with
 * all four sides ruled; letters fail the four-sides test (an O's corners are round, an H has no top). The OCR
 * reads a box as a character (口, □, 凶, α…) or glues it to the word beside it, so the words' characters that
 * fall inside a box are dropped (`dropBoxGlyphs`), and the extraction reads the boxes from here instead
 * (docs/local-service.md, "Check boxes").
 */
import type { GreyPage } from '../pdf/index.js';
import type { CheckBox, Fragment } from './layout/types.js';
import { componentBoxes, type PixelBox } from './pixel-components.js';

const DARK = 140;
const MIN_SIDE_IN = 0.06;
const MAX_SIDE_IN = 0.25;
/** Share of each side's length that must be ruled. */
const SIDE_COVERAGE = 0.85;
/** Share of the inside that must be dark for the box to count as marked (an empty box after a scan: ~0). */
const MARKED_FILL = 0.08;

type Component = PixelBox;

/** The components of dark pixels no larger than a check box. */
function components(raster: GreyPage, maxSide: number): Component[] {
  const { width, height, pixels } = raster;
  return componentBoxes(width, height, (at) => pixels[at]! < DARK, 8).filter(
    (c) => c.x1 - c.x0 <= maxSide && c.y1 - c.y0 <= maxSide,
  );
}

/** Share of positions along one side with ink within `band` pixels of the edge. */
function sideCoverage(raster: GreyPage, c: Component, side: 'top' | 'bottom' | 'left' | 'right', band: number): number {
  const horizontal = side === 'top' || side === 'bottom';
  const from = horizontal ? c.x0 : c.y0;
  const to = horizontal ? c.x1 : c.y1;
  let covered = 0;
  for (let along = from; along <= to; along++) {
    for (let depth = 0; depth < band; depth++) {
      const x = horizontal ? along : side === 'left' ? c.x0 + depth : c.x1 - depth;
      const y = horizontal ? (side === 'top' ? c.y0 + depth : c.y1 - depth) : along;
      if (raster.pixels[y * raster.width + x]! < DARK) {
        covered++;
        break;
      }
    }
  }
  return covered / (to - from + 1);
}

/** The check boxes on a page, in points from its top-left. */
export function findCheckBoxes(raster: GreyPage): CheckBox[] {
  const minSide = Math.round(raster.dpi * MIN_SIDE_IN);
  const maxSide = Math.round(raster.dpi * MAX_SIDE_IN);
  const toPoints = 72 / raster.dpi;
  const boxes: CheckBox[] = [];
  for (const c of components(raster, maxSide)) {
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    if (w < minSide || h < minSide || w > h * 1.3 || h > w * 1.3) continue;
    const band = Math.max(2, Math.round(Math.min(w, h) * 0.12));
    const sides = (['top', 'bottom', 'left', 'right'] as const).map((s) => sideCoverage(raster, c, s, band));
    if (sides.some((s) => s < SIDE_COVERAGE)) continue;
    const inset = band + 1;
    let dark = 0;
    let total = 0;
    for (let y = c.y0 + inset; y <= c.y1 - inset; y++)
      for (let x = c.x0 + inset; x <= c.x1 - inset; x++) {
        total++;
        if (raster.pixels[y * raster.width + x]! < DARK) dark++;
      }
    if (total === 0) continue;
    boxes.push({
      box: { x0: c.x0 * toPoints, y0: c.y0 * toPoints, x1: (c.x1 + 1) * toPoints, y1: (c.y1 + 1) * toPoints },
      marked: dark / total >= MARKED_FILL,
    });
  }
  return boxes;
}

function inside(x: number, y: number, box: CheckBox['box']): boolean {
  return x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1;
}

/**
 * The OCR'd words without the characters that lie inside a check box (the box read as 口 or 凶, an X mark, a
 * box glued to its option word: `m凶` → `m`). Character positions are interpolated across the word's box.
 */
export function dropBoxGlyphs(words: Fragment[], boxes: CheckBox[]): Fragment[] {
  if (boxes.length === 0) return words;
  const out: Fragment[] = [];
  for (const word of words) {
    const cy = (word.box.y0 + word.box.y1) / 2;
    const near = boxes.filter(
      (b) => word.box.x1 > b.box.x0 && word.box.x0 < b.box.x1 && cy > b.box.y0 - 4 && cy < b.box.y1 + 4,
    );
    if (near.length === 0) {
      out.push(word);
      continue;
    }
    const chars = [...word.text];
    const step = (word.box.x1 - word.box.x0) / chars.length;
    const keep = chars.map((_, i) => {
      const x = word.box.x0 + step * (i + 0.5);
      return !near.some((b) => inside(x, (b.box.y0 + b.box.y1) / 2, b.box));
    });
    const first = keep.indexOf(true);
    if (first < 0) continue;
    const last = keep.lastIndexOf(true);
    const text = chars
      .filter((_, i) => keep[i])
      .join('')
      .trim();
    if (!text) continue;
    out.push({
      ...word,
      text,
      box: { ...word.box, x0: word.box.x0 + step * first, x1: word.box.x0 + step * (last + 1) },
    });
  }
  return out;
}
