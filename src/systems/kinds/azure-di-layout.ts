/**
 * An Azure Document Intelligence analyze result read into typed pages, paragraphs and tables, and its
 * markdown per page. When `content` is markdown (`contentFormat: "markdown"`, v4 with
 * `outputContentFormat=markdown`), each page's spans of it are the page's markdown. Otherwise (API versions
 * before 2023-10-31, or a service that did not honour the format) `content` is plain text with
 * `:selected:`/`:unselected:` marks, and the markdown is built from the structure: paragraphs (title →
 * `#`, sectionHeading → `##`, page headers, footers and numbers as paragraphs) and tables (cells placed by
 * row and column, spans left empty) in content order — Azure's reading order — with lines that no
 * paragraph holds kept as paragraphs of their own and selection marks as ☒/☐ (docs/providers.md).
 */
import type { ShapeReader } from '../../service/index.js';
import { htmlTablesToMarkdown, placeCells, renderMarkdown, type MarkdownBlock } from '../providers/layout.js';

interface Span {
  offset: number;
  length: number;
}

interface Word {
  content: string;
  polygon: number[];
  confidence: number;
  offset: number;
}

interface SelectionMark {
  selected: boolean;
  polygon: number[];
  span: Span;
}

export interface AzurePage {
  pageNumber: number;
  width: number;
  height: number;
  unit: string;
  spans: Span[];
  lines: { content: string; polygon: number[]; spans: Span[] }[];
  words: Word[];
  selectionMarks: SelectionMark[];
}

interface Paragraph {
  role: string | null;
  spans: Span[];
  pageNumber: number | null;
}

interface Table {
  rowCount: number;
  columnCount: number;
  cells: { rowIndex: number; columnIndex: number; content: string; spans: Span[] }[];
  spans: Span[];
  pageNumber: number | null;
}

export interface AzureLayout {
  content: string;
  /** Whether `content` is markdown (else plain text). */
  markdown: boolean;
  pages: AzurePage[];
  paragraphs: Paragraph[];
  tables: Table[];
}

/** How a page's markdown was made: from `content` as Azure wrote it, or from paragraphs and tables. */
export type MarkdownSource = 'content' | 'paragraphs-and-tables';

