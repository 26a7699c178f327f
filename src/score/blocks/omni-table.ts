/**
 * Tables as OmniDocBench's end-to-end evaluation scores them (its `normalized_html_table` and TEDS;
 * docs/metrics.md "Blocks"). This is not docbench's table TEDS (src/score/tables): OmniDocBench keeps the
 * markup inside a cell (`<b>`, `<br>`) as tokens of the cell's text and counts it among the nodes, keeps the
 * cell's spaces, and compares the normalised HTML strings for its table edit distance.
 *
 * Normalisation: `th` read as `td`; thead, tbody, span, sup, sub, div and p unwrapped; colgroup dropped;
 * MathML replaced by `$alttext$`; style, height, width, align and class attributes dropped; entities
 * decoded, blank texts with a line break removed, line breaks removed, NFKC, runs of white space as one space; the first table's content wrapped as
 * `<html><body><table border="1" >…</table></body></html>`.
 */
import type { DefaultTreeAdapterTypes } from 'parse5';
import { lazyRequire } from '../../lazy.js';
import { levenshteinCodePoints } from '../shared/code-point-levenshtein.js';
import { computeTreeEditDistance, type OrderedTree, type TreeEditCosts } from '../tables/tree-edit-distance.js';

// Loaded by the first table, not with the scorers (CONTRIBUTING.md, Habits).
const parse5Package = lazyRequire<typeof import('parse5')>('parse5');

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

/** A node of the normalised table: an element or a text. */
export interface ElementNode {
  tag: string;
  attributes: [string, string][];
  children: TableNode[];
}
export type TableNode = ElementNode | { text: string };

/** A table normalised: its HTML string (for the edit distance) and its element tree (for TEDS). */
export interface NormalizedTable {
  html: string;
  /** The `<table>` element; null when the block holds no table. */
  table: ElementNode | null;
}

const UNWRAPPED = new Set(['thead', 'tbody', 'span', 'sup', 'sub', 'div', 'p']);
const DROPPED_ATTRIBUTES = new Set(['style', 'height', 'width', 'align', 'class']);
const VOID = new Set(['br', 'hr', 'img', 'col', 'input', 'meta', 'link', 'area', 'base', 'wbr', 'source']);

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function normalizeText(text: string): string {
  // The HTML parser OmniDocBench serialises with (BeautifulSoup) writes a blank text holding a line break as
  // that line break alone, which the next step removes.
  if (text.includes('\n') && text.trim() === '') return '';
  return text.replaceAll('\n', '').normalize('NFKC').replace(/\s+/g, ' ');
}

function convert(node: Node): TableNode[] {
  if (node.nodeName === '#text' && 'value' in node) return [{ text: normalizeText(node.value) }];
  if (!isElement(node)) return [];
  if (node.tagName === 'colgroup') return [];
  if (node.tagName === 'math') {
    const alt = node.attrs.find((a) => a.name === 'alttext')?.value ?? '';
    return [{ text: normalizeText(`$${alt}$`) }];
  }
  const children = node.childNodes.flatMap(convert);
  if (UNWRAPPED.has(node.tagName)) return children;
  return [
    {
      tag: node.tagName === 'th' ? 'td' : node.tagName,
      attributes: node.attrs
        .filter((a) => !DROPPED_ATTRIBUTES.has(a.name))
        .map((a): [string, string] => [a.name, a.value.normalize('NFKC')]),
      children,
    },
  ];
}

function serialize(node: TableNode): string {
  if ('text' in node) return node.text;
  const attributes = node.attributes.map(([name, value]) => ` ${name}="${value}"`).join('');
  if (VOID.has(node.tag) && node.children.length === 0) return `<${node.tag}${attributes}/>`;
  return `<${node.tag}${attributes}>${node.children.map(serialize).join('')}</${node.tag}>`;
}

function findTable(nodes: readonly Node[]): Element | null {
  for (const node of nodes) {
    if (!isElement(node)) continue;
    if (node.tagName === 'table') return node;
    const inner = findTable(node.childNodes);
    if (inner !== null) return inner;
  }
  return null;
}

/**
 * A table as the pipe-table conversion writes it (output-blocks.ts): rows of cells with explicit spans, plain
 * text without markup, entities or carriage returns. Pipe tables are most of the tables plain markdown has,
 * and reading these without the HTML parser gives the same tree the parser gives (a test compares the two)
 * in a fraction of the time (docs/performance.md "Block metrics").
 */
const PLAIN_TABLE = /^<table>(?:<tr>(?:<td colspan="1" rowspan="1">[^<>&\r\0]*<\/td>)*<\/tr>)*<\/table>$/;
const PLAIN_ROW = /<tr>(.*?)<\/tr>/g;
const PLAIN_CELL = /<td colspan="1" rowspan="1">([^<]*)<\/td>/g;

