/**
 * Rows → blocks: tables from column-aligned rows, headings from size or emphasis, paragraphs from wrapped
 * lines. Hand-written because no maintained Node library does layout analysis on positioned text; the rules
 * are deliberately simple and documented in docs/reference.md.
 */
import { unionBox, type Block, type PageLayout, type Row, type TableBlock, type TextLine } from './types.js';
import { median } from '../median.js';

/** "Label: value" — such lines are form fields, never merged into paragraphs nor read as table rows. */
const KEY_VALUE_LINE = /^[^:]{1,48}:\s*\S/;

function isTableRowCandidate(row: Row): boolean {
  if (row.lines.length < 2) return false;
  const keyValues = row.lines.filter((line) => KEY_VALUE_LINE.test(line.text)).length;
  return keyValues * 2 < row.lines.length;
}

/** The header cell a line belongs to: the one it overlaps most horizontally, or the nearest by centre. */
function assignColumn(line: TextLine, columns: { x0: number; x1: number }[]): number {
  let best = -1;
  let bestOverlap = 0;
  columns.forEach((column, index) => {
    const overlap = Math.min(line.box.x1, column.x1) - Math.max(line.box.x0, column.x0);
    if (overlap > bestOverlap) {
      bestOverlap = overlap;
      best = index;
    }
  });
  if (best >= 0) return best;
  const centre = (line.box.x0 + line.box.x1) / 2;
  let nearest = 0;
  columns.forEach((column, index) => {
    const distance = Math.abs((column.x0 + column.x1) / 2 - centre);
    const current = columns[nearest]!;
    if (distance < Math.abs((current.x0 + current.x1) / 2 - centre)) nearest = index;
  });
  return nearest;
}

/** Column extents from the header: each header cell widened to the start of the next. */
function columnsFrom(header: Row): { x0: number; x1: number }[] {
  return header.lines.map((line, i) => {
    const next = header.lines[i + 1];
    const previous = header.lines[i - 1];
    return {
      x0: previous ? (previous.box.x1 + line.box.x0) / 2 : line.box.x0 - 36,
      x1: next ? (line.box.x1 + next.box.x0) / 2 : line.box.x1 + 36,
    };
  });
}

/** Whether `row` continues a table whose columns are `columns`: ≥2 of its lines fall in distinct columns. */
function alignsWith(row: Row, columns: { x0: number; x1: number }[]): boolean {
  if (!isTableRowCandidate(row)) return false;
  const hits = new Set<number>();
  let aligned = 0;
  for (const line of row.lines) {
    const overlapping = columns.findIndex((c) => Math.min(line.box.x1, c.x1) - Math.max(line.box.x0, c.x0) > 0);
    if (overlapping >= 0) {
      aligned++;
      hits.add(overlapping);
    }
  }
  return hits.size >= 2 && aligned * 2 >= row.lines.length;
}

/** Column extents from the data rows: overlapping cell intervals merge (right-aligned amounts vary in x0). */
function dataColumns(rows: Row[]): { x0: number; x1: number }[] {
  const intervals = rows
    .flatMap((r) => r.lines.map((l) => ({ x0: l.box.x0, x1: l.box.x1 })))
    .sort((a, b) => a.x0 - b.x0);
  const merged: { x0: number; x1: number }[] = [];
  for (const interval of intervals) {
    const last = merged[merged.length - 1];
    if (last && interval.x0 < last.x1) last.x1 = Math.max(last.x1, interval.x1);
    else merged.push({ ...interval });
  }
  return merged;
}

function mergeCell(existing: TextLine | null | undefined, line: TextLine): TextLine {
  return existing
    ? {
        ...existing,
        text: `${existing.text} ${line.text}`,
        box: unionBox([existing.box, line.box]),
        fragments: [...existing.fragments, ...line.fragments],
      }
    : line;
}

/** The one column every line of `row` overlaps, or -1 when its lines overlap none or several. */
function singleColumn(row: Row, columns: { x0: number; x1: number }[]): number {
  const hit = new Set<number>();
  for (const line of row.lines) {
    columns.forEach((c, index) => {
      if (Math.min(line.box.x1, c.x1) - Math.max(line.box.x0, c.x0) > 0) hit.add(index);
    });
  }
  return hit.size === 1 ? hit.values().next().value! : -1;
}

