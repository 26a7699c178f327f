/**
 * What reading a `tesseract` system's config needs: its options, checked, and the operations and secrets
 * they imply. The registry imports this module alone; the implementation (tesseract.ts, with the provider
 * helpers) loads with the first system of this kind (CONTRIBUTING.md, Habits).
 */
import type { Operation, SystemKindSettings } from '../types.js';

export interface TesseractOptions {
  /** `native` = the CLI, `wasm` = tesseract.js, `auto` = the CLI when it runs, else tesseract.js. @default auto */
  engine: 'auto' | 'native' | 'wasm';
  /** The CLI to run. @default tesseract */
  binary: string;
  /** Tesseract language(s), e.g. `eng` or `eng+deu` (tesseract.js has only `eng` bundled). @default eng */
  language: string;
  /** Page segmentation mode (tesseract --help-psm). @default 3 (fully automatic) */
  psm: number;
  /** Resolution PDF pages are rendered at. @default 300 */
  dpi: number;
  /** Read at most this many pages. @default all */
  maxPages: number | undefined;
}

export const OPERATIONS: readonly Operation[] = ['compare', 'split', 'process'];

export const tesseractSettings: SystemKindSettings<TesseractOptions> = {
  kind: 'tesseract',
  description:
    'Tesseract OCR (native CLI, or tesseract.js): markdown lines and simple tables, line regions with word confidence',
  docs: 'docs/providers.md',
  optionNames: ['engine', 'binary', 'language', 'psm', 'dpi', 'maxPages'],
  parseOptions(read) {
    const options: TesseractOptions = {
      engine: read.optionalEnum('engine', ['auto', 'native', 'wasm'] as const) ?? 'auto',
      binary: read.optionalString('binary') ?? 'tesseract',
      language: read.optionalString('language') ?? 'eng',
      psm: read.optionalNumber('psm', { min: 0, max: 13, integer: true }) ?? 3,
      dpi: read.optionalNumber('dpi', { min: 50, max: 600, integer: true }) ?? 300,
      maxPages: read.optionalNumber('maxPages', { min: 1, max: 10_000, integer: true }),
    };
    if (!/^[A-Za-z_]+(\+[A-Za-z_]+)*$/.test(options.language))
      read.fail('language', 'must be tesseract language codes joined by +, e.g. eng or eng+deu');
    if (options.engine === 'wasm' && options.language !== 'eng')
      read.fail('language', 'must be eng with engine wasm (only the English model is bundled)');
    return options;
  },
  operations: () => OPERATIONS,
  secretEnvNames: () => [],
};
