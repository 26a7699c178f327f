/**
 * The runner: plan → calls (p-limit, rate cap, retries, cache) → results.jsonl and run.json through
 * src/run-dir/; also merging shards and the progress display. Commands reach run/ only through here.
 */
export { runBenchmark } from './run-benchmark.js';
export type { RunBenchmarkOptions, RunBenchmarkResult } from './run-benchmark.js';
export { mergeRuns } from './merge.js';
export { createProgress } from './progress.js';
export { parseFilter, parseShard, planCalls, selectDocuments } from './plan.js';
export type { PlannedCall } from './plan.js';
export type { RunEvent, RunCounts } from './events.js';
