/**
 * A system's page markdown split into the blocks OmniDocBench's end-to-end evaluation compares (its
 * `md_tex_filter`, docs/metrics.md "Blocks"): HTML and pipe tables, display formulas (and, as OmniDocBench
 * does, the inline ones beside them), and text paragraphs. Each block keeps the position OmniDocBench gives
 * it, because the reading order is the order of those positions. Positions of paragraphs are the summed
 * lengths of the paragraphs before them (separators not counted), as OmniDocBench computes them: the order
 * is what matters, and it is the same.
 */

export type OutputBlockKind = 'text' | 'formula' | 'html_table' | 'latex_table';

export interface OutputBlock {
  kind: OutputBlockKind;
  /** Where the block starts, in OmniDocBench's position units (see above). */
  position: number;
  content: string;
  /** A `$…$` or `\(…\)` formula read among the display formulas (OmniDocBench matches them too). */
  inline?: boolean;
}

/** Replaces `[start, end)` by spaces, keeping every later offset where it was. */
function blankOut(text: string, start: number, end: number): string {
  return text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);
}

/** Top-level spans of `open … close` pairs, nesting counted (LaTeX tabulars, HTML tables inside tables). */
function nestedSpans(text: string, open: RegExp, close: RegExp): [number, number][] {
  const tokens: { at: number; end: number; opening: boolean }[] = [];
  for (const match of text.matchAll(open)) tokens.push({ at: match.index, end: match.index, opening: true });
  for (const match of text.matchAll(close)) {
    tokens.push({ at: match.index, end: match.index + match[0].length, opening: false });
  }
  tokens.sort((a, b) => a.at - b.at);
  const spans: [number, number][] = [];
  let depth = 0;
  let start = 0;
  for (const token of tokens) {
    if (token.opening) {
      if (depth === 0) start = token.at;
      depth += 1;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0) spans.push([start, token.end]);
    }
  }
  return spans;
}

/** Pipe-table rows as OmniDocBench finds them: from a `|` to the next `|` that ends a line. */
const PIPE_ROW = /\|[\s\S]*?\|\n/g;

/**
 * OmniDocBench turns each pipe row into a one-row table and merges adjacent ones; on the way, a line holding
 * `---` or a colon is dropped (its converter takes such lines for the separator row), which drops the
 * separator row and also any cell whose text has a colon. Rows are merged while they follow each other
 * without a blank line, and the line just before a table is lost with it. Returns the content with each table replaced by its HTML.
 */
function pipeTablesToHtml(content: string): string {
  const rows = [...content.matchAll(PIPE_ROW)];
  if (rows.length < 2) return content;
  let out = '';
  let cursor = 0;
  let index = 0;
  while (index < rows.length) {
    const first = rows[index]!;
    let last = index;
    while (last + 1 < rows.length && rows[last + 1]!.index === rows[last]!.index + rows[last]![0].length) last += 1;
    // Its converter also swallows the line before the table (and the table line's indentation).
    const lineStart = content.lastIndexOf('\n', first.index - 1) + 1;
    const previousLineStart = lineStart === 0 ? 0 : content.lastIndexOf('\n', lineStart - 2) + 1;
    out += content.slice(cursor, Math.max(cursor, previousLineStart));
    const htmlRows: string[] = [];
    for (let r = index; r <= last; r += 1) {
      const cells = rows[r]![0].trim()
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim())
        .filter((cell) => !/:|---/.test(cell));
      // Its converter writes every cell with explicit spans, which its table edit distance then counts.
      const written = cells.map((cell) => `<td colspan="1" rowspan="1">${cell}</td>`).join('');
      if (cells.length > 0) htmlRows.push(`<tr>${written}</tr>`);
    }
    out += `\n\n<table>${htmlRows.join('')}</table>\n\n`;
    cursor = rows[last]!.index + rows[last]![0].length;
    index = last + 1;
  }
  return out + content.slice(cursor);
}

const DISPLAY = /\$\$([\s\S]*?)\$\$|\\\[([\s\S]*?)\\\]|\$([\s\S]*?)\$|\\\(([\s\S]*?)\\\)/g;
const DOLLARS = /\$\$([\s\S]*?)\$\$|\$([\s\S]*?)\$|\\\(([\s\S]*?)\\\)/;
const DOLLARS_ALL = new RegExp(DOLLARS.source, 'g');

