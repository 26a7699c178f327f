/**
 * Finders for the roles of field-roles.ts, from the page layout rather than from a printed label: the issuer
 * is a name at the top (or in the footer's legal line), never in the "Bill to" block; its address is the lines
 * under it; the document date is the first date printed near a date label or at the top; the total is the
 * amount beside the strongest "total" wording, lowest on the page. Each finder returns its value with a 0–1
 * quality that feeds the confidence score.
 */
import { conceptWords, wordingPattern } from '../lexicon/lexicon.js';
import type { DocumentIndex, IndexedLine } from './document-index.js';
import type { PageLayout } from '../layout/types.js';
import {
  findAmounts,
  findCurrency,
  findDates,
  inferDateOrder,
  resolveDate,
  type DateOrder,
  type FoundAmount,
} from './typed-values.js';
import {
  STREET_WORDS,
  joinAddressLines,
  POSTCODE_TOWN,
  repairAddressWords,
  repairGluedAddress,
} from './address-text.js';

export interface RoleValue {
  value: string | number;
  /** 0–1 strength of the evidence. */
  quality: number;
  /** An address's lines as printed, in order (address-parts.ts reads a part of it from them). */
  lines?: readonly string[];
}

/**
 * Legal forms that end a company name (GmbH, Ltd, B.V., Sdn Bhd…) and the shop words that end one as they do: the
 * lexicon's `legal-form` page words, each with an optional full stop.
 */
export const LEGAL_FORM = new RegExp(`${pageWording('legal-form')}\\.?`, 'iu');
/** Every legal form of a text, for cutting after one or removing them (`matchAll` and `replace` reset it). */
const LEGAL_FORMS = new RegExp(LEGAL_FORM.source, 'giu');
/** Headings and boilerplate near the top that are never the issuer's name; notices to the customer neither. */
export const NOT_A_NAME = new RegExp(
  `^(?:tax\\s+)?(?:${wordingPattern([...conceptWords('document-title', 'pageWords'), ...conceptWords('notice', 'pageWords')], true)}|tel|fax|phone|gst|vat|reg|co\\.?\\s*reg|company\\s*reg|no\\b)|\\b(?:date|datum|due|number|nr)\\b|${wordingPattern(conceptWords('notice', 'pageWords'))}`,
  'iu',
);
/** Labels of the recipient's block: lines under or beside them belong to the customer. */
export const RECIPIENT_LABEL = new RegExp(
  `^${wordingPattern([...conceptWords('recipient', 'pageWords'), ...conceptWords('recipient', 'weakPageWords')])}\\s*:?`,
  'iu',
);
/** Labels naming the issuer outright. */
export const ISSUER_LABEL = new RegExp(`^${pageWording('sender')}[^:]*:?\\s*`, 'iu');
/**
 * Lines that end an address block: contacts, tax numbers, dates, document titles (the lexicon's `address-end`
 * page words). Whole words only, a figure may follow: inside a word they are street and place names
 * ("Perindustrian" holds "ust", "Hotel" "tel"); a number label is
 * "No:" or "No.:", while "No.2" starts an address; "#02-03" is a unit number, "Invoice #" a title.
 */
const ADDRESS_STOP = new RegExp(
  String.raw`${pageWording('address-end', 'pageWords', true)}(?!\p{L})|(?<!\p{L})no\.?\s*:|www\.|http|@|#(?!\d{1,3}-\d)`,
  'iu',
);

/**
 * A page pattern of a concept's wordings in every language (the lexicon's `pageWords`, or another kind); `prefix`:
 * a wording may also start a longer word ("Ship" in "Shipping").
 */
export function pageWording(
  concept: string,
  kind: 'pageWords' | 'weakPageWords' = 'pageWords',
  prefix = false,
): string {
  return wordingPattern(conceptWords(concept, kind), prefix);
}

export function textOf(line: IndexedLine): string {
  return line.line.text.trim();
}

export function letterShare(text: string): number {
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  return letters / Math.max(1, text.replace(/\s/g, '').length);
}

/**
 * The first segment of a line joined by separators ("Medienpilot GmbH • Am Saueracker 23" → the name). A spaced
 * hyphen also joins words of one name ("DEMO - Sliced Invoices"): the words after it stay when they are words
 * alone (no digit, street word or contact) and the name before it has no legal form that would end it.
 */
