/**
 * HTML `<table>`s inside a markdown document, parsed with parse5 (the WHATWG-conformant parser: it repairs
 * missing `</td>`, implied `<tbody>` and stray text the way browsers do, which no regex could).
 */
import type { DefaultTreeAdapterTypes } from 'parse5';
import { collapseWhitespace, type TableCell, type TableTree } from './table-tree.js';
import { lazyRequire } from '../../lazy.js';

// Loaded by the first page with HTML in it, not with the scorers (CONTRIBUTING.md, Habits).
const parse5Package = lazyRequire<typeof import('parse5')>('parse5');

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

/** Children of an element, looking into `<template>` content as a browser's DOM would not, but HTML does. */
function childrenOf(node: Node): Node[] {
  if (node.nodeName === 'template' && 'content' in node) return node.content.childNodes;
  return 'childNodes' in node ? node.childNodes : [];
}

/**
 * Every outermost `<table>` in `text`, in document order, with the offset of its start tag. A table nested
 * inside a cell is not a table of its own: its text becomes part of the enclosing cell's text.
 */
export function parseHtmlTables(text: string): TableTree[] {
  if (!/<table/i.test(text)) return []; // cheap exit: most pages have no HTML table
  const fragment = parse5Package().parseFragment(text, { sourceCodeLocationInfo: true });
  const tables: TableTree[] = [];
  const visit = (node: Node): void => {
    if (isElement(node) && node.tagName === 'table') {
      tables.push({ rows: readRows(node), source: 'html', offset: node.sourceCodeLocation?.startOffset ?? 0 });
      return;
    }
    for (const child of childrenOf(node)) visit(child);
  };
  visit(fragment);
  return tables;
}

/** Rows of a table: direct `<tr>` and those of thead / tbody / tfoot, which are unwrapped (docs/metrics/markdown.md). */
function readRows(table: Element): TableCell[][] {
  const rows: TableCell[][] = [];
  for (const child of table.childNodes) {
    if (!isElement(child)) continue;
    if (child.tagName === 'tr') rows.push(readCells(child));
    else if (child.tagName === 'thead' || child.tagName === 'tbody' || child.tagName === 'tfoot') {
      for (const row of child.childNodes) if (isElement(row) && row.tagName === 'tr') rows.push(readCells(row));
    }
    // caption and colgroup carry no cells
  }
  return rows;
}

function readCells(row: Element): TableCell[] {
  const cells: TableCell[] = [];
  for (const child of row.childNodes) {
    if (!isElement(child) || (child.tagName !== 'td' && child.tagName !== 'th')) continue;
    cells.push({
      rowspan: readSpan(child, 'rowspan'),
      colspan: readSpan(child, 'colspan'),
      text: collapseWhitespace(readText(child)),
    });
  }
  return cells;
}

/**
 * A span attribute as an integer ≥ 1. Absent, unparseable or < 1 reads as 1 (rowspan="0", "to the end of the
 * row group", is not resolved: no scorer of this kind does, and it is rare in extracted output).
 */
function readSpan(cell: Element, name: 'rowspan' | 'colspan'): number {
  const raw = cell.attrs.find((a) => a.name === name)?.value;
  const value = raw === undefined ? 1 : Number.parseInt(raw, 10);
  return Number.isFinite(value) && value >= 1 ? value : 1;
}

/** Text content, with `<br>` as a line break so that words on either side stay apart. */
export function readText(node: Node): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  if (isElement(node) && node.tagName === 'br') return '\n';
  let text = '';
  for (const child of childrenOf(node)) {
    // block-level children (a nested table, its cells, paragraphs) must not glue words together
    const block = isElement(child) && /^(table|tr|td|th|p|div|li|ul|ol|h[1-6])$/.test(child.tagName);
    text += block ? ` ${readText(child)} ` : readText(child);
  }
  return text;
}

/** Text of an HTML fragment (entities decoded, tags dropped), for inline HTML inside a markdown cell. */
export function readFragmentText(html: string): string {
  return readText(parse5Package().parseFragment(html));
}