/**
 * Whether `row` is the wrapped rest of one cell of the table row `above` ("Shipping pallets (heat treated," over
 * "ISPM-15 certified)"): its text falls in one column only, where `above` has text, at most a line's height
 * below it. Its figures are on the first line of the cell, as most invoices print them (docs/reference.md).
 */
function wrapsCellOf(row: Row, above: Row, columns: { x0: number; x1: number }[], lineHeight: number): boolean {
  if (row.box.y0 - above.box.y1 > lineHeight || row.lines.some((line) => KEY_VALUE_LINE.test(line.text))) return false;
  const column = singleColumn(row, columns);
  return column >= 0 && above.lines.some((line) => assignColumn(line, columns) === column);
}

function buildTable(tableRows: Row[], wrapped: ReadonlySet<Row>): TableBlock {
  const rows = tableRows.filter((row) => !wrapped.has(row));
  const header = rows[0]!;
  const fromData = dataColumns(rows.slice(1));
  // Headers are often set closer together than one line gap, so their words join one line: when the data
  // shows more columns than the header has lines, split the header's fragments over the data columns.
  const useData = fromData.length > header.lines.length;
  const columns = useData ? fromData : columnsFrom(header);
  const headerRow: (TextLine | null)[] = columns.map(() => null);
  if (useData) {
    for (const line of header.lines) {
      for (const fragment of line.fragments) {
        const piece: TextLine = {
          text: fragment.text.trim(),
          box: fragment.box,
          fontSize: fragment.fontSize,
          confidence: fragment.confidence,
          fragments: [fragment],
        };
        const index = assignColumn(piece, columns);
        headerRow[index] = mergeCell(headerRow[index], piece);
      }
    }
  } else {
    for (const line of header.lines)
      headerRow[assignColumn(line, columns)] = mergeCell(headerRow[assignColumn(line, columns)], line);
  }
  // For extraction a wrapped row's lines join the cells of the row above it; the text keeps each printed row
  // (a markdown table row per line, in the order the page reads).
  const dataRows: (TextLine | null)[][] = [];
  const printedRows: (string | null)[][] = [];
  for (const row of tableRows.slice(1)) {
    if (!wrapped.has(row)) dataRows.push(columns.map(() => null));
    const cells = dataRows.at(-1)!;
    const printed: (TextLine | null)[] = columns.map(() => null);
    for (const line of row.lines) {
      const index = assignColumn(line, columns);
      cells[index] = mergeCell(cells[index], line);
      printed[index] = mergeCell(printed[index], line);
    }
    printedRows.push(printed.map((cell) => cell?.text ?? null));
  }
  const cellLines = [headerRow, ...dataRows];
  return {
    kind: 'table',
    box: unionBox(rows.map((r) => r.box)),
    header: headerRow.map((c) => c?.text ?? ''),
    rows: printedRows,
    cellLines,
  };
}

/**
 * Finds tables: runs of ≥2 consecutive table-candidate rows aligned with the first row's columns, and with
 * `joinWrapped` the wrapped cells between them. Only a text layer's rows are exact enough for that: on a scan
 * the OCR sets one printed row's words on baselines a little apart, and a part of a row would join the row above.
 */
function findTables(
  rows: Row[],
  lineHeight: number,
  joinWrapped: boolean,
): { start: number; end: number; table: TableBlock }[] {
  const found: { start: number; end: number; table: TableBlock }[] = [];
  let i = 0;
  while (i < rows.length) {
    const header = rows[i]!;
    if (!isTableRowCandidate(header)) {
      i++;
      continue;
    }
    const columns = columnsFrom(header);
    const wrapped = new Set<Row>();
    let end = i + 1;
    while (end < rows.length) {
      const previous = rows[end - 1]!;
      const row = rows[end]!;
      if (row.box.y0 - previous.box.y1 > 2.5 * lineHeight) break;
      if (alignsWith(row, columns)) {
        end++;
        continue;
      }
      // Wrapped cells follow a row of data (not the header) and belong to the table only when a row of it
      // follows them.
      if (!joinWrapped || end - 1 === i) break;
      let next = end;
      while (next < rows.length && next - end < 3 && wrapsCellOf(rows[next]!, rows[next - 1]!, columns, lineHeight))
        next++;
      if (next === end || next >= rows.length || !alignsWith(rows[next]!, columns)) break;
      for (let w = end; w < next; w++) wrapped.add(rows[w]!);
      end = next;
    }
    if (end - i >= 2) {
      found.push({ start: i, end, table: buildTable(rows.slice(i, end), wrapped) });
      i = end;
    } else {
      i++;
    }
  }
  return found;
}