function firstSegment(text: string): string {
  const [first] = text.split(/\s+[•·|–—]\s+|\s{3,}/);
  const [name, ...after] = first!.split(/\s+-\s+/);
  let joined = name!;
  for (const part of after) {
    if (LEGAL_FORM.test(joined) || /[\d@:]/.test(part) || STREET_WORDS.test(part) || letterShare(part) < 0.8) break;
    joined = `${joined} - ${part}`;
  }
  return joined.trim();
}

/** Cuts what follows a company name on one line: "Atlassian Pty Ltd, Level 6, 341 George St" → the name. */
function cutAfterLegalForm(text: string): string {
  for (const m of text.matchAll(LEGAL_FORMS)) {
    const after = text.slice(m.index + m[0].length);
    const next = /^\s*,\s*(.*)$/.exec(after);
    if (next && !LEGAL_FORM.test(next[1]!.split(/[\s,]/)[0]!)) return text.slice(0, m.index + m[0].length);
  }
  return text;
}

/** A line starting with a bare "to" ("To", "An"), and one where it is a label ("To:"). */
const BARE_TO = new RegExp(`^${pageWording('particle-to')}`, 'iu');
const BARE_TO_LABEL = new RegExp(`^${pageWording('particle-to')}\\s*:`, 'iu');

/** Whether a line is the customer's: under or beside a recipient label, in the same column, close below it. */
export function markRecipientLines(index: DocumentIndex): Set<IndexedLine> {
  const marked = new Set<IndexedLine>();
  for (const label of index.lines) {
    const text = textOf(label);
    const match = RECIPIENT_LABEL.exec(text);
    if (!match) continue;
    // "To" and "An" alone are labels only when nothing else is on their line.
    if (BARE_TO.test(text) && text.replace(/[:\s]/g, '').length > 2 && !BARE_TO_LABEL.test(text)) continue;
    if (match[0].length < text.length) marked.add(label);
    const box = label.line.box;
    const height = Math.max(6, box.y1 - box.y0);
    for (const other of index.lines) {
      if (other.page !== label.page || other === label) continue;
      const b = other.line.box;
      const below =
        b.y0 >= box.y0 + height * 0.5 &&
        b.y0 <= box.y1 + height * 8 &&
        b.x0 >= box.x0 - height * 2 &&
        b.x0 <= box.x0 + Math.max(120, (box.x1 - box.x0) * 1.5);
      const beside = other.rowIndex === label.rowIndex && b.x0 > box.x1 && b.x0 - box.x1 < 150;
      if (below || beside) marked.add(other);
    }
  }
  return marked;
}

/**
 * OCR slips in names: "{KUCHAI)" or "{(KUCHAI)" → "(KUCHAI)"; spaces lost around parentheses and in "SDNBHD"; a rule line read into the name ("BAKERIES———(KL)")
 * → a space; in Malaysian legal forms "SON BHD", "5D BHD" → "SDN BHD", "5/B" → "S/B".
 */
