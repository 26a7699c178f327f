/**
 * Tables as olmOCR-bench's table checks see them (its `table_parsing.py`): every markdown table (a run of lines
 * with `|`, at least two) and every HTML `<table>` becomes a grid of cells, each knowing which cells are its
 * nearest neighbours up, down, left and right (several, where spans meet) and which cells are headings.
 */
import type { DefaultTreeAdapterTypes } from 'parse5';
import { lazyRequire } from '../lazy.js';
import { pyStrip } from './text.js';

// Loaded with the first page holding an HTML table (CONTRIBUTING.md, Habits).
const parse5Package = lazyRequire<typeof import('parse5')>('parse5');

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

/** A cell as written: text, spans, heading or not. */
interface CellSpec {
  text: string;
  rowspan: number;
  colspan: number;
  heading: boolean;
}

export type Direction = 'up' | 'down' | 'left' | 'right';

/** One table: cells by their top-left slot `row,col`, headings, and each cell's neighbours by direction. */
export interface TableGrid {
  text: Map<string, string>;
  headings: Set<string>;
  neighbours: Record<Direction, Map<string, Set<string>>>;
}

const key = (row: number, col: number): string => `${row},${col}`;

/** Places the cells on a grid (spans fill the slots they cover) and links each cell to its nearest neighbours. */
function buildGrid(rows: readonly CellSpec[][]): TableGrid | null {
  if (rows.length === 0) return null;
  const text = new Map<string, string>();
  const headings = new Set<string>();
  const placed: Array<{ id: string; row: number; col: number; rowspan: number; colspan: number }> = [];
  const slots: Array<Array<string | null>> = [];
  // a column's pending rowspan: the cell id and how many rows below still belong to it
  let pending: Array<{ id: string; left: number } | null> = [];
  const carryDown = (entries: Array<string | null>, col: number): void => {
    const span = pending[col] as { id: string; left: number };
    entries.push(span.id);
    pending[col] = span.left > 1 ? { id: span.id, left: span.left - 1 } : null;
  };
  rows.forEach((cells, r) => {
    const entries: Array<string | null> = [];
    let col = 0;
    let next = 0;
    while (next < cells.length || col < pending.length) {
      if (col < pending.length && pending[col]) {
        carryDown(entries, col);
        col++;
        continue;
      }
      if (next >= cells.length) {
        entries.push(null);
        col++;
        continue;
      }
      const cell = cells[next++] as CellSpec;
      const id = key(r, col);
      text.set(id, cell.text);
      if (cell.heading) headings.add(id);
      placed.push({ id, row: r, col, rowspan: cell.rowspan, colspan: cell.colspan });
      if (pending.length < col + cell.colspan)
        pending = pending.concat(new Array(col + cell.colspan - pending.length).fill(null));
      for (let c = col; c < col + cell.colspan; c++) {
        entries.push(id);
        pending[c] = cell.rowspan > 1 ? { id, left: cell.rowspan - 1 } : null;
      }
      col += cell.colspan;
    }
    slots.push(entries);
  });
  // rowspans reaching past the last row add rows of their own
  while (pending.some((p) => p !== null)) {
    const entries: Array<string | null> = [];
    for (let c = 0; c < pending.length; c++) {
      if (pending[c]) carryDown(entries, c);
      else entries.push(null);
    }
    slots.push(entries);
  }
  if (text.size === 0) return null;
  let width = 0;
  for (const entries of slots)
    entries.forEach((e, c) => {
      if (e !== null) width = Math.max(width, c + 1);
    });
  if (width === 0) return null;
  for (const entries of slots) {
    if (entries.length < width) entries.push(...new Array<null>(width - entries.length).fill(null));
    else entries.length = width;
  }
  const height = slots.length;
  const at = (r: number, c: number): string | null => (slots[r] as Array<string | null>)[c] ?? null;
  const neighbours: TableGrid['neighbours'] = { up: new Map(), down: new Map(), left: new Map(), right: new Map() };
  for (const { id } of placed)
    for (const d of ['up', 'down', 'left', 'right'] as const) neighbours[d].set(id, new Set());
  const firstOther = (id: string, r: number, c: number, dr: number, dc: number): string | null => {
    for (let rr = r + dr, cc = c + dc; rr >= 0 && rr < height && cc >= 0 && cc < width; rr += dr, cc += dc) {
      const other = at(rr, cc);
      if (other !== null && other !== id) return other;
    }
    return null;
  };
  for (const p of placed) {
    const lastRow = p.row + p.rowspan - 1;
    const lastCol = p.col + p.colspan - 1;
    const link = (d: Direction, other: string | null): void => {
      if (other !== null) neighbours[d].get(p.id)?.add(other);
    };
    for (let r = p.row; r <= lastRow; r++) {
      if (r >= height) break;
      link('right', firstOther(p.id, r, lastCol, 0, 1));
      link('left', firstOther(p.id, r, p.col, 0, -1));
    }
    for (let c = p.col; c <= lastCol; c++) {
      if (c >= width) break;
      link('down', firstOther(p.id, lastRow, c, 1, 0));
      link('up', firstOther(p.id, p.row, c, -1, 0));
    }
  }
  return { text, headings, neighbours };
}

