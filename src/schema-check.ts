/**
 * Shape checks for docbench's own fixed JSON Schemas (the run directory's files, dataset.json), compiled
 * once by the build instead of in every process. `npm run build` writes each defined check as ajv standalone
 * code into dist/precompiled-checks/ (scripts/precompile-checks.mjs); a process uses that code while it was
 * generated from the same schema, options and ajv version (SHA-256 stored beside it), and otherwise (from
 * src/ under tsx and vitest, or a stale build) compiles the schema as before. Compiling the five checks
 * reading a run needs cost 0.36-0.5 s of CPU (loading their code: ~20 ms) per `docbench run`, `score`,
 * `report` or `gate`, and `report` no longer loads ajv's compiler at all (CONTRIBUTING.md, Habits).
 * Both ways give the same function: the same verdicts and the same ajv error objects.
 * A user's own schema (the dataset's schema.json) is not fixed and stays compiled at run time.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { DocbenchError } from './errors.js';
import { lazy, lazyRequire } from './lazy.js';

/** The ajv options a check may set; `strict: false` is common to all. */
export type CheckOptions = Pick<Options, 'allErrors' | 'verbose' | 'validateFormats'>;

/** A shape check, loaded or compiled on its first use; the type parameter is what a passing value is read as. */
export type SchemaCheck<T> = () => ValidateFunction<T>;

export interface CheckDefinition {
  schema: object;
  options: CheckOptions;
}

/** Every check defined so far, by name: what the build step precompiles. */
const DEFINED = new Map<string, CheckDefinition>();

/** Written by the build beside this module (dist/); absent under src/. */
const PRECOMPILED_DIRECTORY = new URL('./precompiled-checks/', import.meta.url);

const require = createRequire(import.meta.url);
const ajvPackage = lazyRequire<typeof import('ajv')>('ajv');
const ajvVersion = lazy(() => (require('ajv/package.json') as { version: string }).version);

/**
 * The check for `schema`, named `name` (kebab-case, unique: its precompiled file's name). Nothing is loaded
 * or compiled until a value is first checked: importing a reader neither loads ajv nor compiles a schema.
 */
export function defineSchemaCheck<T>(name: string, schema: object, options: CheckOptions = {}): SchemaCheck<T> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) || DEFINED.has(name))
    throw new DocbenchError(
      'INTERNAL',
      `schema check name ${JSON.stringify(name)} is not kebab-case or is defined twice`,
    );
  // As plain JSON: a builder's own marks (TypeBox's symbol keys) would otherwise show in verbose errors of the
  // schema compiled at run time but not in the precompiled code's.
  const definition = { schema: JSON.parse(JSON.stringify(schema)) as object, options };
  DEFINED.set(name, definition);
  return lazy(() => loadPrecompiledCheck<T>(name, definition) ?? compileCheck<T>(definition));
}

/** The schema compiled now, by ajv, as without a build. Exported for the tests that compare both ways. */
export function compileCheck<T>(definition: CheckDefinition): ValidateFunction<T> {
  return createAjv(definition.options).compile<T>(definition.schema);
}

/** Every check defined so far (by the modules imported), by name: for the tests. */
export function listDefinedChecks(): ReadonlyMap<string, CheckDefinition> {
  return DEFINED;
}

function createAjv(options: CheckOptions, extra: Options = {}): Ajv {
  return new (ajvPackage().Ajv)({ ...options, strict: false, ...extra });
}

/** What the generated code depends on: a change to any of it makes a precompiled check stale. */
export function hashCheckDefinition(definition: CheckDefinition): string {
  const basis = JSON.stringify({ ajv: ajvVersion(), options: definition.options, schema: definition.schema });
  return createHash('sha256').update(basis, 'utf8').digest('hex');
}

/** The precompiled file of check `name`, under `directory` (the build's by default). */
export function precompiledCheckFile(name: string, directory: URL = PRECOMPILED_DIRECTORY): string {
  return fileURLToPath(new URL(`${name}.cjs`, directory));
}

/** The build's code for the check when it exists and was generated from `definition`; else undefined. */
export function loadPrecompiledCheck<T>(
  name: string,
  definition: CheckDefinition,
  directory: URL = PRECOMPILED_DIRECTORY,
): ValidateFunction<T> | undefined {
  const file = precompiledCheckFile(name, directory);
  if (!existsSync(file)) return undefined;
  const check = require(file) as ValidateFunction<T> & { sha256?: unknown };
  if (typeof check !== 'function')
    throw new DocbenchError('INTERNAL', `${file} is not a precompiled schema check`, {
      hint: 'rebuild docbench (npm run build)',
    });
  return check.sha256 === hashCheckDefinition(definition) ? check : undefined;
}

/**
 * The build step (scripts/precompile-checks.mjs, after tsc, once the modules defining checks are imported):
 * every defined check as ajv standalone code (CommonJS, requiring only ajv's small runtime helpers), one file
 * per check, with the hash of its definition. Returns the files written.
 */
export async function writePrecompiledChecks(directory: URL = PRECOMPILED_DIRECTORY): Promise<string[]> {
  const { default: standaloneCode } = require('ajv/dist/standalone') as typeof import('ajv/dist/standalone/index.js');
  await mkdir(directory, { recursive: true });
  const files: string[] = [];
  for (const [name, definition] of [...DEFINED].sort(([a], [b]) => a.localeCompare(b))) {
    const ajv = createAjv(definition.options, { code: { source: true } });
    const code = standaloneCode(ajv, ajv.compile(definition.schema));
    const file = precompiledCheckFile(name, directory);
    await writeFile(
      file,
      `// Written by npm run build (scripts/precompile-checks.mjs) from src/: do not edit.\n${code}\nmodule.exports.sha256 = ${JSON.stringify(hashCheckDefinition(definition))};\n`,
    );
    files.push(file);
  }
  return files;
}
