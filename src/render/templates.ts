/**
 * Template loading for every HTML page (report.html, drill-downs, diff.html, history's index.html): the
 * handlebars files live in src/render/templates/ (shipped in the package, see package.json "files"); from
 * dist/render/ they are found two levels up. Each caller gets an isolated handlebars environment with the
 * shared partials registered (no global helpers or partials leak in or out), and one set of compile
 * options: the templates may use the built-in block helpers (each, if, with) and nothing else.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
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
  throw new DocbenchError(
    'INTERNAL',
    `report templates not found (looked in ${CANDIDATES.map((c) => fileURLToPath(c)).join(', ')})`,
    { hint: 'reinstall docbench: the package ships src/render/templates' },
  );
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
  const [{ default: handlebars }, partials] = await Promise.all([
    import('handlebars'),
    readTemplateFiles(SHARED_PARTIALS.map((name) => `${name}.hbs`)),
  ]);
  const hbs = handlebars.create();
  const compiled = await compileTemplateFiles(hbs, partials);
  for (const name of SHARED_PARTIALS) hbs.registerPartial(name, compiled[`${name}.hbs`]!);
  return hbs;
}

/**
 * Template files (by file name, with their source text) compiled in `hbs`. `npm run build` precompiles every
 * template file into dist/render/ (PRECOMPILED_FILE), so a process writing reports does not parse and compile
 * them again: for report.html and the drill-downs that was 0.2-0.4 s of CPU per process. A precompiled
 * template is used only while its source is byte for byte the one it was made from (SHA-256); otherwise, and
 * from src/ (tests, tsx), where there is no build's copy, the source is compiled here, to the same code.
 */
export async function compileTemplateFiles<const N extends string>(
  hbs: typeof Handlebars,
  files: Record<N, string>,
): Promise<Record<N, Handlebars.TemplateDelegate>> {
  const precompiled = await loadPrecompiled();
  const compiled = {} as Record<N, Handlebars.TemplateDelegate>;
  for (const [name, source] of Object.entries(files) as [N, string][]) {
    const entry = precompiled.get(name);
    compiled[name] =
      entry && entry.sha256 === hashSource(source) ? hbs.template(entry.spec) : hbs.compile(source, COMPILE_OPTIONS);
  }
  return compiled;
}

/** Written by the build beside this module (dist/render/); absent under src/. */
export const PRECOMPILED_FILE = 'precompiled-templates.js';
const PRECOMPILED_URL = new URL(`./${PRECOMPILED_FILE}`, import.meta.url);

interface PrecompiledTemplate {
  sha256: string;
  spec: TemplateSpecification;
}

function hashSource(source: string): string {
  return createHash('sha256').update(source, 'utf8').digest('hex');
}

const loadPrecompiled = cacheOnce(async (): Promise<Map<string, PrecompiledTemplate>> => {
  if (!existsSync(fileURLToPath(PRECOMPILED_URL))) return new Map();
  const { default: table } = (await import(PRECOMPILED_URL.href)) as { default: unknown };
  const entries = typeof table === 'object' && table !== null ? Object.entries(table) : [];
  const valid = entries.filter((entry): entry is [string, PrecompiledTemplate] => isPrecompiledTemplate(entry[1]));
  if (valid.length === 0 || valid.length !== entries.length) {
    throw new DocbenchError('INTERNAL', `${fileURLToPath(PRECOMPILED_URL)} is not a table of precompiled templates`, {
      hint: 'rebuild docbench (npm run build)',
    });
  }
  return new Map(valid);
});

function isPrecompiledTemplate(value: unknown): value is PrecompiledTemplate {
  const entry = value as Partial<PrecompiledTemplate> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.sha256 === 'string' &&
    typeof entry.spec === 'object' &&
    entry.spec !== null
  );
}

/**
 * The build step (scripts/precompile-templates.mjs, after tsc): every template file of the template directory
 * precompiled with COMPILE_OPTIONS into one module beside this one, each with the hash of its source.
 */
export async function writePrecompiledTemplates(): Promise<string> {
  const { default: handlebars } = await import('handlebars');
  const names = (await readdir(findTemplateDirectory())).filter((name) => name.endsWith('.hbs')).sort();
  const lines = Object.entries(await readTemplateFiles(names)).map(([name, source]) => {
    // Typed as a TemplateSpecification, precompile returns that specification as JavaScript source text.
    const spec: unknown = handlebars.precompile(source, COMPILE_OPTIONS);
    if (typeof spec !== 'string')
      throw new DocbenchError('INTERNAL', `handlebars.precompile(${name}) did not return source text`);
    return `  ${JSON.stringify(name)}: { sha256: ${JSON.stringify(hashSource(source))}, spec: ${spec} },`;
  });
  const file = fileURLToPath(PRECOMPILED_URL);
  await writeFile(
    file,
    `// Written by npm run build (scripts/precompile-templates.mjs) from src/render/templates: do not edit.\nexport default {\n${lines.join('\n')}\n};\n`,
  );
  return file;
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
