/**
 * dataset.json: the optional manifest. Parsed and checked here (shape with ajv, comparators by hand for
 * messages that name the field path); turned into documents by discover.ts.
 */
import { ENDPOINTS, MODES, type ComparatorSpec, type DateLocale, type Endpoint, type Mode } from '../types.js';
import { COMPARATOR_TYPES, isComparatorType } from './format.js';
import { formatAjvErrors } from './schema-subset.js';
import { defineSchemaCheck } from '../schema-check.js';

/** One entry of dataset.json `documents`: either `file` (relative to the dataset) or `fileUrl`. */
export interface ManifestDocument {
  /** Defaults to the file name without extension. */
  id?: string;
  file?: string;
  fileUrl?: string;
  tags?: Record<string, string>;
  customContext?: string;
  modes?: Mode[];
  endpoints?: Endpoint[];
}

/** dataset.json as written by the user (every field optional). */
export interface DatasetManifest {
  name?: string;
  version?: string;
  description?: string;
  /** @default "US" */
  locale?: DateLocale;
  defaults?: { customContext?: string; modes?: Mode[]; endpoints?: Endpoint[] };
  comparators?: Record<string, unknown>;
  /** Plain truth markdown scored by block as well (docs/metrics.md, "Blocks"). @default false */
  markdownBlocks?: boolean;
  documents?: ManifestDocument[];
  /** Written by `docbench dataset generate`: how to reproduce the files. */
  generator?: { name?: string; seed: number; count: number };
}

const modesSchema = { type: 'array', items: { enum: [...MODES] }, minItems: 1, uniqueItems: true };
const endpointsSchema = { type: 'array', items: { enum: [...ENDPOINTS] }, minItems: 1, uniqueItems: true };

const MANIFEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1 },
    version: { type: 'string' },
    description: { type: 'string' },
    locale: { enum: ['US', 'EU'] },
    defaults: {
      type: 'object',
      additionalProperties: false,
      properties: { customContext: { type: 'string' }, modes: modesSchema, endpoints: endpointsSchema },
    },
    comparators: { type: 'object' },
    markdownBlocks: { type: 'boolean' },
    documents: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          id: { type: 'string', minLength: 1 },
          file: { type: 'string', minLength: 1 },
          fileUrl: { type: 'string', minLength: 1 },
          tags: { type: 'object', additionalProperties: { type: 'string' } },
          customContext: { type: 'string' },
          modes: modesSchema,
          endpoints: endpointsSchema,
        },
      },
    },
    generator: {
      type: 'object',
      required: ['seed', 'count'],
      properties: { name: { type: 'string' }, seed: { type: 'integer' }, count: { type: 'integer', minimum: 1 } },
    },
  },
} as const;

// Loaded (precompiled by the build) or compiled on the first check, not when the module loads (CONTRIBUTING.md, Habits).
const compileManifestValidator = defineSchemaCheck('dataset-manifest', MANIFEST_SCHEMA, { allErrors: true });

/** Problems found in dataset.json; `path` is a JSON pointer or a comparator key. */
export interface ManifestIssue {
  severity: 'error' | 'warning';
  message: string;
}

