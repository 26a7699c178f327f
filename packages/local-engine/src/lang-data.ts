/** Where the bundled tesseract model lives; apart from ocr-pool.ts so that finding it loads no OCR engine. */
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Directory of the bundled English model (LSTM, integer "best"). */
export function resolveEnglishLangPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}