export function readLayout(analyzeResult: Record<string, unknown>, reader: ShapeReader): AzureLayout {
  const span = (value: unknown, at: string): Span => {
    const s = reader.object(value, at);
    return { offset: reader.number(s.offset, `${at}.offset`), length: reader.number(s.length, `${at}.length`) };
  };
  const spans = (value: unknown, at: string) =>
    (reader.optionalArray(value, at) ?? []).map((s, i) => span(s, `${at}[${i}]`));
  const polygon = (value: unknown, at: string) =>
    (reader.optionalArray(value, at) ?? []).map((n, i) => reader.number(n, `${at}[${i}]`));
  const list = (value: unknown, at: string) =>
    (reader.optionalArray(value, at) ?? []).map((item, i) => ({
      item: reader.object(item, `${at}[${i}]`),
      at: `${at}[${i}]`,
    }));
  const firstPage = (value: unknown, at: string) => {
    const region = list(value, at)[0];
    return region ? reader.number(region.item.pageNumber, `${region.at}.pageNumber`) : null;
  };
  const pages = reader.array(analyzeResult.pages, 'analyzeResult.pages').map((value, p): AzurePage => {
    const at = `analyzeResult.pages[${p}]`;
    const page = reader.object(value, at);
    return {
      pageNumber: reader.number(page.pageNumber, `${at}.pageNumber`),
      width: reader.number(page.width, `${at}.width`),
      height: reader.number(page.height, `${at}.height`),
      unit: reader.string(page.unit, `${at}.unit`),
      spans: spans(page.spans, `${at}.spans`),
      lines: list(page.lines, `${at}.lines`).map(({ item, at: lineAt }) => ({
        content: reader.string(item.content, `${lineAt}.content`),
        polygon: polygon(item.polygon, `${lineAt}.polygon`),
        spans: spans(item.spans, `${lineAt}.spans`),
      })),
      words: list(page.words, `${at}.words`).map(({ item, at: wordAt }) => ({
        content: reader.optionalString(item.content, `${wordAt}.content`) ?? '',
        polygon: polygon(item.polygon, `${wordAt}.polygon`),
        confidence: reader.number(item.confidence, `${wordAt}.confidence`),
        offset: span(item.span, `${wordAt}.span`).offset,
      })),
      selectionMarks: list(page.selectionMarks, `${at}.selectionMarks`).map(({ item, at: markAt }) => ({
        selected: reader.string(item.state, `${markAt}.state`) === 'selected',
        polygon: polygon(item.polygon, `${markAt}.polygon`),
        span: span(item.span, `${markAt}.span`),
      })),
    };
  });
  return {
    content: reader.string(analyzeResult.content, 'analyzeResult.content'),
    markdown: analyzeResult.contentFormat === 'markdown',
    pages,
    paragraphs: list(analyzeResult.paragraphs, 'analyzeResult.paragraphs').map(({ item, at }) => ({
      role: reader.optionalString(item.role, `${at}.role`),
      spans: spans(item.spans, `${at}.spans`),
      pageNumber: firstPage(item.boundingRegions, `${at}.boundingRegions`),
    })),
    tables: list(analyzeResult.tables, 'analyzeResult.tables').map(({ item, at }) => ({
      rowCount: reader.number(item.rowCount, `${at}.rowCount`),
      columnCount: reader.number(item.columnCount, `${at}.columnCount`),
      cells: list(item.cells, `${at}.cells`).map(({ item: cell, at: cellAt }) => ({
        rowIndex: reader.number(cell.rowIndex, `${cellAt}.rowIndex`),
        columnIndex: reader.number(cell.columnIndex, `${cellAt}.columnIndex`),
        content: reader.optionalString(cell.content, `${cellAt}.content`) ?? '',
        spans: spans(cell.spans, `${cellAt}.spans`),
      })),
      spans: spans(item.spans, `${at}.spans`),
      pageNumber: firstPage(item.boundingRegions, `${at}.boundingRegions`),
    })),
  };
}

/** Each page's markdown, and which way it was made. */
export function layoutMarkdown(layout: AzureLayout): { pages: string[]; source: MarkdownSource } {
  if (layout.markdown)
    return { pages: layout.pages.map((page) => contentMarkdown(layout.content, page)), source: 'content' };
  const built = structureMarkdown(layout);
  return { pages: layout.pages.map((page) => built.get(page.pageNumber) ?? ''), source: 'paragraphs-and-tables' };
}

/** A page's part of markdown `content`: its spans, with Azure's page comments turned into text or removed. */
function contentMarkdown(content: string, page: AzurePage): string {
  const text = page.spans.map((s) => content.slice(s.offset, s.offset + s.length)).join('\n');
  return htmlTablesToMarkdown(
    text
      .replace(/<!--\s*PageBreak\s*-->/g, '')
      // PageHeader/PageFooter/PageNumber hold printed text only inside the comment: keep the text.
      .replace(/<!--\s*Page(?:Header|Footer|Number)="((?:[^"\\]|\\.)*)"\s*-->/g, (_, printed: string) =>
        printed.replace(/\\"/g, '"'),
      ),
  ).trim();
}

const HEADING_ROLES: Record<string, 1 | 2> = { title: 1, sectionHeading: 2 };
/** Check-box glyphs a document's own text may already hold where Azure also found a selection mark. */
const BALLOT_BOX = /^[☐☑☒]/;

/** One block of a page in reading order: where it starts in `content`, and how it renders. */
interface Unit {
  page: number;
  order: number;
  block: () => MarkdownBlock;
}

const end = (span: Span) => span.offset + span.length;
const inside = (offset: number, spans: readonly Span[]) => spans.some((s) => offset >= s.offset && offset < end(s));

/**
 * Whether an offset lies in any of many spans, in log time: spans sorted by start, with the furthest end so
 * far — the last span starting at or before the offset, or one before it, reaches past it iff that end does.
 * (Large documents hold thousands of paragraph and cell spans, asked about for every line.)
 */
