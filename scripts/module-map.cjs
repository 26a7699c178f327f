// @ts-check
/**
 * CONTRIBUTING.md's module map as data: each folder of src/ (or top-level module) and what it may import, and the
 * workspace packages (packages/*) with the packages each may import.
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

/**
 * The workspace packages by name, with the packages each may import. A package imports nothing of src/, and
 * src/ reaches a package only through its main entry, where the map below lists it.
 */
const PACKAGES = {
  '@docbench/pdf': { folder: 'packages/pdf', mayImport: [] },
  '@docbench/local-engine': { folder: 'packages/local-engine', mayImport: ['@docbench/pdf'] },
};
const LOCAL_ENGINE = '@docbench/local-engine';
const PDF = '@docbench/pdf';

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
  dataset: ['checks', types('service'), lazily(PDF)],
  systems: ['service', 'dataset', 'settings-reader.ts', 'run-settings.ts', lazily(LOCAL_ENGINE), lazily(PDF)],
  run: ['service', 'dataset', 'systems', 'run-dir', 'config.ts', lazily(LOCAL_ENGINE)],
  'run-dir': [types('service'), types('systems'), types('score')],
  score: [types('service')],
  evaluate: ['score', 'checks', 'dataset', 'run', 'run-dir', types('service')],
  gate: ['run-dir', 'score', 'checks', 'render', 'settings-reader.ts'],
  report: ['run-dir', 'render', types('service')],
  render: [],
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
    lazily(PDF),
    types('service'),
  ],
};

module.exports = { BASE, MODULE_MAP, PACKAGES, EVERYTHING };
