/**
 * A pool of tesseract.js workers, created lazily on the first OCR job and reused across requests. The
 * language data comes from the installed @tesseract.js-data/eng package and the wasm core from
 * tesseract.js-core in node_modules: nothing is downloaded at run time.
 */
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { type Logger, silentLogger } from './contract.js';
import type { Fragment } from './layout/types.js';
import { resolveEnglishLangPath } from './lang-data.js';

/** The OCR of one image, as fragments in the image's pixel coordinates. */
export interface OcrResult {
  words: Fragment[];
  /** Mean word confidence, 0–100 (0 when nothing was read). */
  confidence: number;
}

/**
 * How tesseract segments the page: `sparse` (PSM 11) finds every word, table cells and boxed form fields
 * included, and our layout code rebuilds lines; `column` (PSM 4) reads one column of lines of varying size,
 * the shape of a till receipt, and keeps a line's words together where sparse mode splits or drops them.
 */
export type OcrLayout = 'sparse' | 'column';

const PAGE_SEGMENTATION: Record<OcrLayout, PSM> = { sparse: PSM.SPARSE_TEXT, column: PSM.SINGLE_COLUMN };

export interface OcrPool {
  /** Recognises an encoded image (PNG); `dpi` helps tesseract size its expectations. */
  recognize(image: Buffer, dpi: number, layout?: OcrLayout): Promise<OcrResult>;
  /** Terminates every worker; the pool can be used again afterwards (workers are re-created). */
  close(): Promise<void>;
}

interface PoolWorker {
  worker: Worker;
  layout: OcrLayout;
}

/** Creates a pool of `size` workers (created on first use). */
export function createOcrPool(size: number, logger: Logger = silentLogger): OcrPool {
  let workers: Promise<PoolWorker[]> | null = null;
  const idle: PoolWorker[] = [];
  const waiting: ((worker: PoolWorker) => void)[] = [];
  const langPath = resolveEnglishLangPath();

  const start = async (): Promise<PoolWorker[]> => {
    const started = performance.now();
    const created = await Promise.all(
      Array.from({ length: Math.max(1, size) }, async (): Promise<PoolWorker> => {
        // cacheMethod 'none': read the model from the package each time instead of writing a copy somewhere.
        const worker = await createWorker('eng', OEM.LSTM_ONLY, {
          langPath,
          gzip: true,
          cacheMethod: 'none',
          logger: () => {},
        });
        // tesseract.js defaults to one uniform block (PSM 6), which skips tables and boxed form fields; sparse
        // text is the default here (see OcrLayout). debug_file silences tesseract's warnings on stdout.
        await worker.setParameters({
          tessedit_pageseg_mode: PAGE_SEGMENTATION.sparse,
          debug_file: '/dev/null',
        } as Parameters<Worker['setParameters']>[0]);
        return { worker, layout: 'sparse' };
      }),
    );
    idle.push(...created);
    logger.debug(`local service: ${created.length} OCR workers ready in ${Math.round(performance.now() - started)} ms`);
    return created;
  };

  // Jobs wait for an idle worker; each worker is switched to the job's page segmentation only when it differs.
  const acquire = (): Promise<PoolWorker> => {
    const worker = idle.pop();
    return worker ? Promise.resolve(worker) : new Promise((resolve) => waiting.push(resolve));
  };
  const release = (worker: PoolWorker): void => {
    const next = waiting.shift();
    if (next) next(worker);
    else idle.push(worker);
  };

  return {
    async recognize(image, _dpi, layout = 'sparse') {
      workers ??= start();
      try {
        await workers;
      } catch (error) {
        workers = null;
        throw error;
      }
      const slot = await acquire();
      let result: Recognition;
      try {
        if (slot.layout !== layout) {
          await slot.worker.setParameters({ tessedit_pageseg_mode: PAGE_SEGMENTATION[layout] });
          slot.layout = layout;
        }
        result = await slot.worker.recognize(image, {}, { blocks: true, text: false });
      } finally {
        release(slot);
      }
      const words = wordsOf(result);
      const confidence = words.length === 0 ? 0 : words.reduce((s, w) => s + w.confidence, 0) / words.length;
      return { words, confidence };
    },
    async close() {
      const current = workers;
      workers = null;
      const list = current ? await current.catch(() => []) : [];
      idle.length = 0;
      await Promise.all(list.map((w) => w.worker.terminate()));
    },
  };
}

/** What tesseract.js returns for one image. */
type Recognition = Awaited<ReturnType<Worker['recognize']>>;

/** Tesseract's blocks → paragraphs → lines → words as fragments, without the symbol soup it reads in graphics. */
function wordsOf(result: Recognition): Fragment[] {
  const words: Fragment[] = [];
  for (const block of result.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        // Font size from the line's median word height (x-height words are short, descenders tall); the
        // line box itself is unreliable when tesseract merges text with a graphic beside it.
        const heights = line.words.map((w) => w.bbox.y1 - w.bbox.y0).sort((a, b) => a - b);
        const lineSize = (heights[Math.floor(heights.length / 2)] ?? 0) * 1.15;
        for (const word of line.words) {
          const text = word.text.trim();
          // Tesseract reads noise in graphics as low-confidence symbol soup: drop it.
          if (text === '' || (word.confidence < 30 && !/[A-Za-z0-9]{2}/.test(text))) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({
            text,
            box: { x0, y0, x1, y1 },
            fontSize: Math.min(lineSize, (y1 - y0) * 1.6) || y1 - y0,
            confidence: word.confidence,
          });
        }
      }
    }
  }
  return words;
}