/**
 * The headings of a cell in one direction (`up` for its column's, `left` for its row's): every heading cell
 * reachable by walking that way, or, when there is none, the cells where the walks end.
 */
export function headingsOf(grid: TableGrid, start: string, direction: 'up' | 'left'): Set<string> {
  const relation = grid.neighbours[direction];
  const found = new Set<string>();
  const ends = new Set<string>();
  const visited = new Set<string>();
  const toVisit = [start];
  while (toVisit.length > 0) {
    const cur = toVisit.pop() as string;
    if (visited.has(cur)) continue;
    visited.add(cur);
    if (grid.headings.has(cur)) found.add(cur);
    const next = relation.get(cur);
    if (!next || next.size === 0) ends.add(cur);
    else for (const n of next) toVisit.push(n);
  }
  found.delete(start);
  ends.delete(start);
  return found.size > 0 ? found : ends;
}

/** Markdown tables: runs of two or more lines holding `|`; the first row and the first column are headings. */
export function markdownTableGrids(content: string): TableGrid[] {
  const lines = pyStrip(content).split('\n');
  const grids: TableGrid[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= 2) {
      const rows = tableRows(run);
      const grid =
        rows.length > 0
          ? buildGrid(
              rows.map((cells, r) =>
                cells.map((t, c) => ({ text: t, rowspan: 1, colspan: 1, heading: r === 0 || c === 0 })),
              ),
            )
          : null;
      if (grid) grids.push(grid);
    }
    run = [];
  };
  for (const line of lines) {
    if (line.includes('|')) run.push(line);
    else flush();
  }
  flush();
  return grids;
}

/** The rows of a markdown table's lines: the first separator line and lines of only `-: |` are left out. */
function tableRows(lines: readonly string[]): string[][] {
  const separator = lines.findIndex((line) => {
    const inner = pyStrip(line.replaceAll('|', ''));
    return inner !== '' && /^[- :]+$/.test(inner);
  });
  const rows: string[][] = [];
  lines.forEach((line, i) => {
    if (i === separator) return;
    if (pyStrip(line) !== '' && /^[- :|]*$/.test(line)) return;
    let cells = line.split('|').map(pyStrip);
    if (cells[0] === '') cells = cells.slice(1);
    if (cells.length > 0 && cells[cells.length - 1] === '') cells = cells.slice(0, -1);
    if (cells.length > 0) rows.push(cells);
  });
  return rows;
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function childrenOf(node: Node): Node[] {
  if (node.nodeName === 'template' && 'content' in node) return node.content.childNodes;
  return 'childNodes' in node ? node.childNodes : [];
}

function descendants(node: Node, match: (e: Element) => boolean, out: Element[] = []): Element[] {
  for (const child of childrenOf(node)) {
    if (isElement(child) && match(child)) out.push(child);
    descendants(child, match, out);
  }
  return out;
}

/** Every HTML `<table>` (nested ones too, each on its own, as olmOCR-bench's BeautifulSoup search finds them). */
export function htmlTableGrids(content: string): TableGrid[] {
  if (!/<table/i.test(content)) return [];
  const fragment = parse5Package().parseFragment(content);
  const grids: TableGrid[] = [];
  for (const table of descendants(fragment, (e) => e.tagName === 'table')) {
    const rows = descendants(table, (e) => e.tagName === 'tr');
    if (rows.length === 0) continue;
    const specs = rows.map((row, r) => {
      const inHead = hasAncestor(row, 'thead');
      return row.childNodes
        .filter(isElement)
        .filter((c) => c.tagName === 'td' || c.tagName === 'th')
        .map((cell) => {
          const rawRowspan = attr(cell, 'rowspan');
          let rowspan = span(rawRowspan);
          // rowspan="0" reaches to the end of the table
          if (rawRowspan !== undefined && pyStrip(rawRowspan) === '0') rowspan = Math.max(1, rows.length - r);
          return {
            text: pyStrip(cellText(cell)),
            rowspan,
            colspan: span(attr(cell, 'colspan')),
            heading: cell.tagName === 'th' || inHead,
          };
        });
    });
    const grid = buildGrid(specs);
    if (grid) grids.push(grid);
  }
  return grids;
}

function hasAncestor(node: Element, tagName: string): boolean {
  for (let p = node.parentNode; p; p = 'parentNode' in p ? p.parentNode : null) {
    if (isElement(p as Node) && (p as Element).tagName === tagName) return true;
  }
  return false;
}

function attr(cell: Element, name: string): string | undefined {
  return cell.attrs.find((a) => a.name === name)?.value;
}

/** A span attribute as Python's `int()` reads it; absent, unreadable or below 1 is 1. */
function span(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const trimmed = pyStrip(raw);
  if (!/^[+-]?\d+$/.test(trimmed)) return 1;
  const value = Number.parseInt(trimmed, 10);
  return Math.max(value, 1);
}

/** A cell's text: all its text, `<br>` as a line break. */
function cellText(node: Node): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  if (isElement(node) && node.tagName === 'br') return '\n';
  let text = '';
  for (const child of childrenOf(node)) text += cellText(child);
  return text;
}
