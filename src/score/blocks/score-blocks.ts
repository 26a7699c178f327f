/**
 * One page's block metrics as OmniDocBench's end-to-end evaluation computes them (docs/metrics.md
 * "Blocks"): text blocks, display formulas and tables of the truth matched to the blocks of a system's
 * markdown, with their edit distances, the tables' TEDS, and the reading-order edit distance. Pure.
 */
import { levenshteinCodePoints } from '../shared/code-point-levenshtein.js';
import { normalizeFormula, normalizeTextBlock } from './normalize-blocks.js';
import { normalizeHtmlTable, omniTeds, type NormalizedTable } from './omni-table.js';
import { splitOutputBlocks, type OutputBlock } from './output-blocks.js';
import { matchBlocks, matchSimple, UNSCORED_TEXT_CATEGORIES, type MatchEntry } from './quick-match.js';

/** A truth block: what truth/<id>.blocks.json holds for each (docs/dataset-format.md). */
export interface TruthBlock {
  /** OmniDocBench's category_type (text_block, title, table, equation_isolated, header, …). */
  category: string;
  /** Its place in the reading order (1, 2, …); null when the page does not order it. */
  order: number | null;
  /** Text for text blocks, LaTeX for formulas, HTML for tables. */
  content: string;
  /** Matched but not scored (OmniDocBench's `ignore` flag). */
  ignore?: boolean;
}

/** Categories OmniDocBench matches as text (the scored ones and those it matches only to drop them after). */
export const TEXT_CATEGORIES: ReadonlySet<string> = new Set([
  'text_block',
  'title',
  'code_txt',
  'code_txt_caption',
  'reference',
  ...UNSCORED_TEXT_CATEGORIES,
]);
export const FORMULA_CATEGORY = 'equation_isolated';
export const TABLE_CATEGORY = 'table';
/** The category an ignored block is matched under: never scored. */
const IGNORED = 'ignored';

/** Edit operations and the summed longer lengths of a page's entries: edit distance = edits ÷ length. */
export interface EditSums {
  edits: number;
  length: number;
}

/** How one truth block fared, for the drill-down. */
export interface BlockMatchView {
  kind: 'text' | 'formula' | 'table';
  category: string;
  order: number | null;
  truth: string;
  /** The output text it was matched with ('' when none). */
  output: string;
  /** Normalised edit distance of the entry (TEDS for a table); null when not scored. */
  score: number | null;
  scored: boolean;
}

export interface TableBlockScore {
  teds: number;
  tedsStructure: number;
  edits: number;
  length: number;
}

export interface PageBlocksScore {
  text: EditSums | null;
  formula: EditSums | null;
  tables: TableBlockScore[];
  readingOrder: { truth: number[]; output: number[]; edits: number; length: number } | null;
  matches: BlockMatchView[];
}

/**
 * A truth block's normalised forms, made once per block: every system of a run is scored against the same
 * truth blocks, and normalising a table means parsing its HTML (docs/performance.md "Block metrics").
 */
interface TruthForms {
  text?: string;
  formula?: string;
  table?: NormalizedTable;
}
const truthForms = new WeakMap<TruthBlock, TruthForms>();

function formOf<K extends keyof TruthForms>(
  block: TruthBlock,
  kind: K,
  normalize: (content: string) => NonNullable<TruthForms[K]>,
): NonNullable<TruthForms[K]> {
  let forms = truthForms.get(block);
  if (forms === undefined) {
    forms = {};
    truthForms.set(block, forms);
  }
  const made = forms[kind] ?? normalize(block.content);
  forms[kind] = made;
  return made;
}

function editSums(pairs: readonly { truth: string; output: string }[]): EditSums | null {
  let edits = 0;
  let length = 0;
  let counted = false;
  for (const { truth, output } of pairs) {
    if (truth === '' && output === '') continue;
    const d = levenshteinCodePoints(output, truth);
    edits += d.distance;
    length += Math.max(d.lengthA, d.lengthB);
    counted = true;
  }
  return counted ? { edits, length } : null;
}

function sortByOrder(blocks: readonly TruthBlock[]): TruthBlock[] {
  return blocks
    .map((block, index) => ({ block, index }))
    .sort((a, b) => (a.block.order || 0) - (b.block.order || 0) || a.index - b.index)
    .map(({ block }) => block);
}

/** Levenshtein distance between two lists of order numbers. */
function listDistance(a: readonly number[], b: readonly number[]): number {
  const alphabet = new Map<number, string>();
  const encode = (list: readonly number[]): string =>
    list
      .map((value) => {
        let code = alphabet.get(value);
        if (code === undefined) {
          const index = alphabet.size + 1;
          code = String.fromCharCode(index < 0xd800 ? index : index + 0x800);
          alphabet.set(value, code);
        }
        return code;
      })
      .join('');
  return levenshteinCodePoints(encode(a), encode(b)).distance;
}

/**
 * OmniDocBench's reading order (its `get_order_paired`): the order numbers of the matched truth blocks,
 * read in the order their output blocks start, against all truth order numbers sorted (a block matched
 * with nothing still counts, and a twice-listed miss twice).
 */
export function readingOrderOf(entries: readonly MatchEntry[]): PageBlocksScore['readingOrder'] {
  const present = (orders: readonly (number | null)[]): number[] => orders.filter((o): o is number => !!o);
  const withTruth = entries.filter((entry) => entry.truth.length > 0);
  const truth = withTruth.flatMap((entry) => present(entry.truthOrder)).sort((a, b) => a - b);
  const output = withTruth
    .filter((entry) => entry.outputPosition !== null)
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.outputPosition! - b.entry.outputPosition! || a.index - b.index)
    .flatMap(({ entry }) => present(entry.truthOrder));
  if (truth.length === 0 && output.length === 0) return null;
  return { truth, output, edits: listDistance(truth, output), length: Math.max(truth.length, output.length) };
}

