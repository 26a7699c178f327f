/**
 * A field named by a table's row and column (CHANGELOG.md, "Cells named by row and column"): on a
 * payslip's earnings table (`rate | hours | this period | year to date` over `Regular`, `Overtime`, `Gross Pay`)
 * `overtime_hours` or `gross_pay_ytd`; on a statement `deposit_credit`; on an invoice's totals block `tax_amount`.
 * The field's words are split between a row's label (a text cell followed by figures) and the caption over one
 * of that row's figures (found by walking up the figure's column past the other rows' figures); the value is the
 * figure where they cross. Words are compared after what a table prints in several ways is read as one word: the
 * lexicon's `cellWords` (`ytd` = `year to date`, `hrs` = `hours`, `current` = `this period`).
 */
import levenshtein from 'fast-levenshtein';
import { unionBox, type PointBox } from '../layout/types.js';
import { FUNCTION_WORDS, fragmentBox, normaliseToken, type DocumentIndex, type IndexedLine } from './document-index.js';
import { printsWordsLike, type ValueCandidate } from './find-values.js';
import { lexicon } from '../lexicon/lexicon.js';
import type { ScalarSpec } from './schema-fields.js';

/** One printed word with its box: from the OCR word or text run that holds it, not interpolated over the line. */
interface Word {
  entry: IndexedLine;
  raw: string;
  /** Normalised (document-index.ts); '' for a sign or a rule. */
  norm: string;
  /** Canonical spelling (abbreviations spelled one way, plural folded); '' for a sign or a stop word. */
  canon: string;
  start: number;
  end: number;
  box: PointBox;
  figure: boolean;
}

const STOP_WORDS = new Set(FUNCTION_WORDS);

/** A normalised word as compared: plurals folded ("hours" = "hour", "credits" = "credit"; "gross" keeps its s). */
function singular(norm: string): string {
  return norm.length > 3 && norm.endsWith('s') && !norm.endsWith('ss') ? norm.slice(0, -1) : norm;
}

/** How a concept reads as one word: bracketed, so that no printed word is one OCR slip from it. */
const conceptWord = (concept: string) => `[${concept}]`;

/** The lexicon's `cellWords`, each as its compared words and its concept's word; longest first. */
const PHRASES = lexicon()
  .conceptsWith('cellWords')
  .flatMap((concept) =>
    lexicon()
      .concept(concept)
      .cellWords.map((wording) => ({
        words: wording.split(/\s+/).map(normaliseToken).filter(Boolean).map(singular),
        canon: conceptWord(concept),
      })),
  )
  .sort((a, b) => b.words.length - a.words.length);

/** The canonical words of a run of normalised words, each with the indexes of the printed words it stands for. */
function canonicalise(norms: string[]): { canon: string; from: number; to: number }[] {
  const out: { canon: string; from: number; to: number }[] = [];
  const singulars = norms.map(singular);
  for (let i = 0; i < norms.length; ) {
    const phrase = PHRASES.find((p) => p.words.every((w, j) => singulars[i + j] === w));
    if (phrase) {
      out.push({ canon: phrase.canon, from: i, to: i + phrase.words.length });
      i += phrase.words.length;
      continue;
    }
    const canon = singulars[i]!;
    if (!STOP_WORDS.has(canon)) out.push({ canon, from: i, to: i + 1 });
    i++;
  }
  return out;
}

/** The field's words from one of its label phrases ("gross pay ytd"), canonical and without repeats. */
export function fieldWords(label: string): string[] {
  const norms = label.split(/\s+/).map(normaliseToken).filter(Boolean);
  return [...new Set(canonicalise(norms).map((w) => w.canon))];
}

/** Whether two canonical words are one, allowing one OCR slip in a word of five letters or more. */
function sameWord(a: string, b: string): boolean {
  return a === b || (Math.min(a.length, b.length) >= 5 && levenshtein.get(a, b) <= 1);
}

/**
 * The box of characters [start, end) of a line from the fragment that prints them (an OCR word, a text run),
 * interpolated only inside it: a caption line the OCR read as one ("this period year to date") keeps the wide
 * gap between its captions, which interpolation over the whole line spreads evenly.
 */
