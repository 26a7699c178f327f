/**
 * One page of Textract blocks → markdown, following the block graph (docs/providers.md, textract):
 * - every TABLE is one pipe table built from its CELLs (RowIndex/ColumnIndex), a MERGED_CELL's text in its
 *   top-left cell and the other cells it covers left empty (a pipe table has no spans), its TABLE_TITLE
 *   above it and its TABLE_FOOTER below it as paragraphs (unless a cell holds them); the words of a table
 *   are not repeated as text;
 * - with LAYOUT: the LAYOUT_* blocks in the order Textract returns them (its reading order); a table goes in
 *   the layout block holding most of its words' lines, where its first line is; the block's other lines stay
 *   around it in their order;
 * - without LAYOUT (TABLES/FORMS only, or DetectDocumentText): the lines, laid out by geometry as for
 *   tesseract (real line heights, in points), with each table placed among them by its position;
 * - a SELECTION_ELEMENT is ☒ (selected) or ☐, inside its cell, or among the words of the line beside it.
 */
import type { PageSize } from '../providers/pages.js';
import { linesToBlocks, renderMarkdown, type MarkdownBlock, type TextLine } from '../providers/layout.js';
import { childText, ofType, related, selectionMark, type Block, type BlockGraph, type Box } from './textract-blocks.js';

export interface PageMarkdownOptions {
  /** The page's size in points: geometry compares gaps across with heights down, so both must be in one unit. */
  size: PageSize;
  /**
   * Whether lines may be read as a table from their geometry. Off when TABLES was asked: the service then
   * said where the tables are, and a guess would add tables it did not find.
   */
  tablesFromGeometry: boolean;
}

interface Word {
  text: string;
  box: Box;
}

/** A LINE's words that no table holds (a check box beside it added), or a check box on its own. */
interface TextItem {
  id: string;
  words: Word[];
  box: Box;
}

interface Table {
  id: string;
  rows: string[][];
  title: string;
  footer: string;
  /** Ids of the WORDs in its cells, title and footer. */
  words: ReadonlySet<string>;
  box: Box;
}

/** A part of the page's markdown with where it is, for placing what no layout block holds. */
interface Chunk {
  blocks: MarkdownBlock[];
  box: Box;
}

const EMPTY: Box = { left: 0, top: 0, right: 0, bottom: 0 };

/** One page's markdown, as the module comment says. */
export function pageMarkdown(graph: BlockGraph, options: PageMarkdownOptions): string {
  const tables = ofType(graph, 'TABLE')
    .map((table) => readTable(graph, table))
    .filter((table) => table.rows.length > 0);
  const inTables = new Set(tables.flatMap((table) => [...table.words]));
  const { lines, loose } = textItems(graph, inTables, options.size);
  const layout = [...graph.values()].filter((b) => b.type.startsWith('LAYOUT_'));
  const chunks =
    layout.length > 0
      ? layoutChunks(graph, layout, lines, loose, tables, options.size)
      : geometryChunks(lines, loose, tables, options);
  return renderMarkdown(chunks.flatMap((chunk) => chunk.blocks));
}