/** A display formula as OmniDocBench rewrites it: whitespace removed, `$$x$$` as `\[x\]`. */
function formulaBlock(matched: string, position: number): { block: OutputBlock; blank: boolean } {
  let line = matched.replace(/\s+/g, '');
  const sub = DOLLARS.exec(line);
  if (sub === null) return { block: { kind: 'formula', position, content: line }, blank: true };
  if (sub[1]) {
    line = line.replace(DOLLARS_ALL, (_m, a: string | undefined) => `\\[${a ?? ''}\\]`);
    return { block: { kind: 'formula', position, content: line }, blank: true };
  }
  line = line.replace(
    DOLLARS_ALL,
    (_m, _a, b: string | undefined, c: string | undefined) => `\\[${b ?? ''}${c ?? ''}\\]`,
  );
  return { block: { kind: 'formula', position, content: line, inline: true }, blank: false };
}

/** Steps OmniDocBench applies to the whole page first: images out, markdown fences out, long runs shortened. */
function preprocess(markdown: string): string {
  return markdown
    .replace(/!\[.*?\]\(.*?\)/g, '')
    .replace(/^```markdown\n?/gm, '')
    .replace(/```\n?$/gm, '')
    .replace(/_{4,}/g, '____')
    .replace(/ {4,}/g, '    ')
    .replace(/([^a-zA-Z0-9])\1{10,}/gu, '$1$1$1$1');
}

/** A page's markdown → its blocks in position order (OmniDocBench's `md_tex_filter`). */
export function splitOutputBlocks(markdown: string): OutputBlock[] {
  let content = preprocess(markdown);
  const blocks: OutputBlock[] = [];

  // LaTeX tables: table environments first, then top-level tabulars in what is left.
  for (const match of content.matchAll(/\\begin\{table\}[\s\S]*?\\end\{table\}/g)) {
    blocks.push({ kind: 'latex_table', position: match.index, content: match[0] });
    content = blankOut(content, match.index, match.index + match[0].length);
  }
  for (const [start, end] of nestedSpans(content, /\\begin\{tabular\}/g, /\\end\{tabular\}/g)) {
    blocks.push({ kind: 'latex_table', position: start, content: content.slice(start, end) });
    content = blankOut(content, start, end);
  }
  for (const [start, end] of nestedSpans(content, /<table[^>]*>/g, /<\/table>/g)) {
    blocks.push({ kind: 'html_table', position: start, content: content.slice(start, end) });
    content = blankOut(content, start, end);
  }
  for (const match of content.matchAll(DISPLAY)) {
    if (match[0] === '') continue;
    const { block, blank } = formulaBlock(match[0], match.index);
    blocks.push(block);
    if (blank) content = blankOut(content, match.index, match.index + match[0].length);
  }
  content = pipeTablesToHtml(`${content}\n`);
  for (const match of content.matchAll(/<table.*?<\/table>/gs)) {
    blocks.push({ kind: 'html_table', position: match.index, content: match[0].trim() });
    content = blankOut(content, match.index, match.index + match[0].length);
  }
  for (const match of content.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    blocks.push({ kind: 'text', position: match.index, content: (match[2] ?? '').trim() });
    content = blankOut(content, match.index, match.index + match[0].length);
  }
  content = content
    .replace(/\\title\{(.*?)\}/g, '$1')
    .replace(/\\title\s*\{\s*([\s\S]*?)\s*\}/g, '$1')
    .replace(/\\text\s*\{\s*([\s\S]*?)\s*\}/g, '$1')
    .replace(/\\section\*?\{(.*?)\}/g, '$1')
    .replace(/\\section\*?\{\s*([\s\S]*?)\s*\}/g, '$1');
  blocks.push(...paragraphs(content));
  // A stable sort, as OmniDocBench's: blocks at one position keep the order they were found in.
  return blocks.sort((a, b) => a.position - b.position);
}

/** Blank-line-separated paragraphs (single lines when the page has no blank line). */
function paragraphs(content: string): OutputBlock[] {
  let parts = content.split('\n\n');
  if (parts.length === 1) parts = content.split('\n');
  const blocks: OutputBlock[] = [];
  let position = 0;
  for (const part of parts) {
    const at = position;
    position += part.length;
    const text = part
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('\n');
    if (text === '') continue;
    if (text.startsWith('<table') && text.endsWith('</table>')) {
      blocks.push({ kind: 'html_table', position: at, content: text });
    } else if (text.startsWith('$') && text.endsWith('$')) {
      if (text.replaceAll('$', '').trim() !== '') blocks.push({ kind: 'formula', position: at, content: text });
    } else {
      blocks.push({ kind: 'text', position: at, content: text });
    }
  }
  return blocks;
}