function coverage(spans: readonly Span[]): (offset: number) => boolean {
  const sorted = [...spans].sort((a, b) => a.offset - b.offset);
  const reach: number[] = [];
  for (const [i, span] of sorted.entries()) reach.push(Math.max(end(span), reach[i - 1] ?? 0));
  return (offset) => {
    let low = 0;
    let high = sorted.length - 1;
    let last = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (sorted[middle]!.offset <= offset) [last, low] = [middle, middle + 1];
      else high = middle - 1;
    }
    return last >= 0 && reach[last]! > offset;
  };
}

function structureMarkdown(layout: AzureLayout): Map<number, string> {
  const text = createTextReader(layout);
  const pageOf = (offset: number, fallback: number | null) =>
    fallback ?? layout.pages.find((p) => inside(offset, p.spans))?.pageNumber ?? layout.pages[0]?.pageNumber ?? 1;
  const firstOffset = (spans: readonly Span[]) =>
    Math.min(...spans.filter((s) => !text.isMark(s.offset)).map((s) => s.offset));
  const units: Unit[] = [];
  const tableSpans = layout.tables.flatMap((t) => t.spans);
  for (const table of layout.tables) {
    const order = firstOffset(table.spans);
    units.push({
      page: pageOf(order, table.pageNumber),
      order,
      block: () => ({ kind: 'table', rows: tableRows(table, text.of) }),
    });
  }
  // A paragraph inside a table is rendered by its cell.
  const inTable = coverage(tableSpans);
  const paragraphs = layout.paragraphs.filter((p) => p.spans.length > 0 && !p.spans.some((s) => inTable(s.offset)));
  for (const paragraph of paragraphs) {
    const heading = paragraph.role ? HEADING_ROLES[paragraph.role] : undefined;
    const order = paragraph.spans[0]!.offset;
    units.push({
      page: pageOf(order, paragraph.pageNumber),
      order,
      block: () =>
        heading
          ? { kind: 'heading', level: heading, text: text.of(paragraph.spans) }
          : { kind: 'paragraph', text: text.of(paragraph.spans) },
    });
  }
  // Text no paragraph or table holds (no paragraphs in the answer, or a line they left out) is kept.
  const held = [...tableSpans, ...paragraphs.flatMap((p) => p.spans)];
  const isHeld = coverage(held);
  for (const page of layout.pages) {
    for (const line of page.lines) {
      if (line.spans.length === 0 || line.spans.every((s) => isHeld(s.offset))) continue;
      units.push({
        page: page.pageNumber,
        order: line.spans[0]!.offset,
        block: () => ({ kind: 'paragraph', text: text.of(line.spans) }),
      });
    }
  }
  const isText = coverage([...held, ...layout.pages.flatMap((page) => page.lines.flatMap((l) => l.spans))]);
  for (const page of layout.pages)
    for (const mark of page.selectionMarks) if (!isText(mark.span.offset)) placeLooseMark(mark, page, text, units);
  // Pages in their order, each page's blocks in content order (a sort by page, then offset).
  units.sort((a, b) => a.page - b.page || a.order - b.order);
  const byPage = new Map<number, string>();
  for (let i = 0; i < units.length; ) {
    const page = units[i]!.page;
    const blocks: MarkdownBlock[] = [];
    for (; i < units.length && units[i]!.page === page; i++) blocks.push(units[i]!.block());
    byPage.set(page, renderMarkdown(blocks));
  }
  return byPage;
}

interface TextReader {
  /** The text of some spans of `content`, selection marks as ☒/☐, each character at most once. */
  of(spans: readonly Span[]): string;
  isMark(offset: number): boolean;
  /** Puts a mark's glyph before the character at `offset`. */
  insertBefore(offset: number, glyph: string): void;
}

