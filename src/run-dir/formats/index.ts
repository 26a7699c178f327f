/**
 * Every run-file format, for the build step that precompiles their checks (scripts/precompile-checks.mjs)
 * and the tests. The readers import the one they need on first use, not this.
 */
export * from './results.js';
export * from './manifest.js';
export * from './summary.js';
export * from './documents.js';
export * from './blocks.js';
export * from './gate.js';