function charBox(entry: IndexedLine, start: number, end: number): PointBox {
  const text = entry.line.text;
  let cursor = 0;
  const spans: { start: number; end: number; box: PointBox }[] = [];
  for (const fragment of entry.line.fragments) {
    const printed = fragment.text.replace(/\s+/g, ' ').trim();
    if (!printed) continue;
    const at = text.indexOf(printed, cursor);
    if (at < 0) return fragmentBox(entry.line, start, end);
    spans.push({ start: at, end: at + printed.length, box: fragment.box });
    cursor = at + printed.length;
  }
  const first = spans.find((s) => s.end > start);
  const last = [...spans].reverse().find((s) => s.start < end);
  if (!first || !last) return fragmentBox(entry.line, start, end);
  const x = (span: (typeof spans)[number], char: number) =>
    span.box.x0 +
    ((span.box.x1 - span.box.x0) * Math.min(Math.max(char - span.start, 0), span.end - span.start)) /
      Math.max(1, span.end - span.start);
  return { x0: x(first, start), y0: entry.line.box.y0, x1: x(last, end), y1: entry.line.box.y1 };
}

/** A gap between two words of a line wider than this many font sizes parts two captions ("this period | year…"). */
const CAPTION_GAP_EM = 0.6;

/**
 * The words of one line; a phrase read as one word ("year to date") is given to its first word, its other words left ''.
 * A figure is a word with a digit standing as a cell of its own: one followed closely on its line by a word of text
 * is part of a phrase (a form's box number `28. TOTAL CHARGE`, `12 apples`), not a table's cell.
 */
function lineWords(entry: IndexedLine): Word[] {
  const tokens = entry.tokens;
  const canon = new Array<string>(tokens.length).fill('');
  for (const w of canonicalise(tokens.map((t) => t.norm))) canon[w.from] = w.canon;
  const words = tokens.map((t, i) => ({
    entry,
    raw: t.raw,
    norm: t.norm,
    canon: /\d/.test(t.raw) ? '' : canon[i]!,
    start: t.start,
    end: t.end,
    box: charBox(entry, t.start, t.end),
    figure: /\d/.test(t.raw),
  }));
  const gap = CAPTION_GAP_EM * entry.line.fontSize;
  words.forEach((word, i) => {
    const next = words[i + 1];
    if (word.figure && next && !/\d/.test(next.raw) && /\p{L}/u.test(next.raw) && next.box.x0 - word.box.x1 <= gap)
      word.figure = false;
  });
  return words;
}

/** Runs of words of a line split where a figure stands or the gap is wide: the line's text cells. */
function textRuns(words: Word[]): Word[][] {
  const runs: Word[][] = [];
  let run: Word[] = [];
  for (const word of words) {
    const previous = run[run.length - 1];
    const wide = previous && word.box.x0 - previous.box.x1 > CAPTION_GAP_EM * word.entry.line.fontSize;
    if (word.figure || wide) {
      if (run.length > 0) runs.push(run);
      run = [];
    }
    if (!word.figure) run.push(word);
  }
  if (run.length > 0) runs.push(run);
  return runs.filter((r) => r.some((w) => w.canon !== ''));
}

function boxOf(words: Word[]): PointBox {
  return unionBox(words.map((w) => w.box));
}

function horizontalGap(a: PointBox, b: PointBox): number {
  return Math.max(0, Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1));
}

/** The rows of one page, each with its words left to right (the layout's rows: lines on one baseline). */
interface PageRows {
  rows: Word[][];
}

function pageRows(index: DocumentIndex, page: number): PageRows {
  const byRow = new Map<number, Word[]>();
  for (const entry of index.lines) {
    if (entry.page.page !== page) continue;
    const words = byRow.get(entry.rowIndex) ?? [];
    words.push(...lineWords(entry));
    byRow.set(entry.rowIndex, words);
  }
  const rows: Word[][] = [];
  for (const [rowIndex, words] of byRow) rows[rowIndex] = words.sort((a, b) => a.box.x0 - b.box.x0);
  return { rows };
}

/** Rows further apart than this many font sizes with nothing in a column between them are no longer one table. */
const TABLE_GAP_EM = 4;

/**
 * Whether a word belongs to a row of data, not of captions: a figure (a form's box number before its caption,
 * `28. TOTAL CHARGE`, is none), or a word of a `Label: value` line (`Federal: 3, $25 Additional Tax`).
 */
function isData(word: Word): boolean {
  return word.figure || /^[^:]{1,40}:\s*\S/.test(word.entry.line.text);
}

/**
 * The caption row over a figure: walking up its column from its row, past the other rows' figures, to the first
 * row whose words over it are all text. Where none stands over it (an amount right-aligned in its column under a
 * caption at the column's left, `Credit` over `1,000`), the nearest row above of text only with two captions or
 * more, the table's header row. Null when a gap wider than a table's parts the rows first.
 */
