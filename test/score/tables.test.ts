import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  aggregateTables,
  computeTeds,
  computeTreeEditDistance,
  countTableNodes,
  findTables,
  scoreTables,
  type OrderedTree,
  type TableCell,
  type TableTree,
} from '../../src/score/tables/index.js';

const cell = (text: string, spans: Partial<Pick<TableCell, 'rowspan' | 'colspan'>> = {}): TableCell => ({
  rowspan: spans.rowspan ?? 1,
  colspan: spans.colspan ?? 1,
  text,
});
const table = (rows: TableCell[][]): TableTree => ({ rows, source: 'html', offset: 0 });
const grid = (rows: string[][]): TableTree => table(rows.map((r) => r.map((t) => cell(t))));

describe('findTables: markdown pipe tables', () => {
  it('reads header and body rows, with or without outer pipes, and trims cells', () => {
    const [parsed, ...rest] = findTables(
      'Intro\n\n| Code | Units |\n|:-----|------:|\n| 99213 | 1 |\n85025 | 2\n\nAfter',
    );
    expect(rest).toEqual([]);
    expect(parsed!.source).toBe('markdown');
    expect(parsed!.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['Code', 'Units'],
      ['99213', '1'],
      ['85025', '2'],
    ]);
  });

  it('pads short rows with empty cells and drops cells beyond the header, as GFM renders them', () => {
    const [parsed] = findTables('| a | b |\n| - | - |\n| 1 |\n| 1 | 2 | 3 |');
    expect(parsed!.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['a', 'b'],
      ['1', ''],
      ['1', '2'],
    ]);
  });

  it('reads an escaped pipe as a literal pipe inside a cell', () => {
    const [parsed] = findTables('| a | b |\n|---|---|\n| x \\| y | z |');
    expect(parsed!.rows[1]!.map((c) => c.text)).toEqual(['x | y', 'z']);
  });

  it('drops markdown emphasis and reads inline HTML and entities in cells', () => {
    const [parsed] = findTables('| a | b |\n|---|---|\n| **Total** | 1<br>2 &amp; `3` |');
    expect(parsed!.rows[1]!.map((c) => c.text)).toEqual(['Total', '1 2 & 3']);
  });

  it('needs a delimiter row with as many cells as the header', () => {
    expect(findTables('| a | b |\n|---|\n| 1 | 2 |')).toEqual([]);
    expect(findTables('a | b\nno delimiter')).toEqual([]);
  });

  it('does not read a setext heading underline as a one-column table', () => {
    expect(findTables('| a |\n---')).toEqual([]);
    expect(findTables('| a |\n|---|')).toHaveLength(1);
    expect(findTables('a | b\n--- | ---')).toHaveLength(1);
  });

  it('ends a table at a blank line or the start of another block', () => {
    const tables = findTables('| a |\n|---|\n| 1 |\n# Heading\n| b |\n|---|\n| 2 |\n\n| c |');
    expect(tables.map((t) => t.rows.length)).toEqual([2, 2]);
  });

  it('skips tables inside fenced code blocks', () => {
    expect(findTables('```\n| a | b |\n|---|---|\n| 1 | 2 |\n```')).toEqual([]);
    expect(findTables('~~~md\n<table><tr><td>x</td></tr></table>\n~~~')).toEqual([]);
  });
});

