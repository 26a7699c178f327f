/**
 * TEDS, tree-edit-distance-based similarity of two tables (Zhong et al., PubTabNet 2020; docs/metrics/markdown.md):
 * TEDS = 1 − TED(pred, truth) / max(|pred|, |truth|). Insert and delete cost 1; renaming costs 1 when the
 * tags or the spans differ, and between two cells the character NED of their texts (TEDS) or 0 (TEDS-S,
 * structure only). Higher is better.
 */
import { checkUnit } from '../shared/check-metric.js';
import { levenshteinCodePoints } from '../shared/code-point-levenshtein.js';
import { countTableNodes, type TableTree } from './table-tree.js';
import { computeTreeEditDistance, type OrderedTree, type TreeEditCosts } from './tree-edit-distance.js';

/** A node label; `text` is the index of the cell's text among the distinct texts of its table. */
type TableLabel = { tag: 'table' } | { tag: 'tr' } | { tag: 'td'; rowspan: number; colspan: number; text: number };

/** Options of {@link computeTeds}. */
export interface TedsOptions {
  /** TEDS-S: ignore cell contents, compare structure (tags and spans) only. @default false */
  structureOnly?: boolean;
}

/** {@link computeTeds}. */
export interface TedsResult {
  /** In [0, 1]; higher is better. */
  teds: number;
  /** The tree edit distance. */
  distance: number;
  /** max(predictedNodes, truthNodes): the denominator. */
  nodes: number;
  predictedNodes: number;
  truthNodes: number;
}

/** The table as an ordered tree, its cell texts interned (each distinct text once) in `texts`. */
function toOrderedTree(table: TableTree, texts: string[]): OrderedTree<TableLabel> {
  const index = new Map<string, number>();
  const intern = (text: string): number => {
    let id = index.get(text);
    if (id === undefined) {
      id = texts.push(text) - 1;
      index.set(text, id);
    }
    return id;
  };
  return {
    label: { tag: 'table' },
    children: table.rows.map((row) => ({
      label: { tag: 'tr' },
      children: row.map((cell) => ({
        label: { tag: 'td', rowspan: cell.rowspan, colspan: cell.colspan, text: intern(cell.text) },
        children: [],
      })),
    })),
  };
}

/**
 * PubTabNet's rename cost. Zhang–Shasha asks for the rename cost of every cell pair (|cells|² calls), so the
 * character NED is memoised per pair of distinct texts: tables repeat texts (empty cells, units, "0.00").
 */
function buildCosts(
  predictedTexts: readonly string[],
  truthTexts: readonly string[],
  structureOnly: boolean,
): TreeEditCosts<TableLabel> {
  const memo = new Float64Array(predictedTexts.length * truthTexts.length).fill(-1);
  const textDistance = (p: number, t: number): number => {
    const slot = p * truthTexts.length + t;
    let value = memo[slot]!;
    if (value < 0) {
      value = cellTextDistance(predictedTexts[p]!, truthTexts[t]!);
      memo[slot] = value;
    }
    return value;
  };
  return {
    insert: () => 1,
    remove: () => 1,
    rename: (from, to) => {
      if (from.tag !== to.tag) return 1;
      if (from.tag !== 'td' || to.tag !== 'td') return 0;
      if (from.rowspan !== to.rowspan || from.colspan !== to.colspan) return 1;
      return structureOnly ? 0 : textDistance(from.text, to.text);
    },
  };
}

/** Character NED of two cell texts, in code points; 0 when both are empty. */
function cellTextDistance(a: string, b: string): number {
  if (a === b) return 0;
  const { distance, lengthA, lengthB } = levenshteinCodePoints(a, b);
  return distance / Math.max(lengthA, lengthB);
}

/**
 * TEDS of one predicted table against one truth table. Nodes are counted without the table root (see
 * countTableNodes). TED can exceed that count when the structures disagree (one row of four colspan-2
 * cells against four rows of one plain cell: TED 9, max nodes 8), so the score is clamped at 0; two tables
 * without any row score 1.
 */
export function computeTeds(predicted: TableTree, truth: TableTree, options: TedsOptions = {}): TedsResult {
  const predictedNodes = countTableNodes(predicted);
  const truthNodes = countTableNodes(truth);
  const nodes = Math.max(predictedNodes, truthNodes);
  if (sameTable(predicted, truth, options.structureOnly ?? false)) {
    return { teds: 1, distance: 0, nodes, predictedNodes, truthNodes };
  }
  const predictedTexts: string[] = [];
  const truthTexts: string[] = [];
  const predictedTree = toOrderedTree(predicted, predictedTexts);
  const truthTree = toOrderedTree(truth, truthTexts);
  const distance = computeTreeEditDistance(
    predictedTree,
    truthTree,
    buildCosts(predictedTexts, truthTexts, options.structureOnly ?? false),
  );
  const teds = nodes === 0 ? 1 : Math.max(0, 1 - distance / nodes);
  return {
    teds: checkUnit(options.structureOnly ? 'TEDS-S' : 'TEDS', teds),
    distance,
    nodes,
    predictedNodes,
    truthNodes,
  };
}

/** Equal rows, spans (and texts, unless structure only): TED is 0 without running Zhang–Shasha. */
function sameTable(a: TableTree, b: TableTree, structureOnly: boolean): boolean {
  if (a.rows.length !== b.rows.length) return false;
  return a.rows.every((row, r) => {
    const other = b.rows[r]!;
    return (
      row.length === other.length &&
      row.every((cell, c) => {
        const o = other[c]!;
        return cell.rowspan === o.rowspan && cell.colspan === o.colspan && (structureOnly || cell.text === o.text);
      })
    );
  });
}