function captionRowOver(page: PageRows, rowIndex: number, figure: Word): number | null {
  const em = figure.entry.line.fontSize;
  let top = figure.box.y0;
  for (let r = rowIndex - 1; r >= 0; r--) {
    const over = (page.rows[r] ?? []).filter((w) => w.norm !== '' && horizontalGap(w.box, figure.box) === 0);
    if (over.length === 0) continue;
    const bottom = Math.max(...over.map((w) => w.box.y1));
    if (top - bottom > TABLE_GAP_EM * em) break;
    if (!over.some(isData)) return r;
    top = Math.min(...over.map((w) => w.box.y0));
  }
  return headerRowAbove(page, rowIndex, figure);
}

/** The nearest row above of text only with two captions or more, with no gap wider than a table's before it. */
function headerRowAbove(page: PageRows, rowIndex: number, figure: Word): number | null {
  const em = figure.entry.line.fontSize;
  let top = figure.box.y0;
  for (let r = rowIndex - 1; r >= 0; r--) {
    const words = (page.rows[r] ?? []).filter((w) => w.norm !== '');
    if (words.length === 0) continue;
    if (top - Math.max(...words.map((w) => w.box.y1)) > TABLE_GAP_EM * em) return null;
    if (!words.some(isData) && splitByLine(words).flatMap(textRuns).length >= 2) return r;
    top = Math.min(...words.map((w) => w.box.y0));
  }
  return null;
}

/**
 * The caption of a caption row over a box: the text cell overlapping it most, else the last one starting left of
 * it (a figure right-aligned in its column, its caption at the column's left), else the nearest.
 */
function captionAt(page: PageRows, rowIndex: number, box: PointBox): Word[] | null {
  const runs = splitByLine(page.rows[rowIndex] ?? [])
    .flatMap(textRuns)
    .map((run) => ({ run, box: boxOf(run) }));
  const overlap = (b: PointBox) => Math.min(b.x1, box.x1) - Math.max(b.x0, box.x0);
  const over = runs.filter((r) => overlap(r.box) > 0).sort((a, b) => overlap(b.box) - overlap(a.box))[0];
  const left = runs.filter((r) => r.box.x0 <= box.x0).sort((a, b) => b.box.x0 - a.box.x0)[0];
  const caption = (over ?? left ?? runs.sort((a, b) => horizontalGap(a.box, box) - horizontalGap(b.box, box))[0])?.run;
  return caption ? withLinesAbove(page, rowIndex, caption) : null;
}

/** How many lines a caption may stack ("Year" over "to Date", "This" over "Period"). */
const STACKED_LINES = 2;

/**
 * A caption with the lines of text stacked right over it: close above (a gap under 0.8 of its line's height),
 * centred over it and at most twice as wide (a table's title over the whole header is wider).
 */
function withLinesAbove(page: PageRows, rowIndex: number, caption: Word[]): Word[] {
  let words = caption;
  for (let r = rowIndex - 1; r >= 0 && r >= rowIndex - STACKED_LINES; r--) {
    const box = boxOf(words);
    const width = box.x1 - box.x0;
    const height = box.y1 - box.y0;
    const above = splitByLine(page.rows[r] ?? [])
      .flatMap(textRuns)
      .find((run) => {
        const b = boxOf(run);
        const centre = (b.x0 + b.x1) / 2;
        return centre >= box.x0 && centre <= box.x1 && b.x1 - b.x0 <= 2 * width && box.y0 - b.y1 < 0.8 * height;
      });
    if (!above || (page.rows[r] ?? []).some((w) => isData(w) && horizontalGap(w.box, box) === 0)) break;
    words = [...above, ...words];
  }
  return words;
}

function splitByLine(words: Word[]): Word[][] {
  const lines = new Map<IndexedLine, Word[]>();
  for (const word of words) lines.set(word.entry, [...(lines.get(word.entry) ?? []), word]);
  return [...lines.values()];
}

/**
 * A row's label (a text cell) with its figures: those after it up to the row's next text cell, and for the row's
 * first text cell those before it too (a quantity or a date printed before the description).
 */
interface LabelledRow {
  rowIndex: number;
  label: Word[];
  figures: Word[];
}

function labelledRows(page: PageRows): LabelledRow[] {
  const out: LabelledRow[] = [];
  page.rows.forEach((words, rowIndex) => {
    const runs = splitByLine(words)
      .flatMap(textRuns)
      .sort((a, b) => a[0]!.box.x0 - b[0]!.box.x0);
    runs.forEach((label, i) => {
      const start = i === 0 ? -Infinity : label[0]!.box.x0;
      const next = runs[i + 1];
      const end = next ? next[0]!.box.x0 : Infinity;
      const figures = words.filter((w) => w.figure && w.box.x0 >= start && w.box.x0 < end);
      if (figures.length > 0) out.push({ rowIndex, label, figures });
    });
  });
  return out;
}

