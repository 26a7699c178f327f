/**
 * A pool of tesseract.js workers, created lazily on the first OCR job and reused across requests. The
 * language data comes from the installed @tesseract.js-data/eng package and the wasm core from
 * tesseract.js-core in node_modules: nothing is downloaded at run time.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { Fragment } from './layout/types.js';

const require = createRequire(import.meta.url);

/** Directory of the bundled English model (LSTM, integer "best"). */
export function resolveEnglishLangPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** The OCR of one image, as fragments in the image's pixel coordinates. */
export interface OcrResult {
  words: Fragment[];
  /** Mean word confidence, 0–100 (0 when nothing was read). */
  confidence: number;
}

export interface OcrPool {
  /** Recognises an encoded image (PNG); `dpi` helps tesseract size its expectations. */
  recognize(image: Buffer, dpi: number): Promise<OcrResult>;
  /** Terminates every worker; the pool can be used again afterwards (workers are re-created). */
  close(): Promise<void>;
}

/** Creates a pool of `size` workers (created on first use). */
export function createOcrPool(size: number, logger: Logger = silentLogger): OcrPool {
  let scheduler: Promise<Scheduler> | null = null;
  const langPath = resolveEnglishLangPath();

  const start = async (): Promise<Scheduler> => {
    const started = performance.now();
    const created = createScheduler();
    const workers = await Promise.all(
      Array.from({ length: Math.max(1, size) }, () =>
        // cacheMethod 'none': read the model from the package each time instead of writing a copy somewhere.
        createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', logger: () => {} }),
      ),
    );
    for (const worker of workers) {
      // tesseract.js defaults to one uniform block (PSM 6), which skips tables and boxed form fields; sparse
      // text (PSM 11) finds every word and we rebuild lines and reading order ourselves. debug_file silences
      // tesseract's warnings on stdout.
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, debug_file: '/dev/null' } as Parameters<typeof worker.setParameters>[0]);
      created.addWorker(worker);
    }
    logger.debug(`local service: ${workers.length} OCR workers ready in ${Math.round(performance.now() - started)} ms`);
    return created;
  };

  return {
    async recognize(image, dpi) {
      scheduler ??= start();
      let ready: Scheduler;
      try {
        ready = await scheduler;
      } catch (error) {
        scheduler = null;
        throw error;
      }
      const result = await ready.addJob('recognize', image, {}, { blocks: true, text: false });
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
              words.push({ text, box: { x0, y0, x1, y1 }, fontSize: Math.min(lineSize, (y1 - y0) * 1.6) || y1 - y0, confidence: word.confidence });
            }
          }
        }
      }
      const confidence = words.length === 0 ? 0 : words.reduce((s, w) => s + w.confidence, 0) / words.length;
      return { words, confidence };
    },
    async close() {
      const current = scheduler;
      scheduler = null;
      if (current) await (await current.catch(() => null))?.terminate();
    },
  };
}
