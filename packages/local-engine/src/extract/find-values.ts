/**
 * Label search and value lookup: find where a label is printed (fuzzy, case-insensitive, tolerant of OCR
 * slips), then read the value after it on the same line, in the next column of the row, or on the line below.
 */
import levenshtein from 'fast-levenshtein';
import type { PointBox, TextLine } from '../layout/types.js';
import {
  BOX_NUMBER,
  FUNCTION_WORDS,
  fragmentBox,
  isAlternative,
  normaliseToken,
  parenthesised,
  reachBelow,
  tokenise,
  type DocumentIndex,
  type IndexedLine,
} from './document-index.js';
import { conceptWords } from '../lexicon/lexicon.js';
import { stem } from './caption-words.js';
import { DATE_EXCLUDED, DATE_WORDS } from './field-roles.js';
import { gridCell } from './grid-cells.js';
import { isAbbreviation } from './name-abbreviations.js';
import { isPrintedBlank } from './printed-blanks.js';

/** One place a label was found, with the value read next to it. */
export interface ValueCandidate {
  /** 0–1: how well and how specifically the label matched. */
  score: number;
  /** The value text, or null when nothing was found next to the label. */
  text: string | null;
  /** Where the value was read from. */
  where: 'same-line' | 'right' | 'below' | null;
  /** Confidence (0–100) of the text the value came from. */
  confidence: number;
  page: number;
  labelBox: PointBox;
  valueBox: PointBox | null;
  /**
   * The line the value was read from (right of the label or below it), or for a value after its `Label:` on the
   * label's line that part of the line; null for a same-line value without a colon.
   */
  valueLine: IndexedLine | null;
  line: IndexedLine;
  /** Read from the label's cell of a grid of captions over values (grid-cells.ts). */
  inGrid?: true;
}

/** Box numbers, item letters and bullets printed before labels on forms: "2.", "24a.", "b)", "•". */
function isPrefixToken(raw: string): boolean {
  return BOX_NUMBER.test(raw) || /^([•\-–*]|[a-zA-Z][.)])$/.test(raw);
}

/**
 * Words a printed yes/no question opens with before what it asks about: "IS THERE ANOTHER HEALTH BENEFIT PLAN?"
 * asks about another plan, as a caption "Another health benefit plan?" would.
 */
const QUESTION_OPENERS = new Set(conceptWords('question-opener'));

/** A box number, item letter or bullet, or a token of punctuation alone: nothing a caption says. */
function isCaptionPrefix(token: IndexedLine['tokens'][number]): boolean {
  return isPrefixToken(token.raw) || token.norm === '' || isAlternative(token);
}

/**
 * Where the caption a label at token `from` opens starts, or null when the label opens none: only a box number,
 * an item letter or a bullet stands before the label (the caption starts with it), or, in a question (a "?" after
 * the label), the question's opening words too (the caption starts with them: "IS THERE …?" is its caption, and
 * the answer boxes under those words are its).
 */
function captionStart(entry: IndexedLine, from: number): number | null {
  const before = entry.tokens.slice(0, from);
  if (before.every(isCaptionPrefix)) return from;
  const asks = entry.line.text.slice(entry.tokens[from]!.start).includes('?');
  if (!asks || !before.every((t) => isCaptionPrefix(t) || QUESTION_OPENERS.has(t.norm))) return null;
  return before.findIndex((t) => !isCaptionPrefix(t));
}

function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 0;
  const distance = levenshtein.get(a, b);
  // Short labels must match exactly: "dob" must not match "dos".
  const allowed = longest <= 3 ? 0 : Math.round(longest * 0.25);
  return distance > allowed ? 0 : 1 - distance / longest;
}

/** The label's normalised tokens. */
export function labelTokens(label: string): string[] {
  return label.split(/\s+/).map(normaliseToken).filter(Boolean);
}

