/**
 * The block metrics' part of summary.json and documents.jsonl (`markdown.blocks`, `by_tag.<key>.<value>.blocks`):
 * OmniDocBench's end-to-end figures (docs/metrics.md "Blocks", docs/summary-json.md). Edit distances are
 * lower-is-better; TEDS higher-is-better (OmniDocBench does not clamp it at 0).
 */
import { Type } from '@sinclair/typebox';
import { count, nullableNum, nullableShare } from '../../format-parts.js';

const figureProperties = {
  /** Text blocks: per page Σedits ÷ Σlonger length, then the mean over pages. Lower is better. */
  text_edit: nullableShare,
  /** Display formulas, averaged the same way. Lower is better. */
  formula_edit: nullableShare,
  /** Mean TEDS over the truth tables. Higher is better. */
  table_teds: nullableNum,
  table_teds_structure: nullableNum,
  /** Normalised HTML edit distance of the tables, per page then over pages. Lower is better. */
  table_edit: nullableShare,
  /** Reading order: per page Levenshtein of the order numbers ÷ the longer list, then the mean. Lower is better. */
  reading_order_edit: nullableShare,
};

/** The figures over a set of pages. */
export const BlockFiguresFormat = Type.Object({ ...figureProperties, pages: count });

/** One truth block and what it was matched with, for the drill-down. */
const BlockMatchFormat = Type.Object({
  page: count,
  kind: Type.Union([Type.Literal('text'), Type.Literal('formula'), Type.Literal('table')]),
  category: Type.String(),
  order: Type.Union([Type.Number(), Type.Null()]),
  truth: Type.String(),
  output: Type.String(),
  /** Normalised edit distance (TEDS for a table); null when not scored. */
  score: nullableNum,
  /** False for blocks OmniDocBench matches but does not score (headers, captions, page numbers, ignored). */
  scored: Type.Boolean(),
});

/** One document's block figures: over its pages, each page's, its blocks and the order the output read them. */
export const DocumentBlocksFormat = Type.Object({
  ...figureProperties,
  pages: Type.Array(Type.Object({ page: count, ...figureProperties, tables: count })),
  matches: Type.Array(BlockMatchFormat),
  /** Per page: the truth order numbers sorted, and as the output read them (the reading-order strip). */
  reading_order: Type.Array(
    Type.Object({ page: count, truth: Type.Array(Type.Number()), output: Type.Array(Type.Number()) }),
  ),
});
