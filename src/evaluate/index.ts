/** Scoring a stored run: summary.json and documents.jsonl from results.jsonl and the dataset's truth. */
export { evaluateRun, type EvaluateOptions } from './evaluate-run.js';
export { SUMMARY_SCHEMA_VERSION } from './types.js';
export type * from './types.js';
export { loadRunDataset } from './run-dataset.js';
