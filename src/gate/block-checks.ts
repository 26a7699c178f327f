/**
 * Gate thresholds on the block metrics (docs/gate.md, docs/metrics.md "Blocks"): `max_text_edit`,
 * `max_reading_order_edit`, `max_formula_edit`, `max_table_edit` (edit distances: lower is better, so a
 * maximum), `min_table_teds` and `min_table_teds_structure`, checked against `markdown.blocks` of summary.json.
 */
import type { GateCheck, SystemSummary } from '../run-dir/index.js';

/** The threshold keys and the summary figure each bounds. */
export const BLOCK_THRESHOLDS = {
  max_text_edit: { figure: 'text_edit', op: '<=' },
  max_reading_order_edit: { figure: 'reading_order_edit', op: '<=' },
  max_formula_edit: { figure: 'formula_edit', op: '<=' },
  max_table_edit: { figure: 'table_edit', op: '<=' },
  min_table_teds: { figure: 'table_teds', op: '>=' },
  min_table_teds_structure: { figure: 'table_teds_structure', op: '>=' },
} as const;

export type BlockThresholds = Partial<Record<keyof typeof BLOCK_THRESHOLDS, number>>;

type Check = (
  metric: string,
  op: '>=' | '<=',
  threshold: number,
  actual: number | null,
  scope?: string,
  detail?: string,
) => GateCheck;

export function blockChecks(summary: SystemSummary, thresholds: BlockThresholds, check: Check): GateCheck[] {
  const blocks = summary.markdown?.blocks;
  return (Object.keys(BLOCK_THRESHOLDS) as (keyof typeof BLOCK_THRESHOLDS)[]).flatMap((key) => {
    const threshold = thresholds[key];
    if (threshold === undefined) return [];
    const { figure, op } = BLOCK_THRESHOLDS[key];
    const actual = blocks?.[figure] ?? null;
    const detail = blocks
      ? `no page of this run has such blocks`
      : 'this run has no block metrics (no /compare calls, no truth markdown, or plain truth without dataset.json `markdownBlocks`)';
    return [check(`markdown.blocks.${figure}`, op, threshold, actual, undefined, actual === null ? detail : undefined)];
  });
}
