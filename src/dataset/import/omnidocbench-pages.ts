/**
 * OmniDocBench's annotation file (OmniDocBench.json: one entry per page image) read into docbench's terms:
 * per page, its truth blocks (truth/<id>.blocks.json), its truth markdown and its attributes as tags
 * (docs/datasets-import.md "omnidocbench"). Pure: the importer does the reading and writing.
 */
import { UsageError } from '../../errors.js';

/** One block of truth/<id>.blocks.json (docs/dataset-format in datasets/README.md). */
export interface BlockRecord {
  category: string;
  order: number | null;
  content: string;
  ignore?: boolean;
}

export interface OmniPage {
  /** The image's file name, as the annotation names it. */
  image: string;
  blocks: BlockRecord[];
  tags: Record<string, string>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a block compares: LaTeX for display formulas, HTML for tables, text for the rest. */
function blockContent(block: Json): string {
  const category = String(block.category_type);
  const field = category === 'equation_isolated' ? block.latex : category === 'table' ? block.html : block.text;
  return typeof field === 'string' ? field : '';
}

/**
 * Blocks linked by a `truncated` relation (one paragraph split across columns or pages) are one block, as
 * OmniDocBench reads them: texts joined in reading order, category and order of the first. Its grouping is
 * followed as written: a relation adds both ends to every group holding either, so a block in the middle of
 * a chain of three is listed, and its text joined, twice.
 */
function mergeTruncated(blocks: Json[], relations: unknown[]): Json[] {
  const groups: number[][] = [];
  for (const relation of relations) {
    if (!isObject(relation) || relation.relation_type !== 'truncated') continue;
    const source = Number(relation.source_anno_id);
    const target = Number(relation.target_anno_id);
    const holding = groups.filter((g) => g.includes(source) || g.includes(target));
    for (const group of holding) group.push(source, target);
    if (holding.length === 0) groups.push([source, target]);
  }
  const merged = new Set(groups.flat());
  const kept = blocks.filter((block) => !merged.has(Number(block.anno_id)));
  for (const group of groups) {
    const members = group
      .map((id) => blocks.find((block) => Number(block.anno_id) === id))
      .filter((block): block is Json => block !== undefined)
      .map((block, index) => ({ block, index }))
      .sort((a, b) => Number(a.block.order ?? 0) - Number(b.block.order ?? 0) || a.index - b.index)
      .map(({ block }) => block);
    const first = members[0];
    if (first === undefined) continue;
    kept.push({ ...first, text: members.map((block) => (typeof block.text === 'string' ? block.text : '')).join('') });
  }
  return kept;
}

/** Page attributes as tags: one per attribute, one `special_issue=<name>` … per special issue (`issue_<name>=yes`). */
function pageTags(attributes: unknown): Record<string, string> {
  const tags: Record<string, string> = {};
  if (!isObject(attributes)) return tags;
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'string') tags[key] = value;
    else if (Array.isArray(value))
      for (const item of value) if (typeof item === 'string') tags[`${key}.${item}`] = 'yes';
  }
  return tags;
}

/** Reads the parsed OmniDocBench.json; `file` names it in errors. */
export function readOmniPages(value: unknown, file: string): OmniPage[] {
  if (!Array.isArray(value)) {
    throw new UsageError(`${file}: not OmniDocBench's annotation file (it holds a list of pages)`, {
      hint: 'name OmniDocBench.json from the OmniDocBench download',
    });
  }
  return value.map((page, index) => {
    const where = `${file}: entry ${index}`;
    if (!isObject(page) || !isObject(page.page_info) || !Array.isArray(page.layout_dets)) {
      throw new UsageError(`${where}: no page_info or layout_dets`, {
        hint: "the file is not in OmniDocBench's shape",
      });
    }
    const image = page.page_info.image_path;
    if (typeof image !== 'string' || image === '') {
      throw new UsageError(`${where}: page_info.image_path is missing`, {
        hint: "the file is not in OmniDocBench's shape",
      });
    }
    const dets = page.layout_dets.filter(isObject);
    if (dets.length !== page.layout_dets.length || dets.some((block) => typeof block.category_type !== 'string')) {
      throw new UsageError(`${where} (${image}): a layout_dets entry has no category_type`, {
        hint: "the file is not in OmniDocBench's shape",
      });
    }
    const relations = isObject(page.extra) && Array.isArray(page.extra.relation) ? page.extra.relation : [];
    const blocks = mergeTruncated(dets, relations).map(
      (block): BlockRecord => ({
        category: String(block.category_type),
        order: typeof block.order === 'number' ? block.order : null,
        content: blockContent(block),
        ...(block.ignore === true ? { ignore: true } : {}),
      }),
    );
    return { image: image.split('/').pop() ?? image, blocks, tags: pageTags(page.page_info.page_attribute) };
  });
}

/** Categories that make up the truth markdown: what OmniDocBench scores (headers, captions, figures stay out). */
const MARKDOWN_CATEGORIES = new Set(['title', 'text_block', 'code_txt', 'reference', 'equation_isolated', 'table']);

/** A page's truth markdown: its scored blocks in reading order, a blank line between, titles as headings. */
export function truthMarkdown(blocks: readonly BlockRecord[]): string {
  return blocks
    .filter((block) => MARKDOWN_CATEGORIES.has(block.category) && !block.ignore && block.content.trim() !== '')
    .map((block, index) => ({ block, index }))
    .sort((a, b) => (a.block.order ?? 0) - (b.block.order ?? 0) || a.index - b.index)
    .map(({ block }) => (block.category === 'title' ? `# ${block.content.trim()}` : block.content.trim()))
    .join('\n\n')
    .concat('\n');
}
