/**
 * The block metrics as report.html and the drill-downs show them (docs/metrics.md "Blocks"): the run's
 * figures beside the markdown similarity, and per document each truth block with its match and the order
 * the output read the blocks in (a numbered strip). Edit distances are lower-is-better, and say so.
 */
import type { DocumentEvaluation, RunSummary } from '../run-dir/index.js';
import { formatDecimal, formatPercent } from '../render/index.js';

type Figures = {
  text_edit: number | null;
  formula_edit: number | null;
  table_teds: number | null;
  table_teds_structure: number | null;
  table_edit: number | null;
  reading_order_edit: number | null;
};

export interface BlockFigureRow {
  label: string;
  value: string;
  /** "lower is better" / "higher is better". */
  direction: string;
}

export interface BlocksHeadline {
  system: string;
  pages: number;
  rows: BlockFigureRow[];
}

/** The six figures as labelled rows ('—' where the pages have no such blocks). */
export function blockFigureRows(figures: Figures): BlockFigureRow[] {
  const lower = 'lower is better';
  const higher = 'higher is better';
  return [
    { label: 'Text edit distance', value: formatDecimal(figures.text_edit), direction: lower },
    { label: 'Reading-order edit distance', value: formatDecimal(figures.reading_order_edit), direction: lower },
    { label: 'Display-formula edit distance', value: formatDecimal(figures.formula_edit), direction: lower },
    { label: 'Table TEDS', value: formatPercent(figures.table_teds), direction: higher },
    { label: 'Table TEDS (structure)', value: formatPercent(figures.table_teds_structure), direction: higher },
    { label: 'Table edit distance', value: formatDecimal(figures.table_edit), direction: lower },
  ];
}

export function buildBlocksHeadline(summary: RunSummary, name: string): BlocksHeadline | null {
  const blocks = summary.systems[name]?.markdown?.blocks;
  if (!blocks) return null;
  return { system: name, pages: blocks.pages, rows: blockFigureRows(blocks) };
}

export interface BlocksDrilldown {
  system: string;
  rows: BlockFigureRow[];
  pages: {
    page: number;
    /** The truth's order numbers as the output read them; `moved` where one stands elsewhere than in the truth. */
    strip: { order: number; moved: boolean }[];
    truth_order: number[];
    matches: { order: string; category: string; truth: string; output: string; score: string; scored: boolean }[];
  }[];
}

export function buildBlocksDrilldown(doc: DocumentEvaluation, systems: readonly string[]): BlocksDrilldown[] {
  return systems.flatMap((system) => {
    const blocks = doc.systems[system]?.markdown?.blocks;
    if (!blocks) return [];
    const pageNumbers = [...new Set(blocks.pages.map((p) => p.page))];
    return [
      {
        system,
        rows: blockFigureRows(blocks),
        pages: pageNumbers.map((page) => {
          const order = blocks.reading_order.find((o) => o.page === page);
          return {
            page,
            strip: (order?.output ?? []).map((n, index) => ({ order: n, moved: order?.truth[index] !== n })),
            truth_order: order?.truth ?? [],
            matches: blocks.matches
              .filter((m) => m.page === page)
              .map((m) => ({
                order: m.order === null ? '—' : String(m.order),
                category: m.category,
                truth: m.truth,
                output: m.output,
                score:
                  m.score === null
                    ? '—'
                    : m.kind === 'table'
                      ? `TEDS ${formatPercent(m.score)}`
                      : `edit ${formatDecimal(m.score)}`,
                scored: m.scored,
              })),
          };
        }),
      },
    ];
  });
}
