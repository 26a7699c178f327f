/**
 * Document → analysed pages (the shared layout model), with a small LRU cache keyed by the content hash so
 * /extract, /split, /compare and /v1/process of one document read (and OCR) it once.
 */
import { createHash } from 'node:crypto';
import {
  countImagePages,
  decodeImagePage,
  openPdf,
  rgbaToGrey,
  type GreyPage,
  type PdfHandle,
  type PdfTextRun,
  type PointBox,
} from '@docbench/pdf';
import type { DocumentFormat } from './document-format.js';
import { buildRows } from './layout/build-lines.js';
import { buildPageLayout } from './layout/build-blocks.js';
import type { Fragment, PageLayout } from './layout/types.js';
import type { PageOcr } from './page-ocr.js';
import { deskewPage } from './deskew.js';
import { turnPage, type QuarterTurn } from './page-turn.js';
import { isBinarised } from './binarised-page.js';
import { repairLostScanLines } from './scan-line-repair.js';
import { takeGlyphCheckBoxes } from './glyph-check-boxes.js';
import { dropBoxGlyphs, findCheckBoxes, withoutPrintedCharacters } from './check-boxes.js';
import { paperResolution } from './paper-resolution.js';
import { smallTextFactor } from './small-text.js';
import { upscalePage } from './upscale-page.js';
import { scaleFragments } from './layout/scale-fragments.js';

/** An OCR page's layout with its check boxes; the OCR's reading of the boxes themselves is dropped. */
function ocrPageLayout(page: number, width: number, height: number, raster: GreyPage, words: Fragment[]): PageLayout {
  const checkBoxes = withoutPrintedCharacters(findCheckBoxes(raster), words);
  return { ...buildPageLayout(page, width, height, 'ocr', buildRows(dropBoxGlyphs(words, checkBoxes))), checkBoxes };
}

/** Resolution at which PDF pages are rendered for OCR, barcodes and ink detection. */
export const RENDER_DPI = 200;
/** A PDF page with fewer letters and digits than this in its text layer is treated as scanned. */
const MIN_TEXT_LAYER_CHARS = 8;
/** …or whose visible characters are less than this share letters and digits (control-character soup). */
const MIN_TEXT_LAYER_ALNUM_SHARE = 0.3;
/** Timings measured while analysing, ms. */
export interface AnalysisTimings {
  readMs: number;
  renderMs: number;
  ocrMs: number;
}

/** A document read into the layout model, plus lazy access to its pixels. */
export interface AnalysedDocument {
  /** sha256 of the bytes, hex. */
  hash: string;
  format: DocumentFormat;
  pageCount: number;
  pages: PageLayout[];
  /** Mean OCR word confidence per page (0–100), null for text-layer pages. */
  ocrConfidence: (number | null)[];
  timings: AnalysisTimings;
  /** The page as greyscale pixels (rendered at RENDER_DPI for PDFs). Cached. */
  raster(page: number): Promise<GreyPage>;
  /** Embedded images painted on a PDF page, in points; [] for image files. */
  embeddedImages(page: number): Promise<PointBox[]>;
}

export interface DocumentAnalyser {
  analyse(bytes: Uint8Array, format: DocumentFormat): Promise<AnalysedDocument>;
}

async function ocrRaster(
  ocr: PageOcr,
  raster: GreyPage,
  page: { binarised: boolean; checkTurn?: boolean },
  timings: AnalysisTimings,
): Promise<{ words: Fragment[]; confidence: number; turn?: QuarterTurn }> {
  const started = performance.now();
  const result = await ocr.read(raster, page);
  timings.ocrMs += performance.now() - started;
  return result;
}

/** A scanned page as read: the raster the words are on (deskewed, turned upright), and the turn it took. */
interface ScannedPage {
  raster: GreyPage;
  words: Fragment[];
  confidence: number;
  turn: QuarterTurn;
}

/**
 * Deskews and reads a scanned page. When the OCR finds its text is not upright (page-turn.ts), the page as
 * scanned is turned, deskewed again (a sideways page's skew cannot be measured along its lines) and read.
 */