/** Strips a parenthetical hint that forms print after labels: "(Last, First, Middle Initial)". */
function stripHints(text: string): string {
  return text
    .replace(/^\s*[:#.\-–]*\s*/, '')
    .replace(/^\([^)]*[A-Za-z][^)]*\)\s*[:.]?\s*/, '')
    .replace(/^\s*[:#.\-–]+\s*/, '')
    .trim();
}

/** Cuts a same-line value where the next "Label:" begins ("John Smith  DOB: 03/05/1980" → "John Smith"). */
function cutAtNextLabel(text: string): string {
  const tokens = [...text.matchAll(/\S+/g)];
  for (let i = 1; i < tokens.length; i++) {
    if (!tokens[i]![0].endsWith(':')) continue;
    let start = i;
    while (start > 1 && i - start < 3 && /^[A-Z][A-Za-z'’.#/]*$/.test(tokens[start - 1]![0])) start--;
    if (/^[A-Z]/.test(tokens[start]![0])) return text.slice(0, tokens[start]!.index).trim();
  }
  return text.trim();
}

function isLabelOnly(line: TextLine): boolean {
  return /:\s*$/.test(line.text);
}

/** A caption of a grid's header row: as sure as a label alone on its line with its value below. */
const GRID_CAPTION = 0.95;

/** Format hints printed between a form caption and its value: "MM DD YY", "MM | DD | YYYY", "(Area code)". */
const FORMAT_HINT = /^\(?\s*((MM|DD|YY|YYYY|CCYY)([\s/|.-]+(MM|DD|YY|YYYY|CCYY))*|[Aa]rea\s*[Cc]ode)\s*\)?$/;

/** Words a label may drop or reorder without changing what it names ("date of birth" = "birth date"). */
const LABEL_STOP_WORDS = new Set([...FUNCTION_WORDS, ...conceptWords('number', 'captions').map(normaliseToken)]);

/** A label's content words by stem, sorted: "assignment accepted" and "ACCEPT ASSIGNMENT" say one thing. */
function contentWords(norms: string[]): string {
  return norms
    .filter((norm) => norm !== '' && !LABEL_STOP_WORDS.has(norm))
    .map(stem)
    .sort()
    .join(' ');
}

/**
 * A value centred under its caption and wider than it (a form's column of centred entries): the label is its
 * line's whole caption (not a word of a centred title), the value spans the caption's middle with its own
 * middle near it, and no other caption of the row stands over it.
 */
function centredUnder(box: PointBox, labelBox: PointBox, from: IndexedLine, rowMates: IndexedLine[]): boolean {
  const middle = (labelBox.x0 + labelBox.x1) / 2;
  return (
    labelBox.x1 - labelBox.x0 >= 0.8 * (from.line.box.x1 - from.line.box.x0) &&
    box.x0 <= middle &&
    box.x1 >= middle &&
    Math.abs((box.x0 + box.x1) / 2 - middle) <= (box.x1 - box.x0) / 4 &&
    !rowMates.some((l) => l.line.box.x1 > box.x0 && l.line.box.x0 < box.x1)
  );
}

function valueBelow(index: DocumentIndex, from: IndexedLine, labelBox: PointBox): IndexedLine | null {
  const height = Math.max(6, labelBox.y1 - labelBox.y0);
  const reach = reachBelow(labelBox);
  const rowMates = index.lines.filter((l) => l.page === from.page && l.rowIndex === from.rowIndex && l !== from);
  let best: IndexedLine | null = null;
  let bestDistance = Infinity;
  for (const candidate of index.lines) {
    if (
      candidate.page !== from.page ||
      candidate.rowIndex <= from.rowIndex ||
      FORMAT_HINT.test(candidate.line.text.trim()) ||
      isPrintedBlank(candidate.line.text)
    )
      continue;
    const box = candidate.line.box;
    // Under the label, or right after it and a little lower (a value on a baseline of its own beside its caption).
    const besideLower = box.y0 >= labelBox.y0 + height * 0.45 && box.x0 >= labelBox.x1;
    if ((box.y0 < reach.top && !besideLower) || box.y0 > reach.bottom) continue;
    // The value sits under the label: starting near its left edge, not far to the right of it, or centred under it.
    if (box.x1 < labelBox.x0 || box.x0 > labelBox.x0 + Math.max(72, (labelBox.x1 - labelBox.x0) * 1.2)) continue;
    if (box.x0 < labelBox.x0 - 54 && !centredUnder(box, labelBox, from, rowMates)) continue;
    const distance = box.y0 - labelBox.y1 + Math.abs(box.x0 - labelBox.x0) * 0.2;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  if (!best || isLabelOnly(best.line)) return null;
  // A value split over sub-boxes under one caption ("04 | 13 | 65" under "BIRTH DATE  MM DD YY") reaches the
  // layout as separate lines of one row: the lines that start under the caption make the value.
  const row = index.lines.filter((l) => l.page === best.page && l.rowIndex === best.rowIndex);
  const parts = row.filter(
    (l) => l.line.box.x0 >= best.line.box.x0 && l.line.box.x0 <= Math.max(best.line.box.x1, labelBox.x1),
  );
  // Sub-boxes reach past the caption (dollars | cents): a line that starts right after a rule, close to the
  // value's last part, belongs to it too, unless another box's caption starts above it (the next box's "$").
  for (const next of row) {
    const last = parts[parts.length - 1]!.line;
    if (parts.includes(next) || next.line.box.x0 < last.box.x1) continue;
    if (!next.line.fragments[0]?.afterRule || next.line.box.x0 - last.box.x1 > last.fontSize * 1.5) break;
    const em = next.line.fontSize;
    if (rowMates.some((c) => c.line.box.x0 > last.box.x1 && c.line.box.x0 <= next.line.box.x0 + em)) break;
    parts.push(next);
  }
  if (parts.length < 2) return best;
  const lines = parts.map((l) => l.line);
  const box = {
    x0: lines[0]!.box.x0,
    y0: Math.min(...lines.map((l) => l.box.y0)),
    x1: Math.max(...lines.map((l) => l.box.x1)),
    y1: Math.max(...lines.map((l) => l.box.y1)),
  };
  const merged = {
    text: lines.map((l) => l.text).join(' '),
    box,
    fontSize: best.line.fontSize,
    confidence: Math.min(...lines.map((l) => l.confidence)),
    fragments: lines.flatMap((l) => l.fragments),
  };
  return { ...best, line: merged };
}

/** Whether a line starts with a label ("Phone: …", "Due Date: Jan 5"): it begins another field. */
export function startsWithLabel(text: string): boolean {
  return /^\p{L}[\p{L}\s.#'’/&-]{0,30}:(\s|$)/u.test(text.trim());
}

/**
 * The next line right of a label on its row, unless it is another label, alone or with its own value: "Bill To:"
 * with "Invoice Date: Jan 5" at the other end of its row has its value below.
 */
function valueRight(index: DocumentIndex, from: IndexedLine): IndexedLine | null {
  const next = index.lines.find(
    (c) =>
      c.page === from.page &&
      c.rowIndex === from.rowIndex &&
      c.line.box.x0 > from.line.box.x1 &&
      !isPrintedBlank(c.line.text),
  );
  return next && !isLabelOnly(next.line) && !startsWithLabel(next.line.text) ? next : null;
}

/** Whether a line carries a number (a box number is none). */
function carriesNumber(line: IndexedLine): boolean {
  return line.tokens.some((t) => /\d/.test(t.raw) && !isPrefixToken(t.raw));
}

/**
 * Whether a label alone on its line heads a table row: the row carries a number (no box number) to its right,
 * and the line below is the next row's label, starting where the label starts: without digits, as in "Loan Amt
 * Paid 840.00" over "Vac Hrs  40.00", or with a number of its own to its right, as in "Subtotal  100.00" over
 * "VAT 19%  19.00". A form's caption has its value below and the next box's caption to its right.
 */
function headsARow(index: DocumentIndex, label: IndexedLine, right: IndexedLine, below: IndexedLine): boolean {
  if (!carriesNumber(right) || Math.abs(below.line.box.x0 - label.line.box.x0) > label.line.fontSize * 1.5)
    return false;
  if (!/\d/.test(below.line.text)) return true;
  const besideBelow = valueRight(index, below);
  return besideBelow !== null && carriesNumber(besideBelow);
}

/**
 * How "number" is abbreviated in captions (label-synonyms.ts): printed as it is, never an OCR slip of another
 * short word ("Invoice for:" is no "Invoice No.").
 */
const NUMBER_SIGNS = new Set(conceptWords('number-sign'));

/** Letter pairs the OCR reads for one letter ("Narne"), folded before words are compared. */
function foldLetterPairs(word: string): string {
  return word.replace(/rn/g, 'm').replace(/vv/g, 'w').replace(/cl/g, 'd');
}

/**
 * Whether each word is the wanted word or an OCR slip of it: a misread word keeps most of its letters, while
 * another word ("DATE" for "name" in "INSURED'S DATE OF BIRTH") fits only the whole phrase's tolerance. Words of
 * up to three letters are too short to tell ("TO" is the OCR's "I.D."), and words the OCR split elsewhere
 * ("TotatChar ges") cannot be compared one by one.
 */
function wordsAlike(window: IndexedLine['tokens'], wanted: string[]): boolean {
  // The sign as printed, or glued to the word before it ("ACCOUNTNO."); no other word stands in for it ("OUNT").
  if (window.some((token, j) => NUMBER_SIGNS.has(wanted[j]!) && !token.norm.endsWith(wanted[j]!))) return false;
  if (window.some((token, j) => Math.abs(token.norm.length - wanted[j]!.length) > 2)) return true;
  return window.every((token, j) => {
    const word = wanted[j]!;
    // An abbreviation stands for its word alone: "txn" is no OCR slip of the word "Tax", though "Acc" is a shorter
    // "acct".
    if (isAbbreviation(word) && /^\p{L}+$/u.test(token.norm))
      return word.startsWith(token.norm) || token.norm.startsWith(word);
    const edits = levenshtein.get(foldLetterPairs(token.norm), foldLetterPairs(word));
    return word.length <= 3 || edits <= Math.floor(word.length / 3);
  });
}

/** The best match of the label's tokens starting at token i, with where it ends; null when none matches. */
function bestWindow(tokens: IndexedLine['tokens'], i: number, label: WantedLabel): { sim: number; end: number } | null {
  const { wanted, wantedJoined, wantedWords, wordForWord } = label;
  let best: { sim: number; end: number } | null = null;
  // Windows of 1..k+1 tokens absorb OCR merges and splits ("PatientName", "FEDERALTAXI.D NUMBER", "Pat ient").
  const sizes = [
    wanted.length,
    wanted.length + 1,
    ...Array.from({ length: wanted.length - 1 }, (_, j) => wanted.length - 1 - j),
  ];
  for (const k of sizes) {
    if (k < 1 || i + k > tokens.length) continue;
    const window = tokens.slice(i, i + k);
    const joined = window.map((t) => t.norm).join('');
    // A number sign is matched word for word ("no" is too short to match fuzzily), or glued to its word exactly as
    // compounds print it ("Beleg-Nr.", "Bon-Nr.").
    if (wordForWord && k !== wanted.length && joined !== wantedJoined) continue;
    if (
      Math.abs(joined.length - wantedJoined.length) <= Math.max(1, wantedJoined.length * 0.2) &&
      (k !== wanted.length || wordsAlike(window, wanted))
    ) {
      const sim = similarity(joined, wantedJoined);
      if (sim > 0 && (!best || sim > best.sim)) best = { sim, end: i + k };
    }
    // The same words in another order ("BIRTH DATE" for "date of birth"): a little less certain.
    if (wantedWords && k >= 2 && contentWords(window.map((t) => t.norm)) === wantedWords && (!best || best.sim < 0.9))
      best = { sim: 0.9, end: i + k };
  }
  return best;
}

/**
 * Where the printed label ends and its value starts, when the label matched tokens up to `matchEnd`: after a
 * colon ending the match, or after one a few words on ("Name of Insured:", the specificity dropping).
 */
function labelEnd(
  tokens: IndexedLine['tokens'],
  matchEnd: number,
  wantedCount: number,
): { coverage: number; valueStart: number; hasColon: boolean } {
  const last = tokens[matchEnd - 1]!;
  if (last.raw.endsWith(':')) return { coverage: 1, valueStart: last.end, hasColon: true };
  // A colon set apart from the caption, as French typography prints it ("Échéance :"), ends it all the same.
  const spaced = tokens[matchEnd];
  if (spaced?.raw === ':') return { coverage: 1, valueStart: spaced.end, hasColon: true };
  const colonAt = tokens.findIndex((t, j) => j >= matchEnd && j < matchEnd + 5 && t.raw.endsWith(':'));
  if (colonAt < 0 || tokens[matchEnd]?.raw.startsWith('('))
    return { coverage: 1, valueStart: last.end, hasColon: false };
  return {
    coverage: wantedCount / (wantedCount + colonAt - matchEnd + 1),
    valueStart: tokens[colonAt]!.end,
    hasColon: true,
  };
}

/**
 * Whether a date label matched inside a caption is another event's date: "Due date:" holds the word "date" but
 * names the day payment is due, not the date a "date" or "transaction date" field asks for.
 */
function namesAnotherDate(tokens: IndexedLine['tokens'], from: number, wanted: readonly string[]): boolean {
  const before = tokens[from - 1]?.norm;
  return (
    before !== undefined &&
    DATE_EXCLUDED.includes(before) &&
    !wanted.includes(before) &&
    wanted.some((word) => DATE_WORDS.includes(word))
  );
}

/** Whether a match away from a caption's start is no label: it runs on from a sentence, or names another date. */
function inProseOrAnotherDate(
  tokens: IndexedLine['tokens'],
  from: number,
  hasColon: boolean,
  wanted: readonly string[],
): boolean {
  return (!hasColon && inSentence(tokens, from)) || namesAnotherDate(tokens, from, wanted);
}

/**
 * Whether the words at token `i` run on from a sentence ("… within 30 days from date of invoice."): a label
 * word after a lower-case word, with no colon after it, is part of the prose, not a label. A single letter is a
 * form's item letter whose full stop the OCR lost ("a EMPLOYMENT?"), not a word.
 */
function inSentence(tokens: IndexedLine['tokens'], i: number): boolean {
  return i > 0 && /^[a-z]{2,},?$/.test(tokens[i - 1]!.raw);
}

/** Fewest words a line above must have to be prose a lower-case line runs on from. */
const PROSE_WORDS = 6;

/**
 * Whether a line starting in lower case runs on from a sentence on the line right above it ("… a copy of this
 * notice and any supporting documents to the appeals" / "address shown on your member ID card."): the line above,
 * in its column and a line's height away at most, has a few words and ends in a lower-case word with no stop
 * after it. Its first words are prose, not a caption.
 */
function continuesProse(index: DocumentIndex, entry: IndexedLine): boolean {
  // A word, not a form's item letter ("a. EMPLOYMENT?" under "… related to").
  if (!/^[a-z]{2,}\b/.test(entry.line.text.trimStart())) return false;
  const { box } = entry.line;
  const height = box.y1 - box.y0;
  return index.lines.some((above) => {
    const a = above.line.box;
    if (above.page !== entry.page || above === entry || a.y1 > box.y0 + height * 0.3) return false;
    if (box.y0 - a.y1 > height || Math.abs(a.x0 - box.x0) > entry.line.fontSize * 1.5) return false;
    const words = above.line.text.trim().split(/\s+/);
    return words.length >= PROSE_WORDS && /^[a-z]{2,},?$/.test(words[words.length - 1]!);
  });
}

/** A label printed on `entry` at `labelBox`, with its value read from another line. */
function readFrom(
  entry: IndexedLine,
  source: IndexedLine,
  where: 'right' | 'below',
  score: number,
  labelBox: PointBox,
): ValueCandidate {
  return {
    score,
    text: stripHints(source.line.text) || null,
    where,
    confidence: source.line.confidence,
    page: entry.page.page,
    labelBox,
    valueBox: source.line.box,
    valueLine: source,
    line: entry,
  };
}

/** The label's value from its cell of a grid (grid-cells.ts) when its line is a grid's row of captions. */
function gridCandidate(
  index: DocumentIndex,
  entry: IndexedLine,
  labelBox: PointBox,
  match: number,
  atStart: boolean,
): ValueCandidate | null {
  const grid = gridCell(index, entry, labelBox);
  if (!grid) return null;
  return {
    score: match * GRID_CAPTION * (atStart ? 1 : 0.9),
    text: grid.cell ? stripHints(grid.cell.text) || null : null,
    where: grid.cell ? 'below' : null,
    confidence: grid.cell?.confidence ?? entry.line.confidence,
    page: entry.page.page,
    labelBox,
    valueBox: grid.cell?.box ?? null,
    // A grid's cell is one row's value: the next row is no continuation of it.
    valueLine: null,
    line: entry,
    inGrid: true,
  };
}

/**
 * A numbered caption: the label follows a form's box number ("25. FEDERAL TAX I.D. NUMBER", "24a."), printed with
 * its full stop or parenthesis. A table row's label is never numbered so, and its words to the right are the
 * box's other captions, which OCR noise can make look like a number ("EIN" read as "EP4").
 */
function isNumberedCaption(entry: IndexedLine, start: number | null): boolean {
  return start !== null && entry.tokens.slice(0, start).some((t) => /^\d{1,2}[a-zA-Z]?[.)]$/.test(t.raw));
}

/**
 * The value of a label alone on its line. "Label:" reads to the right first; a label without a colon (a form box
 * caption) reads below first, unless it heads a table row (`headsARow`) and is no numbered caption. But a column
 * of labels may stand beside a column of values ("Invoice Number  INV-7" over "Due Date  May 5"): there the line
 * below is the next label, and the value is to the right. Which of the two it is shows only later (the line below is another field's
 * caption, or no valid value), so the value right of a caption is its next candidate (`rightToo`).
 */
function valueBeside(
  index: DocumentIndex,
  entry: IndexedLine,
  labelBox: PointBox,
  hasColon: boolean,
  lookBelow: boolean,
  numbered: boolean,
): { right: IndexedLine | null; below: IndexedLine | null; rightToo: IndexedLine | null } {
  if (hasColon) {
    const right = valueRight(index, entry);
    return { right, below: !right && lookBelow ? valueBelow(index, entry, labelBox) : null, rightToo: null };
  }
  const below = lookBelow ? valueBelow(index, entry, labelBox) : null;
  const right = valueRight(index, entry);
  if (!below) return { right, below: null, rightToo: null };
  // A table row's label: its number is right of it and the next row's label below.
  if (right && !numbered && headsARow(index, entry, right, below)) return { right, below: null, rightToo: null };
  return { right: null, below, rightToo: right };
}

/**
 * A value printed after its `Label:` on the label's line, as a line of its own starting where the value starts
 * (the first of its words in a run that ends after the label; a run holding label and value is split in
 * proportion to its characters), so that the lines under it can continue its block ("Bill to: ACME Ltd" over
 * "12 Main Road").
 */
function sameLineValue(entry: IndexedLine, text: string, labelBox: PointBox): IndexedLine {
  const first = text.split(/\s+/)[0]!;
  let x0 = labelBox.x1;
  for (const fragment of entry.line.fragments) {
    const at = fragment.box.x1 > labelBox.x1 ? fragment.text.lastIndexOf(first) : -1;
    if (at < 0) continue;
    x0 = fragment.box.x0 + ((fragment.box.x1 - fragment.box.x0) * at) / Math.max(1, fragment.text.length);
    break;
  }
  return { ...entry, line: { ...entry.line, text, box: { ...entry.line.box, x0 } } };
}

/** The share of its score a label without a colon gives the value right of it when a value below was found too. */
const RIGHT_OF_CAPTION = 0.9;

/** Words of a label that asks for a rate itself ("tax rate", "VAT %"), whose value a printed percentage is. */
const RATE_WORDS = new Set(conceptWords('rate'));

/**
 * The token after a percentage printed at token `i` (`20%`, `8.25%:`, `19 %`), or null when there is none:
 * printed after a caption, it says which of several taxes or discounts the line is, and the amount follows it.
 */
function rateAfter(tokens: IndexedLine['tokens'], i: number): number | null {
  const first = tokens[i]?.raw ?? '';
  if (/^\d{1,2}([.,]\d{1,3})?%:?$/.test(first)) return i + 1;
  return /^\d{1,2}([.,]\d{1,3})?$/.test(first) && /^%:?$/.test(tokens[i + 1]?.raw ?? '') ? i + 2 : null;
}

/** A word a caption prints: not a box number, a sign or another word's alternative ("Day/" of "Day/Cell Phone"). */
function isPrintedWord(token: IndexedLine['tokens'][number]): boolean {
  return token.norm !== '' && !isPrefixToken(token.raw) && !isAlternative(token);
}

/**
 * The candidates of a label matched on `entry` from token `from` (`best`): its value after it on the line, in a
 * grid's cell, right of it or below it; null when the match runs on from a sentence and is no label.
 */
function candidatesAt(
  index: DocumentIndex,
  entry: IndexedLine,
  from: number,
  best: { sim: number; end: number },
  label: WantedLabel,
  weight: number,
  lookBelow: boolean,
  inHint: readonly boolean[],
): ValueCandidate[] | null {
  const tokens = entry.tokens;
  const wantedCount = label.wanted.length;
  const results: ValueCandidate[] = [];
  const start = captionStart(entry, from);
  const atStart = start !== null;
  // The rate after a tax's caption ("VAT 20%", "MwSt. 19 %") is part of the caption, unless the label asks for a rate.
  const rated = label.asksForRate ? null : rateAfter(tokens, best.end);
  const end = labelEnd(tokens, rated ?? best.end, wantedCount);
  if (!atStart && inProseOrAnotherDate(tokens, from, end.hasColon, label.wanted)) return null;
  if (atStart && !end.hasColon && continuesProse(index, entry)) return null;
  const box = fragmentBox(entry.line, tokens[start ?? from]!.start, tokens[best.end - 1]!.end);
  let coverage = end.coverage;
  const { valueStart, hasColon } = end;
  // One caption of a row of captions over a row of values: its value is the cell under it, and the words
  // after it on its line are the next columns' captions.
  const grid = lookBelow && !hasColon ? gridCandidate(index, entry, box, best.sim * weight, atStart) : null;
  if (grid) return [grid];
  let text: string | null = cutAtNextLabel(stripHints(entry.line.text.slice(valueStart)));
  // An unfilled blank after the label (`Telephone No.: (`) or a unit (`MwSt. 19 %`) is no value: the value is
  // right of it or below.
  if (isPrintedBlank(text)) text = '';
  let where: ValueCandidate['where'] = 'same-line';
  let valueBox: PointBox | null = text ? fragmentBox(entry.line, valueStart, entry.line.text.length) : null;
  let confidence = entry.line.confidence;
  let valueLine: IndexedLine | null = text && hasColon ? sameLineValue(entry, text, box) : null;
  if (!text) {
    // A label alone on its line: the printed words should be (almost) all of the line.
    const printed = tokens.filter((t, j) => isPrintedWord(t) && !inHint[j]);
    const labelShare = wantedCount / Math.max(1, printed.length);
    if (!hasColon) coverage = Math.min(coverage, Math.max(labelShare, 0.4));
    const beside = valueBeside(index, entry, box, hasColon, lookBelow, isNumberedCaption(entry, start));
    if (beside.rightToo) {
      const score = best.sim * weight * coverage * (atStart ? 1 : 0.8) * RIGHT_OF_CAPTION;
      results.push(readFrom(entry, beside.rightToo, 'right', score, box));
    }
    const { right, below } = beside;
    const source = right ?? below;
    text = source ? stripHints(source.line.text) : null;
    where = right ? 'right' : below ? 'below' : null;
    valueBox = source ? source.line.box : null;
    confidence = source ? source.line.confidence : confidence;
    valueLine = source;
  } else if (!hasColon) {
    // "Patient Name John Smith": plausible but the label/value boundary is a guess.
    coverage *= 0.9;
    // Or the words after it are another caption in the same box ("3. PATIENT'S BIRTH DATE  SEX"): the
    // value below is the second choice, taken when the words after the label are no valid value.
    const below = lookBelow ? valueBelow(index, entry, box) : null;
    // But a caption at the top of a ruled box (its line starts at the box's left rule) has its value under
    // it, and the words after it on its line are its instructions ("Relate A-L to service line below
    // (24E)"): there the value below comes first and those words second.
    const boxCaption = below !== null && atStart && entry.line.fragments[0]?.afterRule === true;
    if (below)
      results.push(
        readFrom(
          entry,
          below,
          'below',
          best.sim * weight * coverage * (boxCaption ? 1 : 0.95) * (atStart ? 1 : 0.8),
          box,
        ),
      );
    if (boxCaption) coverage *= 0.95;
  }
  if (where === 'same-line' && CAPTION_GOES_ON.test(text ?? '')) return results;
  const score = best.sim * weight * coverage * (atStart ? 1 : 0.8);
  results.push({
    score,
    text: text || null,
    where,
    confidence,
    page: entry.page.page,
    labelBox: box,
    valueBox,
    valueLine,
    line: entry,
  });
  return results;
}

/**
 * Words after a label that start with "or" or "and" go on with the caption ("POLICY GROUP OR FECA NUMBER"): they
 * are no value, and the value under the caption, if any, is the one.
 */
const CAPTION_GOES_ON = /^(or|and|&)(\s|$)/i;

/** A label as it is looked for, worked out once for every line it is compared with. */
interface WantedLabel {
  /** Its normalised tokens, and them joined. */
  wanted: string[];
  wantedJoined: string;
  /** Its content words by stem, sorted (for reordered matches; '' when fewer than two). */
  wantedWords: string;
  /** Matched word for word, with an abbreviated "number": joined, "invoice#" is one letter off "invoice". */
  wordForWord: boolean;
  /** It asks for a rate, so a percentage after it is its value, not part of its caption. */
  asksForRate: boolean;
}

function wantedLabel(label: string): WantedLabel {
  const wanted = labelTokens(label);
  // Reordering needs two words to reorder: "invoice number" keeps one ("invoice"), which any "of invoice" holds.
  const reorderable = contentWords(wanted);
  return {
    wanted,
    wantedJoined: wanted.join(''),
    wantedWords: reorderable.includes(' ') ? reorderable : '',
    wordForWord: wanted.some((word) => NUMBER_SIGNS.has(word)),
    asksForRate: label.split(/\s+/).some((word) => RATE_WORDS.has(word.toLowerCase())),
  };
}

/**
 * How well `label` names the whole of a caption printed as `text` (a check box's caption put together from the
 * lines it wraps onto): the match's similarity when the label's words are all of the caption's, else 0.
 */
export function wholeCaptionSimilarity(label: string, text: string): number {
  const wanted = wantedLabel(label);
  const tokens = tokenise(text).filter((t) => t.norm !== '');
  if (wanted.wanted.length === 0 || tokens.length === 0) return 0;
  const best = bestWindow(tokens, 0, wanted);
  return best && best.end === tokens.length ? best.sim : 0;
}

/** Every run of four letters or digits a document's tokens print, and their first three (`^acc`), per document. */
const printedRuns = new WeakMap<DocumentIndex, Set<string>>();

function runsOf(word: string): string[] {
  return Array.from({ length: Math.max(0, word.length - 3) }, (_, i) => word.slice(i, i + 4));
}

/**
 * Whether a page prints words like each of a label's: a word of five letters or more shares a run of four with
 * some token (an OCR slip leaves most of a word's runs); one of four starts a token with its first three letters
 * (it may be printed shorter still, `Acc` for `acct`). A label said in other words (label-synonyms.ts, in every
 * language of the lexicon) is looked for only on such a page: the search itself tells a match.
 */
export function printsWordsLike(index: DocumentIndex, label: string): boolean {
  let runs = printedRuns.get(index);
  if (!runs) {
    runs = new Set(
      index.lines.flatMap((entry) =>
        entry.tokens.flatMap((token) => [...runsOf(token.norm), `^${token.norm.slice(0, 3)}`]),
      ),
    );
    printedRuns.set(index, runs);
  }
  const seen = runs;
  return labelTokens(label).every((word) =>
    word.length >= 5 ? runsOf(word).some((run) => seen.has(run)) : word.length < 4 || seen.has(`^${word.slice(0, 3)}`),
  );
}

/** Every place `label` is printed, with the value next to it and a match score. */
export function findLabelValues(
  index: DocumentIndex,
  label: string,
  weight: number,
  lookBelow: boolean,
): ValueCandidate[] {
  const wanted = wantedLabel(label);
  if (wanted.wanted.length === 0) return [];
  const results: ValueCandidate[] = [];
  for (const entry of index.lines) {
    const tokens = entry.tokens;
    const inHint = parenthesised(tokens);
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i]!.norm === '' || inHint[i]) continue;
      // A box number ("21.") starts no label: a fuzzy match taking it in would hide the exact one after it.
      if (isPrefixToken(tokens[i]!.raw) && tokens[i]!.norm !== wanted.wanted[0]) continue;
      const best = bestWindow(tokens, i, wanted);
      if (!best) continue;
      const found = candidatesAt(index, entry, i, best, wanted, weight, lookBelow, inHint);
      if (!found) continue;
      results.push(...found);
      i = best.end - 1;
    }
  }
  return results;
}
