/**
 * The one layout model every output is drawn from: text runs placed in points (origin top-left, y at the
 * baseline), grouped into blocks (heading, paragraph, label+value field, table row), plus rules and fills.
 * The PDF, the raster scans, the truth markdown and the truth regions all read the same Layout, so the truth
 * is exact by construction.
 */
import PDFDocument from 'pdfkit';

export const LETTER = { width: 612, height: 792 } as const;

/** Helvetica AFM metrics (per 1000 em): the ascender and descender used for region boxes. */
const ASCENT = 0.718;
const DESCENT = 0.207;

export interface TextRun {
  text: string;
  x: number;
  /** Baseline, points from the top of the page. */
  baseline: number;
  size: number;
  bold: boolean;
}

export type LayoutBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string; runs: TextRun[] }
  | { kind: 'paragraph'; text: string; runs: TextRun[] }
  | { kind: 'field'; label: string; value: string; runs: TextRun[] }
  | { kind: 'row'; table: number; header: boolean; cells: string[]; runs: TextRun[] };

export interface Rule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
}

export interface Fill {
  x: number;
  y: number;
  w: number;
  h: number;
  /** 0 black … 255 white. */
  grey: number;
}

export interface LayoutPage {
  width: number;
  height: number;
  blocks: LayoutBlock[];
  rules: Rule[];
  fills: Fill[];
}

export interface Layout {
  pages: LayoutPage[];
}

let measurer: PDFKit.PDFDocument | undefined;

/** Text width in points with pdfkit's built-in Helvetica metrics (the PDF's own fonts). */
export function measureText(text: string, size: number, bold = false): number {
  measurer ??= new PDFDocument({ autoFirstPage: false });
  return measurer
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(size)
    .widthOfString(text);
}

/** The box of a run in points: [minX, minY, maxX, maxY]. */
export function runBox(run: TextRun): [number, number, number, number] {
  return [
    run.x,
    run.baseline - ASCENT * run.size,
    run.x + measureText(run.text, run.size, run.bold),
    run.baseline + DESCENT * run.size,
  ];
}

/** Greedy word wrap to `width` points. */
export function wrapText(text: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measureText(candidate, size, bold) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/**
 * Places blocks on pages with a cursor: `y` is the next free position. Documents call `ensure(height)`
 * before a block; when it does not fit, a new page starts (and `onNewPage` may draw a running header).
 */
export class PageFlow {
  readonly layout: Layout = { pages: [] };
  page!: LayoutPage;
  y = 0;
  private tables = 0;

  constructor(
    readonly margin = { top: 48, bottom: 54, left: 40, right: 40 },
    private readonly onNewPage?: (flow: PageFlow) => void,
  ) {
    this.newPage();
  }

  get width(): number {
    return LETTER.width - this.margin.left - this.margin.right;
  }

  newPage(): void {
    this.page = { width: LETTER.width, height: LETTER.height, blocks: [], rules: [], fills: [] };
    this.layout.pages.push(this.page);
    this.y = this.margin.top;
    this.onNewPage?.(this);
  }

  /** Starts a new page unless `height` points still fit above the bottom margin. */
  ensure(height: number): void {
    if (this.y + height > LETTER.height - this.margin.bottom) this.newPage();
  }

  run(
    text: string,
    x: number,
    baseline: number,
    size: number,
    bold = false,
    align: 'left' | 'right' = 'left',
  ): TextRun {
    const left = align === 'right' ? x - measureText(text, size, bold) : x;
    return { text, x: left, baseline, size, bold };
  }

  heading(text: string, level: 1 | 2 | 3, x: number, baseline: number, size: number): void {
    this.page.blocks.push({ kind: 'heading', level, text, runs: [this.run(text, x, baseline, size, true)] });
  }

  /** Lines of one paragraph at `leading` points apart; returns the baseline after the last line. */
  paragraph(lines: string[], x: number, baseline: number, size: number, leading = size * 1.3, bold = false): number {
    const runs = lines.map((line, index) => this.run(line, x, baseline + index * leading, size, bold));
    this.page.blocks.push({ kind: 'paragraph', text: lines.join(' '), runs });
    return baseline + lines.length * leading;
  }

  /** `Label: value` on one line, the value after the label. */
  inlineField(label: string, value: string, x: number, baseline: number, size: number): void {
    const labelRun = this.run(`${label}:`, x, baseline, size, true);
    const valueRun = this.run(value, x + measureText(`${label}: `, size, true), baseline, size);
    this.page.blocks.push({ kind: 'field', label, value, runs: [labelRun, valueRun] });
  }

  /** A form box: a small label at the top-left, the value below it, and the box outline. */
  boxField(label: string, value: string, x: number, y: number, w: number, h: number, valueSize = 9): void {
    this.page.rules.push(...rectangle(x, y, w, h, 0.6));
    const labelRun = this.run(label, x + 3, y + 8, 6.5, true);
    const valueRun = this.run(value, x + 5, y + h - 6, valueSize);
    this.page.blocks.push({ kind: 'field', label, value, runs: value ? [labelRun, valueRun] : [labelRun] });
  }

  rule(x1: number, y1: number, x2: number, y2: number, width = 0.6): void {
    this.page.rules.push({ x1, y1, x2, y2, width });
  }

  /** A new table id: rows with the same id form one markdown table. */
  nextTable(): number {
    return ++this.tables;
  }

  /** One table row (header rows are bold on a grey band); returns the y below it. */
  tableRow(
    table: number,
    columns: Column[],
    cells: string[],
    x: number,
    y: number,
    rowHeight: number,
    size: number,
    header = false,
  ): number {
    let left = x;
    const runs: TextRun[] = [];
    const total = columns.reduce((width, column) => width + column.width, 0);
    if (header) this.page.fills.push({ x, y, w: total, h: rowHeight, grey: 225 });
    columns.forEach((column, index) => {
      const text = cells[index] ?? '';
      const baseline = y + rowHeight / 2 + size * 0.35;
      if (text)
        runs.push(
          column.align === 'right' && !header
            ? this.run(text, left + column.width - 3, baseline, size, header, 'right')
            : this.run(text, left + 3, baseline, size, header),
        );
      left += column.width;
    });
    this.rule(x, y + rowHeight, x + total, y + rowHeight, header ? 0.8 : 0.3);
    this.page.blocks.push({ kind: 'row', table, header, cells: columns.map((_, index) => cells[index] ?? ''), runs });
    return y + rowHeight;
  }
}

function rectangle(x: number, y: number, w: number, h: number, width: number): Rule[] {
  return [
    { x1: x, y1: y, x2: x + w, y2: y, width },
    { x1: x + w, y1: y, x2: x + w, y2: y + h, width },
    { x1: x, y1: y + h, x2: x + w, y2: y + h, width },
    { x1: x, y1: y, x2: x, y2: y + h, width },
  ];
}