async function readScannedPage(
  ocr: PageOcr,
  scanned: GreyPage,
  timings: AnalysisTimings,
  mayUpscale = true,
): Promise<ScannedPage> {
  const binarised = isBinarised(scanned);
  const { page: raster } = await deskewPage(scanned);
  const first = await ocrRaster(ocr, raster, { binarised, checkTurn: true }, timings);
  let page: ScannedPage = { raster, words: first.words, confidence: first.confidence, turn: 0 };
  if (first.turn) {
    const { page: upright } = await deskewPage(await turnPage(scanned, first.turn));
    page = { raster: upright, ...(await ocrRaster(ocr, upright, { binarised }, timings)), turn: first.turn };
  }
  // Small text is read again from the page as scanned, upscaled, turn check and all: read small, an upright page
  // may have seemed turned.
  const factor = mayUpscale ? smallTextFactor(page.raster, page.words) : 1;
  if (factor > 1) return readScannedPage(ocr, await upscalePage(scanned, factor), timings, false);
  return atPaperResolution(page);
}

/**
 * The page at its paper's resolution (paper-resolution.ts): the raster stating it and the words in points of the
 * paper, so that a page reads the same whatever resolution its file states.
 */
function atPaperResolution(page: ScannedPage): ScannedPage {
  const dpi = paperResolution(page.raster, page.words);
  if (dpi === page.raster.dpi) return page;
  return { ...page, raster: { ...page.raster, dpi }, words: scaleFragments(page.words, page.raster.dpi / dpi) };
}

async function withPdf<T>(bytes: Uint8Array, use: (pdf: PdfHandle) => Promise<T>): Promise<T> {
  const pdf = await openPdf(bytes);
  try {
    return await use(pdf);
  } finally {
    await pdf.close();
  }
}

async function analysePdf(bytes: Uint8Array, ocr: PageOcr, rasters: Map<number, GreyPage>, timings: AnalysisTimings) {
  return withPdf(bytes, async (pdf) => {
    const pages: PageLayout[] = [];
    const confidence: (number | null)[] = [];
    const pending: Promise<void>[] = [];
    for (let n = 1; n <= pdf.pageCount; n++) {
      const started = performance.now();
      const content = await pdf.readPage(n);
      timings.readMs += performance.now() - started;
      // Fonts without a Unicode map yield control characters instead of text: such a layer is unreadable.
      const visible = content.runs.reduce((sum, run) => sum + run.text.replace(/\s/g, '').length, 0);
      const chars = content.runs.reduce((sum, run) => sum + run.text.replace(/[^\p{L}\p{N}]/gu, '').length, 0);
      if (chars >= MIN_TEXT_LAYER_CHARS && chars >= visible * MIN_TEXT_LAYER_ALNUM_SHARE) {
        const fragments: Fragment[] = readableRuns(content.runs).map((run) => ({
          text: run.text,
          box: run.box,
          fontSize: run.fontSize,
          confidence: 100,
        }));
        // Check boxes printed as ☐ / ☒ characters are read as boxes, like those found in a scan's pixels.
        const { runs, checkBoxes } = takeGlyphCheckBoxes(fragments);
        const layout = buildPageLayout(n, content.width, content.height, 'text-layer', buildRows(runs));
        pages[n - 1] = checkBoxes.length > 0 ? { ...layout, checkBoxes } : layout;
        confidence[n - 1] = null;
        continue;
      }
      // No usable text layer: render and OCR (pages of one document queue on the pool together).
      const renderStarted = performance.now();
      const rendered = await pdf.renderPage(n, RENDER_DPI);
      timings.renderMs += performance.now() - renderStarted;
      const scanned = repairLostScanLines({
        width: rendered.width,
        height: rendered.height,
        dpi: RENDER_DPI,
        dpiKnown: true,
        pixels: rgbaToGrey(rendered.rgba, rendered.width, rendered.height),
      });
      pending.push(
        readScannedPage(ocr, scanned, timings).then(({ raster, words, confidence: c, turn }) => {
          rasters.set(n, raster);
          // A page read a quarter turn round is as wide as the page is tall.
          const [width, height] = turn % 180 === 0 ? [content.width, content.height] : [content.height, content.width];
          pages[n - 1] = ocrPageLayout(n, width, height, raster, words);
          confidence[n - 1] = c;
        }),
      );
    }
    await Promise.all(pending);
    return { pages, confidence, pageCount: pdf.pageCount };
  });
}

