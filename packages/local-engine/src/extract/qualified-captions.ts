/**
 * Captions that say only part of what a field is, the rest said by the caption before them.
 *
 * A contact box captioned only by what it holds, its owner said by the caption it follows: a form asks "Landlord,
 * Project/Complex, Mortgage Company Name: ____" and on the next line just "Address: ____ Telephone No.: ____". A
 * field named by its owner and such a head (`landlordAddress`, `landlord_phone`) is read at a bare head caption
 * (`Address:`, `Telephone No.:`) only where the owner's word is printed just before it: earlier on its line or on
 * the line right above (CHANGELOG.md, "Questions, boxes and contact boxes by their words"). The parties a
 * finder reads (patient, vendor, bill-to…: party-roles.ts) are left to it; third parties (a landlord, a lender) are
 * not.
 *
 * A sub-caption under a heading: a payslip prints "Exemptions/Allowances:" and under it "Federal: 3", "State: 2". A
 * field whose name's words are a `Label:` caption's and a heading's just above it (`federalExemptions`,
 * `federal_allowances`) is read at that caption (docs/reference.md, "Questions, boxes and contact boxes by their
 * words").
 */
import levenshtein from 'fast-levenshtein';
import { stem } from './caption-words.js';
import type { DocumentIndex, IndexedLine } from './document-index.js';
import { FUNCTION_WORDS } from './document-index.js';
import { describeWords } from './field-roles.js';
import { findLabelValues, type ValueCandidate } from './find-values.js';
import { isPartyWord, isThirdPartyWord } from './party-roles.js';

/** How a telephone box's caption is printed. */
const PHONE = ['phone', 'telephone', 'tel', 'phone no', 'telephone no', 'phone number', 'telephone number'];

/** Contact heads a caption may print alone, each with the ways it is printed. */
const HEADS: Record<string, readonly string[]> = {
  address: ['address'],
  phone: PHONE,
  telephone: PHONE,
  fax: ['fax', 'fax no', 'fax number'],
  email: ['email', 'e-mail', 'email address', 'e-mail address'],
};

/** The label weight of a bare head caption whose owner is printed before it: above an unqualified caption's. */
const OWNED_HEAD_WEIGHT = 0.8;
/** How far above a caption (in its line heights) the line naming its owner may be. */
const OWNER_LINE_REACH = 1.8;

/** The owner's words and the head of a field named "<owner…> <head>", or null. */
function ownedHead(name: string): { owners: string[]; head: string } | null {
  const words = describeWords(name);
  const head = words.at(-1);
  const owners = words.slice(0, -1).filter((w) => w.length > 2);
  if (!head || !HEADS[head] || owners.length === 0 || owners.some((w) => isPartyWord(w) && !isThirdPartyWord(w)))
    return null;
  return { owners: owners.map(stem), head };
}

/** Whether a printed word is one of the owner's words, or an OCR slip of it ("Landord"). */
function namesOwner(word: string, owners: string[]): boolean {
  const w = stem(word);
  return owners.some((o) => o === w || (o.length >= 5 && w.length >= 5 && levenshtein.get(o, w) <= 1));
}

/** The words printed just before a caption: earlier on its line, and on the line right above it. */
function wordsBefore(index: DocumentIndex, candidate: ValueCandidate): string[] {
  const { line, labelBox } = candidate;
  const height = Math.max(6, labelBox.y1 - labelBox.y0);
  const earlier = line.line.fragments.filter((f) => f.box.x1 <= labelBox.x0 + 1).map((f) => f.text);
  const above = index.lines
    .filter(
      (l: IndexedLine) =>
        l.page === line.page &&
        l.line.box.y1 <= labelBox.y0 + height * 0.3 &&
        l.line.box.y1 >= labelBox.y0 - height * OWNER_LINE_REACH &&
        l.line.box.x1 > labelBox.x0 &&
        l.line.box.x0 < labelBox.x1 + 144,
    )
    .flatMap((l) => l.line.text.split(/[^\p{L}]+/u));
  return [...earlier.flatMap((t) => t.split(/[^\p{L}]+/u)), ...above].filter(Boolean);
}

