/**
 * A document's block metrics over its pages (docs/metrics.md "Blocks"): each page scored on its own, the
 * document's figures the page averages (as OmniDocBench averages a set of pages), and what the drill-down
 * shows: each truth block with its match and the order the output read them in.
 */
import { aggregateBlocks, pageBlockFigures, type PageBlockFigures } from './aggregate-blocks.js';
import { scorePageBlocks, type BlockMatchView, type TruthBlock } from './score-blocks.js';

export interface DocumentBlocks {
  text_edit: number | null;
  formula_edit: number | null;
  table_teds: number | null;
  table_teds_structure: number | null;
  table_edit: number | null;
  reading_order_edit: number | null;
  pages: (PageBlockFigures & { page: number })[];
  matches: (BlockMatchView & { page: number })[];
  reading_order: { page: number; truth: number[]; output: number[] }[];
}

/**
 * @param truthPages the truth blocks of each page
 * @param outputPages the system's markdown per page; null when it returned none (scored as empty pages)
 */
export function scoreDocumentBlocks(
  truthPages: readonly TruthBlock[][],
  outputPages: readonly string[] | null,
): DocumentBlocks {
  const pages: DocumentBlocks['pages'] = [];
  const matches: DocumentBlocks['matches'] = [];
  const readingOrder: DocumentBlocks['reading_order'] = [];
  truthPages.forEach((truth, index) => {
    const page = index + 1;
    const score = scorePageBlocks(truth, outputPages?.[index] ?? '');
    pages.push({ page, ...pageBlockFigures(score) });
    for (const match of score.matches) matches.push({ page, ...match });
    if (score.readingOrder)
      readingOrder.push({ page, truth: score.readingOrder.truth, output: score.readingOrder.output });
  });
  const { pages: _count, ...figures } = aggregateBlocks(pages);
  return { ...figures, pages, matches, reading_order: readingOrder };
}
