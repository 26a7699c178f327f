/**
 * schema.json checks: valid JSON Schema (ajv), and only what the interface supports (§4.2 rule 3: nested
 * objects, arrays, required, string, integer, number) plus the documented extras boolean, enum and
 * `format: "date"`. A keyword outside that set is an error: the service would silently ignore it, and truth
 * written against it could never be matched.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../types.js';
import { lazyRequire } from '../lazy.js';
import { defineSchemaCheck } from '../schema-check.js';

// Loaded by the first schema compiled, not with the dataset module (CONTRIBUTING.md, Habits).
const ajvPackage = lazyRequire<typeof import('ajv')>('ajv');
const ajv2019Package = lazyRequire<typeof import('ajv/dist/2019.js')>('ajv/dist/2019.js');
const ajv2020Package = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
// ajv-formats is CommonJS: required, it is module.exports, whose `.default` is the plugin.
const ajvFormatsPackage = lazyRequire<typeof import('ajv-formats')['default']>('ajv-formats');

/**
 * Draft-07's meta-schema (the dialect of schema.json without `$schema`, nearly every dataset's) as a fixed check,
 * precompiled by the build like docbench's own formats: checking schema.json against it then loads none of
 * ajv's compiler, which with the meta-schema's compilation was ~0.1 s of every run's start (docs/performance.md,
 * "Runner"). Without its `$id`, which names ajv's own copy: its `#` references resolve inside it all the same.
 * Same options as compileSchema's instance below, so the same errors; its formats (`regex`, `uri`) unchecked, as ajv
 * leaves them when it checks a schema itself (no format is defined on that instance).
 */
const { $id: _draft07Id, ...DRAFT_07_META_SCHEMA } = JSON.parse(
  // Read as data (4 KB), not required: requiring it would count as loading ajv with the dataset module.
  readFileSync(createRequire(import.meta.url).resolve('ajv/dist/refs/json-schema-draft-07.json'), 'utf8'),
) as Record<string, unknown>;
const checkDraft07Schema = defineSchemaCheck('json-schema-draft-07', DRAFT_07_META_SCHEMA, {
  allErrors: true,
  validateFormats: false,
});

const SUPPORTED_TYPES = ['object', 'array', 'string', 'integer', 'number', 'boolean'];
/** Keywords that change what is extracted. */
const STRUCTURAL_KEYWORDS = ['type', 'properties', 'required', 'items', 'enum', 'format'];
/** Keywords that only annotate (descriptions are what label matching reads). */
const ANNOTATION_KEYWORDS = ['description', 'title', '$schema', '$id', '$comment', 'examples', 'default'];
const SUPPORTED_FORMATS = ['date'];

/** One problem found in schema.json, with a JSON pointer to the offending node. */
export interface SchemaIssue {
  severity: 'error' | 'warning';
  pointer: string;
  message: string;
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Walks the schema and reports every use of something outside the supported subset. */
export function checkSchemaSubset(schema: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (!isPlainObject(schema)) return [{ severity: 'error', pointer: '#', message: 'the schema must be a JSON object' }];
  if (schema.type !== 'object')
    issues.push({ severity: 'error', pointer: '#', message: 'the root schema must have "type": "object"' });
  visit(schema, '#', issues);
  return issues;
}

function visit(node: Record<string, unknown>, pointer: string, issues: SchemaIssue[]): void {
  const error = (message: string, at = pointer) => issues.push({ severity: 'error', pointer: at, message });
  for (const keyword of Object.keys(node)) {
    if (STRUCTURAL_KEYWORDS.includes(keyword) || ANNOTATION_KEYWORDS.includes(keyword)) continue;
    if (keyword === 'additionalProperties') {
      issues.push({
        severity: 'warning',
        pointer,
        message: '"additionalProperties" is not part of the interface; the service may ignore it',
      });
      continue;
    }
    error(`uses unsupported keyword "${keyword}" (supported: ${[...STRUCTURAL_KEYWORDS].join(', ')} and annotations)`);
  }
  const type = node.type;
  if (typeof type !== 'string') {
    error(Array.isArray(type) ? '"type" must be a single type name, not a list' : 'every schema node needs a "type"');
    return;
  }
  if (!SUPPORTED_TYPES.includes(type)) {
    error(`type "${type}" is not supported (supported: ${SUPPORTED_TYPES.join(', ')})`);
    return;
  }
  if (node.format !== undefined) {
    if (type !== 'string') error('"format" is only supported on strings');
    else if (typeof node.format !== 'string' || !SUPPORTED_FORMATS.includes(node.format))
      error(`format "${String(node.format)}" is not supported (supported: date)`);
  }
  if (node.enum !== undefined && Array.isArray(node.enum)) {
    const wrong = node.enum.filter((value) => !matchesType(value, type));
    if (wrong.length > 0) error(`enum values ${JSON.stringify(wrong)} are not of type "${type}"`);
  }
  if (type === 'object') {
    const properties = node.properties;
    if (properties !== undefined && !isPlainObject(properties)) error('"properties" must be an object');
    const declared = isPlainObject(properties) ? properties : {};
    for (const [name, child] of Object.entries(declared)) {
      const at = `${pointer}/properties/${escapePointer(name)}`;
      if (isPlainObject(child)) visit(child, at, issues);
      else error('a property schema must be an object', at);
    }
    if (Array.isArray(node.required)) {
      for (const name of node.required) {
        if (typeof name === 'string' && !(name in declared))
          error(`"required" names "${name}", which is not in "properties"`);
      }
    }
  } else if (node.properties !== undefined || node.required !== undefined) {
    error(`"properties"/"required" only apply to objects, not "${type}"`);
  }
  if (type === 'array') {
    if (!isPlainObject(node.items)) error('an array needs an "items" schema (one object schema, not a list)');
    else visit(node.items, `${pointer}/items`, issues);
  } else if (node.items !== undefined) {
    error(`"items" only applies to arrays, not "${type}"`);
  }
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return false;
  }
}

