/**
 * Truth blocks of a plain truth markdown page, for datasets without truth/<id>.blocks.json (docs/metrics.md
 * "Blocks"): the page split by the splitter that splits a system's markdown, so both sides are cut the same
 * way, each block given a category and its place in the reading order. Headings are titles; a paragraph
 * holding list items gives one block per item; display formulas and tables are their own blocks; inline
 * formulas stay in their paragraph, and LaTeX tables are left out (an output's are not matched either).
 */
import { splitOutputBlocks, type OutputBlock } from './output-blocks.js';
import type { TruthBlock } from './score-blocks.js';

/** A line that starts a list item: `-`, `*` or `+` bullets, `1.` or `1)` numbers. */
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])\s/;
const HEADING = /^#{1,6}\s/;

/** A text paragraph cut before each line that starts a list item (the lines before the first stay together). */
function listItems(text: string): string[] {
  const items: string[] = [];
  for (const line of text.split('\n')) {
    if (items.length === 0 || LIST_ITEM.test(line)) items.push(line);
    else items[items.length - 1] += `\n${line}`;
  }
  return items;
}

function truthCategory(block: OutputBlock, content: string): string | null {
  if (block.kind === 'html_table') return 'table';
  if (block.kind === 'formula') return block.inline ? null : 'equation_isolated';
  if (block.kind === 'latex_table') return null;
  return HEADING.test(content) ? 'title' : 'text_block';
}

/** A truth markdown page → its blocks, numbered 1, 2, … in the order they stand on the page. */
export function splitTruthBlocks(markdown: string): TruthBlock[] {
  const blocks: TruthBlock[] = [];
  for (const block of splitOutputBlocks(markdown)) {
    const parts = block.kind === 'text' ? listItems(block.content) : [block.content];
    for (const content of parts) {
      const category = truthCategory(block, content);
      if (category !== null) blocks.push({ category, order: blocks.length + 1, content });
    }
  }
  return blocks;
}