/** The candidates of a bare head caption whose owner is printed just before it, for a field named "<owner> <head>". */
export function ownedHeadCandidates(index: DocumentIndex, path: string[]): ValueCandidate[] {
  // A group's name owns its children's heads too (`landlord.phone`).
  const owned = ownedHead(path.slice(-2).join(' '));
  if (!owned) return [];
  return HEADS[owned.head]!.flatMap((head) =>
    findLabelValues(index, head, OWNED_HEAD_WEIGHT, true).filter((c) =>
      wordsBefore(index, c).some((w) => namesOwner(w, owned.owners)),
    ),
  );
}

/** The label weight of a sub-caption whose heading says the rest of the field's words. */
const SUB_CAPTION_WEIGHT = 0.8;
/** How far above a sub-caption (in its line heights) its heading may be. */
const HEADING_REACH = 5;
/** Most words a sub-caption or a heading may have. */
const MAX_CAPTION_WORDS = 4;

/** The stems of a caption's words, its slash-joined alternatives apart ("Exemptions/Allowances"). */
function captionStems(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length > 1 && !FUNCTION_WORDS.includes(w))
    .map(stem);
}

/** A line that is a `Label:` alone (a heading of the captions under it), with its words; null when it is not. */
function headingWords(entry: IndexedLine): string[] | null {
  const text = entry.line.text.trim();
  if (!text.endsWith(':') || /\d/.test(text)) return null;
  const words = captionStems(text);
  return words.length > 0 && words.length <= MAX_CAPTION_WORDS ? words : null;
}

/** The `Label:` a line starts with, as printed, and its words; null when none. */
function leadingLabel(entry: IndexedLine): { text: string; words: string[] } | null {
  const m = /^\s*([\p{L}][\p{L} .'’/-]{0,40}):/u.exec(entry.line.text);
  if (!m) return null;
  const words = captionStems(m[1]!);
  return words.length > 0 && words.length <= MAX_CAPTION_WORDS ? { text: m[1]!.trim(), words } : null;
}

/** The nearest heading above a line in its column, within reach; null when none. */
function headingAbove(index: DocumentIndex, entry: IndexedLine): string[] | null {
  const { box } = entry.line;
  const height = Math.max(6, box.y1 - box.y0);
  const above = index.lines
    .filter(
      (l) =>
        l.page === entry.page &&
        l.line.box.y1 <= box.y0 + height * 0.3 &&
        l.line.box.y0 >= box.y0 - height * HEADING_REACH &&
        l.line.box.x0 <= box.x0 + 2 &&
        l.line.box.x1 > box.x0,
    )
    .sort((a, b) => b.line.box.y0 - a.line.box.y0);
  for (const line of above) {
    const words = headingWords(line);
    if (words) return words;
  }
  return null;
}

/**
 * The candidates of a `Label:` caption that says some of a field's name's words (all its own words among them) under
 * a heading that says all the others.
 */
export function subCaptionCandidates(index: DocumentIndex, path: string[]): ValueCandidate[] {
  const wanted = new Set(captionStems(describeWords(path.at(-1) ?? '').join(' ')));
  if (wanted.size < 2) return [];
  const found: ValueCandidate[] = [];
  for (const entry of index.lines) {
    const label = leadingLabel(entry);
    if (!label?.words.every((w) => wanted.has(w))) continue;
    const rest = [...wanted].filter((w) => !label.words.includes(w));
    const heading = rest.length > 0 ? headingAbove(index, entry) : null;
    if (!heading || !rest.every((w) => heading.includes(w))) continue;
    found.push(...findLabelValues(index, label.text, SUB_CAPTION_WEIGHT, true).filter((c) => c.line === entry));
  }
  return found;
}