function createTextReader(layout: AzureLayout): TextReader {
  const marks = new Map<number, { length: number; glyph: string }>();
  for (const page of layout.pages) {
    for (const mark of page.selectionMarks) {
      // A form whose text layer prints the box (☒Hazardous) has Azure's mark on top of it: not said twice.
      const printed = page.words.some((w) => BALLOT_BOX.test(w.content) && overlaps(w.polygon, mark.polygon));
      marks.set(mark.span.offset, { length: mark.span.length, glyph: printed ? '' : mark.selected ? '☒' : '☐' });
    }
  }
  const insertions = new Map<number, string>();
  // Each insertion is said once, also where one span ends and the next begins.
  const take = (offset: number) => {
    const inserted = insertions.get(offset) ?? '';
    insertions.delete(offset);
    return inserted;
  };
  // Characters of content already written: a span all written before is not written again.
  const written = new Uint8Array(layout.content.length);
  return {
    isMark: (offset) => marks.has(offset),
    insertBefore: (offset, glyph) => insertions.set(offset, `${insertions.get(offset) ?? ''}${glyph} `),
    of(spans) {
      const parts: string[] = [];
      for (const span of spans) {
        // Some answers repeat a span already given to another element (a paragraph ending in the title's text).
        if (span.length > 0 && written.subarray(span.offset, end(span)).every((flag) => flag === 1)) continue;
        written.fill(1, span.offset, end(span));
        // Without marks to replace or insert, the span is the content as it is.
        if (marks.size === 0 && insertions.size === 0) {
          parts.push(layout.content.slice(span.offset, end(span)));
          continue;
        }
        let part = '';
        for (let at = span.offset; ; ) {
          part += take(at);
          if (at >= end(span)) break;
          const mark = marks.get(at);
          if (mark) {
            part += mark.glyph;
            at += mark.length;
          } else part += layout.content[at++] ?? '';
        }
        parts.push(part);
      }
      return markGlyphs(parts.join(' ')).trim();
    },
  };
}

/**
 * A selection mark outside every paragraph, line and table (API versions that put the marks at the end of
 * `content`) goes before the first word to its right on its line, else after the last word to its left,
 * else as a paragraph of its own before the text below it.
 */
function placeLooseMark(mark: SelectionMark, page: AzurePage, text: TextReader, units: Unit[]): void {
  const glyph = text.of([mark.span]);
  if (glyph === '') return;
  const box = bounds(mark.polygon);
  const middle = (box.top + box.bottom) / 2;
  const onLine = page.words.filter((w) => {
    const b = bounds(w.polygon);
    return middle >= b.top && middle <= b.bottom;
  });
  const right = onLine
    .filter((w) => bounds(w.polygon).left >= box.left)
    .sort((a, b) => bounds(a.polygon).left - bounds(b.polygon).left)[0];
  if (right) {
    text.insertBefore(right.offset, glyph);
    return;
  }
  const left = onLine.sort((a, b) => bounds(b.polygon).right - bounds(a.polygon).right)[0];
  if (left) {
    text.insertBefore(left.offset + left.content.length, ` ${glyph}`.trimEnd());
    return;
  }
  const below = page.words.filter((w) => bounds(w.polygon).top > middle).map((w) => w.offset);
  units.push({
    page: page.pageNumber,
    order: below.length > 0 ? Math.min(...below) - 0.5 : Number.POSITIVE_INFINITY,
    block: () => ({ kind: 'paragraph', text: glyph }),
  });
}

/** Cells placed by row and column (placeCells: the positions a spanning cell covers beyond its first stay empty). */
function tableRows(table: Table, textOf: (spans: readonly Span[]) => string): string[][] {
  const cells = table.cells.map((cell) => ({
    row: cell.rowIndex,
    column: cell.columnIndex,
    text: cell.spans.length > 0 ? textOf(cell.spans) : markGlyphs(cell.content),
  }));
  return placeCells(cells, { rows: table.rowCount, columns: table.columnCount });
}

/** Azure's `:selected:`/`:unselected:` written into text, as check boxes. */
function markGlyphs(text: string): string {
  return text.replace(/:(un)?selected:/g, (_, un: string | undefined) => (un ? '☐' : '☒'));
}

function bounds(polygon: readonly number[]): { left: number; top: number; right: number; bottom: number } {
  const xs = polygon.filter((_, i) => i % 2 === 0);
  const ys = polygon.filter((_, i) => i % 2 === 1);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

function overlaps(a: readonly number[], b: readonly number[]): boolean {
  const p = bounds(a);
  const q = bounds(b);
  return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
}
