/** Scoring a stored run: summary.json and documents.jsonl from results.jsonl and the dataset's truth. */
export { evaluateRun, type EvaluateOptions } from './evaluate-run.js';
export { loadRunDataset } from './run-dataset.js';
export { startEarlyScoring, type EarlyScoring } from './early-scoring.js';
export type { RunSystems } from './run-systems.js';
