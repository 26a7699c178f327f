/**
 * A thin layer over pdfjs-dist for Node: open a PDF from bytes, read each page's text runs and image
 * placements in points (origin top-left), and render a page to pixels. Nothing is fetched: fonts, CMaps,
 * ICC profiles and wasm decoders are read from the installed pdfjs-dist package.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, OPS, Util } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
/** pdfjs in Node reads these "URLs" with fs when they are plain paths; they must end with a separator. */
const PDFJS_ASSETS = {
  standardFontDataUrl: `${path.join(PDFJS_ROOT, 'standard_fonts')}${path.sep}`,
  cMapUrl: `${path.join(PDFJS_ROOT, 'cmaps')}${path.sep}`,
  cMapPacked: true,
  iccUrl: `${path.join(PDFJS_ROOT, 'iccs')}${path.sep}`,
  wasmUrl: `${path.join(PDFJS_ROOT, 'wasm')}${path.sep}`,
};

/** A box in points, origin at the top-left of the page. */
export interface PointBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One run of text as the PDF's text layer gives it. */
export interface PdfTextRun {
  text: string;
  box: PointBox;
  /** Font size in points (the run's height). */
  fontSize: number;
  fontName: string;
  /**
   * Whether the run reads left to right along the page's horizontal (after the page's rotation). A run at an
   * angle is a stamp or watermark ("PAID", "DRAFT" across the page) or a side note: its box is not where its
   * glyphs are.
   */
  upright: boolean;
}

/** Where an image XObject is painted on a page. */
export interface PdfImagePlacement {
  box: PointBox;
  /** Whether it is a stencil mask (one-colour image) rather than a picture. */
  mask: boolean;
}

/** One page read from the PDF. */
export interface PdfPageContent {
  /** 1-based. */
  pageNumber: number;
  /** Page size in points, after the page's rotation. */
  width: number;
  height: number;
  runs: PdfTextRun[];
}

/** A rendered page: RGBA pixels. */
export interface RenderedPage {
  width: number;
  height: number;
  dpi: number;
  rgba: Uint8ClampedArray;
}

/** An open PDF; call `close()` when done. */
export interface PdfHandle {
  pageCount: number;
  readPage(pageNumber: number): Promise<PdfPageContent>;
  readImages(pageNumber: number): Promise<PdfImagePlacement[]>;
  renderPage(pageNumber: number, dpi: number): Promise<RenderedPage>;
  close(): Promise<void>;
}

/** The part of pdfjs' Node canvas factory we use; its type is declared as `Object` upstream. */
interface CanvasAndContext {
  canvas: unknown;
  context: { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}
interface CanvasFactoryLike {
  create(width: number, height: number): CanvasAndContext;
  destroy(canvasAndContext: CanvasAndContext): void;
}

function toBox(points: [number, number][]): PointBox {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

async function readRuns(page: PDFPageProxy): Promise<PdfPageContent> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const runs: PdfTextRun[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    // Text space → viewport space (points, y down), which also applies page rotation and crop offsets.
    const m = Util.transform(viewport.transform, item.transform) as number[];
    const fontSize = Math.hypot(m[2] ?? 0, m[3] ?? 0) || item.height;
    // The baseline's direction: (1, 0) for upright text; a tilt of more than ~3° is set at an angle.
    const upright = (m[0] ?? 0) > 0 && Math.abs(m[1] ?? 0) <= Math.abs(m[0] ?? 0) * 0.05;
    const x = m[4] ?? 0;
    const baseline = m[5] ?? 0;
    // Descenders hang ~20% of the size below the baseline; ascenders reach ~80% above.
    runs.push({
      text: item.str,
      box: { x0: x, y0: baseline - fontSize * 0.8, x1: x + item.width, y1: baseline + fontSize * 0.2 },
      fontSize,
      fontName: item.fontName,
      upright,
    });
  }
  return { pageNumber: page.pageNumber, width: viewport.width, height: viewport.height, runs };
}

async function readImagePlacements(page: PDFPageProxy): Promise<PdfImagePlacement[]> {
  const viewport = page.getViewport({ scale: 1 });
  const ops = await page.getOperatorList();
  const placements: PdfImagePlacement[] = [];
  // Track the current transformation matrix through save/restore/transform to place each image's unit square.
  let ctm = [1, 0, 0, 1, 0, 0];
  const stack: number[][] = [];
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (fn === OPS.transform && args) ctm = Util.transform(ctm, args as number[]) as number[];
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) {
      const m = Util.transform(viewport.transform, ctm) as number[];
      const corners: [number, number][] = [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ].map(([u, v]) => [m[0]! * u! + m[2]! * v! + m[4]!, m[1]! * u! + m[3]! * v! + m[5]!]);
      const box = toBox(corners);
      // Skip degenerate placements (e.g. 1×1 spacer images).
      if (box.x1 - box.x0 >= 2 && box.y1 - box.y0 >= 2)
        placements.push({ box, mask: fn === OPS.paintImageMaskXObject });
    }
  }
  return placements;
}

async function renderToPixels(doc: PDFDocumentProxy, page: PDFPageProxy, dpi: number): Promise<RenderedPage> {
  const viewport = page.getViewport({ scale: dpi / 72 });
  const width = Math.ceil(viewport.width);
  const height = Math.ceil(viewport.height);
  // pdfjs brings its own @napi-rs/canvas; a canvas from another copy fails on Path2D, so use its factory.
  const factory = doc.canvasFactory as CanvasFactoryLike;
  const target = factory.create(width, height);
  try {
    await page.render({
      canvas: target.canvas as HTMLCanvasElement,
      canvasContext: target.context as unknown as CanvasRenderingContext2D,
      viewport,
    }).promise;
    const { data } = target.context.getImageData(0, 0, width, height);
    return { width, height, dpi, rgba: data };
  } finally {
    factory.destroy(target);
  }
}

/** Opens a PDF held in memory. Throws when the bytes are not a readable PDF. */
export async function openPdf(bytes: Uint8Array): Promise<PdfHandle> {
  // pdfjs transfers (detaches) the buffer it is given: hand it a copy so the caller's bytes stay usable.
  const doc = await getDocument({ data: new Uint8Array(bytes), ...PDFJS_ASSETS, verbosity: 0, isEvalSupported: false })
    .promise;
  return {
    pageCount: doc.numPages,
    readPage: async (n) => readRuns(await doc.getPage(n)),
    readImages: async (n) => readImagePlacements(await doc.getPage(n)),
    renderPage: async (n, dpi) => renderToPixels(doc, await doc.getPage(n), dpi),
    close: () => doc.destroy(),
  };
}
