/**
 * Check boxes on a page raster: small ruled squares, marked when ink (an X, a tick, a fill) sits inside them.
 * Connected components of ink (judged against the paper around it: ink-mask.ts) whose bounding box is a square
 * of check-box size (0.08–0.25 in) with its four sides ruled, one of them possibly broken; letters fail the
 * sides test (an O's corners are round, an H has no top, an E's open side is the ends of its arms), and the
 * square ones that pass it are told apart by what the OCR read there (`withoutPrintedCharacters`). The OCR
 * reads a box as a character (口, □, 凶, α…) or glues it to the word beside it, so the words' characters that
 * fall inside a box are dropped (`dropBoxGlyphs`), and the extraction reads the boxes from here instead
 * (docs/reference.md, "Check boxes"). A box joined to other ink (its mark typed across its side) is found
 * inside the larger component (`boxWithin`).
 */
import type { GreyPage } from '@docbench/pdf';
import type { CheckBox, Fragment } from './layout/types.js';
import { contrastInkShare, inkOf, type InkPage } from './ink-mask.js';
import { componentBoxes, type PixelBox } from './pixel-components.js';
import { fragmentPieces } from './fragment-pieces.js';

const MIN_SIDE_IN = 0.08;
const MAX_SIDE_IN = 0.25;
/**
 * Fewer pixels a side than this cannot tell a ruled box from a letter or a printed dot (a dot-matrix receipt's
 * colon, scanned without a stated resolution, is a square blob of 8 pixels).
 */
const MIN_SIDE_PX = 12;
/** Share of each side's length that must be ruled. */
const SIDE_COVERAGE = 0.85;
/** …except one side, which needs only this share when the other three are ruled. */
const BROKEN_SIDE_COVERAGE = 0.6;
/** …and whose ruled positions run on inward (a letter's arms) in at most this share. */
const MAX_INWARD_SHARE = 0.3;
/** Longest break in a ruled side that still counts as ruled (a pixel or two of a fax), in inches. */
const MAX_GAP_IN = 0.012;
const MAX_GAP_SHARE = 0.1;
const BAND_SHARE = 0.15;
/** An edge row or column of a component with less ink than this share of its length is a speck, not a rule. */
const SPECK_SHARE = 0.2;
/** Share of the inside that must be dark for the box to count as marked (an empty box after a scan: ~0). */
const MARKED_FILL = 0.08;
/** How much larger than a box a component may be and still hold one (a box with a mark or word joined to it). */
const WITH_MARK = 2;
/** How far from the page's own boxes' size a box joined to other ink may be, as a share of it. */
const SAME_SIZE = 0.15;
/** Thickest rule of a box found inside a larger component, in inches (a form's box: ~0.007 in). */
const MAX_RULE_IN = 0.015;
/**
 * Share of the inside between a box's rules that must be ink for a box joined to other ink to count as marked:
 * the inside is measured right up to its rules, and a mark typed half outside has only its corner there
 * (0.04–0.05 of it for an X 4 pt off; an empty box ~0).
 */
const MARKED_FILL_BY_RULES = 0.03;

type Component = PixelBox;

/** The components of ink no larger than `maxSide` each way. */
function components(ink: InkPage, maxSide: number): Component[] {
  const { width, height, mask } = ink;
  return componentBoxes(width, height, (at) => mask[at] === 1, 8).filter(
    (c) => c.x1 - c.x0 <= maxSide && c.y1 - c.y0 <= maxSide,
  );
}

/**
 * Share of positions along one side with ink within `band` pixels of the edge. Gaps of at most `maxGap`
 * positions between ruled ones count as ruled: a rule that binarisation broke (a fax) has gaps of a pixel or
 * two. The ends are not bridged: a letter's round corner leaves them empty.
 */
function sideCoverage(
  ink: InkPage,
  c: Component,
  side: 'top' | 'bottom' | 'left' | 'right',
  band: number,
  maxGap: number,
): number {
  const horizontal = side === 'top' || side === 'bottom';
  const from = horizontal ? c.x0 : c.y0;
  const to = horizontal ? c.x1 : c.y1;
  let covered = 0;
  let gap = 0;
  let seenInk = false;
  for (let along = from; along <= to; along++) {
    let ruled = false;
    for (let depth = 0; depth < band && !ruled; depth++) {
      const x = horizontal ? along : side === 'left' ? c.x0 + depth : c.x1 - depth;
      const y = horizontal ? (side === 'top' ? c.y0 + depth : c.y1 - depth) : along;
      ruled = ink.mask[y * ink.width + x] === 1;
    }
    if (!ruled) {
      gap++;
      continue;
    }
    if (seenInk && gap <= maxGap) covered += gap;
    covered++;
    gap = 0;
    seenInk = true;
  }
  return covered / (to - from + 1);
}