/** How many of `printed` (canonical words) are among `wanted`, and which wanted ones they are. */
function matchWords(printed: string[], wanted: string[]): { share: number; explained: Set<string> } {
  const explained = new Set<string>();
  let matched = 0;
  for (const word of printed) {
    const hit = wanted.find((w) => sameWord(w, word));
    if (hit) {
      matched++;
      explained.add(hit);
    }
  }
  return { share: printed.length === 0 ? 0 : matched / printed.length, explained };
}

/** The canonical words of a label or caption, read as one phrase ("this" over "period" is "current"); `Hrs/Qty` is two. */
function canons(words: Word[]): string[] {
  const norms = words.flatMap((w) => (/\d/.test(w.raw) ? [] : w.raw.split('/').map(normaliseToken)));
  return canonicalise(norms.filter(Boolean)).map((w) => w.canon);
}

/** The cell's text: the figure with a sign printed just before it on its line (`$ 452.43`). */
function cellText(figure: Word): string {
  const before = figure.entry.line.text.slice(0, figure.start);
  const sign = /([$€£¥-])\s*$/.exec(before);
  return (sign ? sign[1]! : '') + figure.raw;
}

/** Column captions that name a row's amount for the period, as opposed to its rate, quantity or running total. */
const AMOUNT_COLUMNS = ['amount', 'current-period'].map(conceptWord);
/** Column captions that name a count. */
const COUNT_COLUMNS = ['quantity', 'hours', 'units', 'days'].map(conceptWord);
const RUNNING_TOTAL = conceptWord('year-to-date');

/** A field's words that ask for a row's amount without naming a column of their own (`regular_pay`, `tax_amount`). */
const AMOUNT_WORDS: ReadonlySet<string> = new Set([
  ...['amount', 'payment'].map(conceptWord),
  ...lexicon().concept('row-amount').words,
]);

/** A figure printed as a number: an amount, a rate, a count (`1,946.80`, `$452.43`, `(40.00)`, `37.43*`). */
const NUMBER = /^[$€£¥(-]*\d[\d,.]*\)?[*%]?$/;

/**
 * Which of a row's figures a number field named by the row alone asks for. Rate, hours, quantity and year-to-date
 * columns are qualifiers a user names (`overtime_hours`, `gross_pay_ytd`); a number named only by its row
 * (`overtime_pay`, `tax`) is the amount the row stands for, in the column captioned as the amount or the current
 * period, and an integer is the row's count. A row with one number has it. With several, only when exactly one
 * column fits: otherwise the caption reading (the first figure after the label) stands. Text fields take the row
 * as printed, as the caption reading gives it.
 */
function figureForRow(figures: Word[], captions: (Word[] | null)[], type: ScalarSpec['type']): number | null {
  const wanted = type === 'number' ? AMOUNT_COLUMNS : type === 'integer' ? COUNT_COLUMNS : null;
  if (!wanted) return null;
  // A date or a reference in the row ("as of 2023-01-20") is no figure of a number.
  const numbers = figures.map((_, i) => i).filter((i) => NUMBER.test(figures[i]!.raw));
  if (numbers.length === 1) return numbers[0]!;
  const fits = numbers.filter((i) => {
    const words = captions[i] ? canons(captions[i]) : [];
    return words.some((w) => wanted.includes(w)) && !words.includes(RUNNING_TOTAL);
  });
  return fits.length === 1 ? fits[0]! : null;
}

/** One reading of a field at a row: the cell's candidate, and whether the field named its column too. */
interface CellReading {
  candidate: ValueCandidate;
  /** The field's words name the row and a column (else the row alone). */
  bothParts: boolean;
  /** How many words of the field the reading explains (every word of the label phrase it came from). */
  words: number;
}

/**
 * The field (its canonical `words`) read at one labelled row: the figure under the column whose caption holds the
 * words the row's label leaves over, every word explained by the label, the caption or the caption over the row
 * labels; else, when the label holds all the words, the figure `figureForRow` picks. Null when neither fits.
 */
