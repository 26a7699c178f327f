/** Gate thresholds on the block metrics: read from the gate section, checked against markdown.blocks. */
import { describe, expect, it } from 'vitest';
import { parseGateSection } from '../../src/gate/index.js';
import { blockChecks } from '../../src/gate/block-checks.js';
import type { GateCheck, SystemSummary } from '../../src/run-dir/index.js';

const check = (metric: string, op: '>=' | '<=', threshold: number, actual: number | null): GateCheck => ({
  metric,
  op,
  threshold,
  actual,
  passed: actual !== null && (op === '>=' ? actual >= threshold : actual <= threshold),
  message: metric,
});

const summaryWith = (blocks: NonNullable<SystemSummary['markdown']>['blocks']): SystemSummary =>
  ({ markdown: { blocks } }) as unknown as SystemSummary;

describe('block-metric gate thresholds', () => {
  it('reads them from the gate section and rejects a value outside 0–1, naming the key', () => {
    const gate = parseGateSection({ max_reading_order_edit: 0.2, min_table_teds: 0.8 }, 'docbench.config.yaml');
    expect(gate.max_reading_order_edit).toBe(0.2);
    expect(gate.min_table_teds).toBe(0.8);
    expect(() => parseGateSection({ max_text_edit: 2 }, 'docbench.config.yaml')).toThrow(/gate\.max_text_edit/);
  });

  it('bounds edit distances from above and TEDS from below; a run without blocks fails the check', () => {
    const blocks = {
      text_edit: 0.36,
      formula_edit: null,
      table_teds: 0.78,
      table_teds_structure: 0.91,
      table_edit: 0.2,
      reading_order_edit: 0.22,
      pages: 18,
    };
    const checks = blockChecks(
      summaryWith(blocks),
      {
        max_reading_order_edit: 0.25,
        max_text_edit: 0.3,
        min_table_teds: 0.8,
        min_table_teds_structure: 0.9,
        max_formula_edit: 0.5,
      },
      check,
    );
    expect(checks.map((c) => [c.metric, c.op, c.passed])).toEqual([
      ['markdown.blocks.text_edit', '<=', false],
      ['markdown.blocks.reading_order_edit', '<=', true],
      ['markdown.blocks.formula_edit', '<=', false],
      ['markdown.blocks.table_teds', '>=', false],
      ['markdown.blocks.table_teds_structure', '>=', true],
    ]);
    const none = blockChecks(summaryWith(undefined), { max_reading_order_edit: 0.25 }, check);
    expect(none).toMatchObject([{ actual: null, passed: false }]);
  });
});

describe('block metrics in docbench diff', () => {
  it("reports each run's figure and the change, which way is better named", async () => {
    const { diffBlocks, blockDiffMarkdown } = await import('../../src/gate/block-diff.js');
    const figures = (readingOrder: number) => ({
      text_edit: 0.3,
      formula_edit: null,
      table_teds: 0.8,
      table_teds_structure: 0.9,
      table_edit: 0.2,
      reading_order_edit: readingOrder,
      pages: 10,
    });
    const run = (readingOrder: number) =>
      ({ systems: { parser: { markdown: { blocks: figures(readingOrder) } } } }) as unknown as Parameters<
        typeof diffBlocks
      >[0];
    const rows = diffBlocks(run(0.2), run(0.35), 'parser');
    expect(rows.find((r) => r.metric === 'markdown.blocks.reading_order_edit')).toMatchObject({
      better: 'lower',
      baseline: 0.2,
      candidate: 0.35,
    });
    expect(rows.find((r) => r.metric === 'markdown.blocks.reading_order_edit')!.delta).toBeCloseTo(0.15, 10);
    expect(rows.find((r) => r.metric === 'markdown.blocks.formula_edit')!.delta).toBeNull();
    expect(blockDiffMarkdown(rows).join('\n')).toContain(
      '| Reading-order edit distance | lower | 0.200 | 0.350 | +0.150 |',
    );
    expect(diffBlocks(run(0.2), run(0.2), 'other')).toEqual([]);
  });
});
