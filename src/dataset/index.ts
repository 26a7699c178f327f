/** The dataset module: the on-disk format, its validation, readers for truth and baseline, and the sample generator. */
import type * as GenerateModule from './generate/index.js';
import type * as ImportModule from './import/index.js';

export { DEFAULT_MAX_FILE_BYTES, SUPPORTED_EXTENSIONS } from './format.js';
export { validateDataset, loadDataset } from './validate.js';
export type { DatasetProblem, DatasetValidation, ValidateDatasetOptions, LoadDatasetOptions } from './validate.js';
export {
  readTruthJson,
  readBaselineJson,
  readMarkdownPages,
  readRegionPages,
  readTruthBlocks,
  splitMarkdownPages,
  readUtf8File,
} from './read.js';
export type { TruthBlockRecord } from './truth-blocks.js';
export { computeContentHash } from './content-hash.js';
export { CHECKS_FILE, readDatasetChecks, checkDocumentPath } from './checks-file.js';
/** Bounded look-ahead over a list, results in order (also scoring's, which reads each document's files ahead). */
export { mapAhead } from './map-ahead.js';
export { countDocumentPages } from './page-count.js';
export { initDataset } from './init.js';
export { importFormatNames } from './import/formats.js';
export type { ImportDatasetOptions, ImportSummary } from './import/index.js';
export { SAMPLE_DEFAULT_COUNT, SAMPLE_DEFAULT_SEED } from './generate/defaults.js';
export type { GenerateSampleOptions } from './generate/index.js';

/**
 * Writes the synthetic sample dataset (see generate/index.ts). The generator and its renderers (pdfkit,
 * canvas, sharp) load on the first call, so that importing the dataset module costs none of them.
 */
export async function generateSampleDataset(
  ...args: Parameters<typeof GenerateModule.generateSampleDataset>
): ReturnType<typeof GenerateModule.generateSampleDataset> {
  const { generateSampleDataset: generate } = await import('./generate/index.js');
  return generate(...args);
}

/** Imports a public dataset's layout as a docbench dataset (see import/index.ts); its readers load on the call. */
export async function importDataset(
  ...args: Parameters<typeof ImportModule.importDataset>
): ReturnType<typeof ImportModule.importDataset> {
  const { importDataset: run } = await import('./import/index.js');
  return run(...args);
}
