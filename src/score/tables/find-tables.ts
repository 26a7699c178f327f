/**
 * Every table of a markdown document, pipe tables and HTML tables alike, in document order. Fenced code
 * blocks are skipped (a table shown as code is not a table), and pipe-table lines are blanked before the HTML
 * parse so that nothing is read twice.
 */
import { parseHtmlTables } from './parse-html-tables.js';
import { parsePipeTables } from './parse-markdown-tables.js';
import type { TableTree } from './table-tree.js';

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** The tables of `markdown`, in the order they appear. */
export function findTables(markdown: string): TableTree[] {
  const lines = markdown.split('\n');
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const inFence = markFencedLines(lines);
  const pipeTables = parsePipeTables(lines, offsets, inFence);

  // Blank (same length, so offsets hold) every line the HTML parser must not see.
  const hidden = [...inFence];
  for (const match of pipeTables) for (let i = match.firstLine; i <= match.lastLine; i++) hidden[i] = true;
  const visible = lines.map((line, i) => (hidden[i] ? ' '.repeat(line.length) : line)).join('\n');

  return [...pipeTables.map((m) => m.table), ...parseHtmlTables(visible)].sort((a, b) => a.offset - b.offset);
}

/** Flags the lines of fenced code blocks, fences included (CommonMark §4.5; an unclosed fence runs to the end). */
function markFencedLines(lines: readonly string[]): boolean[] {
  const flags = new Array<boolean>(lines.length).fill(false);
  let fence: { char: string; length: number } | null = null;
  lines.forEach((line, i) => {
    if (fence) {
      flags[i] = true;
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
      return;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      flags[i] = true;
      fence = { char: open[1]![0]!, length: open[1]!.length };
    }
  });
  return flags;
}
