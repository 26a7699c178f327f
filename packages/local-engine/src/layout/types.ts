/**
 * The layout model every endpoint shares: a page is a list of lines (text with a box in points, origin
 * top-left), grouped into rows (lines on one baseline) and blocks (headings, paragraphs, tables). The PDF text
 * layer and OCR both produce fragments; everything after that is common code.
 */
import type { PointBox } from '@docbench/pdf';

export type { PointBox };

/** A piece of text with a position: a PDF text run or an OCR word. */
export interface Fragment {
  text: string;
  box: PointBox;
  /** Font size (PDF) or word height (OCR), points. */
  fontSize: number;
  /** 0–100: 100 for the PDF text layer, tesseract's word confidence for OCR. */
  confidence: number;
  /** A form's ruled line stands between this fragment and the one before it: they never join one line. */
  afterRule?: boolean;
}

/** Fragments on one baseline close enough to read as one phrase (column gaps split lines). */
export interface TextLine {
  text: string;
  box: PointBox;
  fontSize: number;
  /** Mean fragment confidence, 0–100. */
  confidence: number;
  fragments: Fragment[];
}

/** Lines sharing a baseline, left to right. */
export interface Row {
  lines: TextLine[];
  box: PointBox;
}

/** A table found from column-aligned rows. `header` is the first row; cells are null where empty. */
export interface TableBlock {
  kind: 'table';
  box: PointBox;
  header: string[];
  /** Each printed row's cells, a cell wrapped onto another line giving a row of its own (as the page reads). */
  rows: (string | null)[][];
  /** The cells with their lines, for extraction (row 0 is the header), a wrapped cell's lines joined. */
  cellLines: (TextLine | null)[][];
}

export interface TextBlock {
  kind: 'heading' | 'paragraph';
  /** 1–3 for headings. */
  level?: number;
  text: string;
  box: PointBox;
  lines: TextLine[];
}

export type Block = TextBlock | TableBlock;

/** A ruled check box found on a scanned page (check-boxes.ts): where it is and whether ink marks it. */
export interface CheckBox {
  box: PointBox;
  marked: boolean;
}

/** One analysed page. */
export interface PageLayout {
  /** 1-based. */
  page: number;
  /** Points. */
  width: number;
  height: number;
  /** Where the text came from. */
  source: 'text-layer' | 'ocr';
  /** Lines in reading order (rows top to bottom, left to right within a row). */
  lines: TextLine[];
  rows: Row[];
  blocks: Block[];
  /** Every table found, including one-row label/value grids that blocks render as fields. */
  tables: TableBlock[];
  /** Check boxes: from the pixels on OCR pages, from ☐ / ☒ characters on text-layer pages (not vector squares). */
  checkBoxes?: CheckBox[];
}

export function unionBox(boxes: PointBox[]): PointBox {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}
