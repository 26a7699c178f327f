/**
 * A value printed as a block of lines: an address under `To:` or beside `Bill to:`, a table cell whose
 * description wraps onto a second line. The label search reads the block's first line; these are the lines that
 * continue it (docs/reference.md, "Extraction: label matching").
 */
import type { PointBox } from '../layout/types.js';
import type { DocumentIndex, IndexedLine } from './document-index.js';
import { startsWithLabel, type ValueCandidate } from './find-values.js';

/** Most lines a block runs on under its first line. */
const MAX_BLOCK_LINES = 6;
/** Widest gap between two lines of one block, in ems of its first line: line spacing, not a gap between blocks. */
const BLOCK_LINE_GAP = 0.6;
/** Type sizes of one block stay within this ratio (a description line is often set a size smaller). */
const BLOCK_SIZE_RATIO = 1.3;
/** How far (points) a line may start from the value's left edge and continue it under a label without a colon. */
const EXACT_EDGE = 0.5;

/**
 * A gap between lines of at least this many ems is a blank line: what sets one field's lines apart from the next
 * field's.
 */
const BLANK_LINE_GAP = 1;
/** A line reaching this share of the text's width (its start to the page's right text edge) is full: it wraps. */
const FULL_LINE_SHARE = 0.75;

function overlapsColumn(box: PointBox, x0: number, x1: number): boolean {
  return box.x0 < x1 && box.x1 > x0;
}

/** The first line below `last` (lines of a row overlap by up to 0.3 em) with something in the column [x0, x1]. */
function nextBelow(
  onPage: IndexedLine[],
  last: IndexedLine,
  x0: number,
  x1: number,
  em: number,
): IndexedLine | undefined {
  const lastBox = last.line.box;
  return onPage
    .filter((l) => l.rowIndex > last.rowIndex && l.line.box.y0 >= lastBox.y1 - em * 0.3)
    .filter((l) => overlapsColumn(l.line.box, x0, x1))
    .sort((a, b) => a.line.box.y0 - b.line.box.y0)[0];
}

/** Whether `next` may follow `last` in one block: at line spacing, in a type of like size, starting no new label. */
function setLikeBlock(last: IndexedLine, next: IndexedLine, em: number): boolean {
  if (next.line.box.y0 - last.line.box.y1 > em * BLOCK_LINE_GAP) return false;
  const size = next.line.fontSize / em;
  return size <= BLOCK_SIZE_RATIO && size >= 1 / BLOCK_SIZE_RATIO && !startsWithLabel(next.line.text);
}

/**
 * A label anywhere in a line, glued to its value or not (`Member ID:ZWA574…`, `NPI:2202…`, the `ame: Sunrise` of a
 * label whose first letters the OCR broke off): a row that carries one is a row of fields of its own.
 */
const LABEL_ANYWHERE = /\p{L}:/u;

/**
 * Whether `next`, starting under the label (left of where the value after `Label:` began), is the value wrapping
 * back to its field's left edge ("Findings: Control room temperatures vary … the normal" over "hours of
 * operations."), as a paragraph wraps and as a ruled field's second line is written. Such a line is an unlabelled
 * line under a labelled one, which could as well be text of its own, so one of two signs must show the value goes
 * on: the line above it is full (it reaches most of the way to the text's right edge: the next word did not fit),
 * or the field ends with it (a blank line or nothing below it): a field's lines are set apart from the next
 * field's, and a line that began something else would carry a label of its own or run on. A row that carries a
 * label anywhere is never a wrapped value's line.
 */
function wrapsBack(onPage: IndexedLine[], last: IndexedLine, next: IndexedLine, edge: number, right: number): boolean {
  if (onPage.some((l) => l.rowIndex === next.rowIndex && LABEL_ANYWHERE.test(l.line.text))) return false;
  const textRight = Math.max(...onPage.map((l) => l.line.box.x1));
  if (last.line.box.x1 - edge >= FULL_LINE_SHARE * (textRight - edge)) return true;
  const after = nextBelow(onPage, next, edge, Math.max(right, next.line.box.x1), next.line.fontSize);
  return !after || after.line.box.y0 - next.line.box.y1 >= next.line.fontSize * BLANK_LINE_GAP;
}

/**
 * The lines under a value read after, beside or below its label that continue its block: each the next line down that
 * starts at the block's left edge, in a type of like size, after a gap no wider than line spacing, with nothing
 * else printed between them in the block's column. The block ends at a line that starts with a label, or, when
 * the value stands right of its label (on its line or in the next column), at a line whose row has something in the label's column: the next label
 * of a column of labels beside their values. Under a label without a colon (a form box's caption) the line below
 * a value is mostly the next box's caption: there a line continues the block only on a text layer, and only
 * when it starts exactly where the value starts, as a text layer sets a block's lines (OCR'd lines that start at
 * one box rule meet within a fraction of a point by chance). A value after its `Label:` on the label's line may
 * also wrap back to the label's left edge (`wrapsBack`); the lines after that go on at that edge.
 */
export function blockContinuation(index: DocumentIndex, candidate: ValueCandidate): IndexedLine[] {
  const value = candidate.valueLine;
  if (!value) return [];
  const em = value.line.fontSize;
  let left = value.line.box.x0;
  // A value on its label's line follows a `Label:` (sameLineValue); beside or below, the label is the whole line.
  const colon = candidate.where === 'same-line' || /:\s*$/.test(candidate.line.line.text);
  if (!colon && value.page.source !== 'text-layer') return [];
  const tolerance = colon ? Math.max(2, em * 0.3) : EXACT_EDGE;
  const labelBox = candidate.where === 'below' ? null : candidate.labelBox;
  const edge = candidate.where === 'same-line' ? candidate.labelBox.x0 : null;
  const onPage = index.lines.filter((l) => l.page === value.page);
  const block: IndexedLine[] = [];
  let last = value;
  while (block.length < MAX_BLOCK_LINES) {
    const right = Math.max(...[value, ...block].map((l) => l.line.box.x1));
    // Under a value after `Label:`, a line at the label's left edge is the value wrapping back (`wrapsBack`); once
    // it has, every further line starts there and must show the same.
    const wrapped = edge === null ? undefined : nextBelow(onPage, last, edge, right, em);
    if (
      wrapped &&
      Math.abs(wrapped.line.box.x0 - edge!) <= tolerance &&
      setLikeBlock(last, wrapped, em) &&
      wrapsBack(onPage, last, wrapped, edge!, right)
    ) {
      left = edge!;
      block.push(wrapped);
      last = wrapped;
      continue;
    }
    if (left === edge) break;
    const next = nextBelow(onPage, last, left, right, em);
    if (!next || Math.abs(next.line.box.x0 - left) > tolerance || !setLikeBlock(last, next, em)) break;
    if (
      labelBox &&
      onPage.some((l) => l.rowIndex === next.rowIndex && overlapsColumn(l.line.box, labelBox.x0, labelBox.x1))
    )
      break;
    block.push(next);
    last = next;
  }
  return block;
}