function readTable(graph: BlockGraph, table: Block): Table {
  const isCell = (b: Block) => b.type === 'CELL' && b.rowIndex !== null && b.columnIndex !== null;
  const cells = related(graph, table, 'CHILD').filter(isCell);
  const height = Math.max(0, ...cells.map((c) => c.rowIndex! + c.rowSpan - 1));
  const width = Math.max(0, ...cells.map((c) => c.columnIndex! + c.columnSpan - 1));
  const rows = Array.from({ length: height }, () => new Array<string>(width).fill(''));
  // Indices outside the grid the table's cells span (a damaged answer) are ignored rather than grown into.
  const at = (block: Block) => ({ row: rows[block.rowIndex! - 1], column: block.columnIndex! - 1 });
  const put = (block: Block, text: string) => {
    const { row, column } = at(block);
    if (row && column >= 0 && column < width) row[column] = text;
  };
  for (const cell of cells) put(cell, childText(graph, cell));
  for (const merged of related(graph, table, 'MERGED_CELL').filter(
    (b) => b.rowIndex !== null && b.columnIndex !== null,
  )) {
    const covered = related(graph, merged, 'CHILD').filter(isCell);
    const text = covered
      .map((cell) => at(cell).row?.[at(cell).column] ?? '')
      .filter((t) => t !== '')
      .join(' ');
    for (const cell of covered) put(cell, '');
    put(merged, text);
  }
  const titles = related(graph, table, 'TABLE_TITLE');
  const footers = related(graph, table, 'TABLE_FOOTER');
  const wordsOf = (blocks: readonly Block[]) =>
    blocks.flatMap((b) => related(graph, b, 'CHILD')).filter((b) => b.type === 'WORD');
  const inCells = new Set(wordsOf(cells).map((w) => w.id));
  // A title (or footer) printed inside the table is a cell already (an in-table title): not said twice.
  const text = (blocks: readonly Block[]) =>
    wordsOf(blocks)
      .filter((w) => !inCells.has(w.id) && w.text)
      .map((w) => w.text)
      .join(' ');
  return {
    id: table.id,
    rows,
    title: text(titles),
    footer: text(footers),
    words: new Set(wordsOf([...cells, ...titles, ...footers]).map((w) => w.id)),
    box: union([table, ...titles, ...footers].flatMap((b) => b.box ?? [])),
  };
}

/**
 * Each LINE's words outside tables, by line id; check boxes outside tables join a line on their row
 * (within three line heights), else stand alone (`loose`).
 */
function textItems(
  graph: BlockGraph,
  inTables: ReadonlySet<string>,
  size: PageSize,
): { lines: Map<string, TextItem>; loose: TextItem[] } {
  const lines = new Map<string, TextItem>();
  for (const line of ofType(graph, 'LINE')) {
    const words = related(graph, line, 'CHILD')
      .filter((w) => w.type === 'WORD' && w.text && !inTables.has(w.id))
      .map((w) => ({ text: w.text!, box: w.box ?? line.box ?? EMPTY }));
    lines.set(line.id, { id: line.id, words, box: line.box ?? EMPTY });
  }
  const inCells = new Set(ofType(graph, 'CELL').flatMap((cell) => cell.relations.CHILD ?? []));
  const loose: TextItem[] = [];
  for (const mark of ofType(graph, 'SELECTION_ELEMENT')) {
    if (inCells.has(mark.id) || !mark.box) continue;
    const word = { text: selectionMark(mark), box: mark.box };
    const middle = (mark.box.top + mark.box.bottom) / 2;
    // A box inside a line's extent first, then the nearest line to its right (a label follows its box on
    // most forms), then to its left.
    let nearest: TextItem | undefined;
    let best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (const line of lines.values()) {
      if (middle < line.box.top || middle > line.box.bottom) continue;
      const gap = Math.max(0, line.box.left - mark.box.right, mark.box.left - line.box.right) * size.width;
      if (gap > 3 * (line.box.bottom - line.box.top) * size.height) continue;
      const rank = gap === 0 ? 0 : line.box.left >= mark.box.right ? 1 : 2;
      if (rank < best[0]! || (rank === best[0] && gap < best[1]!)) [nearest, best] = [line, [rank, gap]];
    }
    if (nearest) {
      const at = nearest.words.findIndex((w) => w.box.left > mark.box!.left);
      nearest.words.splice(at < 0 ? nearest.words.length : at, 0, word);
    } else loose.push({ id: mark.id, words: [word], box: mark.box });
  }
  return { lines, loose };
}

const HEADINGS: Record<string, 1 | 2> = { LAYOUT_TITLE: 1, LAYOUT_SECTION_HEADER: 2 };

/** One entry of a layout block: a table, or text lines of one group (a list item, a key-value line …). */
type Entry = { table: Table } | { group: number; item: TextItem };

