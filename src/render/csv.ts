/**
 * CSV text through csv-stringify (quoting, embedded newlines), for every CSV docbench writes: the report's
 * documents.csv, fields.csv and tags.csv, history.csv.
 */
import type { Input, Options } from 'csv-stringify/sync';
import { lazyRequire } from '../lazy.js';

// Loaded by the first CSV written, not with the modules that write one (CONTRIBUTING.md, Habits).
const csvStringifyPackage = lazyRequire<typeof import('csv-stringify/sync')>('csv-stringify/sync');

/** Loads csv-stringify now rather than with the first CSV written (`docbench run` does it during its calls). */
export function preloadCsv(): void {
  csvStringifyPackage();
}

/** `records` as CSV text, per csv-stringify's `options`. */
export function stringifyCsv(records: Input, options?: Options): string {
  return csvStringifyPackage().stringify(records, options);
}
