/** OmniDocBench's end-to-end block metrics: text, formulas, tables, reading order (docs/metrics.md "Blocks"). */
export { scorePageBlocks, readingOrderOf, TEXT_CATEGORIES, FORMULA_CATEGORY, TABLE_CATEGORY } from './score-blocks.js';
export type { TruthBlock, PageBlocksScore, BlockMatchView, TableBlockScore, EditSums } from './score-blocks.js';
export {
  pageBlockFigures,
  aggregateBlocks,
  BLOCK_EDIT_FIGURES,
  pageSum,
  createPageMeanStatistic,
  createPageMeanDelta,
  tableTedsSum,
  TABLE_TEDS_FIGURES,
} from './aggregate-blocks.js';
export type { PageBlockFigures, BlockFigures, BlockEditFigure, PageSum, TableTedsFigure } from './aggregate-blocks.js';
export { splitOutputBlocks } from './output-blocks.js';
export { splitTruthBlocks } from './truth-blocks.js';
export type { OutputBlock } from './output-blocks.js';
export { scoreDocumentBlocks } from './document-blocks.js';
export type { DocumentBlocks } from './document-blocks.js';
