/**
 * The on-disk layout of a dataset (datasets/README.md documents it for users). Every path a module builds
 * goes through these names, so the layout is defined once.
 */
import type { ComparatorType } from '../types.js';

/** Files larger than this are refused before any upload: the interface names no limit, 50 MB files are processed. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

export const MANIFEST_FILE = 'dataset.json';
export const SCHEMA_FILE = 'schema.json';
export const CONTEXT_FILE = 'context.txt';
export const DOCUMENTS_DIR = 'documents';
export const TRUTH_DIR = 'truth';
export const BASELINE_DIR = 'baseline';
/** Not part of the content hash: editing the prose must not change what runs record. */
export const README_FILE = 'README.md';

/** Document formats the interface accepts (§4.1), by the media type sniffed from the content. */
export const MEDIA_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};
export const SUPPORTED_EXTENSIONS = Object.keys(MEDIA_TYPE_BY_EXTENSION);

/** Ids become file names in truth/ and baseline/, and keys in results: letters, digits, `-`, `_`, `.`. */
export const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

export const COMPARATOR_TYPES: readonly ComparatorType[] = [
  'exact',
  'string',
  'number',
  'money',
  'date',
  'boolean',
  'code',
  'text',
];

export function isComparatorType(value: unknown): value is ComparatorType {
  return typeof value === 'string' && (COMPARATOR_TYPES as readonly string[]).includes(value);
}
