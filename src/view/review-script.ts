/**
 * The review page's script (./client/review.ts, a typed browser module) as the page inlines it, with the CSP
 * hash that allows exactly that text. From dist/ (the package) the text is the build's own compilation beside
 * this module: tsc compiles client/ with the rest of src/. From src/ (vitest, tsx) there is no compiled copy,
 * so the source is transpiled here with typescript, a development dependency present wherever src/ runs; both
 * erase the types only (the module imports nothing at run time), so the script is the same either way.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DocbenchError } from '../errors.js';
import { cacheOnce } from '../render/index.js';

export interface ReviewScript {
  text: string;
  /** `sha256-…`, for the page's `script-src`. */
  hash: string;
}

const COMPILED = new URL('./client/review.js', import.meta.url);
const SOURCE = new URL('./client/review.ts', import.meta.url);

/** Reads (or compiles) the script once per process. */
export const loadReviewScript = cacheOnce(async (): Promise<ReviewScript> => {
  const text = existsSync(fileURLToPath(COMPILED)) ? await readCompiled() : await transpileSource();
  if (text.includes('</script')) throw new DocbenchError('INTERNAL', 'the review script must not contain "</script"');
  return { text, hash: `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}` };
});

/** tsc's output without its source-map comment: the page inlines the script, the map is not served. */
async function readCompiled(): Promise<string> {
  const text = await readFile(COMPILED, 'utf8');
  return text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

async function transpileSource(): Promise<string> {
  const { default: ts } = await import('typescript');
  const { outputText } = ts.transpileModule(await readFile(SOURCE, 'utf8'), {
    fileName: fileURLToPath(SOURCE),
    compilerOptions: { target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.ESNext, sourceMap: false },
  });
  return outputText;
}
