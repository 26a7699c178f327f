/**
 * Provider layout → docbench shapes: markdown from typed blocks (headings, paragraphs, tables, list items),
 * boxes in inches (origin top-left, interface §2.3) from points or from page-relative coordinates, and mean
 * confidence on the 0–100 scale.
 */
import type { InchBox, RegionPage } from '../../service/types.js';
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
export function relativeToInches(box: { left: number; top: number; right: number; bottom: number }, page: PageSize): InchBox {
  const w = page.width / 72;
  const h = page.height / 72;
  return { min_x: round(box.left * w), min_y: round(box.top * h), max_x: round(box.right * w), max_y: round(box.bottom * h) };
}

/** A polygon `[x1, y1, x2, y2, …]` in some unit → the inch box around it; `perInch` is units per inch. */
export function polygonToInches(polygon: readonly number[], perInch: number): InchBox {
  const xs = polygon.filter((_, i) => i % 2 === 0);
  const ys = polygon.filter((_, i) => i % 2 === 1);
  return { min_x: round(Math.min(...xs) / perInch), min_y: round(Math.min(...ys) / perInch), max_x: round(Math.max(...xs) / perInch), max_y: round(Math.max(...ys) / perInch) };
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

/** A gap between two words wider than this many line heights separates table cells. */
const CELL_GAP_LINE_HEIGHTS = 1.5;

/**
 * Lines as paragraphs in reading order, except that a run of two or more consecutive rows that split at wide
 * gaps into the same number (≥ 2) of cells becomes a table — the simple tables of forms and bills. Lines an
 * engine read as separate blocks but that sit side by side (a table's columns) are first joined into one row.
 */
export function linesToBlocks(lines: readonly TextLine[]): MarkdownBlock[] {
  const cells = joinRows(lines).map(splitCells);
  const blocks: MarkdownBlock[] = [];
  for (let i = 0; i < cells.length; ) {
    let end = i + 1;
    const width = cells[i]!.length;
    while (width >= 2 && end < cells.length && cells[end]!.length === width) end++;
    if (width >= 2 && end - i >= 2) {
      blocks.push({ kind: 'table', rows: cells.slice(i, end) });
    } else {
      blocks.push({ kind: 'paragraph', text: cells[i]!.join(' ') });
      end = i + 1;
    }
    i = end;
  }
  return blocks;
}

/** Lines whose vertical middle falls inside a row's extent join that row; rows top to bottom, words left to right. */
function joinRows(lines: readonly TextLine[]): TextLine[] {
  const rows: { top: number; bottom: number; height: number; words: TextLine['words'][number][] }[] = [];
  for (const line of [...lines].sort((a, b) => a.top - b.top)) {
    const middle = (line.top + line.bottom) / 2;
    const row = rows.find((r) => middle >= r.top && middle <= r.bottom && !r.words.some((w) => w.x1 > line.words[0]!.x0 && w.x0 < line.words[line.words.length - 1]!.x1));
    if (row) {
      row.words.push(...line.words);
      row.height = Math.max(row.height, line.height);
    } else {
      rows.push({ top: line.top, bottom: line.bottom, height: line.height, words: [...line.words] });
    }
  }
  return rows.map((row) => ({ ...row, words: row.words.sort((a, b) => a.x0 - b.x0) }));
}

function splitCells(line: TextLine): string[] {
  const cells: string[][] = [];
  let previousEnd = Number.NEGATIVE_INFINITY;
  for (const word of line.words) {
    if (cells.length === 0 || word.x0 - previousEnd > CELL_GAP_LINE_HEIGHTS * line.height) cells.push([]);
    cells[cells.length - 1]!.push(word.text);
    previousEnd = word.x1;
  }
  return cells.map((words) => words.join(' '));
}

/**
 * HTML tables (as Azure's and Mistral's markdown output embed them) → pipe tables. Cells' inner tags are
 * dropped and entities decoded; spans are not repeated (a pipe table has none). Other text is left alone.
 */
export function htmlTablesToMarkdown(markdown: string): string {
  return markdown.replace(/<table\b[^>]*>([\s\S]*?)<\/table>/gi, (_, inner: string) => {
    const rows = [...inner.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map((row) => [...row[1]!.matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/gi)].map((cell) => decodeEntities(cell[1]!.replace(/<[^>]*>/g, ' '))));
    return rows.length === 0 ? '' : renderTable(rows);
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
    node = (node[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}
