/**
 * GitHub-flavoured markdown pipe tables (GFM spec §4.10): a header row, a delimiter row with the same
 * number of cells (`---`, `:--`, `--:`, `:-:`), then body rows until a blank line or the start of another
 * block. As GFM renders them: cells beyond the header's count are dropped, missing cells are empty, `\|`
 * is a literal pipe. A hand-written line scanner rather than a markdown library: only this one construct is
 * needed, and its rules fit in this file.
 */
import { readFragmentText } from './parse-html-tables.js';
import { collapseWhitespace, type TableCell, type TableTree } from './table-tree.js';

/** A pipe table found in a run of lines, with the lines it spans (inclusive, 0-based). */
export interface PipeTableMatch {
  table: TableTree;
  firstLine: number;
  lastLine: number;
}

const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
/** Lines that start another block and so end a table body (GFM: "beginning of another block-level structure"). */
const BLOCK_START = /^ {0,3}(#{1,6}(\s|$)|>|`{3,}|~{3,}|<|([-*_]\s*){3,}$|[-+*]\s|\d{1,9}[.)]\s)/;

/**
 * Finds pipe tables in `lines`. `lineOffsets[i]` is the document offset of line i; lines flagged in `skip`
 * (inside fenced code) are never part of a table.
 */
export function parsePipeTables(
  lines: readonly string[],
  lineOffsets: readonly number[],
  skip: readonly boolean[],
): PipeTableMatch[] {
  const found: PipeTableMatch[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (skip[i] || skip[i + 1]) continue;
    const header = lines[i]!;
    const delimiter = lines[i + 1]!;
    // A delimiter row without any pipe (`---`) under a one-cell header is a setext heading, not a table.
    if (!header.includes('|') || !delimiter.includes('|') || !DELIMITER_ROW.test(delimiter) || isIndentedCode(header))
      continue;
    const headerCells = splitRow(header);
    if (headerCells.length !== splitRow(delimiter).length) continue;
    const width = headerCells.length;
    const rows = [toCells(headerCells, width)];
    let last = i + 1;
    for (let j = i + 2; j < lines.length; j++) {
      const line = lines[j]!;
      if (skip[j] || line.trim() === '' || BLOCK_START.test(line)) break;
      rows.push(toCells(splitRow(line), width));
      last = j;
    }
    found.push({ table: { rows, source: 'markdown', offset: lineOffsets[i] ?? 0 }, firstLine: i, lastLine: last });
    i = last;
  }
  return found;
}

function isIndentedCode(line: string): boolean {
  return /^( {4}|\t)/.test(line);
}

/** Splits a row on unescaped pipes, dropping one optional leading and one optional trailing pipe. */
function splitRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let k = 0; k < body.length; k++) {
    const ch = body[k]!;
    if (ch === '\\' && body[k + 1] === '|') {
      current += '|';
      k++;
    } else if (ch === '|') {
      cells.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  cells.push(current);
  return cells;
}

function toCells(raw: readonly string[], width: number): TableCell[] {
  const cells: TableCell[] = [];
  for (let k = 0; k < width; k++) cells.push({ rowspan: 1, colspan: 1, text: cleanCellText(raw[k] ?? '') });
  return cells;
}

/**
 * Cell text comparable with an HTML cell's text content: inline HTML (`<br>`, `<b>`) and entities are read
 * through the HTML parser, and the markdown markers that HTML would express as tags (`**`, `__`, `~~`, code
 * backticks) are dropped. Single `*` / `_` are kept: they are as often literal (footnote marks, snake_case).
 */
export function cleanCellText(raw: string): string {
  let text = raw;
  if (text.includes('<') || text.includes('&')) text = readFragmentText(text);
  return collapseWhitespace(text.replace(/\*\*|__|~~|`/g, ''));
}