/** Checks the parsed manifest. Unknown keys are warnings (ignored); everything else wrong is an error. */
export function checkManifest(value: unknown): { manifest?: DatasetManifest; issues: ManifestIssue[] } {
  const issues: ManifestIssue[] = [];
  const validateManifestShape = compileManifestValidator();
  if (!validateManifestShape(value)) {
    for (const error of validateManifestShape.errors ?? []) {
      const message = formatAjvErrors([error])[0] ?? 'invalid';
      const unknownKey = error.keyword === 'additionalProperties';
      issues.push({
        severity: unknownKey ? 'warning' : 'error',
        message: unknownKey ? `${message} is not a known key and is ignored` : message,
      });
    }
    if (issues.some((issue) => issue.severity === 'error')) return { issues };
  }
  const manifest = value as DatasetManifest;
  for (const [index, document] of (manifest.documents ?? []).entries()) {
    const count = Number(document.file !== undefined) + Number(document.fileUrl !== undefined);
    if (count !== 1)
      issues.push({ severity: 'error', message: `/documents/${index}: give exactly one of "file" or "fileUrl"` });
    if (document.fileUrl !== undefined && !isHttpUrl(document.fileUrl)) {
      issues.push({
        severity: 'error',
        message: `/documents/${index}/fileUrl: "${document.fileUrl}" is not an http(s) URL`,
      });
    }
    if (document.fileUrl !== undefined && document.id === undefined) {
      issues.push({ severity: 'error', message: `/documents/${index}: a document given by "fileUrl" needs an "id"` });
    }
  }
  return { manifest, issues };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Reads `comparators`: each value is a comparator type name or a spec object. Errors name the field path,
 * e.g. `comparators["codes[].cpt"]: unknown comparator type "cod"`.
 */
export function parseComparators(raw: Record<string, unknown> | undefined): {
  comparators: Record<string, ComparatorSpec>;
  issues: ManifestIssue[];
} {
  const comparators: Record<string, ComparatorSpec> = {};
  const issues: ManifestIssue[] = [];
  const known = COMPARATOR_TYPES.join(', ');
  for (const [fieldPath, value] of Object.entries(raw ?? {})) {
    const at = `comparators["${fieldPath}"]`;
    if (typeof value === 'string') {
      if (isComparatorType(value)) comparators[fieldPath] = { type: value };
      else issues.push({ severity: 'error', message: `${at}: unknown comparator type "${value}" (known: ${known})` });
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      issues.push({ severity: 'error', message: `${at}: must be a comparator type name or an object with "type"` });
      continue;
    }
    const spec = value as Record<string, unknown>;
    const before = issues.length;
    if (!isComparatorType(spec.type))
      issues.push({
        severity: 'error',
        message: `${at}: unknown comparator type ${JSON.stringify(spec.type)} (known: ${known})`,
      });
    if (
      spec.tolerance !== undefined &&
      (typeof spec.tolerance !== 'number' || !(spec.tolerance >= 0) || !Number.isFinite(spec.tolerance))
    ) {
      issues.push({ severity: 'error', message: `${at}.tolerance: must be a finite number ≥ 0` });
    }
    for (const flag of ['ignoreDots', 'caseSensitive'] as const) {
      if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean')
        issues.push({ severity: 'error', message: `${at}.${flag}: must be true or false` });
    }
    for (const key of Object.keys(spec)) {
      if (!['type', 'tolerance', 'ignoreDots', 'caseSensitive'].includes(key))
        issues.push({ severity: 'warning', message: `${at}.${key}: not a known option and is ignored` });
    }
    if (issues.length === before || issues.slice(before).every((issue) => issue.severity === 'warning')) {
      const result: ComparatorSpec = { type: spec.type as ComparatorSpec['type'] };
      if (typeof spec.tolerance === 'number') result.tolerance = spec.tolerance;
      if (typeof spec.ignoreDots === 'boolean') result.ignoreDots = spec.ignoreDots;
      if (typeof spec.caseSensitive === 'boolean') result.caseSensitive = spec.caseSensitive;
      comparators[fieldPath] = result;
    }
  }
  return { comparators, issues };
}

/**
 * Every field path the schema declares, indices collapsed: `patient.name`, `codes[].cpt`, and for arrays of
 * scalars `diagnosis_codes[]`. Used to warn about comparators keyed by a path the schema does not have.
 */
export function listSchemaFieldPaths(schema: unknown, prefix = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const paths: string[] = [];
  if (node.type === 'object' && typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) {
      const here = prefix ? `${prefix}.${name}` : name;
      paths.push(here, ...listSchemaFieldPaths(child, here));
    }
  } else if (node.type === 'array') {
    paths.push(`${prefix}[]`, ...listSchemaFieldPaths(node.items, `${prefix}[]`));
  }
  return paths;
}
