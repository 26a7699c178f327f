/**
 * Table fidelity of one document (docs/metrics/markdown.md): its truth tables paired one-to-one with its predicted
 * tables, TEDS and TEDS-S per pair, mean over the truth tables. Higher is better.
 */
import { checkOptionalUnit } from '../shared/check-metric.js';
import { assignMinimum } from '../shared/assign.js';
import { findTables } from './find-tables.js';
import { computeTeds } from './teds.js';
import { countTableNodes, type TableTree } from './table-tree.js';

/** The score of one truth table. */
export interface TablePairScore {
  /** Index among the truth tables of the document, in document order. */
  truthIndex: number;
  /** Index of the predicted table paired with it; `null` when none was (then both scores are 0). */
  predictedIndex: number | null;
  teds: number;
  tedsStructure: number;
  truthNodes: number;
  predictedNodes: number | null;
}

/** {@link scoreTables}. */
export interface TablesScore {
  /** Mean TEDS over the truth tables (unmatched ones count 0); `null` when the truth has no table. */
  teds: number | null;
  /** Mean TEDS-S over the truth tables, same pairing; `null` when the truth has no table. */
  tedsStructure: number | null;
  truthTables: number;
  predictedTables: number;
  /** Predicted tables paired with no truth table (invented, or split from one truth table). */
  extraPredicted: number;
  /** One entry per truth table, in truth order. */
  tables: TablePairScore[];
}

/**
 * Scores the tables of `prediction` against those of `truth`. Each may be a markdown document (pipe and
 * HTML tables are found in it) or tables already parsed; `null` is a failed call (no table).
 *
 * Pairing: Hungarian assignment maximising total TEDS over all truth × predicted pairs, so a table the
 * service moved (or split off a page differently) is still found; TEDS-S reuses the same pairs, so the two
 * figures describe the same tables.
 */
export function scoreTables(
  prediction: string | readonly TableTree[] | null,
  truth: string | readonly TableTree[],
): TablesScore {
  const predictedTables =
    prediction === null ? [] : typeof prediction === 'string' ? findTables(prediction) : prediction;
  const truthTables = typeof truth === 'string' ? findTables(truth) : truth;

  const full = truthTables.map((t) => predictedTables.map((p) => computeTeds(p, t).teds));
  const pairs = assignMinimum(full.map((row) => row.map((teds) => 1 - teds)));
  const pairedWith = new Map(pairs.map(([truthIndex, predictedIndex]) => [truthIndex, predictedIndex]));

  const tables: TablePairScore[] = truthTables.map((table, truthIndex) => {
    const predictedIndex = pairedWith.get(truthIndex);
    const truthNodes = countTableNodes(table);
    if (predictedIndex === undefined) {
      return { truthIndex, predictedIndex: null, teds: 0, tedsStructure: 0, truthNodes, predictedNodes: null };
    }
    const predicted = predictedTables[predictedIndex]!;
    return {
      truthIndex,
      predictedIndex,
      teds: full[truthIndex]![predictedIndex]!,
      tedsStructure: computeTeds(predicted, table, { structureOnly: true }).teds,
      truthNodes,
      predictedNodes: countTableNodes(predicted),
    };
  });

  return {
    teds: checkOptionalUnit('TEDS (document mean)', meanOrNull(tables.map((t) => t.teds))),
    tedsStructure: checkOptionalUnit('TEDS-S (document mean)', meanOrNull(tables.map((t) => t.tedsStructure))),
    truthTables: truthTables.length,
    predictedTables: predictedTables.length,
    extraPredicted: predictedTables.length - pairs.length,
    tables,
  };
}

/** {@link aggregateTables}: means over every truth table of every document. */
export interface TablesAggregate {
  teds: number | null;
  tedsStructure: number | null;
  truthTables: number;
  predictedTables: number;
  extraPredicted: number;
  /** Documents whose truth has at least one table. */
  documentsWithTables: number;
}

/** Pools per-document table scores: each truth table weighs the same, whichever document it is in. */
export function aggregateTables(scores: readonly TablesScore[]): TablesAggregate {
  const all = scores.flatMap((s) => s.tables);
  return {
    teds: checkOptionalUnit('TEDS (mean over tables)', meanOrNull(all.map((t) => t.teds))),
    tedsStructure: checkOptionalUnit('TEDS-S (mean over tables)', meanOrNull(all.map((t) => t.tedsStructure))),
    truthTables: all.length,
    predictedTables: scores.reduce((n, s) => n + s.predictedTables, 0),
    extraPredicted: scores.reduce((n, s) => n + s.extraPredicted, 0),
    documentsWithTables: scores.filter((s) => s.truthTables > 0).length,
  };
}

/** Mean of `values`; `null` when there are none (the truth has no table). */
function meanOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}
