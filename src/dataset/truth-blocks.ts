/**
 * truth/<id>.blocks.json: a document's layout blocks, for the block metrics (datasets/README.md, docs/metrics.md
 * "Blocks"): `{ "blocks": [{ "page"?, "category", "order", "content", "ignore"? }] }`. Written by importers of
 * datasets that annotate blocks (OmniDocBench); without it, the blocks are the truth markdown's paragraphs.
 */

/** One block as the file holds it. */
export interface TruthBlockRecord {
  /** 1-based page; 1 when absent. */
  page?: number;
  /** OmniDocBench's category names: text_block, title, table, equation_isolated, header, page_number, … */
  category: string;
  /** Place in the page's reading order (1, 2, …); null when unordered. */
  order: number | null;
  /** Text; LaTeX for equation_isolated; HTML for table. */
  content: string;
  /** Matched but never scored. */
  ignore?: boolean;
}

const KEYS = new Set(['page', 'category', 'order', 'content', 'ignore']);

/** Problems of a parsed blocks file, each naming its path (`blocks[3].order`); empty when valid. */
export function checkTruthBlocks(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('blocks' in value)) {
    return ['must hold an object with a "blocks" list'];
  }
  const blocks = (value as { blocks: unknown }).blocks;
  if (!Array.isArray(blocks)) return ['blocks: must be a list'];
  const problems: string[] = [];
  blocks.forEach((block: unknown, index) => {
    const at = `blocks[${index}]`;
    if (typeof block !== 'object' || block === null || Array.isArray(block)) {
      problems.push(`${at}: must be an object`);
      return;
    }
    const record = block as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!KEYS.has(key)) problems.push(`${at}.${key}: not a block field`);
    if (typeof record.category !== 'string' || record.category === '') problems.push(`${at}.category: must be a name`);
    if (typeof record.content !== 'string') problems.push(`${at}.content: must be a string`);
    if (record.order !== null && !(typeof record.order === 'number' && Number.isFinite(record.order)))
      problems.push(`${at}.order: must be a number or null`);
    if (record.page !== undefined && !(Number.isInteger(record.page) && (record.page as number) >= 1))
      problems.push(`${at}.page: must be a whole number of at least 1`);
    if (record.ignore !== undefined && typeof record.ignore !== 'boolean')
      problems.push(`${at}.ignore: must be true or false`);
  });
  return problems;
}

/** The blocks grouped by page (index 0 = page 1), each page's in file order. */
export function blocksByPage(blocks: readonly TruthBlockRecord[]): TruthBlockRecord[][] {
  const pages: TruthBlockRecord[][] = [];
  for (const block of blocks) {
    const index = (block.page ?? 1) - 1;
    while (pages.length <= index) pages.push([]);
    pages[index]!.push(block);
  }
  return pages;
}
