/**
 * Grids of captions over values (CHANGELOG.md, "Grids and tables"): a row of captions ("FILE  DEPT.
 * CLOCK  NUMBER") over a row of values that sit under them column by column, even where the OCR read the values
 * as one line ("126543 123456 12345 00000000"). A caption's value is the words under it, never the whole row,
 * and the captions beside it on its row are other columns' names, never its value.
 */
import type { PointBox, TextLine } from '../layout/types.js';
import { conceptWords } from '../lexicon/lexicon.js';
import {
  BOX_NUMBER,
  fragmentBox,
  parenthesised,
  reachBelow,
  type DocumentIndex,
  type IndexedLine,
} from './document-index.js';

interface Word {
  entry: IndexedLine;
  start: number;
  end: number;
  box: PointBox;
}

/** Shares of the narrower word two words must overlap by to stand in one column (positions are interpolated). */
const MIN_OVERLAP = 0.15;

function words(entry: IndexedLine): Word[] {
  return entry.tokens
    .filter((t) => t.norm !== '')
    .map((t) => ({ entry, start: t.start, end: t.end, box: fragmentBox(entry.line, t.start, t.end) }));
}

function overlaps(a: Word, b: Word): boolean {
  const shared = Math.min(a.box.x1, b.box.x1) - Math.max(a.box.x0, b.box.x0);
  const narrower = Math.min(a.box.x1 - a.box.x0, b.box.x1 - b.box.x0);
  return shared > MIN_OVERLAP * Math.max(1, narrower);
}

/**
 * The caption words of a row (hints in parentheses left out) and where its boxes start (captions and box
 * numbers), or null when the row holds values (digits beyond box numbers).
 */
function captionRow(row: IndexedLine[]): { captions: Word[]; starts: number[] } | null {
  const captions: Word[] = [];
  const starts: number[] = [];
  for (const entry of row) {
    const hint = parenthesised(entry.tokens);
    for (const word of words(entry)) {
      const raw = entry.line.text.slice(word.start, word.end);
      // A box number or item letter may stand in a caption row; any other digits make it a value row.
      if (/\d/.test(raw) && !BOX_NUMBER.test(raw)) return null;
      if (hint[entry.tokens.findIndex((t) => t.start === word.start)]) continue;
      starts.push(word.box.x0);
      if (!/\d/.test(raw)) captions.push(word);
    }
  }
  return { captions, starts };
}

/** The first row under the label within reach of a value (as valueBelow reaches), all its lines. */
function rowBelow(index: DocumentIndex, from: IndexedLine, labelBox: PointBox): IndexedLine[] {
  const reach = reachBelow(labelBox);
  const reachable = index.lines.filter(
    (c) =>
      c.page === from.page && c.rowIndex > from.rowIndex && c.line.box.y0 >= reach.top && c.line.box.y0 <= reach.bottom,
  );
  if (reachable.length === 0) return [];
  const first = Math.min(...reachable.map((c) => c.rowIndex));
  return reachable.filter((c) => c.rowIndex === first);
}

function cellLine(cell: Word[]): TextLine {
  const lines = [...new Set(cell.map((w) => w.entry))];
  // Words that follow each other on one line keep the line's own spacing ("3, $25").
  const runs: Word[][] = [];
  for (const word of cell) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    const next =
      last && last.entry === word.entry ? last.entry.tokens.find((t) => t.start > last.start && t.norm) : null;
    if (run && next?.start === word.start) run.push(word);
    else runs.push([word]);
  }
  const text = runs.map((run) => run[0]!.entry.line.text.slice(run[0]!.start, run[run.length - 1]!.end)).join(' ');
  return {
    text,
    box: {
      x0: Math.min(...cell.map((w) => w.box.x0)),
      y0: Math.min(...cell.map((w) => w.box.y0)),
      x1: Math.max(...cell.map((w) => w.box.x1)),
      y1: Math.max(...cell.map((w) => w.box.y1)),
    },
    fontSize: cell[0]!.entry.line.fontSize,
    confidence: Math.min(...lines.map((l) => l.line.confidence)),
    fragments: lines.flatMap((l) => l.line.fragments),
  };
}