/** The mask grown by one pixel each way: joins the pieces of a side that binarisation broke (a fax's rules). */
function dilate(ink: InkPage): InkPage {
  const { width, height, mask } = ink;
  const grown = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x] !== 1) continue;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx >= 0 && nx < width) grown[ny * width + nx] = 1;
        }
      }
    }
  return { width, height, mask: grown };
}

/**
 * Share of the ruled positions along one side (corners left out) where the ink runs on inward to twice the
 * band's depth: a rule is thin, a letter's arm is not.
 */
function inkRunningInward(ink: InkPage, c: Component, side: 'top' | 'bottom' | 'left' | 'right', band: number): number {
  const horizontal = side === 'top' || side === 'bottom';
  const from = (horizontal ? c.x0 : c.y0) + band;
  const to = (horizontal ? c.x1 : c.y1) - band;
  const at = (along: number, depth: number): boolean => {
    const x = horizontal ? along : side === 'left' ? c.x0 + depth : c.x1 - depth;
    const y = horizontal ? (side === 'top' ? c.y0 + depth : c.y1 - depth) : along;
    return ink.mask[y * ink.width + x] === 1;
  };
  let ruled = 0;
  let inward = 0;
  for (let along = from; along <= to; along++) {
    let edge = false;
    for (let depth = 0; depth < band && !edge; depth++) edge = at(along, depth);
    if (!edge) continue;
    ruled++;
    let through = true;
    for (let depth = band; depth < band * 2 && through; depth++) through = at(along, depth);
    if (through) inward++;
  }
  return ruled === 0 ? 1 : inward / ruled;
}

/** Share of positions in a row or column of the component that hold ink. */
function lineInk(ink: InkPage, c: Component, horizontal: boolean, at: number): number {
  const from = horizontal ? c.x0 : c.y0;
  const to = horizontal ? c.x1 : c.y1;
  let count = 0;
  for (let along = from; along <= to; along++)
    if (ink.mask[horizontal ? at * ink.width + along : along * ink.width + at] === 1) count++;
  return count / (to - from + 1);
}

/**
 * The component without edge rows and columns that hold hardly any ink: a speck of noise touching a box's rule
 * widens its bounding box by a pixel, and the rule then lies outside the band its side is looked for in.
 */
function trimSpecks(ink: InkPage, component: Component): Component {
  const c = { ...component };
  while (c.y1 - c.y0 > 2 && lineInk(ink, c, true, c.y0) < SPECK_SHARE) c.y0++;
  while (c.y1 - c.y0 > 2 && lineInk(ink, c, true, c.y1) < SPECK_SHARE) c.y1--;
  while (c.x1 - c.x0 > 2 && lineInk(ink, c, false, c.x0) < SPECK_SHARE) c.x0++;
  while (c.x1 - c.x0 > 2 && lineInk(ink, c, false, c.x1) < SPECK_SHARE) c.x1--;
  return c;
}

/** Whether the component is a ruled square of check-box size; `marked` when ink fills its inside. */
function readBox(ink: InkPage, component: Component, minSide: number, maxGap: number): { marked: boolean } | null {
  const c = trimSpecks(ink, component);
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  if (w < minSide || h < minSide || w > h * 1.3 || h > w * 1.3) return null;
  const band = Math.max(2, Math.round(Math.min(w, h) * BAND_SHARE));
  // A bridged gap is at most a tenth of the side: on a side of letter size, two pixels are a letter's own gap.
  const gap = Math.min(maxGap, Math.max(1, Math.round(Math.min(w, h) * MAX_GAP_SHARE)));
  const names = ['top', 'bottom', 'left', 'right'] as const;
  const weak = names.filter((s) => sideCoverage(ink, c, s, band, gap) < SIDE_COVERAGE);
  // One side may be broken (noise, a mark's stroke through it) when the other three hold and what is left of
  // it is a thin rule; an E's open side is the ends of its arms, which run on inward.
  if (weak.length > 1) return null;
  const broken = weak[0];
  if (
    broken &&
    (sideCoverage(ink, c, broken, band, gap) < BROKEN_SIDE_COVERAGE ||
      inkRunningInward(ink, c, broken, band) > MAX_INWARD_SHARE)
  )
    return null;
  const inset = band + 1;
  const inside = { x0: c.x0 + inset, y0: c.y0 + inset, x1: c.x1 - inset, y1: c.y1 - inset };
  if (inside.x1 < inside.x0 || inside.y1 < inside.y0) return null;
  return { marked: inkShare(ink, inside) >= MARKED_FILL };
}