async function analyseImage(bytes: Uint8Array, ocr: PageOcr, rasters: Map<number, GreyPage>, timings: AnalysisTimings) {
  const pageCount = await countImagePages(bytes);
  const pages: PageLayout[] = [];
  const confidence: number[] = [];
  await Promise.all(
    Array.from({ length: pageCount }, async (_, index) => {
      const started = performance.now();
      const scanned = repairLostScanLines(await decodeImagePage(bytes, index));
      timings.readMs += performance.now() - started;
      const { raster, words, confidence: c } = await readScannedPage(ocr, scanned, timings);
      rasters.set(index + 1, raster);
      const toPoints = 72 / raster.dpi;
      pages[index] = ocrPageLayout(index + 1, raster.width * toPoints, raster.height * toPoints, raster, words);
      confidence[index] = c;
    }),
  );
  return { pages, confidence, pageCount };
}

async function analyseUncached(
  bytes: Uint8Array,
  format: DocumentFormat,
  hash: string,
  ocr: PageOcr,
): Promise<AnalysedDocument> {
  const timings: AnalysisTimings = { readMs: 0, renderMs: 0, ocrMs: 0 };
  const rasters = new Map<number, GreyPage>();
  const { pages, confidence, pageCount } =
    format === 'pdf'
      ? await analysePdf(bytes, ocr, rasters, timings)
      : await analyseImage(bytes, ocr, rasters, timings);
  const pendingRasters = new Map<number, Promise<GreyPage>>();
  const pendingImages = new Map<number, Promise<PointBox[]>>();
  return {
    hash,
    format,
    pageCount,
    pages,
    ocrConfidence: confidence,
    timings,
    raster(page) {
      const ready = rasters.get(page);
      if (ready) return Promise.resolve(ready);
      let pending = pendingRasters.get(page);
      if (!pending) {
        pending = withPdf(bytes, async (pdf) => {
          const rendered = await pdf.renderPage(page, RENDER_DPI);
          return {
            width: rendered.width,
            height: rendered.height,
            dpi: RENDER_DPI,
            dpiKnown: true,
            pixels: rgbaToGrey(rendered.rgba, rendered.width, rendered.height),
          };
        });
        pendingRasters.set(page, pending);
      }
      return pending;
    },
    embeddedImages(page) {
      if (format !== 'pdf') return Promise.resolve([]);
      let pending = pendingImages.get(page);
      if (!pending) {
        pending = withPdf(bytes, async (pdf) => (await pdf.readImages(page)).map((p) => p.box));
        pendingImages.set(page, pending);
      }
      return pending;
    },
  };
}

/**
 * The runs the page is read from. Text set at an angle among upright text (a "PAID" stamp across the totals, a
 * "DRAFT" watermark) is left out: the lines are horizontal, and its box would join the rows it crosses into
 * one line; readers of the page leave it out as well. A page whose text is mostly at an angle keeps it all.
 */
function readableRuns(runs: PdfTextRun[]): PdfTextRun[] {
  const upright = runs.filter((run) => run.upright);
  return upright.length * 2 >= runs.length ? upright : runs;
}

/** Creates an analyser that keeps the last `cacheSize` documents (by content hash). */
export function createDocumentAnalyser(ocr: PageOcr, cacheSize = 8): DocumentAnalyser {
  const cache = new Map<string, Promise<AnalysedDocument>>();
  return {
    analyse(bytes, format) {
      const hash = createHash('sha256').update(bytes).digest('hex');
      const hit = cache.get(hash);
      if (hit) {
        // Refresh its place in the LRU order.
        cache.delete(hash);
        cache.set(hash, hit);
        return hit;
      }
      const pending = analyseUncached(bytes, format, hash, ocr);
      pending.catch(() => cache.delete(hash));
      cache.set(hash, pending);
      while (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
      return pending;
    },
  };
}
