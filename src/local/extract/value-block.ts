/**
 * A value printed as a block of lines: an address under `To:` or beside `Bill to:`, a table cell whose
 * description wraps onto a second line. The label search reads the block's first line; these are the lines that
 * continue it (docs/local-service.md, "Extraction: label matching").
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

function overlapsColumn(box: PointBox, x0: number, x1: number): boolean {
  return box.x0 < x1 && box.x1 > x0;
}

/**
 * The lines under a value read after, beside or below its label that continue its block: each the next line down that
 * starts at the block's left edge, in a type of like size, after a gap no wider than line spacing, with nothing
 * else printed between them in the block's column. The block ends at a line that starts with a label, or, when
 * the value stands right of its label (on its line or in the next column), at a line whose row has something in the label's column: the next label
 * of a column of labels beside their values. Under a label without a colon (a form box's caption) the line below
 * a value is mostly the next box's caption: there a line continues the block only on a text layer, and only
 * when it starts exactly where the value starts, as a text layer sets a block's lines (OCR'd lines that start at
 * one box rule meet within a fraction of a point by chance).
 */
export function blockContinuation(index: DocumentIndex, candidate: ValueCandidate): IndexedLine[] {
  const value = candidate.valueLine;
  if (!value) return [];
  const em = value.line.fontSize;
  const left = value.line.box.x0;
  // A value on its label's line follows a `Label:` (sameLineValue); beside or below, the label is the whole line.
  const colon = candidate.where === 'same-line' || /:\s*$/.test(candidate.line.line.text);
  if (!colon && value.page.source !== 'text-layer') return [];
  const tolerance = colon ? Math.max(2, em * 0.3) : EXACT_EDGE;
  const labelBox = candidate.where === 'below' ? null : candidate.labelBox;
  const onPage = index.lines.filter((l) => l.page === value.page);
  const block: IndexedLine[] = [];
  let last = value;
  while (block.length < MAX_BLOCK_LINES) {
    const lastBox = last.line.box;
    const right = Math.max(...[value, ...block].map((l) => l.line.box.x1));
    const below = onPage
      .filter((l) => l.rowIndex > last.rowIndex && l.line.box.y0 >= lastBox.y1 - em * 0.3)
      .filter((l) => overlapsColumn(l.line.box, left, right))
      .sort((a, b) => a.line.box.y0 - b.line.box.y0);
    const next = below[0];
    if (!next || Math.abs(next.line.box.x0 - left) > tolerance) break;
    if (next.line.box.y0 - lastBox.y1 > em * BLOCK_LINE_GAP) break;
    const size = next.line.fontSize / em;
    if (size > BLOCK_SIZE_RATIO || size < 1 / BLOCK_SIZE_RATIO) break;
    if (startsWithLabel(next.line.text)) break;
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