/**
 * Where the ink along each row (`horizontal`) or column of the component runs unbroken for at least `length`
 * pixels, as rules: runs of such adjacent lines, each from its first to its last.
 */
function rulesWithin(ink: InkPage, c: Component, horizontal: boolean, length: number): { from: number; to: number }[] {
  const rules: { from: number; to: number }[] = [];
  const [lineFrom, lineTo, alongFrom, alongTo] = horizontal ? [c.y0, c.y1, c.x0, c.x1] : [c.x0, c.x1, c.y0, c.y1];
  for (let line = lineFrom; line <= lineTo; line++) {
    let run = 0;
    let longest = 0;
    for (let along = alongFrom; along <= alongTo; along++) {
      run = ink.mask[horizontal ? line * ink.width + along : along * ink.width + line] === 1 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    if (longest < length) continue;
    const last = rules.at(-1);
    if (last && last.to === line - 1) last.to = line;
    else rules.push({ from: line, to: line });
  }
  return rules;
}

/**
 * A ruled box inside a component that is not one as a whole: a mark typed out of register (a claim printed onto
 * a pre-printed form a few points off) crosses the box's side, and the box and its mark, or the option word the
 * mark reaches, are one component of ink (CHANGELOG.md, "Marks typed out of register"). The box is
 * looked for between the component's long horizontal and vertical rules.
 */
function boxWithin(
  ink: InkPage,
  c: Component,
  sizes: { minSide: number; maxSide: number; maxGap: number; maxRule: number },
): { c: Component; marked: boolean } | null {
  const { minSide, maxSide, maxGap, maxRule } = sizes;
  const length = Math.round(minSide * SIDE_COVERAGE);
  // A box's rules are thin; a bold heading's strokes, which can close a square between two letters, are not.
  const thin = (rule: { from: number; to: number }) => rule.to - rule.from < maxRule;
  const rows = rulesWithin(ink, c, true, length).filter(thin);
  const columns = rulesWithin(ink, c, false, length).filter(thin);
  if (rows.length < 2 || columns.length < 2) return null;
  for (const [i, top] of rows.entries())
    for (const bottom of rows.slice(i + 1)) {
      const h = bottom.to - top.from + 1;
      if (h < minSide || h > maxSide) continue;
      for (const [j, left] of columns.entries())
        for (const right of columns.slice(j + 1)) {
          const w = right.to - left.from + 1;
          if (w < minSide || w > maxSide) continue;
          const box = { x0: left.from, y0: top.from, x1: right.to, y1: bottom.to };
          if (!readBox(ink, box, minSide, maxGap)) continue;
          // Marked when ink fills the inside between the rules found: a mark out of register has only its
          // corner inside, by the rules, where the inside of a box read whole leaves a band along its sides.
          const inside = { x0: left.to + 1, y0: top.to + 1, x1: right.from - 1, y1: bottom.from - 1 };
          return { c: box, marked: inkShare(ink, inside) >= MARKED_FILL_BY_RULES };
        }
    }
  return null;
}

/** Share of a solid mark's box that is ink: a filled square (■), not a letter (a bold E or H: ~0.8). */
const SOLID_FILL = 0.95;
/** Fewest pixels a side of a solid mark has: smaller is a speck or a full stop. */
const MIN_MARK_PX = 6;
/** How far (in mark sides) from a solid mark the rules of its cell may be. */
const CELL_REACH = 3;
/** How much longer than the mark's side a rule of its cell runs (a letter's stroke beside a bullet does not). */
const CELL_RULE = 1.5;

/**
 * Whether ink runs as a rule across the line from the mark's centre in one direction, within reach: the first ink
 * met is part of a straight run CELL_RULE times the mark's side long, across the direction walked.
 */
function ruleBeyond(ink: InkPage, c: Component, direction: 'left' | 'right' | 'up' | 'down'): boolean {
  const side = Math.max(c.x1 - c.x0, c.y1 - c.y0) + 1;
  const cx = Math.round((c.x0 + c.x1) / 2);
  const cy = Math.round((c.y0 + c.y1) / 2);
  const horizontal = direction === 'left' || direction === 'right';
  const step = direction === 'left' || direction === 'up' ? -1 : 1;
  const start =
    direction === 'left' ? c.x0 - 1 : direction === 'right' ? c.x1 + 1 : direction === 'up' ? c.y0 - 1 : c.y1 + 1;
  const limit = horizontal ? ink.width : ink.height;
  const at = (along: number, across: number) =>
    horizontal ? ink.mask[across * ink.width + along] === 1 : ink.mask[along * ink.width + across] === 1;
  const across = horizontal ? cy : cx;
  const acrossLimit = horizontal ? ink.height : ink.width;
  for (
    let along = start, walked = 0;
    along >= 0 && along < limit && walked <= side * CELL_REACH;
    along += step, walked++
  ) {
    if (!at(along, across)) continue;
    let run = 1;
    for (let a = across - 1; a >= 0 && at(along, a); a--) run++;
    for (let a = across + 1; a < acrossLimit && at(along, a); a++) run++;
    return run >= side * CELL_RULE;
  }
  return false;
}

/**
 * A solid square mark alone in a ruled cell: a form's filled widget (■) in a table of Yes/No cells, whose cell is
 * no square box of its own. A marked box at the mark; a bullet (■ before a word) has no rule on every side.
 */
function cellMark(ink: InkPage, c: Component, maxSide: number): { c: Component; marked: boolean } | null {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  if (w < MIN_MARK_PX || h < MIN_MARK_PX || w > maxSide || h > maxSide || w > h * 1.3 || h > w * 1.3) return null;
  if (inkShare(ink, c) < SOLID_FILL) return null;
  const ruled = (['left', 'right', 'up', 'down'] as const).every((d) => ruleBeyond(ink, c, d));
  return ruled ? { c, marked: true } : null;
}

/** Share of the pixels of the area that are ink. */
function inkShare(ink: InkPage, area: Component): number {
  let dark = 0;
  let total = 0;
  for (let y = area.y0; y <= area.y1; y++)
    for (let x = area.x0; x <= area.x1; x++) {
      total++;
      if (ink.mask[y * ink.width + x] === 1) dark++;
    }
  return total === 0 ? 0 : dark / total;
}

function overlaps(a: Component, b: Component): boolean {
  return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

/**
 * The check boxes on a page, in points from its top-left. A box whose sides binarisation broke into pieces
 * (one-pixel gaps: a fax) is one component only once the ink is grown by a pixel; the ink as it is comes
 * first, since growing it can also join a box to the letter printed right beside it.
 */
export function findCheckBoxes(raster: GreyPage): CheckBox[] {
  const minSide = Math.max(MIN_SIDE_PX, Math.round(raster.dpi * MIN_SIDE_IN));
  const maxSide = Math.round(raster.dpi * MAX_SIDE_IN);
  const maxGap = Math.max(1, Math.round(raster.dpi * MAX_GAP_IN));
  const maxRule = Math.max(2, Math.round(raster.dpi * MAX_RULE_IN));
  const toPoints = 72 / raster.dpi;
  const ink = inkOf(raster, contrastInkShare(raster));
  const found: { c: Component; marked: boolean }[] = [];
  const free = (c: Component) => !found.some((f) => overlaps(f.c, c));
  /** Components that may hold a box joined to other ink. */
  const joined: Component[] = [];
  const accept = (c: Component): void => {
    if (!free(c)) return;
    const box = c.x1 - c.x0 <= maxSide && c.y1 - c.y0 <= maxSide ? readBox(ink, c, minSide, maxGap) : null;
    if (box) found.push({ c, ...box });
  };
  /** Solid marks in ruled cells, taken once no box holds them. */
  const cellMarks: { c: Component; marked: boolean }[] = [];
  // Components up to twice a box's size: a box with a mark or word joined to it holds the box somewhere inside.
  for (const c of components(ink, maxSide * WITH_MARK)) {
    accept(c);
    if (!free(c)) continue;
    joined.push(c);
    const mark = cellMark(ink, c, maxSide);
    if (mark) cellMarks.push(mark);
  }
  // A grown component's box is one pixel larger each way than the ink it holds.
  for (const c of components(dilate(ink), maxSide + 2))
    accept({
      x0: c.x0 + 1,
      y0: c.y0 + 1,
      x1: Math.min(raster.width - 1, c.x1 - 1),
      y1: Math.min(raster.height - 1, c.y1 - 1),
    });
  // A box joined to other ink is looked for only at the size of the page's boxes that stand alone: a form's check
  // boxes are all one size, and without that, the blocky digits a receipt prints close together close squares.
  const sides = found.map(({ c }) => Math.max(c.x1 - c.x0, c.y1 - c.y0) + 1).sort((a, b) => a - b);
  const side = sides[Math.floor(sides.length / 2)];
  if (side !== undefined) {
    const sizes = {
      minSide: Math.max(minSide, Math.floor(side * (1 - SAME_SIZE))),
      maxSide: Math.ceil(side * (1 + SAME_SIZE)),
      maxGap,
      maxRule,
    };
    for (const c of joined) {
      const within = free(c) ? boxWithin(ink, c, sizes) : null;
      if (within && free(within.c)) found.push(within);
    }
  }
  for (const mark of cellMarks) if (free(mark.c)) found.push(mark);
  return found.map(({ c, marked }) => ({
    box: { x0: c.x0 * toPoints, y0: c.y0 * toPoints, x1: (c.x1 + 1) * toPoints, y1: (c.y1 + 1) * toPoints },
    marked,
  }));
}

function inside(x: number, y: number, box: CheckBox['box']): boolean {
  return x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1;
}

/** Whether the box is on the word's line and across part of it. */
function across(word: Fragment, box: CheckBox['box']): boolean {
  const cy = (word.box.y0 + word.box.y1) / 2;
  return word.box.x1 > box.x0 && word.box.x0 < box.x1 && cy > box.y0 - 4 && cy < box.y1 + 4;
}

/** Whether the word's i-th character lies inside the box (positions interpolated across the word's box). */
function charInside(word: Fragment, i: number, box: CheckBox['box']): boolean {
  const x = word.box.x0 + ((word.box.x1 - word.box.x0) / [...word.text].length) * (i + 0.5);
  return inside(x, (box.y0 + box.y1) / 2, box);
}

/**
 * The OCR'd words without the characters that lie inside a check box (the box read as 口 or 凶, an X mark, a
 * box glued to its option word: `m凶` → `m`). A box read inside a word splits it: `M口F凶` is the options `M`
 * and `F`, not one word `MF`.
 */
export function dropBoxGlyphs(words: Fragment[], boxes: CheckBox[]): Fragment[] {
  if (boxes.length === 0) return words;
  const out: Fragment[] = [];
  for (const word of words) {
    const near = boxes.filter((b) => across(word, b.box));
    if (near.length === 0) out.push(word);
    // Each run of characters outside the boxes is a word of its own.
    else out.push(...fragmentPieces(word, (i) => near.some((b) => charInside(word, i, b.box))));
  }
  return out;
}

/** What the OCR reads ordinary text as. */
const LETTER_OR_DIGIT = /^[A-Za-z0-9]$/;
/** The letters and digits an empty square is read as (beside 口, □, α… ). */
const SQUARE_LOOKING = /^[Oo0]$/;
/**
 * A word with this many letters and digits besides the box is text ("T□TAL", "11□.00"), not options glued to a
 * box ("M□F", "F□").
 */
const TEXT_WORD_CHARS = 3;
/** A number with a decimal or thousands separator ("0.□0"): a box read among its digits is a digit. */
const NUMBER = /\d[.,]\d/;

/**
 * Whether the OCR read the box's place as a character of the word's text: a letter or digit a square does not
 * look like beside other letters or digits ("CA□H", "4.□0"), or an O or 0 within a word of other letters and
 * digits or a number.
 */
function readAsText(word: Fragment, box: CheckBox['box'], boxes: CheckBox[]): boolean {
  const chars = [...word.text];
  const read = chars.filter((_, i) => charInside(word, i, box));
  if (read.length === 0 || !read.every((c) => LETTER_OR_DIGIT.test(c))) return false;
  const onLine = boxes.filter((b) => across(word, b.box));
  const besides = chars.filter((c, i) => LETTER_OR_DIGIT.test(c) && !onLine.some((b) => charInside(word, i, b.box)));
  // A box read as a word of its own is a box whatever it was read as (a fax's box read as `i`).
  if (besides.length === 0) return false;
  if (!read.every((c) => SQUARE_LOOKING.test(c))) return true;
  return besides.length >= TEXT_WORD_CHARS || NUMBER.test(word.text);
}

/**
 * The boxes that are not printed characters. A bold or blocky typeface's O, 0, 8 or S is a square of ink with four
 * straight sides, as large as a check box where the type is (a receipt's, 0.1 in high), and passes the sides
 * test; the OCR read it as the letter or digit it is, inside a word of text, where a check box is read as a
 * sign of its own or glued to its option (CHANGELOG.md, "Printed characters that look like boxes").
 */
export function withoutPrintedCharacters(boxes: CheckBox[], words: Fragment[]): CheckBox[] {
  return boxes.filter((b) => !words.some((word) => across(word, b.box) && readAsText(word, b.box, boxes)));
}
