/**
 * Textract's answer read as a graph of blocks (https://docs.aws.amazon.com/textract/latest/dg/API_Block.html):
 * each block keeps its type, text, confidence (0–100), bounding box (fractions of the page) and its
 * relationships by type (CHILD, VALUE, ANSWER, MERGED_CELL, TABLE_TITLE, TABLE_FOOTER …), so the markdown
 * and the form fields can follow the service's own structure rather than guess it from positions.
 */
import type { ShapeReader } from '../../service/index.js';

/** Fractions of the page, origin top-left. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** One block as docbench uses it. */
export interface Block {
  id: string;
  /** `BlockType`: PAGE, LINE, WORD, TABLE, CELL, LAYOUT_TEXT, KEY_VALUE_SET … */
  type: string;
  text: string | null;
  confidence: number | null;
  box: Box | null;
  /** Related block ids by relationship type, in the answer's order. */
  relations: Readonly<Record<string, readonly string[]>>;
  rowIndex: number | null;
  columnIndex: number | null;
  rowSpan: number;
  columnSpan: number;
  entityTypes: readonly string[];
  /** A SELECTION_ELEMENT's status; null for other blocks. */
  selected: boolean | null;
  /** A QUERY's alias. */
  alias: string | null;
}

/** One page's blocks by id, in the answer's order (Textract returns LAYOUT blocks in reading order). */
export type BlockGraph = ReadonlyMap<string, Block>;

/** The answer's `Blocks`, checked as read: a missing or mistyped field is named by its path in the answer. */
export function readBlocks(body: unknown, reader: ShapeReader): BlockGraph {
  const root = reader.object(body, '(body)');
  const blocks = new Map<string, Block>();
  reader.array(root.Blocks, 'Blocks').forEach((value, i) => {
    const at = `Blocks[${i}]`;
    const block = reader.object(value, at);
    const geometry = reader.optionalObject(block.Geometry, `${at}.Geometry`);
    const bbox = geometry ? reader.optionalObject(geometry.BoundingBox, `${at}.Geometry.BoundingBox`) : undefined;
    const relations: Record<string, string[]> = {};
    (reader.optionalArray(block.Relationships, `${at}.Relationships`) ?? []).forEach((r, j) => {
      const rel = reader.object(r, `${at}.Relationships[${j}]`);
      const ids = reader
        .array(rel.Ids, `${at}.Relationships[${j}].Ids`)
        .map((id, k) => reader.string(id, `${at}.Relationships[${j}].Ids[${k}]`));
      const type = reader.string(rel.Type, `${at}.Relationships[${j}].Type`);
      relations[type] = [...(relations[type] ?? []), ...ids];
    });
    const left = bbox ? reader.number(bbox.Left, `${at}.Geometry.BoundingBox.Left`) : 0;
    const top = bbox ? reader.number(bbox.Top, `${at}.Geometry.BoundingBox.Top`) : 0;
    const query = reader.optionalObject(block.Query, `${at}.Query`);
    const status = reader.optionalString(block.SelectionStatus, `${at}.SelectionStatus`);
    const id = reader.string(block.Id, `${at}.Id`);
    blocks.set(id, {
      id,
      type: reader.string(block.BlockType, `${at}.BlockType`),
      text: reader.optionalString(block.Text, `${at}.Text`),
      confidence: reader.optionalNumber(block.Confidence, `${at}.Confidence`),
      box: bbox
        ? {
            left,
            top,
            right: left + reader.number(bbox.Width, `${at}.Geometry.BoundingBox.Width`),
            bottom: top + reader.number(bbox.Height, `${at}.Geometry.BoundingBox.Height`),
          }
        : null,
      relations,
      rowIndex: reader.optionalNumber(block.RowIndex, `${at}.RowIndex`),
      columnIndex: reader.optionalNumber(block.ColumnIndex, `${at}.ColumnIndex`),
      rowSpan: reader.optionalNumber(block.RowSpan, `${at}.RowSpan`) ?? 1,
      columnSpan: reader.optionalNumber(block.ColumnSpan, `${at}.ColumnSpan`) ?? 1,
      entityTypes: (reader.optionalArray(block.EntityTypes, `${at}.EntityTypes`) ?? []).map((e, k) =>
        reader.string(e, `${at}.EntityTypes[${k}]`),
      ),
      selected: status === null ? null : status === 'SELECTED',
      alias: query ? reader.optionalString(query.Alias, `${at}.Query.Alias`) : null,
    });
  });
  return blocks;
}

/** The blocks `block` points to by one relationship type; ids the answer does not hold are skipped. */
export function related(graph: BlockGraph, block: Block, type: string): Block[] {
  return (block.relations[type] ?? []).flatMap((id) => graph.get(id) ?? []);
}

/** The blocks of one `BlockType`, in the answer's order. */
export function ofType(graph: BlockGraph, type: string): Block[] {
  return [...graph.values()].filter((b) => b.type === type);
}

/** How docbench writes a check box in text (docs/providers.md, textract). */
export function selectionMark(block: Block): string {
  return block.selected ? '☒' : '☐';
}

/** The text of a block's children (a cell's or title's WORDs and SELECTION_ELEMENTs), in order. */
export function childText(graph: BlockGraph, block: Block): string {
  return related(graph, block, 'CHILD')
    .flatMap((child) => (child.type === 'SELECTION_ELEMENT' ? [selectionMark(child)] : child.text ? [child.text] : []))
    .join(' ');
}

/** The WORD blocks' text, space-joined, in order. */
function wordText(blocks: readonly Block[]): string {
  return blocks
    .filter((b) => b.type === 'WORD' && b.text)
    .map((b) => b.text)
    .join(' ');
}

/** A key of the FORMS feature with its value: the blocks, their words, and the value's check box state. */
export interface KeyValuePair {
  key: Block;
  values: Block[];
  keyText: string;
  valueText: string;
  /** The value's check box: ticked or not; null when the value has none. */
  selected: boolean | null;
}

/** Every KEY_VALUE_SET key of the answer with its value, in the answer's order. */
export function keyValuePairs(graph: BlockGraph): KeyValuePair[] {
  return ofType(graph, 'KEY_VALUE_SET')
    .filter((block) => block.entityTypes.includes('KEY'))
    .map((key) => {
      const values = related(graph, key, 'VALUE');
      const children = values.flatMap((value) => related(graph, value, 'CHILD'));
      const mark = children.find((child) => child.type === 'SELECTION_ELEMENT');
      return {
        key,
        values,
        keyText: wordText(related(graph, key, 'CHILD')),
        valueText: wordText(children),
        selected: mark ? mark.selected : null,
      };
    });
}
