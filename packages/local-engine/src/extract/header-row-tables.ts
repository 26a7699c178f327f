/**
 * Tables the layout built none of, read down from a row of column captions: an invoice's line items under "Hrs/Qty |
 * Service | Rate/Price | Adjust | Sub Total" whose description runs over two lines with the figures printed between
 * them, so that no row of the page aligns with the captions' row (docs/reference.md, "Questions, boxes and
 * contact boxes by their words"). Each caption owns the page's width up to halfway to its neighbours; the rows
 * below, up to a totals row or a wide gap, are read into those columns; each row with figures is an item, and a row
 * of words alone joins the item whose figures are nearest (a description's lines above and below them).
 */
import { unionBox, type PageLayout, type Row, type TableBlock, type TextLine } from '../layout/types.js';

/** Fewest captions a row must print to head a table. */
const MIN_CAPTIONS = 3;
/** Most words a column caption has. */
const MAX_CAPTION_WORDS = 3;
/** Fewest figures a row of items prints. */
const MIN_FIGURES = 2;
/** A gap wider than this many font sizes between rows ends the table. */
const MAX_ROW_GAP_EM = 2.5;
/** A row that sums the items above ends them. */
const TOTALS = /^(?:sub\s*-?\s*total|total|tax|vat|balance|amount\s+due)\b/i;

const isFigure = (line: TextLine) => /\d/.test(line.text);

/** Whether a row is a row of column captions: several short lines of words, no figure among them. */
function isCaptionRow(row: Row): boolean {
  return (
    row.lines.length >= MIN_CAPTIONS &&
    row.lines.every((line) => !isFigure(line) && line.text.trim().split(/\s+/).length <= MAX_CAPTION_WORDS)
  );
}

/** The column of each caption: from halfway to the caption before it to halfway to the one after. */
function columnsOf(captions: TextLine[]): { x0: number; x1: number }[] {
  return captions.map((caption, i) => ({
    x0: i === 0 ? -Infinity : (captions[i - 1]!.box.x1 + caption.box.x0) / 2,
    x1: i === captions.length - 1 ? Infinity : (caption.box.x1 + captions[i + 1]!.box.x0) / 2,
  }));
}

/** Lines of one cell as one line, top to bottom. */
function joined(lines: TextLine[]): TextLine {
  const sorted = [...lines].sort((a, b) => a.box.y0 - b.box.y0);
  return {
    text: sorted.map((l) => l.text.trim()).join(' '),
    box: unionBox(sorted.map((l) => l.box)),
    fontSize: sorted[0]!.fontSize,
    confidence: Math.min(...sorted.map((l) => l.confidence)),
    fragments: sorted.flatMap((l) => l.fragments),
  };
}

function middle(row: Row): number {
  return (row.box.y0 + row.box.y1) / 2;
}

/** The table under one row of captions, or null when no row of items follows it. */
function tableUnder(page: PageLayout, at: number): TableBlock | null {
  const head = page.rows[at]!;
  const captions = [...head.lines].sort((a, b) => a.box.x0 - b.box.x0);
  const columns = columnsOf(captions);
  const em = Math.max(...captions.map((c) => c.fontSize));
  const body: Row[] = [];
  let bottom = head.box.y1;
  for (const row of page.rows.slice(at + 1)) {
    if (row.box.y0 - bottom > em * MAX_ROW_GAP_EM || TOTALS.test(row.lines[0]?.text.trim() ?? '')) break;
    // A line across several columns is prose, not a cell.
    if (row.lines.some((l) => columns.filter((c) => l.box.x0 < c.x1 && l.box.x1 > c.x0).length > 2)) break;
    body.push(row);
    bottom = Math.max(bottom, row.box.y1);
  }
  const itemRows = body.filter((row) => row.lines.filter(isFigure).length >= MIN_FIGURES);
  if (itemRows.length === 0) return null;
  const members = new Map<Row, Row[]>(itemRows.map((row) => [row, [row]]));
  for (const row of body) {
    if (members.has(row)) continue;
    const nearest = itemRows.reduce((a, b) =>
      Math.abs(middle(a) - middle(row)) <= Math.abs(middle(b) - middle(row)) ? a : b,
    );
    members.get(nearest)!.push(row);
  }
  const columnOf = (line: TextLine) => {
    const centre = (line.box.x0 + line.box.x1) / 2;
    return columns.findIndex((c) => centre >= c.x0 && centre < c.x1);
  };
  const items = itemRows.map((row) =>
    columns.map((_, i) => {
      const lines = members.get(row)!.flatMap((r) => r.lines.filter((l) => columnOf(l) === i));
      return lines.length > 0 ? joined(lines) : null;
    }),
  );
  return {
    kind: 'table',
    box: unionBox([head.box, ...body.map((r) => r.box)]),
    header: captions.map((c) => c.text),
    rows: [captions.map((c) => c.text), ...items.map((cells) => cells.map((c) => c?.text ?? null))],
    cellLines: [captions, ...items],
  };
}

/** The tables under the page's rows of column captions that the layout built no table at. */
export function headerRowTables(page: PageLayout): TableBlock[] {
  const built = page.tables.map((t) => t.box);
  return page.rows.flatMap((row, at) => {
    if (!isCaptionRow(row) || built.some((b) => row.box.y0 >= b.y0 - 1 && row.box.y1 <= b.y1 + 1)) return [];
    const table = tableUnder(page, at);
    return table ? [table] : [];
  });
}