function layoutChunks(
  graph: BlockGraph,
  layout: readonly Block[],
  lines: ReadonlyMap<string, TextItem>,
  loose: readonly TextItem[],
  tables: readonly Table[],
  size: PageSize,
): Chunk[] {
  const listItems = new Set(layout.filter((b) => b.type === 'LAYOUT_LIST').flatMap((b) => b.relations.CHILD ?? []));
  const regions = layout.filter((b) => !listItems.has(b.id));
  // A region's lines in order, each with its group: a list's items, a key-value block's lines, else one group.
  const regionLines = new Map(
    regions.map((region) => {
      const groups = region.type === 'LAYOUT_LIST' ? related(graph, region, 'CHILD') : [region];
      const linesOf = (group: Block) =>
        group.type === 'LINE' ? [group] : related(graph, group, 'CHILD').filter((b) => b.type === 'LINE');
      const entries = groups.flatMap((group, g) =>
        linesOf(group).map((line, i) => ({ line: line.id, group: region.type === 'LAYOUT_KEY_VALUE' ? i : g })),
      );
      return [region.id, entries] as const;
    }),
  );
  const regionOfLine = new Map(
    [...regionLines].flatMap(([region, entries]) => entries.map((e) => [e.line, region] as const)),
  );
  const lineOfWord = new Map(
    ofType(graph, 'LINE').flatMap((line) => (line.relations.CHILD ?? []).map((word) => [word, line.id] as const)),
  );

  // Each table goes to the region holding most of its words' lines, else the region around its centre.
  const tablesOf = new Map<string, Table[]>();
  const orphans: Chunk[] = [];
  for (const table of tables) {
    const votes = new Map<string, number>();
    for (const word of table.words) {
      const region = regionOfLine.get(lineOfWord.get(word) ?? '');
      if (region) votes.set(region, (votes.get(region) ?? 0) + 1);
    }
    const region =
      [...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? regions.find((r) => r.box && contains(r.box, table.box))?.id;
    if (region) pushTo(tablesOf, region, table);
    else orphans.push({ blocks: tableBlocks(table), box: table.box });
  }
  const placedLoose = new Map<string, TextItem[]>();
  for (const item of loose) {
    const region = regions.find((r) => r.box && contains(r.box, item.box));
    if (region) pushTo(placedLoose, region.id, item);
    else orphans.push({ blocks: [{ kind: 'paragraph', text: itemText(item) }], box: item.box });
  }
  for (const line of lines.values())
    if (!regionOfLine.has(line.id) && line.words.length > 0)
      orphans.push({ blocks: [{ kind: 'paragraph', text: itemText(line) }], box: line.box });

  const chunks = regions.map((region): Chunk => {
    const own = tablesOf.get(region.id) ?? [];
    const entries: Entry[] = [];
    const done = new Set<string>();
    for (const { line, group } of regionLines.get(region.id)!) {
      const item = lines.get(line)!;
      for (const table of own) {
        if (done.has(table.id) || !lineTouches(graph, line, table)) continue;
        entries.push({ table });
        done.add(table.id);
      }
      if (item.words.length > 0) entries.push({ group, item });
    }
    // Tables placed by geometry and loose check boxes go before the first line below them.
    for (const table of own.filter((t) => !done.has(t.id))) insertByTop(entries, { table }, table.box.top);
    for (const item of placedLoose.get(region.id) ?? []) insertByTop(entries, { group: -1, item }, item.box.top);
    return { blocks: regionBlocks(region, entries, size), box: region.box ?? EMPTY };
  });
  for (const orphan of orphans.sort((a, b) => a.box.top - b.box.top)) {
    const at = chunks.findIndex(
      (c) => c.box.top > orphan.box.top && c.box.left < orphan.box.right && orphan.box.left < c.box.right,
    );
    chunks.splice(at < 0 ? chunks.length : at, 0, orphan);
  }
  return chunks;
}

function pushTo<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function lineTouches(graph: BlockGraph, line: string, table: Table): boolean {
  return (graph.get(line)?.relations.CHILD ?? []).some((word) => table.words.has(word));
}

function insertByTop(entries: Entry[], entry: Entry, top: number): void {
  const at = entries.findIndex((e) => ('table' in e ? e.table.box.top : e.item.box.top) > top);
  entries.splice(at < 0 ? entries.length : at, 0, entry);
}

/** A layout block's entries → markdown: consecutive lines of one group make one heading, list item or paragraph. */
function regionBlocks(region: Block, entries: readonly Entry[], size: PageSize): MarkdownBlock[] {
  // A LAYOUT_TABLE without a TABLE block (TABLES not asked): its lines are laid out by geometry.
  if (region.type === 'LAYOUT_TABLE' && entries.every((e) => 'item' in e))
    return linesToBlocks(entries.flatMap((e) => ('item' in e ? [textLine(e.item, size)] : [])));
  const blocks: MarkdownBlock[] = [];
  let text: string[] = [];
  let group: number | null = null;
  const flush = () => {
    if (text.length === 0) return;
    const joined = text.join(' ');
    const heading = HEADINGS[region.type];
    blocks.push(
      heading
        ? { kind: 'heading', level: heading, text: joined }
        : region.type === 'LAYOUT_LIST'
          ? { kind: 'list-item', text: joined }
          : { kind: 'paragraph', text: joined },
    );
    text = [];
  };
  for (const entry of entries) {
    if ('table' in entry) {
      flush();
      blocks.push(...tableBlocks(entry.table));
      group = null;
      continue;
    }
    if (group !== entry.group) flush();
    group = entry.group;
    text.push(itemText(entry.item));
  }
  flush();
  return blocks;
}

function tableBlocks(table: Table): MarkdownBlock[] {
  return [
    { kind: 'paragraph', text: table.title },
    { kind: 'table', rows: table.rows },
    { kind: 'paragraph', text: table.footer },
  ];
}

function itemText(item: TextItem): string {
  return item.words.map((w) => w.text).join(' ');
}

/** Without LAYOUT: the lines by geometry, each table between the lines above it and those starting below its top. */
function geometryChunks(
  lines: ReadonlyMap<string, TextItem>,
  loose: readonly TextItem[],
  tables: readonly Table[],
  options: PageMarkdownOptions,
): Chunk[] {
  const sorted = [...tables].sort((a, b) => a.box.top - b.box.top);
  const segments: TextItem[][] = Array.from({ length: sorted.length + 1 }, () => []);
  for (const item of [...lines.values(), ...loose]) {
    if (item.words.length === 0) continue;
    segments[sorted.filter((table) => table.box.top <= item.box.top).length]!.push(item);
  }
  const text = (items: readonly TextItem[]): Chunk => ({
    blocks: linesToBlocks(
      items.map((item) => textLine(item, options.size)),
      { tables: options.tablesFromGeometry },
    ),
    box: EMPTY,
  });
  return [
    text(segments[0]!),
    ...sorted.flatMap((table, i) => [{ blocks: tableBlocks(table), box: table.box }, text(segments[i + 1]!)]),
  ];
}

/** A text item in points (the same unit across and down, so a gap compares with the line's real height). */
function textLine(item: TextItem, size: PageSize): TextLine {
  return {
    words: item.words.map((w) => ({ text: w.text, x0: w.box.left * size.width, x1: w.box.right * size.width })),
    top: item.box.top * size.height,
    bottom: item.box.bottom * size.height,
    height: (item.box.bottom - item.box.top) * size.height,
  };
}

function union(boxes: readonly Box[]): Box {
  if (boxes.length === 0) return EMPTY;
  return {
    left: Math.min(...boxes.map((b) => b.left)),
    top: Math.min(...boxes.map((b) => b.top)),
    right: Math.max(...boxes.map((b) => b.right)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}

/** Whether the centre of `inner` lies inside `outer`. */
function contains(outer: Box, inner: Box): boolean {
  const x = (inner.left + inner.right) / 2;
  const y = (inner.top + inner.bottom) / 2;
  return x >= outer.left && x <= outer.right && y >= outer.top && y <= outer.bottom;
}