/** Words that name a number, a code or an id. */
const ID_WORDS: ReadonlySet<string> = new Set(conceptWords('number'));

/**
 * A label's last caption word that names a number ("CLOCK NUMBER" over "12345 00000000") and has a value of its own
 * under it, as each word before it has, is the next column's caption (a voucher's number beside the clock number),
 * run into the label's line by the OCR: the label's column is its other words'.
 */
function dropNextColumnsNumber(own: Set<Word>, over: Map<Word, Word[]>, under: Map<Word, Word[]>): void {
  if (own.size < 2) return;
  const ordered = [...own].sort((a, b) => a.box.x0 - b.box.x0);
  const last = ordered[ordered.length - 1]!;
  const ownValue = (h: Word) => under.get(h)!.length > 0 && under.get(h)!.every((v) => over.get(v)!.length === 1);
  if (ID_WORDS.has(last.entry.tokens.find((t) => t.start === last.start)?.norm ?? '') && ordered.every(ownValue))
    own.delete(last);
}

/**
 * When the label (at `labelBox` on `from`) is one caption of a row of captions whose values stand under them
 * column by column, its cell in the row below: the words under the label, and those under no caption between
 * the label's start and the next caption's; `cell` null when its column is empty there. Null when the label's
 * row is no such grid: no value line runs under two caption lines, no other caption of the row has a value word
 * of its own under it, or a value word straddles the label's column and another (then the columns are not told
 * apart by position).
 */
export function gridCell(
  index: DocumentIndex,
  from: IndexedLine,
  labelBox: PointBox,
): { cell: TextLine | null } | null {
  const row = captionRow(index.lines.filter((l) => l.page === from.page && l.rowIndex === from.rowIndex));
  if (!row) return null;
  const header = row.captions;
  const own = new Set(
    header.filter((w) => {
      const middle = (w.box.x0 + w.box.x1) / 2;
      return w.entry === from && middle >= labelBox.x0 && middle <= labelBox.x1;
    }),
  );
  if (own.size === 0) return null;
  const values = rowBelow(index, from, labelBox).flatMap(words);
  const over = new Map(values.map((v) => [v, header.filter((h) => overlaps(h, v))]));
  const under = new Map(header.map((h) => [h, values.filter((v) => overlaps(h, v))]));
  dropNextColumnsNumber(own, over, under);
  if ([...over.values()].some((hs) => hs.some((h) => own.has(h)) && hs.some((h) => !own.has(h)))) return null;
  // The OCR ran values of several columns together: a value line under two or more caption lines. A value line
  // under one caption line is that caption's whole ("KOWALSKI, AMINA" under "PATIENT'S NAME"), read as it is.
  const spansColumns = [...new Set(values.map((v) => v.entry))].some(
    (entry) =>
      new Set(values.filter((v) => v.entry === entry).flatMap((v) => over.get(v)!.map((h) => h.entry))).size >= 2,
  );
  if (!spansColumns) return null;
  const otherColumns = header.filter(
    (h) => !own.has(h) && under.get(h)!.length === 1 && over.get(under.get(h)![0]!)!.length === 1,
  );
  if (otherColumns.length === 0) return null;
  // The label's column runs from its first word to the next caption or box number: a value printed off its
  // caption (an amount right-aligned in its box, cents after a rule) is in it when no caption stands over it.
  const left = Math.min(...[...own].map((w) => w.box.x0));
  const right = Math.max(...[...own].map((w) => w.box.x1));
  const nextColumn = Math.min(...row.starts.filter((x) => x >= right));
  const cell = values
    .filter((v) => {
      const heads = over.get(v)!;
      return heads.length > 0 ? heads.every((h) => own.has(h)) : v.box.x0 >= left && v.box.x0 < nextColumn;
    })
    .sort((a, b) => a.box.x0 - b.box.x0);
  return { cell: cell.length > 0 ? cellLine(cell) : null };
}
