/**
 * Template loading for every HTML page (report.html, drill-downs, diff.html, history's index.html): the
 * handlebars files live in src/render/templates/ (shipped in the package, see package.json "files"); from
 * dist/render/ they are found two levels up. Each caller gets an isolated handlebars environment with the
 * shared partials registered (no global helpers or partials leak in or out), and one set of compile
 * options: the templates may use the built-in block helpers (each, if, with) and nothing else.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type Handlebars from 'handlebars';
import { DocbenchError } from '../errors.js';

const CANDIDATES = [new URL('./templates/', import.meta.url), new URL('../../src/render/templates/', import.meta.url)];

/** Partials every page shares: the stylesheet, the report page's own rules, and the SVG chart. */
const SHARED_PARTIALS = ['styles', 'report-styles', 'chart'] as const;

/** knownHelpersOnly: each/if/with only; `{{ }}` escapes, and templates never use `{{{ }}}` on data. */
export const COMPILE_OPTIONS: CompileOptions = { knownHelpersOnly: true, noEscape: false };

function findTemplateDirectory(): string {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(candidate);
    if (existsSync(`${dir}report.hbs`)) return dir;
  }
  throw new DocbenchError('INTERNAL', `report templates not found (looked in ${CANDIDATES.map((c) => fileURLToPath(c)).join(', ')})`, { hint: 'reinstall docbench: the package ships src/render/templates' });
}

/** The text of template files, by file name (e.g. `report.hbs`, `report-script.js`). */
export async function readTemplateFiles<const N extends string>(names: readonly N[]): Promise<Record<N, string>> {
  const dir = findTemplateDirectory();
  const texts = await Promise.all(names.map((name) => readFile(`${dir}${name}`, 'utf8')));
  return Object.fromEntries(names.map((name, i) => [name, texts[i]!])) as Record<N, string>;
}

/**
 * A fresh handlebars environment with the shared partials registered. Handlebars is loaded here, on first
 * use, so commands that write no HTML never load it.
 */
export async function createTemplateEnvironment(): Promise<typeof Handlebars> {
  const [{ default: handlebars }, partials] = await Promise.all([import('handlebars'), readTemplateFiles(SHARED_PARTIALS.map((name) => `${name}.hbs`))]);
  const hbs = handlebars.create();
  for (const name of SHARED_PARTIALS) hbs.registerPartial(name, partials[`${name}.hbs`]!);
  return hbs;
}

/** Memoises an async loader once per process; a failure is not cached, so the next call tries again. */
export function cacheOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let cached: Promise<T> | null = null;
  return () => {
    cached ??= load().catch((error: unknown) => {
      cached = null;
      throw error;
    });
    return cached;
  };
}