describe('findTables: HTML tables', () => {
  it('unwraps thead / tbody / tfoot, reads th as td and keeps rowspan / colspan', () => {
    const [parsed] = findTables(
      '<table><caption>Claims</caption><thead><tr><th colspan="2">Code</th></tr></thead>' +
        '<tbody><tr><td rowspan=2>99213</td><td>1</td></tr><tr><td>2</td></tr></tbody>' +
        '<tfoot><tr><td>Total</td><td>3</td></tr></tfoot></table>',
    );
    expect(parsed!.source).toBe('html');
    expect(parsed!.rows).toEqual([
      [cell('Code', { colspan: 2 })],
      [cell('99213', { rowspan: 2 }), cell('1')],
      [cell('2')],
      [cell('Total'), cell('3')],
    ]);
    expect(countTableNodes(parsed!)).toBe(4 + 6);
  });

  it('repairs unclosed cells and rows the way a browser does', () => {
    const [parsed] = findTables('<table><tr><td>a<td>b<tr><td>c</table>');
    expect(parsed!.rows.map((r) => r.map((c) => c.text))).toEqual([['a', 'b'], ['c']]);
  });

  it('reads invalid spans as 1 and keeps words apart across <br> and nested markup', () => {
    const [parsed] = findTables('<table><tr><td colspan="0" rowspan="x">a<br/>b <b>c</b>&nbsp;d</td></tr></table>');
    expect(parsed!.rows[0]).toEqual([cell('a b c d')]);
  });

  it('folds a nested table into the text of the enclosing cell', () => {
    const tables = findTables('<table><tr><td>outer<table><tr><td>in1</td><td>in2</td></tr></table></td></tr></table>');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows[0]![0]!.text).toBe('outer in1 in2');
  });

  it('returns pipe and HTML tables together in document order', () => {
    const tables = findTables(
      '<table><tr><td>1</td></tr></table>\n\n| a |\n|---|\n| 2 |\n\n<table><tr><td>3</td></tr></table>',
    );
    expect(tables.map((t) => t.source)).toEqual(['html', 'markdown', 'html']);
    expect(tables.map((t) => t.rows.at(-1)![0]!.text)).toEqual(['1', '2', '3']);
  });
});

describe('computeTeds: docs/metrics/markdown.md vectors', () => {
  const truth = grid([
    ['a', 'b'],
    ['1', '2'],
  ]);

  it('2×2 table with one cell changed → TEDS 1 − 1/6, TEDS-S 1', () => {
    const predicted = grid([
      ['a', 'b'],
      ['1', 'X'],
    ]);
    expect(computeTeds(predicted, truth).teds).toBeCloseTo(1 - 1 / 6, 12);
    expect(computeTeds(predicted, truth, { structureOnly: true }).teds).toBe(1);
  });

  it('2×2 table with the second row missing → TEDS 0.5', () => {
    const result = computeTeds(grid([['a', 'b']]), truth);
    expect(result).toMatchObject({ teds: 0.5, distance: 3, nodes: 6, predictedNodes: 3, truthNodes: 6 });
  });

  it('the same vectors hold for markdown against HTML', () => {
    const html = '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>';
    expect(scoreTables('| a | b |\n|---|---|\n| 1 | X |', html).teds).toBeCloseTo(1 - 1 / 6, 12);
    expect(scoreTables('| a | b |\n|---|---|', html).teds).toBe(0.5);
  });
});

describe('computeTeds: conventions', () => {
  it('charges a partly changed cell its character NED', () => {
    const predicted = grid([['ab', 'cd']]);
    const truthTable = grid([['ab', 'ce']]);
    expect(computeTeds(predicted, truthTable).teds).toBeCloseTo(1 - 0.5 / 3, 12);
  });

  it('charges 1 for a span difference even with equal text, in TEDS and TEDS-S', () => {
    const predicted = table([[cell('a', { colspan: 2 })]]);
    const truthTable = table([[cell('a')]]);
    expect(computeTeds(predicted, truthTable).teds).toBe(0.5);
    expect(computeTeds(predicted, truthTable, { structureOnly: true }).teds).toBe(0.5);
  });

  it('clamps at 0 when the edit distance exceeds the larger node count', () => {
    // one row of four colspan-2 cells against four rows of one plain cell: TED 9 > max nodes 8
    const predicted = table([[1, 2, 3, 4].map(() => cell('x', { colspan: 2 }))]);
    const truthTable = table([1, 2, 3, 4].map(() => [cell('x')]));
    const result = computeTeds(predicted, truthTable);
    expect(result.distance).toBe(9);
    expect(result.teds).toBe(0);
  });

  it('scores two tables without rows 1', () => {
    expect(computeTeds(table([]), table([])).teds).toBe(1);
  });

  it('counts astral characters in cells as one code point each', () => {
    expect(computeTeds(grid([['😀a']]), grid([['😁a']])).teds).toBeCloseTo(1 - 0.5 / 2, 12);
  });
});

