/** The dataset module: the on-disk format, its validation, readers for truth and baseline, and the sample generator. */
export { DEFAULT_MAX_FILE_BYTES, SUPPORTED_EXTENSIONS } from './format.js';
export { validateDataset, loadDataset } from './validate.js';
export type { DatasetProblem, DatasetValidation, ValidateDatasetOptions, LoadDatasetOptions } from './validate.js';
export { readTruthJson, readBaselineJson, readMarkdownPages, readRegionPages, splitMarkdownPages, readUtf8File } from './read.js';
export { computeContentHash } from './content-hash.js';
export { initDataset } from './init.js';
export { generateSampleDataset, SAMPLE_DEFAULT_COUNT, SAMPLE_DEFAULT_SEED } from './generate/index.js';
export type { GenerateSampleOptions } from './generate/index.js';