function scoreText(truthBlocks: readonly TruthBlock[], output: readonly OutputBlock[], views: BlockMatchView[]) {
  const truth = sortByOrder(truthBlocks.filter((block) => TEXT_CATEGORIES.has(block.category)));
  if (truth.length === 0) return { text: null, readingOrder: null };
  const outputText = output
    .filter((block) => block.kind === 'text')
    .map((block) => ({ block, normalized: normalizeTextBlock(block.content) }));
  const truthText = truth.map((block) => ({
    block,
    normalized: formOf(block, 'text', normalizeTextBlock),
  }));
  const entries = matchBlocks(
    truthText.map(({ block, normalized }) => ({
      raw: block.content,
      normalized,
      category: block.ignore ? IGNORED : block.category,
      order: block.order,
    })),
    outputText.map(({ block, normalized }) => ({ raw: block.content, normalized, position: block.position })),
  );
  const scored = entries.filter((entry) => !UNSCORED_TEXT_CATEGORIES.has(entry.category) && entry.category !== IGNORED);
  const scoredSet = new Set(scored);
  // The blocks the matching kept, which its indices point into.
  const keptTruth = truthText.filter(({ block, normalized }) => block.content !== '' && normalized !== '');
  const keptOutput = outputText.filter(({ block, normalized }) => block.content !== '' && normalized !== '');
  for (const entry of entries) {
    if (entry.truth.length === 0) continue;
    const d = editSums([{ truth: entry.truthText, output: entry.outputText }]);
    views.push({
      kind: 'text',
      category: entry.category,
      order: entry.truthOrder[0] ?? null,
      truth: entry.truth.map((t) => keptTruth[t]?.block.content ?? '').join('\n\n'),
      output: entry.outputText === '' ? '' : entry.output.map((o) => keptOutput[o]?.block.content ?? '').join('\n\n'),
      score: d === null ? null : d.edits / d.length,
      scored: scoredSet.has(entry),
    });
  }
  return {
    text: editSums(scored.map((entry) => ({ truth: entry.truthText, output: entry.outputText }))),
    readingOrder: readingOrderOf(scored),
  };
}

function scoreFormulas(truthBlocks: readonly TruthBlock[], output: readonly OutputBlock[], views: BlockMatchView[]) {
  const truth = sortByOrder(truthBlocks.filter((block) => block.category === FORMULA_CATEGORY));
  if (truth.length === 0) return null;
  const formulas = output.filter((block) => block.kind === 'formula');
  const entries = matchBlocks(
    truth.map((block) => ({
      raw: block.content,
      normalized: formOf(block, 'formula', normalizeFormula),
      category: block.category,
      order: block.order,
    })),
    formulas.map((block) => ({
      raw: block.content,
      normalized: normalizeFormula(block.content),
      position: block.position,
    })),
  ).filter((entry) => entry.truth.length > 0);
  for (const entry of entries) {
    const d = editSums([{ truth: entry.truthText, output: entry.outputText }]);
    views.push({
      kind: 'formula',
      category: FORMULA_CATEGORY,
      order: entry.truthOrder[0] ?? null,
      truth: entry.truthText,
      output: entry.outputText,
      score: d === null ? null : d.edits / d.length,
      scored: true,
    });
  }
  return editSums(entries.map((entry) => ({ truth: entry.truthText, output: entry.outputText })));
}

function scoreTableBlocks(truthBlocks: readonly TruthBlock[], output: readonly OutputBlock[], views: BlockMatchView[]) {
  const truth = sortByOrder(truthBlocks.filter((block) => block.category === TABLE_CATEGORY && block.content !== ''));
  if (truth.length === 0) return [];
  const tables = output.filter((block) => block.kind === 'html_table' && block.content !== '');
  const pairs = matchSimple(
    truth.map((block) => block.content),
    tables.map((block) => block.content),
  );
  return truth.map((block, t): TableBlockScore => {
    const o = pairs[t];
    const expected = formOf(block, 'table', normalizeHtmlTable);
    const content = o === null || o === undefined ? '' : tables[o]!.content;
    // An output table written exactly as the truth's is normalised the same: no second parse.
    const predicted = content === block.content ? expected : normalizeHtmlTable(content);
    const d = levenshteinCodePoints(predicted.html, expected.html || block.content);
    const score: TableBlockScore = {
      teds: omniTeds(predicted, expected, false),
      tedsStructure: omniTeds(predicted, expected, true),
      edits: d.distance,
      length: Math.max(d.lengthA, d.lengthB),
    };
    views.push({
      kind: 'table',
      category: TABLE_CATEGORY,
      order: block.order,
      truth: block.content,
      output: o === null || o === undefined ? '' : tables[o]!.content,
      score: score.teds,
      scored: true,
    });
    return score;
  });
}

/** A page's block metrics: `truth` the page's truth blocks, `markdown` the system's markdown of the page. */
export function scorePageBlocks(truth: readonly TruthBlock[], markdown: string): PageBlocksScore {
  const output = splitOutputBlocks(markdown);
  const matches: BlockMatchView[] = [];
  const { text, readingOrder } = scoreText(truth, output, matches);
  const formula = scoreFormulas(truth, output, matches);
  const tables = scoreTableBlocks(truth, output, matches);
  matches.sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER));
  return { text, formula, tables, readingOrder, matches };
}