/** A compiled schema validator, or the reasons the schema is not valid JSON Schema. */
export type CompiledSchema = { ok: true; validate: (value: unknown) => string[] } | { ok: false; errors: string[] };

/** Why `schema` is not valid JSON Schema of its dialect (`$schema`); none when it is. */
export function checkJsonSchema(schema: JsonSchema): string[] {
  if (isDraft07(schema.$schema)) {
    const check = checkDraft07Schema();
    return check(schema) ? [] : formatAjvErrors(check.errors);
  }
  const ajv = createAjvFor(schema.$schema);
  if (!ajv) return [unsupportedDialect(schema.$schema)];
  return ajv.validateSchema(schema) ? [] : formatAjvErrors(ajv.errors);
}

/**
 * Compiles `schema` with ajv (all errors, `format: date` checked); failures are reported, never thrown. Checks
 * it against its meta-schema first, as checkJsonSchema does.
 */
export function compileSchema(schema: JsonSchema): CompiledSchema {
  let validate: ValidateFunction;
  try {
    // An unknown dialect is refused here too.
    const invalid = checkJsonSchema(schema);
    if (invalid.length > 0) return { ok: false, errors: invalid };
    // Checked above, by the precompiled meta-schema where it can be: not again by the instance compiling it.
    const ajv = createAjvFor(schema.$schema, { validateSchema: false })!;
    ajvFormatsPackage().default(ajv, ['date']);
    validate = ajv.compile(schema);
  } catch (error) {
    return { ok: false, errors: [error instanceof Error ? error.message : String(error)] };
  }
  return { ok: true, validate: (value) => (validate(value) ? [] : formatAjvErrors(validate.errors)) };
}

function isDraft07(dialect: unknown): boolean {
  return (
    dialect === undefined || (typeof dialect === 'string' && /json-schema\.org\/draft-07\/schema#?$/.test(dialect))
  );
}

function unsupportedDialect(dialect: unknown): string {
  return `"$schema": ${JSON.stringify(dialect)} is not supported (use draft-07, 2019-09 or 2020-12, or leave it out)`;
}

/** The ajv class for the dialect `$schema` names; draft-07 (ajv's default) when absent. */
function createAjvFor(dialect: unknown, extra: { validateSchema?: boolean } = {}): Ajv | undefined {
  const options = { allErrors: true, strict: false, ...extra };
  if (isDraft07(dialect)) return new (ajvPackage().Ajv)(options);
  if (typeof dialect === 'string' && /json-schema\.org\/draft\/2020-12\/schema$/.test(dialect))
    return new (ajv2020Package().Ajv2020)(options);
  if (typeof dialect === 'string' && /json-schema\.org\/draft\/2019-09\/schema$/.test(dialect))
    return new (ajv2019Package().Ajv2019)(options);
  return undefined;
}

/** `/patient/dob: must match format "date"` — the instance path first, so the user can find the field. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const where = error.instancePath || '/';
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ("${String((error.params as { additionalProperty?: string }).additionalProperty)}")`
        : '';
    return `${where}: ${error.message ?? error.keyword}${extra}`;
  });
}
