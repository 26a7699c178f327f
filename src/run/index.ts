/**
 * The runner: plan → calls (p-limit, rate cap, retries, cache) → results.jsonl and run.json through
 * src/run-dir/; also merging shards and the progress display. Commands reach run/ only through here.
 */
export { runBenchmark } from './run-benchmark.js';
export type { RunBenchmarkOptions, RunBenchmarkResult } from './run-benchmark.js';
export { mergeRuns } from './merge.js';
export { createProgress } from './progress.js';
export { parseFilter, parseShard, planCalls, selectDocuments } from './plan.js';
export type { PlannedCall, Selection } from './plan.js';
/** What a run would call and cost (`docbench plan`, the estimate `run` prints). */
export { planBenchmark } from './plan-benchmark.js';
export type { PlanBenchmarkOptions, PlanResult } from './plan-benchmark.js';
export { formatEstimateLine, formatUsd } from './estimate.js';
export type { SystemEstimate } from './estimate.js';
export type { RunEvent, RunCounts } from './events.js';
