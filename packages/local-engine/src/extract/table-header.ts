/**
 * A table's column captions as a form prints them: over several ruled lines ("Relationship to" over "You", "Social
 * Security" over "Number", a hint "(Last, First, Middle)" under "Name"), or one letter a line down a narrow column
 * ("A", "G", "E"). The layout gives the first line as the header and the others as rows without a figure; here they
 * are joined back into the captions (CHANGELOG.md, "Other users' words").
 */
import type { TableBlock } from '../layout/types.js';

/** Most lines a caption runs over besides its first. */
const MAX_CAPTION_LINES = 3;

/** A table's captions, each column's lines joined, and the row its body starts at. */
export interface TableHeader {
  /** Each column's caption as printed, its hints in parentheses too. */
  printed: string[];
  /** Each column's caption without its hints, a caption spelled one letter a line read as one word. */
  captions: string[];
  /** The first row of the table's body (in `cellLines`). */
  bodyFrom: number;
}

function hasFigure(row: TableBlock['cellLines'][number]): boolean {
  return row.some((cell) => cell !== null && /\d/.test(cell.text));
}

/** A caption without its hints ("Name (Last, First)" → "Name"), its letters joined when each stands alone ("A G E"). */
function captionWords(printed: string): string {
  const words = printed
    .replace(/\([^)]*\)?/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return words.length >= 2 && words.every((word) => /^\p{L}$/u.test(word)) ? words.join('') : words.join(' ');
}

/**
 * The table's captions: the header line with the lines under it that hold no figure, up to MAX_CAPTION_LINES, when
 * rows with figures follow them (a table of words alone keeps its first line as the header, as laid out).
 */
export function readTableHeader(table: TableBlock): TableHeader {
  const rows = table.cellLines;
  let bodyFrom = 1;
  while (
    bodyFrom < rows.length &&
    bodyFrom <= MAX_CAPTION_LINES &&
    !hasFigure(rows[bodyFrom]!) &&
    rows.slice(bodyFrom + 1).some(hasFigure)
  )
    bodyFrom++;
  const printed = table.header.map((first, column) =>
    [first, ...rows.slice(1, bodyFrom).map((row) => row[column]?.text ?? '')]
      .map((text) => text.trim())
      .filter(Boolean)
      .join(' '),
  );
  return { printed, captions: printed.map(captionWords), bodyFrom };
}
