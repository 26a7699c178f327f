/**
 * Page sizes and regions of imported documents. Regions are in inches from the page's top-left corner and page
 * sizes in points, as every truth/<id>.regions.json (datasets/README.md, "Truth regions"); public datasets give
 * boxes in image pixels (SROIE, CORD, FUNSD, XFUND) or as fractions of the page (DocILE). An image's pixels
 * become inches through the resolution its file states, and 72 pixels an inch when it states none — the rule
 * docbench applies when it reads an image (docs/datasets-import.md, "Pixels and inches").
 */
import { readFile } from 'node:fs/promises';

/** Pixels per inch of an image that states no resolution: one pixel per point. */
const UNSTATED_DPI = 72;
const POINTS_PER_INCH = 72;

/** One page: its size in points and how many inches one unit of the source's boxes is. */
export interface SourcePage {
  page: number;
  widthPt: number;
  heightPt: number;
  /** Inches per source unit (1/dpi for pixel boxes). */
  inchesPerUnit: number;
}

/** A raster page's pixel size and resolution (sharp, loaded with the first image). */
export async function imagePage(file: string): Promise<SourcePage & { widthPx: number; heightPx: number }> {
  const { default: sharp } = await import('sharp');
  const meta = await sharp(file).metadata();
  const dpi = typeof meta.density === 'number' && meta.density > 0 ? meta.density : UNSTATED_DPI;
  const widthPx = meta.width ?? 0;
  const heightPx = meta.height ?? 0;
  return {
    page: 1,
    widthPx,
    heightPx,
    widthPt: (widthPx * POINTS_PER_INCH) / dpi,
    heightPt: (heightPx * POINTS_PER_INCH) / dpi,
    inchesPerUnit: 1 / dpi,
  };
}

/** Every page of a PDF, sized in points; `inchesPerUnit` is left at 1/72 (boxes in points). */
export async function pdfPages(file: string): Promise<SourcePage[]> {
  const { openPdf } = await import('@docbench/pdf');
  const pdf = await openPdf(new Uint8Array(await readFile(file)));
  try {
    const pages: SourcePage[] = [];
    for (let n = 1; n <= pdf.pageCount; n++) {
      const { width, height } = await pdf.readPage(n);
      pages.push({ page: n, widthPt: width, heightPt: height, inchesPerUnit: 1 / POINTS_PER_INCH });
    }
    return pages;
  } finally {
    await pdf.close();
  }
}

interface RegionBox {
  bounding_box: { min_x: number; min_y: number; max_x: number; max_y: number };
  content: string;
}

interface RegionPageOut {
  page: number;
  width: number;
  height: number;
  bounding_boxes: RegionBox[];
}

const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/** Collects a document's regions page by page, in the order they are added. */
export class RegionCollector {
  private readonly pages = new Map<number, RegionPageOut>();
  /** Boxes that had no area left inside their page, not written. */
  dropped = 0;

  /**
   * Adds `box` ([x0, y0, x1, y1] in the source's units) on `page`. Source boxes that run past the page edge
   * (annotation tools allow it) are cut to the page; a box with no area inside it is counted in `dropped`.
   */
  add(page: SourcePage, box: readonly [number, number, number, number], content: string): void {
    const widthIn = page.widthPt / POINTS_PER_INCH;
    const heightIn = page.heightPt / POINTS_PER_INCH;
    const clampX = (x: number) => round(Math.min(widthIn, Math.max(0, x * page.inchesPerUnit)));
    const clampY = (y: number) => round(Math.min(heightIn, Math.max(0, y * page.inchesPerUnit)));
    const [min_x, min_y, max_x, max_y] = [clampX(box[0]), clampY(box[1]), clampX(box[2]), clampY(box[3])];
    if (!(max_x > min_x && max_y > min_y)) {
      this.dropped += 1;
      return;
    }
    let out = this.pages.get(page.page);
    if (!out) {
      out = { page: page.page, width: round(page.widthPt), height: round(page.heightPt), bounding_boxes: [] };
      this.pages.set(page.page, out);
    }
    out.bounding_boxes.push({ bounding_box: { min_x, min_y, max_x, max_y }, content });
  }

  /** The pages with at least one box, by page number; null when there is none. */
  result(): RegionPageOut[] | null {
    if (this.pages.size === 0) return null;
    return [...this.pages.values()].sort((a, b) => a.page - b.page);
  }
}

/** The bounding rectangle of points given as flat `[x, y, x, y, …]`. */
export function boundingRectangle(coordinates: readonly number[]): [number, number, number, number] {
  const xs = coordinates.filter((_, i) => i % 2 === 0);
  const ys = coordinates.filter((_, i) => i % 2 === 1);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/**
 * Items in reading order: rows top to bottom, each row left to right. An item joins the current row when its
 * vertical centre lies within the row's first item's height (forms' fields on one line rarely share a top).
 */
export function inReadingOrder<T>(
  items: readonly T[],
  boxOf: (item: T) => readonly [number, number, number, number],
): T[] {
  const byTop = [...items].sort((a, b) => centreY(boxOf(a)) - centreY(boxOf(b)) || boxOf(a)[0] - boxOf(b)[0]);
  const rows: { top: number; bottom: number; items: T[] }[] = [];
  for (const item of byTop) {
    const box = boxOf(item);
    const row = rows[rows.length - 1];
    if (row && centreY(box) >= row.top && centreY(box) <= row.bottom) row.items.push(item);
    else rows.push({ top: box[1], bottom: box[3], items: [item] });
  }
  return rows.flatMap((row) => row.items.sort((a, b) => boxOf(a)[0] - boxOf(b)[0]));
}

function centreY(box: readonly [number, number, number, number]): number {
  return (box[1] + box[3]) / 2;
}
