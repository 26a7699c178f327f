/**
 * The analysed pages indexed for label search: every line with its tokens (normalised for matching) and the
 * section heading it sits under.
 */
import { conceptWords, fold } from '../lexicon/lexicon.js';
import type { DateLocale } from '../contract.js';
import type { PageLayout, PointBox, TextLine } from '../layout/types.js';
import { findDates } from './typed-values.js';

export interface Token {
  /** As printed. */
  raw: string;
  /** Lower case, letters/digits/# only ("Patient's" → "patient"). */
  norm: string;
  start: number;
  end: number;
}

export interface IndexedLine {
  page: PageLayout;
  line: TextLine;
  rowIndex: number;
  tokens: Token[];
  /** Text of the nearest heading above (this page or an earlier one), lower case; '' when none. */
  section: string;
}

export interface DocumentIndex {
  pages: PageLayout[];
  lines: IndexedLine[];
  /** The documents' locale when the caller knows it (a dataset's `locale`): day/month order of ambiguous dates. */
  locale: DateLocale | undefined;
}

/** Normalises one token for matching. */
export function normaliseToken(token: string): string {
  // Diacritics folded ("Fälligkeit", "Échéance" read as the OCR may drop them); "N°" and "Nº" are "No".
  return fold(token)
    .replace(/^n[°º]\.?$/, 'no')
    .replace(/['’]s\b/g, '')
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9#]/g, '');
}

/**
 * Splits text into tokens with their positions. A parenthesis the OCR glued to a word opens a token
 * ("NAME(Last"), a box number or item letter glued to its caption is a token of its own ("3.PATIENT'S",
 * "h.AUTO"), and so is a label whose colon the OCR glued to the value ("Number:987-65-4321").
 */
export function tokenise(text: string): Token[] {
  return [
    ...text.matchAll(
      /(?:\d{1,2}[a-zA-Z]?|\b[a-zA-Z])\.(?=[A-Za-z]{2})|\(?[A-Za-z'’]{2,}:(?=[A-Za-z\d])|\(?[^\s(]+|\(/g,
    ),
  ]
    .flatMap((m) => withoutGluedDate(m[0], m.index))
    .flatMap(alternatives);
}

/**
 * Words a caption offers as alternatives, joined by slashes ("Day/Message/Cell Phone", "Hrs/Qty"), as tokens of their
 * own, each but the last keeping its slash: a label may name any one of them (find-values.ts).
 */
function alternatives(whole: Token): Token[] {
  if (!/\p{L}\/\p{L}/u.test(whole.raw)) return [whole];
  const parts = whole.raw.split(/(?<=\p{L}\/)(?=\p{L})/u);
  let at = whole.start;
  return parts.map((part) => {
    const piece = token(part, at);
    at += part.length;
    return piece;
  });
}

/** Whether a token is an alternative a slash joins to the next word ("Day/" of "Day/Message/Cell Phone"). */
export function isAlternative(token: Token): boolean {
  return /\p{L}\/$/u.test(token.raw);
}

function token(raw: string, start: number): Token {
  return { raw, norm: normaliseToken(raw), start, end: start + raw.length };
}

/**
 * A word and the date the OCR glued to it ("transactionstill2023-01-17", "asof2023-01-20") as two tokens: the
 * words before a date name it, and the date is the value after them.
 */
function withoutGluedDate(raw: string, start: number): Token[] {
  const glued = /^\(?[A-Za-z'’]{2,}(?=\d)/.exec(raw);
  if (!glued || findDates(raw).every((date) => date.start !== glued[0].length)) return [token(raw, start)];
  return [token(glued[0], start), token(raw.slice(glued[0].length), start + glued[0].length)];
}

/** Words that join a label's words without naming anything ("amount of tax", "date de facture"): the lexicon's. */
export const FUNCTION_WORDS: readonly string[] = conceptWords('function-word');

/** A box number or item letter printed before a form caption ("2.", "24a."), as the OCR reads it ("27", "&5"). */
export const BOX_NUMBER = /^[^\w\s]?\d{1,2}[a-zA-Z]?[.,)]?$/;

/**
 * Where a value under a label (at `labelBox`) may start: from a little above the label's bottom (lines of a row
 * overlap) to a little over two label heights below it.
 */
export function reachBelow(labelBox: PointBox): { top: number; bottom: number } {
  const height = Math.max(6, labelBox.y1 - labelBox.y0);
  return { top: labelBox.y1 - height * 0.3, bottom: labelBox.y1 + height * 2.2 };
}

/** The box of characters [startChar, endChar) of a line. */
export function fragmentBox(line: TextLine, startChar: number, endChar: number): PointBox {
  // Positions inside a line are interpolated by character count: runs rarely carry per-glyph positions.
  const length = Math.max(1, line.text.length);
  const width = line.box.x1 - line.box.x0;
  return {
    x0: line.box.x0 + (width * startChar) / length,
    y0: line.box.y0,
    x1: line.box.x0 + (width * endChar) / length,
    y1: line.box.y1,
  };
}

/** Which tokens sit inside parentheses: a form's hint ("(Last Name, First Name, Middle Initial)"), never a label. */
export function parenthesised(tokens: { raw: string }[]): boolean[] {
  let depth = 0;
  return tokens.map((token) => {
    const opens = token.raw.startsWith('(');
    if (opens) depth++;
    const inside = depth > 0;
    if (token.raw.endsWith(')') && depth > 0) depth--;
    return inside;
  });
}

/** Builds the index over every page's lines. */
export function indexDocument(pages: PageLayout[], locale?: DateLocale): DocumentIndex {
  const lines: IndexedLine[] = [];
  let section = '';
  for (const page of pages) {
    const headingOf = new Map<TextLine, string>();
    for (const block of page.blocks)
      if (block.kind === 'heading') for (const line of block.lines) headingOf.set(line, block.text.toLowerCase());
    page.rows.forEach((row, rowIndex) => {
      for (const line of row.lines) {
        const heading = headingOf.get(line);
        if (heading !== undefined) section = heading;
        lines.push({ page, line, rowIndex, tokens: tokenise(line.text), section });
      }
    });
  }
  return { pages, lines, locale };
}