function plainTableRows(html: string): TableNode[] | null {
  if (!PLAIN_TABLE.test(html)) return null;
  return Array.from(html.matchAll(PLAIN_ROW), (row) => ({
    tag: 'tr',
    attributes: [],
    children: Array.from(
      row[1]!.matchAll(PLAIN_CELL),
      (cell): ElementNode => ({
        tag: 'td',
        attributes: [
          ['colspan', '1'],
          ['rowspan', '1'],
        ],
        children: cell[1] === '' ? [] : [{ text: normalizeText(cell[1]!) }],
      }),
    ),
  }));
}

/** A block's HTML → OmniDocBench's normalised table (html '' and table null when it holds none). */
export function normalizeHtmlTable(html: string): NormalizedTable {
  if (!html.replace(/[ ']/g, '').includes('<table')) return { html: '', table: null };
  let children: TableNode[] | null = plainTableRows(html);
  if (children === null) {
    const found = findTable(parse5Package().parseFragment(html).childNodes);
    if (found === null) return { html: '', table: null };
    children = found.childNodes.flatMap(convert);
  }
  const table: ElementNode = { tag: 'table', attributes: [['border', '1']], children };
  const inner = children.map(serialize).join('').trim();
  return { html: `<html><body><table border="1" >${inner}</table></body></html>`, table };
}

type Label = { tag: string; colspan: number; rowspan: number; cell: string | null };

/** Interns tokens as single UTF-16 units (surrogates skipped) so a token list's distance is a string's. */
class TokenAlphabet {
  private readonly codes = new Map<string, string>();
  encode(tokens: readonly string[]): string {
    let out = '';
    for (const token of tokens) {
      let code = this.codes.get(token);
      if (code === undefined) {
        const index = this.codes.size + 1;
        code = String.fromCharCode(index < 0xd800 ? index : index + 0x800);
        this.codes.set(token, code);
      }
      out += code;
    }
    return out;
  }
}

/** A cell's tokens: its characters, and each element inside it as `<tag>` … `</tag>`. */
function cellTokens(nodes: readonly TableNode[], into: string[]): string[] {
  for (const node of nodes) {
    if ('text' in node) into.push(...Array.from(node.text));
    else {
      into.push(`<${node.tag}>`);
      cellTokens(node.children, into);
      into.push(`</${node.tag}>`);
    }
  }
  return into;
}

function span(node: ElementNode, name: string): number {
  const value = node.attributes.find(([key]) => key === name)?.[1];
  const parsed = value === undefined ? 1 : Number.parseInt(value, 10);
  return Number.isFinite(parsed) ? parsed : 1;
}

function toTree(node: ElementNode, alphabet: TokenAlphabet, structureOnly: boolean): OrderedTree<Label> {
  if (node.tag === 'td') {
    return {
      label: {
        tag: 'td',
        colspan: span(node, 'colspan'),
        rowspan: span(node, 'rowspan'),
        cell: structureOnly ? '' : alphabet.encode(cellTokens(node.children, [])),
      },
      children: [],
    };
  }
  return {
    label: { tag: node.tag, colspan: 0, rowspan: 0, cell: null },
    children: node.children
      .filter((child): child is ElementNode => 'tag' in child)
      .map((child) => toTree(child, alphabet, structureOnly)),
  };
}

/** The tree as TEDS-S sees it: elements and their spans, no text. */
function structureOf(node: ElementNode): string {
  const spans = node.tag === 'td' ? `${span(node, 'colspan')},${span(node, 'rowspan')}` : '';
  const children = node.children.filter((child): child is ElementNode => 'tag' in child).map(structureOf);
  return `<${node.tag}${spans}>${children.join('')}</>`;
}

function countElements(node: TableNode): number {
  if ('text' in node) return 0;
  return node.children.reduce((n, child) => n + ('tag' in child ? 1 + countElements(child) : 0), 0);
}

const COSTS: TreeEditCosts<Label> = {
  insert: () => 1,
  remove: () => 1,
  rename: (from, to) => {
    if (from.tag !== to.tag || from.colspan !== to.colspan || from.rowspan !== to.rowspan) return 1;
    if (from.cell === null || to.cell === null || (from.cell === '' && to.cell === '')) return 0;
    const { distance, lengthA, lengthB } = levenshteinCodePoints(from.cell, to.cell);
    return distance / Math.max(lengthA, lengthB);
  },
};

/**
 * OmniDocBench's TEDS of a predicted table against a truth table, both normalised: 1 − TED ÷ the larger
 * count of elements below the table. 0 when either holds no table. Higher is better.
 */
export function omniTeds(predicted: NormalizedTable, truth: NormalizedTable, structureOnly: boolean): number {
  if (predicted.table === null || truth.table === null) return 0;
  // Identical trees are at distance 0: no need to compute it (the common case of a table read right).
  if (predicted.html === truth.html) return 1;
  if (structureOnly && structureOf(predicted.table) === structureOf(truth.table)) return 1;
  const nodes = Math.max(countElements(predicted.table), countElements(truth.table));
  if (nodes === 0) return 1;
  const alphabet = new TokenAlphabet();
  const distance = computeTreeEditDistance(
    toTree(predicted.table, alphabet, structureOnly),
    toTree(truth.table, alphabet, structureOnly),
    COSTS,
  );
  return 1 - distance / nodes;
}
