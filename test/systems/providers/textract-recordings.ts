/**
 * Textract answers recorded by AWS's own project (test/fixtures/recordings/textract/README.md), and what a
 * correct adapter must keep of them, computed from the blocks themselves: the LINEs' words, each TABLE's
 * grid (rows × columns from CELL and MERGED_CELL indices and spans) and cell texts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tokenizeWords } from '../../../src/score/markdown/words.js';

const FOLDER = fileURLToPath(new URL('../../fixtures/recordings/textract/', import.meta.url));

export interface RecordedBlock {
  Id: string;
  BlockType: string;
  Text?: string;
  RowIndex?: number;
  ColumnIndex?: number;
  RowSpan?: number;
  ColumnSpan?: number;
  EntityTypes?: string[];
  SelectionStatus?: string;
  Confidence?: number;
  Geometry?: { BoundingBox: { Left: number; Top: number; Width: number; Height: number } };
  Relationships?: { Type: string; Ids: string[] }[];
}

export interface Recording {
  name: string;
  /** The service's body (boto3's `ResponseMetadata` removed). */
  body: { Blocks: RecordedBlock[] } & Record<string, unknown>;
}

export function loadRecordings(): Recording[] {
  return readdirSync(FOLDER)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const { ResponseMetadata: _, ...body } = JSON.parse(readFileSync(FOLDER + file, 'utf8')) as Recording['body'] & {
        ResponseMetadata?: unknown;
      };
      return { name: file.replace(/\.json$/, ''), body };
    });
}

/** The answer without the blocks `drop` picks, and without any relationship to them. */
export function withoutBlocks(body: Recording['body'], drop: (block: RecordedBlock) => boolean): Recording['body'] {
  const dropped = new Set(body.Blocks.filter(drop).map((b) => b.Id));
  const Blocks = body.Blocks.filter((b) => !dropped.has(b.Id)).map((b) =>
    b.Relationships
      ? { ...b, Relationships: b.Relationships.map((r) => ({ ...r, Ids: r.Ids.filter((id) => !dropped.has(id)) })) }
      : b,
  );
  return { ...body, Blocks };
}

/** The answer as `features: [TABLES, FORMS]` would give it: no LAYOUT_* blocks. */
export function withoutLayout(body: Recording['body']): Recording['body'] {
  return withoutBlocks(body, (b) => b.BlockType.startsWith('LAYOUT_'));
}

/** The answer as `features: [LAYOUT]` would give it: no TABLE, CELL, MERGED_CELL, TABLE_TITLE or TABLE_FOOTER. */
export function withoutTables(body: Recording['body']): Recording['body'] {
  return withoutBlocks(body, (b) => /^(TABLE|CELL|MERGED_CELL|TABLE_TITLE|TABLE_FOOTER)$/.test(b.BlockType));
}

export function blocksOf(body: Recording['body'], type: string): RecordedBlock[] {
  return body.Blocks.filter((b) => b.BlockType === type);
}

function related(byId: Map<string, RecordedBlock>, block: RecordedBlock, type: string): RecordedBlock[] {
  return (block.Relationships ?? []).filter((r) => r.Type === type).flatMap((r) => r.Ids.map((id) => byId.get(id)!));
}

/** Every recorded LINE's words, in the order of the answer. */
export function recordedLineWords(body: Recording['body']): string[] {
  return blocksOf(body, 'LINE').flatMap((line) => tokenizeWords(line.Text ?? ''));
}

/** A recorded TABLE as its grid of cell words: a merged cell's words in its first cell, the rest empty. */
export function recordedTables(body: Recording['body']): string[][][] {
  const byId = new Map(body.Blocks.map((b) => [b.Id, b]));
  return blocksOf(body, 'TABLE').map((table) => {
    const grid: string[][] = [];
    const words = (cell: RecordedBlock) =>
      related(byId, cell, 'CHILD').flatMap((child) =>
        child.BlockType === 'WORD' ? tokenizeWords(child.Text ?? '') : [],
      );
    for (const cell of related(byId, table, 'CHILD')) {
      grid[cell.RowIndex! - 1] ??= [];
      grid[cell.RowIndex! - 1]![cell.ColumnIndex! - 1] = words(cell).join(' ');
    }
    for (const merged of related(byId, table, 'MERGED_CELL')) {
      const cells = related(byId, merged, 'CHILD');
      for (const cell of cells) grid[cell.RowIndex! - 1]![cell.ColumnIndex! - 1] = '';
      grid[merged.RowIndex! - 1]![merged.ColumnIndex! - 1] = cells.flatMap((cell) => words(cell)).join(' ');
    }
    return grid;
  });
}
