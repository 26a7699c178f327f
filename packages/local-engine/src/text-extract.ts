/**
 * The engine's label matching run on text instead of a document (docs/systems.md, "pipeline"): markdown pages are
 * laid out as a plain page would print them — a line per line, a pipe table's cells in aligned columns, wide
 * gaps inside a line kept as column gaps — and extracted by the same `extractFields` that reads a PDF's text
 * layer. Markdown decoration (headings' `#`, emphasis, list bullets) is not printed.
 */
import type { DateLocale, JsonObject, JsonSchema } from './contract.js';
import { extractFields } from './extract/extract-fields.js';
import { buildRows } from './layout/build-lines.js';
import { buildPageLayout } from './layout/build-blocks.js';
import type { Fragment, PageLayout } from './layout/types.js';

/** Points: a letter page, 10-point text on 14-point lines, a character 5 points wide (as a monospaced print). */
const PAGE_WIDTH = 612;
const LEFT = 36;
const TOP = 36;
const LINE_HEIGHT = 14;
const FONT_SIZE = 10;
const CHAR_WIDTH = 5;
/** Space between two columns of a table, or two parts of a line written with a wide gap. */
const COLUMN_GAP = 24;

export interface TextExtraction {
  data: JsonObject;
  /** 0–100 in slow mode, null in fast mode (as /extract answers). */
  confidence: number | null;
}

/** Extracts every field of `schema` from markdown pages, as /extract does from a document's pages. */
export function extractFromText(
  pages: readonly string[],
  schema: JsonSchema,
  options: { fast: boolean; locale?: DateLocale | undefined },
): TextExtraction {
  const layouts = pages.map((text, i) => layoutPage(text, i + 1));
  const result = extractFields(layouts, schema, { fast: options.fast, locale: options.locale });
  return { data: result.data, confidence: result.confidence };
}

function layoutPage(text: string, page: number): PageLayout {
  const fragments: Fragment[] = [];
  const lines = text.split(/\r?\n/);
  let y = TOP;
  for (let i = 0; i < lines.length; i++) {
    if (isTableRow(lines[i]!)) {
      const table: string[][] = [];
      for (; i < lines.length && isTableRow(lines[i]!); i++)
        if (!isTableRule(lines[i]!)) table.push(tableCells(lines[i]!));
      i--;
      const widths: number[] = [];
      for (const row of table) for (const [c, cell] of row.entries()) widths[c] = Math.max(widths[c] ?? 0, cell.length);
      for (const row of table) {
        let x = LEFT;
        row.forEach((cell, c) => {
          if (cell !== '') fragments.push(fragment(cell, x, y));
          x += widths[c]! * CHAR_WIDTH + COLUMN_GAP;
        });
        y += LINE_HEIGHT;
      }
      continue;
    }
    const line = plainLine(lines[i]!);
    if (line === '') {
      // A blank line ends a paragraph: a little more space, as a page leaves between blocks.
      y += LINE_HEIGHT / 2;
      continue;
    }
    let x = LEFT;
    for (const part of line.split(/\s{3,}|\t+/)) {
      if (part === '') continue;
      fragments.push(fragment(part, x, y));
      x += part.length * CHAR_WIDTH + COLUMN_GAP;
    }
    y += LINE_HEIGHT;
  }
  return buildPageLayout(page, PAGE_WIDTH, Math.max(792, y + TOP), 'text-layer', buildRows(fragments));
}

function fragment(text: string, x: number, y: number): Fragment {
  return {
    text,
    box: { x0: x, y0: y, x1: x + text.length * CHAR_WIDTH, y1: y + FONT_SIZE },
    fontSize: FONT_SIZE,
    confidence: 100,
  };
}

function isTableRow(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

function isTableRule(line: string): boolean {
  return /^\s*\|[\s:|-]+\|\s*$/.test(line) && line.includes('-');
}

function tableCells(line: string): string[] {
  return line
    .trim()
    .slice(1, -1)
    .split('|')
    .map((cell) => plainLine(cell).trim());
}

/** A markdown line as printed: no heading marks, bullets, quote marks or emphasis; `<br>` as a space. */
function plainLine(line: string): string {
  return line
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(?=\S))/, '')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+$/, '');
}
