// @ts-check
/**
 * CONTRIBUTING.md's module map as data: each folder of src/ (or top-level module) and what it may import.
 * .dependency-cruiser.cjs turns it into the boundary rules `npm run lint` checks, and
 * test/boundaries/boundaries.test.ts checks that CONTRIBUTING.md's table says the same.
 */

/** Top-level modules every folder may import: they import nothing but each other. */
const BASE = [
  'errors.ts',
  'logger.ts',
  'types.ts',
  'lazy.ts',
  'fs-utils.ts',
  'version.ts',
  'random.ts',
  'schema-check.ts',
  'git-commit.ts',
  'format-parts.ts',
  'endpoint-results.ts',
  'loopback.ts',
  'phases.ts',
];

/** Only `import type` (or imports of types alone) from this folder. */
const types = (name) => ({ name, only: 'types' });
/** Only `await import()` (or types) from this folder: a heavy one, loaded where it is used. */
const lazily = (name) => ({ name, only: 'lazily' });
const EVERYTHING = '*';

/** @type {Record<string, '*' | (string | { name: string; only: 'types' | 'lazily' })[]>} */
const MODULE_MAP = {
  'cli.ts': EVERYTHING,
  'index.ts': EVERYTHING,
  commands: EVERYTHING,
  'finalize.ts': ['evaluate', 'gate', 'report', 'run-dir'],
  'config.ts': ['service', 'systems', 'settings-reader.ts', 'run-settings.ts'],
  'settings-reader.ts': [],
  'run-settings.ts': [types('service'), 'settings-reader.ts'],
  service: [],
  checks: [],
  dataset: ['checks', types('service'), lazily('pdf')],
  systems: ['service', 'dataset', 'settings-reader.ts', 'run-settings.ts', lazily('local'), lazily('pdf')],
  run: ['service', 'dataset', 'systems', 'run-dir', 'config.ts', lazily('local')],
  'run-dir': [types('service'), types('systems'), types('score')],
  score: [types('service')],
  evaluate: ['score', 'checks', 'dataset', 'run', 'run-dir', types('service')],
  gate: ['run-dir', 'score', 'checks', 'render', 'settings-reader.ts'],
  report: ['run-dir', 'render', types('service')],
  render: [],
  local: ['pdf', types('service')],
  pdf: [types('service')],
  view: [
    'report',
    'gate',
    'run-dir',
    'render',
    'dataset',
    'score',
    'checks',
    'evaluate',
    'finalize.ts',
    lazily('pdf'),
    types('service'),
  ],
};

module.exports = { BASE, MODULE_MAP, EVERYTHING };