describe('scoreTables', () => {
  const t1 = grid([
    ['code', 'units'],
    ['99213', '1'],
  ]);
  const t2 = grid([['total', '125.50']]);

  it('pairs tables by Hungarian assignment on TEDS, whatever their order', () => {
    const result = scoreTables([t2, t1], [t1, t2]);
    expect(result.tables.map((t) => t.predictedIndex)).toEqual([1, 0]);
    expect(result).toMatchObject({ teds: 1, tedsStructure: 1, extraPredicted: 0 });
  });

  it('scores a truth table with no predicted match 0 and averages over truth tables', () => {
    const result = scoreTables([t1], [t1, t2]);
    expect(result.tables[1]).toMatchObject({ predictedIndex: null, teds: 0, tedsStructure: 0 });
    expect(result.teds).toBe(0.5);
  });

  it('counts extra predicted tables without changing the mean over truth tables', () => {
    const result = scoreTables([t1, t2], [t1]);
    expect(result).toMatchObject({ teds: 1, truthTables: 1, predictedTables: 2, extraPredicted: 1 });
  });

  it('returns null scores when the truth has no table', () => {
    expect(scoreTables([t1], [])).toMatchObject({ teds: null, tedsStructure: null, extraPredicted: 1 });
  });

  it('scores a failed call (null) 0 on every truth table', () => {
    expect(scoreTables(null, [t1, t2])).toMatchObject({ teds: 0, tedsStructure: 0, predictedTables: 0 });
  });

  it('aggregates over every truth table of every document', () => {
    const aggregate = aggregateTables([scoreTables([t1], [t1]), scoreTables([], [t1, t2]), scoreTables([t2], [])]);
    expect(aggregate).toMatchObject({ truthTables: 3, predictedTables: 2, extraPredicted: 1, documentsWithTables: 2 });
    expect(aggregate.teds).toBeCloseTo(1 / 3, 12);
  });
});

describe('computeTreeEditDistance (Zhang–Shasha)', () => {
  type Tree = OrderedTree<string>;
  const node = (label: string, ...children: Tree[]): Tree => ({ label, children });
  const unit = { insert: () => 1, remove: () => 1, rename: (a: string, b: string) => (a === b ? 0 : 1) };

  it('gives the textbook distance of Zhang & Shasha (1989): f(d(a c(b)) e) → f(c(d(a b)) e) is 2', () => {
    const a = node('f', node('d', node('a'), node('c', node('b'))), node('e'));
    const b = node('f', node('c', node('d', node('a'), node('b'))), node('e'));
    expect(computeTreeEditDistance(a, b, unit)).toBe(2);
  });

  /** The recursive forest-distance definition, memoised: slow, obviously right, for small trees. */
  function referenceDistance(a: Tree, b: Tree): number {
    const memo = new Map<string, number>();
    const key = (f: readonly Tree[]) => JSON.stringify(f);
    const size = (f: readonly Tree[]): number => f.reduce((n, t) => n + 1 + size(t.children), 0);
    const forest = (f: readonly Tree[], g: readonly Tree[]): number => {
      if (f.length === 0) return size(g);
      if (g.length === 0) return size(f);
      const k = `${key(f)}|${key(g)}`;
      const hit = memo.get(k);
      if (hit !== undefined) return hit;
      const v = f[f.length - 1]!;
      const w = g[g.length - 1]!;
      const fRest = f.slice(0, -1);
      const gRest = g.slice(0, -1);
      const result = Math.min(
        forest([...fRest, ...v.children], g) + 1,
        forest(f, [...gRest, ...w.children]) + 1,
        forest(fRest, gRest) + forest(v.children, w.children) + unit.rename(v.label, w.label),
      );
      memo.set(k, result);
      return result;
    };
    return forest([a], [b]);
  }

  const label = fc.constantFrom('a', 'b', 'c');
  const treeOfDepth = (depth: number): fc.Arbitrary<Tree> =>
    depth === 0
      ? label.map((l) => node(l))
      : fc.record({ label, children: fc.array(treeOfDepth(depth - 1), { maxLength: 3 }) });
  const tree = treeOfDepth(3);

  it('agrees with the recursive definition on random small trees', () => {
    fc.assert(
      fc.property(tree, tree, (a, b) => {
        expect(computeTreeEditDistance(a, b, unit)).toBe(referenceDistance(a, b));
      }),
      { numRuns: 100 },
    );
  });

  it('is 0 between a tree and itself and symmetric under unit costs', () => {
    fc.assert(
      fc.property(tree, tree, (a, b) => {
        expect(computeTreeEditDistance(a, a, unit)).toBe(0);
        expect(computeTreeEditDistance(a, b, unit)).toBe(computeTreeEditDistance(b, a, unit));
      }),
      { numRuns: 100 },
    );
  });
});
