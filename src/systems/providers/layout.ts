/**
 * Provider layout → docbench shapes: markdown from typed blocks (headings, paragraphs, tables, list items),
 * boxes in inches (origin top-left, interface §2.3) from points or from page-relative coordinates, and mean
 * confidence on the 0–100 scale.
 */
import type { InchBox, RegionPage } from '../../service/index.js';
import type { PageSize } from './pages.js';

export type MarkdownBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list-item'; text: string }
  | { kind: 'table'; rows: string[][] };

/** Blocks separated by a blank line; a table's first row is its header (GFM needs one). */
export function renderMarkdown(blocks: readonly MarkdownBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'table') {
      if (block.rows.length > 0) parts.push(renderTable(block.rows));
      continue;
    }
    const text = block.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    if (block.kind === 'heading') parts.push(`${'#'.repeat(block.level)} ${text}`);
    else if (block.kind === 'list-item') parts.push(`- ${text.replace(/^[-•*]\s*/, '')}`);
    else parts.push(text);
  }
  return parts.join('\n\n');
}

export function renderTable(rows: readonly (readonly string[])[]): string {
  const width = Math.max(...rows.map((row) => row.length));
  const cell = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
  const line = (row: readonly string[]) => `| ${Array.from({ length: width }, (_, i) => cell(row[i])).join(' | ')} |`;
  return [line(rows[0] ?? []), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** A box given as fractions of the page (Textract, Document AI's normalizedVertices) → inches. */
export function relativeToInches(
  box: { left: number; top: number; right: number; bottom: number },
  page: PageSize,
): InchBox {
  const w = page.width / 72;
  const h = page.height / 72;
  return {
    min_x: round(box.left * w),
    min_y: round(box.top * h),
    max_x: round(box.right * w),
    max_y: round(box.bottom * h),
  };
}

/** A polygon `[x1, y1, x2, y2, …]` in some unit → the inch box around it; `perInch` is units per inch. */
export function polygonToInches(polygon: readonly number[], perInch: number): InchBox {
  const xs = polygon.filter((_, i) => i % 2 === 0);
  const ys = polygon.filter((_, i) => i % 2 === 1);
  return {
    min_x: round(Math.min(...xs) / perInch),
    min_y: round(Math.min(...ys) / perInch),
    max_x: round(Math.max(...xs) / perInch),
    max_y: round(Math.max(...ys) / perInch),
  };
}

export function regionPage(page: number, size: PageSize, boxes: RegionPage['bounding_boxes']): RegionPage {
  return { page, width: round(size.width), height: round(size.height), bounding_boxes: boxes };
}

/**
 * The mean of word confidences, on 0–100 (`scale` is what the provider uses: 1 for fractions, 100 for
 * percentages). Null when the provider gave none — never invented.
 */
export function meanConfidence(values: readonly number[], scale: 1 | 100): number | null {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return null;
  const mean = finite.reduce((sum, v) => sum + v, 0) / finite.length;
  return Math.round(Math.min(100, Math.max(0, (mean * 100) / scale)) * 100) / 100;
}

/** One line of words with their extents, in any one unit per page (y grows downwards). */
export interface TextLine {
  words: readonly { text: string; x0: number; x1: number }[];
  top: number;
  bottom: number;
  /** The line's typical word height, same unit: the yardstick for a "wide" gap. */
  height: number;
}

/** A gap between two words wider than this many line heights separates cells (table cells, or columns). */
const CELL_GAP_LINE_HEIGHTS = 1.5;

interface Cell {
  text: string;
  x0: number;
  x1: number;
}

/**
 * Lines → markdown blocks, for engines that give lines and words but no structure (tesseract). Lines that
 * sit side by side are first joined into rows, and each row is cut into cells at gaps wider than 1.5 line
 * heights. Then, in reading order:
 * - a run of two or more rows of three or more cells is a table: its columns are the cells of its widest
 *   row, every cell goes to the column it overlaps most (an empty cell leaves a gap, not a shift), and a
 *   one-cell row just above whose words fill all columns but at most one is its header;
 * - a run of rows of exactly two cells is a two-column layout (letterheads, form headers): the left column
 *   is read before the right one, each cell a paragraph;
 * - any other row is a paragraph.
 *
 * `tables: false` leaves out the first rule (each such row is a paragraph), for services that find tables
 * themselves: a geometric guess would only add tables they did not find.
 */
export function linesToBlocks(lines: readonly TextLine[], options: { tables?: boolean } = {}): MarkdownBlock[] {
  const rows = joinRows(lines).map((row) => ({ row, cells: splitCells(row) }));
  const blocks: MarkdownBlock[] = [];
  for (let i = 0; i < rows.length; ) {
    const width = Math.min(rows[i]!.cells.length, 3);
    let end = i + 1;
    while (width >= 2 && end < rows.length && Math.min(rows[end]!.cells.length, 3) === width) end++;
    const run = rows.slice(i, end);
    if (width === 3 && run.length >= 2 && options.tables !== false) {
      const columns = run.reduce((widest, r) => (r.cells.length > widest.length ? r.cells : widest), run[0]!.cells);
      // A one-cell row just above (rendered as the last paragraph) is the header when its words fill all
      // columns but at most one: a title line above a table fills only one or two.
      const placed = run.map((r) => placeInColumns(r.cells, columns));
      // Header words are placed by each column's full extent over the body, not by the widest row alone.
      const extents = columns.map((column, c) => ({
        text: '',
        x0: Math.min(column.x0, ...placed.flatMap((r) => r.cells[c]!.map((cell) => cell.x0))),
        x1: Math.max(column.x1, ...placed.flatMap((r) => r.cells[c]!.map((cell) => cell.x1))),
      }));
      const above =
        i > 0 && rows[i - 1]!.cells.length === 1 ? placeInColumns(rows[i - 1]!.row.words, extents).texts : null;
      const isHeader = above !== null && above.filter((text) => text !== '').length >= Math.max(3, columns.length - 1);
      if (isHeader) blocks.pop();
      const body = placed.map((r) => r.texts);
      blocks.push({ kind: 'table', rows: isHeader ? [above, ...body] : body });
    } else if (width === 2 && run.length >= 2) {
      for (const column of [0, 1]) for (const r of run) blocks.push({ kind: 'paragraph', text: r.cells[column]!.text });
    } else {
      end = i + 1;
      blocks.push({ kind: 'paragraph', text: rows[i]!.cells.map((c) => c.text).join(' ') });
    }
    i = end;
  }
  return blocks;
}

/** Each cell in the column it overlaps most (nearest by centre when it overlaps none); a column's texts joined. */
function placeInColumns(cells: readonly Cell[], columns: readonly Cell[]): { cells: Cell[][]; texts: string[] } {
  // (Words are cells too: a header row is placed word by word.)
  const placed: Cell[][] = columns.map(() => []);
  for (const cell of cells) {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    columns.forEach((column, c) => {
      const overlap = Math.min(cell.x1, column.x1) - Math.max(cell.x0, column.x0);
      const score = overlap > 0 ? overlap : -Math.abs((cell.x0 + cell.x1) / 2 - (column.x0 + column.x1) / 2);
      if (score > bestScore) [best, bestScore] = [c, score];
    });
    placed[best]!.push(cell);
  }
  return { cells: placed, texts: placed.map((column) => column.map((cell) => cell.text).join(' ')) };
}

/** Lines whose vertical middle falls inside a row's extent join that row; rows top to bottom, words left to right. */
function joinRows(lines: readonly TextLine[]): TextLine[] {
  const rows: { top: number; bottom: number; height: number; words: TextLine['words'][number][] }[] = [];
  for (const line of [...lines].sort((a, b) => a.top - b.top)) {
    const middle = (line.top + line.bottom) / 2;
    const row = rows.find(
      (r) =>
        middle >= r.top &&
        middle <= r.bottom &&
        !r.words.some((w) => w.x1 > line.words[0]!.x0 && w.x0 < line.words[line.words.length - 1]!.x1),
    );
    if (row) {
      row.words.push(...line.words);
      row.height = Math.max(row.height, line.height);
    } else {
      rows.push({ top: line.top, bottom: line.bottom, height: line.height, words: [...line.words] });
    }
  }
  return rows.map((row) => ({ ...row, words: row.words.sort((a, b) => a.x0 - b.x0) }));
}

function splitCells(line: TextLine): Cell[] {
  const cells: { words: string[]; x0: number; x1: number }[] = [];
  for (const word of line.words) {
    const last = cells[cells.length - 1];
    if (!last || word.x0 - last.x1 > CELL_GAP_LINE_HEIGHTS * line.height)
      cells.push({ words: [word.text], x0: word.x0, x1: word.x1 });
    else {
      last.words.push(word.text);
      last.x1 = Math.max(last.x1, word.x1);
    }
  }
  return cells.map((cell) => ({ text: cell.words.join(' '), x0: cell.x0, x1: cell.x1 }));
}

/**
 * HTML tables (as Azure's and Mistral's markdown output embed them) → pipe tables. Cells' inner tags are
 * dropped and entities decoded; a cell with `rowspan`/`colspan` is placed as `placeCells` places it. Other
 * text is left alone.
 */
export function htmlTablesToMarkdown(markdown: string): string {
  return markdown.replace(/<table\b[^>]*>([\s\S]*?)<\/table>/gi, (_, inner: string) => {
    const rows = [...inner.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map((row) =>
      [...row[1]!.matchAll(/<t[hd]\b([^>]*)>([\s\S]*?)<\/t[hd]>/gi)].map((cell) => ({
        text: decodeEntities(cell[2]!.replace(/<[^>]*>/g, ' ')),
        rowSpan: spanOf(cell[1]!, 'rowspan'),
        columnSpan: spanOf(cell[1]!, 'colspan'),
      })),
    );
    return rows.length === 0 ? '' : renderTable(placeCells(positionRowCells(rows)));
  });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Sets `value` at a dotted path (`billing.total`), creating objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    const child = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {};
    node[key] = child;
    node = child as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** One cell of a table with its position (0-based) and spans. */
export interface GridCell {
  row: number;
  column: number;
  rowSpan?: number;
  columnSpan?: number;
  text: string;
}

/**
 * Cells on the table's grid: a cell spanning rows or columns is written once, in its first position, and the
 * positions it covers stay empty — a pipe table has no spans, and this keeps every row as wide as the table
 * and every other cell in its own column (docs/providers.md). The grid has the rows cells start in and the
 * columns they reach, or `size` when given.
 */
export function placeCells(cells: readonly GridCell[], size?: { rows: number; columns: number }): string[][] {
  const rows = size?.rows ?? Math.max(0, ...cells.map((c) => c.row + 1));
  const columns = size?.columns ?? Math.max(0, ...cells.map((c) => c.column + (c.columnSpan ?? 1)));
  const grid = Array.from({ length: rows }, () => Array.from({ length: columns }, () => ''));
  for (const cell of cells) if (cell.row < rows && cell.column < columns) grid[cell.row]![cell.column] = cell.text;
  return grid;
}

/**
 * Rows that list only the cells starting in them (HTML's `<tr>`s, Document AI's `headerRows`/`bodyRows`) →
 * positions, as HTML lays them out: a cell takes the next column no earlier span holds.
 */
export function positionRowCells(
  rows: readonly (readonly { text: string; rowSpan: number; columnSpan: number }[])[],
): GridCell[] {
  const taken = new Set<string>();
  const cells: GridCell[] = [];
  rows.forEach((row, r) => {
    let column = 0;
    for (const cell of row) {
      // A span below 1 is one row or column (as browsers read it); a damaged answer's huge span is capped.
      const [rowSpan, columnSpan] = [cell.rowSpan, cell.columnSpan].map((n) =>
        Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_SPAN) : 1,
      ) as [number, number];
      while (taken.has(`${r},${column}`)) column++;
      for (let dr = 0; dr < rowSpan; dr++)
        for (let dc = 0; dc < columnSpan; dc++) taken.add(`${r + dr},${column + dc}`);
      cells.push({ row: r, column, rowSpan, columnSpan, text: cell.text });
      column += columnSpan;
    }
  });
  return cells;
}

const MAX_SPAN = 1000;

/** A `rowspan`/`colspan` attribute's number (absent: 1). */
function spanOf(attributes: string, name: string): number {
  const value = new RegExp(`\\b${name}\\s*=\\s*["']?(\\d+)`, 'i').exec(attributes)?.[1];
  return value === undefined ? 1 : Number(value);
}
