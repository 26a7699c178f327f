/** Layout → text forms: per-page markdown, plain text, and /split regions. */
import type { Block, PageLayout, PointBox } from './types.js';

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function renderBlock(block: Block): string {
  if (block.kind !== 'table')
    return block.kind === 'heading' ? `${'#'.repeat(block.level ?? 2)} ${block.text}` : block.text;
  const width = block.header.length;
  const lines = [
    `| ${block.header.map(escapeCell).join(' | ')} |`,
    `|${' --- |'.repeat(width)}`,
    ...block.rows.map((row) => `| ${row.map((cell) => escapeCell(cell ?? '')).join(' | ')} |`),
  ];
  return lines.join('\n');
}

/** One page as markdown: headings, paragraphs and pipe tables separated by blank lines. */
export function renderPageMarkdown(page: PageLayout): string {
  return page.blocks.map(renderBlock).join('\n\n');
}

/** One page as plain text: one row a line, the lines of a row separated by two spaces. */
export function renderPageText(page: PageLayout): string {
  return page.rows.map((row) => row.lines.map((l) => l.text).join('  ')).join('\n');
}

/** Text of a block as a region's content: tables row by row, cells separated by a space. */
export function blockText(block: Block): string {
  if (block.kind !== 'table') return block.text;
  return [block.header, ...block.rows.map((r) => r.map((c) => c ?? ''))]
    .map((cells) => cells.filter(Boolean).join(' '))
    .join('\n');
}

/** A point box → inches, rounded to 1/1000 in (docs/service-interface.md §2.3: inches, origin top-left). */
export function toInchBox(box: PointBox): { min_x: number; min_y: number; max_x: number; max_y: number } {
  const inch = (v: number) => Math.round((v / 72) * 1000) / 1000;
  return { min_x: inch(box.x0), min_y: inch(box.y0), max_x: inch(box.x1), max_y: inch(box.y1) };
}
