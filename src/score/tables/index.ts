/** Table fidelity: tables found in markdown (pipe and HTML), TEDS / TEDS-S, pairing within a document. */
export { scoreTables, aggregateTables } from './score-tables.js';
export type { TablesScore, TablePairScore, TablesAggregate } from './score-tables.js';
export { computeTeds } from './teds.js';
export type { TedsOptions, TedsResult } from './teds.js';
export { findTables } from './find-tables.js';
export { countTableNodes } from './table-tree.js';
export type { TableTree, TableCell } from './table-tree.js';
export { computeTreeEditDistance } from './tree-edit-distance.js';
export type { OrderedTree, TreeEditCosts } from './tree-edit-distance.js';