function readingAt(page: PageRows, row: LabelledRow, words: string[], type: ScalarSpec['type']): CellReading | null {
  const rowMatch = matchWords(canons(row.label), words);
  // The printed label must be mostly the field's words: "Net Pay" is no row of `gross_pay_ytd`.
  if (rowMatch.explained.size === 0 || rowMatch.share < 0.5) return null;
  const rest = words.filter((w) => !rowMatch.explained.has(w));
  const headers = row.figures.map((figure) => captionRowOver(page, row.rowIndex, figure));
  const captions = row.figures.map((figure, i) =>
    headers[i] === null ? null : captionAt(page, headers[i]!, figure.box),
  );
  let pick: { index: number; fit: number } | null = null;
  // Named by its row alone, the row's whole printed label must be the field's: "TOTAL" is no name of a "TOTAL
  // QTY" row's figure, whose column would have to say which total.
  if (rowMatch.share === 1 && rest.every((w) => AMOUNT_WORDS.has(w))) {
    const index = figureForRow(row.figures, captions, type);
    if (index !== null) pick = { index, fit: rowMatch.share };
  }
  if (!pick && rest.length > 0) {
    for (let i = 0; i < row.figures.length; i++) {
      const caption = captions[i];
      if (!caption) continue;
      const columnMatch = matchWords(canons(caption), rest);
      if (columnMatch.explained.size === 0) continue;
      // Words left over may name the caption over the row labels ("Earnings" for `holiday_earnings_this_period`).
      const over = captionAt(page, headers[i]!, boxOf(row.label));
      const overWords = over && over[0] !== caption[0] ? matchWords(canons(over), rest).explained : new Set<string>();
      // And a word saying the cell is an amount ("overtime_pay_ytd": the year-to-date column's figure is the pay).
      if (rest.some((w) => !columnMatch.explained.has(w) && !overWords.has(w) && !AMOUNT_WORDS.has(w))) continue;
      const fit = rowMatch.share * columnMatch.share;
      if (!pick || fit > pick.fit) pick = { index: i, fit };
    }
  }
  if (!pick) return null;
  const figure = row.figures[pick.index]!;
  const entry = row.label[0]!.entry;
  return {
    bothParts: rest.length > 0,
    words: words.length,
    candidate: {
      score: 0.5 + 0.5 * pick.fit,
      text: cellText(figure),
      where: 'right',
      confidence: figure.entry.line.confidence,
      page: entry.page.page,
      labelBox: boxOf(row.label),
      valueBox: figure.box,
      // A cell is one row's figure: the next row is no continuation of it.
      valueLine: null,
      line: entry,
    },
  };
}

/** Whether reading `a` says more than `b` at one row: row and column over the row alone, then more words. */
function better(a: CellReading, b: CellReading): boolean {
  if (a.bothParts !== b.bothParts) return a.bothParts;
  if (a.words !== b.words) return a.words > b.words;
  return a.candidate.score > b.candidate.score;
}

const pagesOf = new WeakMap<DocumentIndex, { rows: PageRows; labelled: LabelledRow[] }[]>();

function indexedPages(index: DocumentIndex): { rows: PageRows; labelled: LabelledRow[] }[] {
  const known = pagesOf.get(index);
  if (known) return known;
  const pages = index.pages.map((p) => {
    const rows = pageRows(index, p.page);
    return { rows, labelled: labelledRows(rows) };
  });
  pagesOf.set(index, pages);
  return pages;
}

/**
 * The cells a field's label phrases name by row and column, one per row label (the reading that says most), best
 * first. A field named by both parts scores by how much of the printed label and caption its words explain, not
 * by the phrase's weight: it explains more of the field than a caption matched by part of its words (the row's
 * label alone, which reads the row's first figure). A field named by its row alone scores as its phrase does.
 */
export function tableCellCandidates(index: DocumentIndex, spec: ScalarSpec): ValueCandidate[] {
  if (spec.type === 'boolean' || spec.enum) return [];
  const best = new Map<string, CellReading>();
  for (const page of indexedPages(index)) {
    for (const label of spec.labels) {
      if (label.reworded && !printsWordsLike(index, label.text)) continue;
      const words = fieldWords(label.text);
      if (words.length === 0) continue;
      for (const row of page.labelled) {
        const reading = readingAt(page.rows, row, words, spec.type);
        if (!reading) continue;
        if (!reading.bothParts) reading.candidate.score *= label.weight;
        const key = `${reading.candidate.page}:${row.rowIndex}:${Math.round(row.label[0]!.box.x0)}`;
        const known = best.get(key);
        if (!known || better(reading, known)) best.set(key, reading);
      }
    }
  }
  return [...best.values()].map((r) => r.candidate).sort((a, b) => b.score - a.score);
}