function repairLegalForm(text: string): string {
  return (
    text
      .replace(/\{\(/g, '(')
      .replace(/\{([^{}()]*\))/g, '($1')
      // A space lost after an abbreviated title before initials: "MR.D.I.Y." → "MR. D.I.Y.".
      .replace(/\b(MR|MRS|MS|DR|ST|Mr|Mrs|Ms|Dr|St)\.(?=\p{L}\.)/gu, '$1. ')
      .replace(/\s*(?:[—–_]{2,}|-{3,})\s*/g, ' ')
      .replace(/\b5\/B\b/g, 'S/B')
      // Words glued to a parenthesis, or a parenthesis padded inside: "BAKERIES(KL)SDN", "(KL )" → "BAKERIES (KL) SDN".
      .replace(/([\p{L}\p{N}.])\(/gu, '$1 (')
      .replace(/\)([\p{L}\p{N}])/gu, ') $1')
      .replace(/\(\s+/g, '(')
      .replace(/\s+\)/g, ')')
      .replace(/\b(SDN|Sdn)(BHD|Bhd)\b/g, '$1 $2')
      .replace(
        /\b(?:S[O0D]N|5DN|5D|SDM|SD)(\s+)(BHD)\b/gi,
        (_, space: string, bhd: string) => `${bhd === 'BHD' ? 'SDN' : 'Sdn'}${space}${bhd}`,
      )
  );
}

/** Strips a registration number or parenthetical after the name: "ABC SDN BHD (123456-X)" → "ABC SDN BHD". */
export function cleanName(text: string): string {
  return repairLegalForm(text)
    .replace(/\s*\(?\b(co\.?\s*)?(reg\.?|registration|company)?\s*(no\.?|#)\s*[:.]?\s*[\w-]+\)?\s*$/i, '')
    .replace(/\s*\(\s*\d[^)]*\)?\s*$/, '')
    .replace(/[\s,;:_—–-]+$/, '')
    .trim();
}

export interface IssuerPick {
  line: IndexedLine;
  name: string;
  quality: number;
}

/** The nearest line under `entry` in its column (next rows only). */
function lineBelow(index: DocumentIndex, entry: IndexedLine): IndexedLine | undefined {
  const box = entry.line.box;
  return index.lines.find(
    (l) =>
      l.page === entry.page &&
      l.rowIndex > entry.rowIndex &&
      l.rowIndex <= entry.rowIndex + 2 &&
      l.line.box.x1 > box.x0 &&
      l.line.box.x0 < box.x1 + 40,
  );
}

/**
 * A heading printed letter-spaced ("SIN  THYE  &  COMPANY") reaches OCR as several short lines on one row:
 * when every line of the entry's row is words without digits or colons, the name is the whole row, left to
 * right. Undefined when the row holds only this line or anything else.
 */
function spreadRowText(index: DocumentIndex, entry: IndexedLine): string | undefined {
  const row = index.lines
    .filter((l) => l.page === entry.page && l.rowIndex === entry.rowIndex)
    .sort((a, b) => a.line.box.x0 - b.line.box.x0);
  if (row.length < 2 || row.length > 6) return undefined;
  // Words without digits, one or two a line, each close to the next (within three of its letters' heights):
  // a spaced heading, not a name in one column and a title or a date in another.
  if (
    row.some(
      (l) =>
        /[\d:@]/.test(textOf(l)) ||
        textOf(l).split(/\s+/).length > 2 ||
        letterShare(textOf(l).replace(/&/g, 'x')) < 0.8,
    )
  )
    return undefined;
  if (row.some((l, i) => i > 0 && l.line.box.x0 - row[i - 1]!.line.box.x1 > 3 * Math.max(l.line.fontSize, 6)))
    return undefined;
  return row.map(textOf).join(' ');
}

/** Issuer picks per analysed document: the issuer and its address fields both start from the same pick. */
const issuerPicks = new WeakMap<DocumentIndex, IssuerPick | null>();

export function pickIssuer(index: DocumentIndex): IssuerPick | null {
  if (!issuerPicks.has(index)) issuerPicks.set(index, pickIssuerUncached(index));
  return issuerPicks.get(index)!;
}

function pickIssuerUncached(index: DocumentIndex): IssuerPick | null {
  const recipient = markRecipientLines(index);
  const recipientNames = new Set([...recipient].map((l) => cleanName(textOf(l)).toLowerCase()));
  const firstPage = index.pages[0];
  if (!firstPage) return null;
  const sizes = index.lines
    .filter((l) => l.page === firstPage)
    .map((l) => l.line.fontSize)
    .sort((a, b) => a - b);
  const medianSize = sizes[Math.floor(sizes.length / 2)] ?? 10;
  let best: IssuerPick | null = null;
  let rank = 0;
  for (const entry of index.lines) {
    if (entry.page !== firstPage || recipient.has(entry)) continue;
    const raw = spreadRowText(index, entry) ?? textOf(entry);
    const labelled = ISSUER_LABEL.exec(raw);
    let source = labelled ? raw.slice(labelled[0].length) : raw;
    let line = entry;
    if (labelled && source.trim() === '') {
      // "Seller:" alone on its line: the name is the line under it.
      const below = lineBelow(index, entry);
      if (!below || recipient.has(below)) continue;
      source = textOf(below);
      line = below;
    } else if (/[:@]/.test(source.replace(/\s*\([^()]*\)\s*$/, ''))) continue; // a label line, unless the colon is in a trailing "(Co. No: …)"
    // A line wholly in parentheses annotates the name above it (a branch, a tax number), never is it.
    if (/^\s*\(.*\)\s*$/.test(source)) continue;
    const name = cleanName(cutAfterLegalForm(firstSegment(source)));
    // A legal form alone ("CO." heading a column of a payslip's header, "LTD") names no one.
    if (name.replace(LEGAL_FORMS, '').replace(/[\s.,&]/g, '') === '') continue;
    const top = entry.line.box.y0 / Math.max(1, entry.page.height);
    const footer = top > 0.85;
    // OCR of logos and smudges: low confidence, or mostly one- and two-letter tokens.
    const tokens = name.split(/\s+/);
    if (entry.line.confidence < 55 || tokens.filter((t) => t.length <= 2).length * 2 > tokens.length) continue;
    if (
      name.length < 3 ||
      letterShare(name) < 0.6 ||
      NOT_A_NAME.test(name) ||
      /https?|www\./i.test(name) ||
      findDates(name).length > 0
    )
      continue;
    // A name also printed in the customer's block is the customer's.
    if (recipientNames.has(name.toLowerCase())) continue;
    if (!labelled && top > 0.35 && !footer) continue;
    const legal = LEGAL_FORM.test(name);
    // Names rarely carry digits (addresses do); a name without a legal form is trusted only near the top.
    let quality =
      0.35 +
      (legal ? 0.35 : 0) +
      Math.max(0, 0.2 - rank * 0.05) +
      (entry.line.fontSize > medianSize * 1.15 ? 0.1 : 0) -
      top * 0.3;
    if (/\d/.test(name)) quality -= 0.25;
    if (/^(\d|lot\b|no\b|jalan\b|jln\b|taman\b|level\b|unit\b|suite\b|floor\b)/i.test(name)) quality -= 0.3;
    // Names print in capitals or title case; an all-lower-case line is a note or a handwritten remark.
    if (name === name.toLowerCase()) quality -= 0.3;
    // A line ending in a comma goes on to the next: an address line ("DAMANSARA UTAMA,"), not a name.
    if (/,\s*$/.test(source)) quality -= 0.3;
    if (!legal && top > 0.2) quality -= 0.2;
    if (labelled) quality += 0.3;
    if (footer) quality = legal ? quality - 0.15 : 0;
    rank++;
    if (!best || quality > best.quality) best = { line, name, quality };
  }
  return best;
}

/**
 * A name's last full stop, unless it closes an abbreviation dotted letter by letter: "Userpilot, Inc." →
 * "Userpilot, Inc", but "Bakker B.V." and "Conti S.a.s." keep theirs ("B.V" is no way to write it).
 */
function withoutFinalStop(name: string): string {
  return /(?:^|[\s,])(?:\p{L}{1,3}\.){2,}$/u.test(name) ? name : name.replace(/\.$/, '');
}

/** The issuer's name: its printed form, without a trailing full stop but that of a dotted abbreviation. */
export function findIssuer(index: DocumentIndex): RoleValue | null {
  const pick = pickIssuer(index);
  if (!pick) return null;
  // Receipts often print the name over two lines ("SYARIKAT PERNIAGAAN" / "GIN KEE SDN BHD"): when the legal
  // form sits on the next line, centred under this one, the name is both.
  let name = pick.name;
  if (!LEGAL_FORM.test(name)) {
    const next = lineBelow(index, pick.line);
    const nextName = next ? cleanName(firstSegment(textOf(next))) : '';
    if (next && LEGAL_FORM.test(nextName) && letterShare(nextName) > 0.6 && !ADDRESS_STOP.test(nextName))
      name = `${name} ${nextName}`;
  }
  return { value: withoutFinalStop(name), quality: Math.min(1, Math.max(0.2, pick.quality)) };
}

/** The issuer's address: the lines printed under its name, up to the first contact, tax or title line. */
export function findIssuerAddress(index: DocumentIndex): RoleValue | null {
  const pick = pickIssuer(index);
  if (!pick) return null;
  // The name line itself may carry the address after a separator ("Medienpilot GmbH • Am Saueracker 23 • …").
  const rest = textOf(pick.line)
    .split(/\s+[•·|–—]\s+/)
    .slice(1);
  if (rest.length >= 2) return { value: rest.join(', '), quality: pick.quality * 0.8, lines: rest };
  let parts = addressLinesBelow(index, pick.line, true);
  // Nothing under the name reads as an address (a branch name such as "KEPONG OUTLET", a note in
  // parentheses): an address printed with its own label further down is the issuer's; else there is none.
  if (!readsAsAddress(parts.join(' '))) parts = labelledAddress(index, pick.line.page) ?? [];
  if (parts.length === 0) return null;
  const value = repairAddressWords(joinAddressLines(parts));
  // Lines that read as an address (a postcode before a place name, street words) are evidence of their own,
  // however doubtful the name above them.
  const addressLike = STREET_WORDS.test(value) && parts.some((part) => POSTCODE_TOWN.test(part));
  return {
    value,
    quality: addressLike ? Math.max(0.45, pick.quality * 0.7 + 0.15) : pick.quality * 0.7,
    lines: parts,
  };
}

/** The widest gap between two lines of one address block, in line heights. */
const BLOCK_GAP = 1.5;

/**
 * The lines of an address block under `start`, in its column, up to a contact, tax, date or title line. With
 * `skipBefore`, what a till prints between a name and its address is passed over first.
 */
function addressLinesBelow(index: DocumentIndex, start: IndexedLine, skipBefore: boolean): string[] {
  const parts: string[] = [];
  let previous = start;
  let skippedBeforeAddress = 0;
  for (const entry of index.lines) {
    if (entry.page !== start.page || entry.rowIndex <= previous.rowIndex) continue;
    if (entry.rowIndex > previous.rowIndex + 1) break;
    const box = entry.line.box;
    const ref = previous.line.box;
    // Same column: overlapping horizontally with the line above.
    if (box.x1 < ref.x0 || box.x0 > ref.x1) continue;
    // A gap of more than a line and a half ends the block: what follows (a title, a heading) is set apart from it.
    if (box.y0 - ref.y1 > BLOCK_GAP * Math.max(ref.y1 - ref.y0, box.y1 - box.y0)) break;
    const text = repairGluedAddress(textOf(entry));
    // Before the address: the rest of the name, its registration number ("(123456-X)", "Co. Reg: 750441-W",
    // read by OCR as "(65351~M)" or "Co~REG"), a labelled id ("Company No: …", "Site: 2395") or the date and
    // time a till prints under the name. Skipped lines still chain the column: the address follows them.
    if (skipBefore && parts.length === 0 && skippedBeforeAddress < 4 && precedesAddress(text)) {
      skippedBeforeAddress++;
      previous = entry;
      continue;
    }
    // A label and its value ("Tel: …", "Cashier: …") ends the address: address lines hold no colon.
    if (ADDRESS_STOP.test(text) || text.includes(':') || findDates(text).length > 0 || findAmounts(text).length > 0)
      break;
    parts.push(text);
    previous = entry;
    if (parts.length >= 5) break;
  }
  return parts;
}

/** A label naming an address outright: "Address:", "HQ ADD:", "Anschrift:", Malay "Alamat:" (lexicon words). */
const ADDRESS_LABEL = new RegExp(
  `^(?:${pageWording('address-owner')}\\s+)?${pageWording('address-caption')}\\s*\\.?\\s*:\\s*`,
  'iu',
);

/** The first address printed after its own label in the top part of `page`, with the lines under it. */
function labelledAddress(index: DocumentIndex, page: PageLayout): string[] | null {
  for (const entry of index.lines) {
    if (entry.page !== page || entry.line.box.y0 > page.height * 0.4) continue;
    const label = ADDRESS_LABEL.exec(textOf(entry));
    if (!label || RECIPIENT_LABEL.test(textOf(entry))) continue;
    const first = textOf(entry).slice(label[0].length).trim();
    const parts = [...(first ? [first] : []), ...addressLinesBelow(index, entry, false)];
    if (readsAsAddress(parts.join(' '))) return parts;
  }
  return null;
}

/** Whether text can be an address at all: a number (house, postcode) or a street word. */
function readsAsAddress(text: string): boolean {
  return /\d/.test(text) || STREET_WORDS.test(text);
}

/**
 * Words that start a line relating the issuer to another business (a licence, a franchise, a former name, a group):
 * the lexicon's `business-relation` page words.
 */
const RELATION = new RegExp(`^\\(?\\s*${pageWording('business-relation')}`, 'iu');

/** Lines printed between a name and its address that are not the address. */
function precedesAddress(text: string): boolean {
  if (LEGAL_FORM.test(text) && !/\d/.test(text)) return true;
  // What ties the name to another business: "formerly known as", "Licensee of McDonald's", "a member of …".
  if (RELATION.test(text) && !/\d/.test(text)) return true;
  if (/^\(?[\dA-Z]+[-~]?[A-Z]?\)?$/.test(text) || /^\(?\s*co\W{0,2}\s*reg\b/i.test(text)) return true;
  // "Company No: SA0127959-D", "Site: 2395", "GST Reg. No : 000313901056": a short label (not a title, date
  // or contact) and an id without spaces; OCR may read the label's "No" as "N0".
  const labelled = /^\(?([\p{L}\d .]{2,24}):\s*([\p{L}\d/-]*\d[\p{L}\d/-]*)\)?$/u.exec(text);
  if (
    labelled &&
    !/\b(invoice|receipt|rechnung|bill|date|datum|cashier|table|tel|phone|fax|e-?mail)\b/i.test(labelled[1]!)
  )
    return true;
  // A date with or without its time, and nothing else.
  const dates = findDates(text);
  return (
    dates.length > 0 &&
    text.replace(/\d{1,2}:\d{2}(:\d{2})?\s*([AP]M)?/gi, '').replace(/[\d\s/.,:-]|\b[A-Za-z]{3,9}\b/g, '').length === 0
  );
}

/**
 * Day/month order for a document whose dates are all ambiguous: day first when it shows signs of printing
 * outside the US (a non-dollar currency, GST/VAT, German words), else US order, the home of medical billing.
 */
function fallbackOrder(index: DocumentIndex): DateOrder {
  const text = index.lines.slice(0, 400).map(textOf).join(' ');
  // Counted against dollar signs: one stray "€" read from a logo does not outvote a page of "$" amounts.
  const elsewhere =
    text.match(/€|£|\b(RM|EUR|GBP|MYR|AUD|SGD|INR|CHF|GST|VAT|MwSt|USt|Rechnung|Datum)\b/g)?.length ?? 0;
  const dollars = text.match(/\$/g)?.length ?? 0;
  return elsewhere > Math.max(1, dollars) ? 'dmy' : 'mdy';
}

/**
 * The order of numeric dates in this document: its unambiguous dates decide, then the locale the caller
 * gave (a dataset's `locale`), then the signs fallbackOrder reads.
 */
export function documentDateOrder(index: DocumentIndex): DateOrder {
  const given = index.locale === undefined ? undefined : index.locale === 'EU' ? 'dmy' : 'mdy';
  return inferDateOrder(index.lines.map(textOf), given ?? fallbackOrder(index));
}

/** A date's caption, and the captions of dates other than the document's (due, delivery, birth…). */
const DATE_LABEL = new RegExp(pageWording('date'), 'iu');
const OTHER_DATE_LABEL = new RegExp(pageWording('other-date'), 'iu');

/** The document's date: near a date label first, else the first date printed on the first page. */
export function findDocumentDate(index: DocumentIndex): RoleValue | null {
  const order = documentDateOrder(index);
  let best: { iso: string; quality: number } | null = null;
  index.lines.forEach((entry, position) => {
    const text = textOf(entry);
    const dates = findDates(text);
    if (dates.length === 0) return;
    // The label may be the line itself or the line left of it on the same row.
    const left = index.lines[position - 1];
    const labelText =
      left && left.rowIndex === entry.rowIndex && left.page === entry.page ? `${textOf(left)} ${text}` : text;
    const head = labelText.slice(0, labelText.indexOf(text) + dates[0]!.start);
    let quality = 0.45;
    if (DATE_LABEL.test(head)) quality += 0.35;
    if (OTHER_DATE_LABEL.test(head)) quality -= 0.35;
    if (dates.length > 1) quality -= 0.15;
    // A date stamped with the time is the moment of the sale or of issue.
    if (/^\s*,?\s*\d{1,2}:\d{2}\b/.test(text.slice(dates[0]!.end))) quality += 0.2;
    if (entry.page !== index.pages[0]) quality -= 0.1;
    quality -= position * 0.002;
    const iso = resolveDate(dates[0]!, order);
    if (iso && (!best || quality > best.quality)) best = { iso, quality };
  });
  const found = best as { iso: string; quality: number } | null;
  return found ? { value: found.iso, quality: Math.min(1, Math.max(0.2, found.quality)) } : null;
}

/** Total wording, strongest first: the amount finally paid or due, taxes and rounding included. */
const TOTAL_PATTERNS: [RegExp, number][] = [
  [new RegExp(pageWording('total'), 'iu'), 1],
  [new RegExp(pageWording('total', 'weakPageWords'), 'iu'), 0.8],
];
/** Wording of amounts that are parts of the total, or not money owed at all. */
const NOT_TOTAL = new RegExp(pageWording('total-part'), 'iu');

interface AmountAt {
  amount: FoundAmount;
  entry: IndexedLine;
}

/** Amounts printed on a line, or right of it on the same row (a label in one column, its amount in another). */
function amountsBeside(index: DocumentIndex, position: number): AmountAt[] {
  const entry = index.lines[position]!;
  const own = findAmounts(textOf(entry)).map((amount) => ({ amount, entry }));
  if (own.length > 0) return own;
  for (
    let i = position + 1;
    i < index.lines.length && index.lines[i]!.rowIndex === entry.rowIndex && index.lines[i]!.page === entry.page;
    i++
  ) {
    const found = findAmounts(textOf(index.lines[i]!)).map((amount) => ({ amount, entry: index.lines[i]! }));
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * Whether a line, or a cell right of it on its row, ends in a zero with no decimals ("CHANGE RM 00", "Change 0"):
 * no change given, its ".00" printed without the point or lost by the OCR. Amounts need two decimals elsewhere,
 * since a whole number is mostly a quantity or an id; a zero on a change line is neither.
 */
function endsInZero(index: DocumentIndex, position: number): boolean {
  const entry = index.lines[position]!;
  let text = textOf(entry);
  for (
    let i = position + 1;
    i < index.lines.length && index.lines[i]!.rowIndex === entry.rowIndex && index.lines[i]!.page === entry.page;
    i++
  )
    text += ` ${textOf(index.lines[i]!)}`;
  return /(?<![\d.,])0+\s*$/.test(text);
}

/** Cash handed over minus change given: what a receipt's customer paid, when both are printed. */
function cashMinusChange(index: DocumentIndex): number | null {
  // The first such line with an amount: "CASH" also heads receipts as the kind of sale, with no amount.
  const amountAfter = (pattern: RegExp, zero = false): number | null => {
    for (let position = 0; position < index.lines.length; position++) {
      if (!pattern.test(textOf(index.lines[position]!))) continue;
      const found = amountsBeside(index, position);
      if (found.length > 0) return found[found.length - 1]!.amount.value;
      if (zero && endsInZero(index, position)) return 0;
    }
    return null;
  };
  const cash = amountAfter(new RegExp(`^\\s*${pageWording('cash')}(?!\\s*refund)`, 'iu'));
  const change = amountAfter(new RegExp(`^\\s*${pageWording('change')}`, 'iu'), true);
  if (cash === null || change === null || change < 0 || change >= cash) return null;
  return Math.round((cash - change) * 100) / 100;
}

/**
 * The document total: the amount beside the strongest total wording, the lowest such line winning ties; on a
 * receipt, cash minus change confirms it or stands in when the total line is unreadable.
 */
export function findTotal(index: DocumentIndex): (RoleValue & { currency: string | null }) | null {
  const paid = cashMinusChange(index);
  const worded = findWordedTotal(index);
  if (worded && paid !== null && Math.abs(worded.value - paid) < 0.005)
    return { ...worded, quality: Math.min(1, worded.quality + 0.15) };
  if (paid !== null && (!worded || worded.quality < 0.75))
    return { value: paid, currency: worded?.currency ?? null, quality: 0.55 };
  if (worded) return paid === null ? worded : { ...worded, quality: worded.quality * 0.8 };
  return findLargestAmount(index);
}

function findWordedTotal(index: DocumentIndex): (RoleValue & { value: number; currency: string | null }) | null {
  let best: { at: AmountAt; quality: number } | null = null;
  index.lines.forEach((entry, position) => {
    const text = textOf(entry);
    const strength = TOTAL_PATTERNS.find(([pattern]) => pattern.test(text))?.[1];
    if (strength === undefined) return;
    const strong = TOTAL_PATTERNS[0]![0].test(text);
    if (!strong && NOT_TOTAL.test(text)) return;
    // The amount printed last on the line is the total itself ("Total (EUR) 390.00 … 390.00").
    const amounts = amountsBeside(index, position).filter((a) => a.amount.value > 0);
    const at = amounts[amounts.length - 1];
    if (!at) return;
    const quality = strength * 0.85 + (entry.page === index.pages[index.pages.length - 1] ? 0.05 : 0) + position * 1e-4;
    if (!best || quality >= best.quality) best = { at, quality };
  });
  const found = best as { at: AmountAt; quality: number } | null;
  if (!found) return null;
  const value = Math.round((found.at.amount.value + roundingBelow(index, found.at.entry)) * 100) / 100;
  return { value, currency: found.at.amount.currency, quality: Math.min(1, found.quality) };
}

/**
 * A rounding adjustment printed under a total that is not itself the rounded one ("TOTAL RM 33.92",
 * "ROUNDING ADJ -RM 0.02"): what the customer pays is the sum. 0 when there is none.
 */
function roundingBelow(index: DocumentIndex, total: IndexedLine): number {
  if (/round/i.test(textOf(total))) return 0;
  const start = index.lines.indexOf(total);
  for (let position = start + 1; position < index.lines.length; position++) {
    const entry = index.lines[position]!;
    if (entry.page !== total.page || entry.rowIndex > total.rowIndex + 2) break;
    if (!/^\s*rounding\b/i.test(textOf(entry))) continue;
    const at = amountsBeside(index, position)[0];
    if (!at || at.amount.value === 0 || Math.abs(at.amount.value) >= 0.1) return 0;
    // The sign may stand before the currency ("-RM 0.02"), where the amount pattern does not see it.
    const before = textOf(at.entry).slice(0, at.amount.start);
    return /-\s*(RM|[$€£]|[A-Z]{3})?\s*$/.test(before) ? -Math.abs(at.amount.value) : at.amount.value;
  }
  return 0;
}

/** No total wording at all: the largest amount that is not cash handed over or change given. */
function findLargestAmount(index: DocumentIndex): (RoleValue & { currency: string | null }) | null {
  let largest: AmountAt | null = null;
  for (const entry of index.lines) {
    if (/\b(cash|change|tender|paid\s*by)\b/i.test(textOf(entry))) continue;
    for (const amount of findAmounts(textOf(entry)))
      if (!largest || amount.value > largest.amount.value) largest = { amount, entry };
  }
  return largest ? { value: largest.amount.value, currency: largest.amount.currency, quality: 0.3 } : null;
}

const CURRENCY_CAPTION = new RegExp(`${pageWording('currency')}\\s*:?\\s*(.*)$`, 'iu');

/** The document's currency: a "Currency:" line, else the total's symbol, else the most printed symbol or code. */
export function findDocumentCurrency(index: DocumentIndex): RoleValue | null {
  for (const entry of index.lines) {
    const m = CURRENCY_CAPTION.exec(textOf(entry));
    const code = m ? findCurrency(m[1]!) : null;
    if (code) return { value: code, quality: 0.9 };
  }
  const total = findTotal(index);
  if (total?.currency) return { value: total.currency, quality: 0.8 };
  const counts = new Map<string, number>();
  for (const entry of index.lines)
    for (const amount of findAmounts(textOf(entry)))
      if (amount.currency) counts.set(amount.currency, (counts.get(amount.currency) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked[0]) return { value: ranked[0][0], quality: 0.6 };
  // Amounts without a sign next to them: a code or symbol printed anywhere ("Total (EUR)").
  for (const entry of index.lines) {
    const code = findCurrency(textOf(entry));
    if (code) return { value: code, quality: 0.45 };
  }
  return null;
}

/** The roles of the document itself (its parties' are found by find-parties.ts). */
export type DocumentRole = 'document-date' | 'total' | 'currency';

/** Runs the finder of `role`. */
export function findByRole(index: DocumentIndex, role: DocumentRole): RoleValue | null {
  switch (role) {
    case 'document-date':
      return findDocumentDate(index);
    case 'total':
      return findTotal(index);
    case 'currency':
      return findDocumentCurrency(index);
  }
}