function headingLevel(line: TextLine, bodySize: number, rowLines: number): number | null {
  if (rowLines > 1 || KEY_VALUE_LINE.test(line.text) || line.text.length > 90) return null;
  const ratio = line.fontSize / (bodySize || line.fontSize);
  if (ratio >= 1.6) return 1;
  if (ratio >= 1.25) return 2;
  // Short all-capitals lines read as section titles on forms ("PATIENT INFORMATION").
  const letters = line.text.replace(/[^A-Za-z]/g, '');
  const words = line.text.split(/\s+/).length;
  if (letters.length >= 4 && letters === letters.toUpperCase() && words <= 6 && !/[:\d]$/.test(line.text)) return 3;
  return null;
}

/** Builds the blocks of a page in reading order, and lists its tables. */
export function buildBlocks(
  rows: Row[],
  pageWidth: number,
  source: PageLayout['source'],
): { blocks: Block[]; tables: TableBlock[] } {
  const allLines = rows.flatMap((r) => r.lines);
  const bodySize = median(allLines.map((l) => l.fontSize));
  const lineHeight = median(allLines.map((l) => l.box.y1 - l.box.y0)) || 12;
  const textLeft = Math.min(...allLines.map((l) => l.box.x0));
  const textRight = Math.max(...allLines.map((l) => l.box.x1));
  const textWidth = Math.max(1, Math.min(pageWidth, textRight - textLeft));
  const tables = findTables(rows, lineHeight, source === 'text-layer');
  const blocks: Block[] = [];
  let paragraph: TextLine[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    blocks.push({
      kind: 'paragraph',
      text: paragraph.map((l) => l.text).join(' '),
      box: unionBox(paragraph.map((l) => l.box)),
      lines: paragraph,
    });
    paragraph = [];
  };
  let tableIndex = 0;
  for (let r = 0; r < rows.length; r++) {
    const table = tables[tableIndex];
    if (table && r === table.start) {
      flush();
      if (table.table.rows.length === 1) {
        // A label row over one value row is a form, not a table: read it as "Label: value" fields.
        table.table.cellLines[1]!.forEach((cell, c) => {
          const label = table.table.cellLines[0]![c];
          if (!cell && !label) return;
          const lines = [label, cell].filter((l): l is TextLine => Boolean(l));
          const text = label && cell ? `${label.text.replace(/:\s*$/, '')}: ${cell.text}` : (label ?? cell)!.text;
          blocks.push({ kind: 'paragraph', text, box: unionBox(lines.map((l) => l.box)), lines });
        });
      } else blocks.push(table.table);
      r = table.end - 1;
      tableIndex++;
      continue;
    }
    const row = rows[r]!;
    for (const line of row.lines) {
      const level = headingLevel(line, bodySize, row.lines.length);
      if (level !== null) {
        flush();
        blocks.push({ kind: 'heading', level, text: line.text, box: line.box, lines: [line] });
        continue;
      }
      const last = paragraph[paragraph.length - 1];
      // Merge a wrapped line: single-line row, close below, same left edge and size, previous line nearly full.
      const continues =
        last !== undefined &&
        row.lines.length === 1 &&
        line.box.y0 - last.box.y1 <= 0.6 * line.fontSize &&
        Math.abs(line.box.x0 - paragraph[0]!.box.x0) <= line.fontSize &&
        Math.abs(line.fontSize - last.fontSize) <= 0.15 * last.fontSize &&
        last.box.x1 - last.box.x0 >= 0.75 * textWidth &&
        !KEY_VALUE_LINE.test(line.text) &&
        !KEY_VALUE_LINE.test(last.text);
      if (!continues) flush();
      paragraph.push(line);
      if (row.lines.length > 1) flush();
    }
  }
  flush();
  return { blocks, tables: tables.map((t) => t.table) };
}

/** Assembles a page layout from its rows. */
export function buildPageLayout(
  page: number,
  width: number,
  height: number,
  source: PageLayout['source'],
  rows: Row[],
): PageLayout {
  const { blocks, tables } = rows.length > 0 ? buildBlocks(rows, width, source) : { blocks: [], tables: [] };
  return { page, width, height, source, rows, lines: rows.flatMap((r) => r.lines), blocks, tables };
}
