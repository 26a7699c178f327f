/**
 * Finders for the party roles of party-roles.ts (docs/reference.md, "Parties"): the sender's name and
 * address (find-by-role.ts), the recipient's block, and either party's e-mail and phone. The recipient is the
 * block under or beside a recipient caption ("Bill To:", "Customer:", "Ship to"), else, where the page prints
 * no caption (a payslip, a letter), a name over a postal address that is not the sender's.
 */
import { STREET_WORDS, joinAddressLines, repairAddressWords, repairGluedAddress } from './address-text.js';
import { type DocumentIndex, fragmentBox, type IndexedLine } from './document-index.js';
import {
  cleanName,
  findIssuer,
  findIssuerAddress,
  ISSUER_LABEL,
  letterShare,
  markRecipientLines,
  NOT_A_NAME,
  pageWording,
  pickIssuer,
  RECIPIENT_LABEL,
  type RoleValue,
  textOf,
} from './find-by-role.js';
import type { Party, PartyRole } from './party-roles.js';
import { findAmounts, findDates } from './typed-values.js';

/** A party's block: its name line (null when the block starts with the address) and the lines under it. */
interface PartyBlock {
  name: string | null;
  lines: IndexedLine[];
  quality: number;
}

/** Most lines a party's block runs on under its name: name, two or three address lines, contacts. */
const MAX_BLOCK_LINES = 7;
/** A postal line: a town with its postcode after it (US, Australia, UK) or before it (Europe, Malaysia). */
const POSTAL_LINE =
  /\p{L}[\p{L}.,'\s-]*[\s,]\s*([A-Z]{2,3}\s*)?\d{4,5}(-\d{4})?\s*$|^([A-Z]{1,2}-)?\d{4,6}\s+\p{L}{3,}|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\s*$|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\s*$/u;
/** A street line: a house number, a street word or a post-office box. */
const STREET_LINE = /\d|\b(p\.?\s?o\.?\s*box|postfach)\b/i;
/** A contact line: it ends a postal address. */
const CONTACT_LINE = /@|www\.|https?:|\b(tel|telephone|phone|ph|fax|mobile|mob|cell|e-?mail|web)\b/i;
const EMAIL = /[\p{L}\d._%+-]+@[\p{L}\d-]+(\.[\p{L}\d-]+)+/u;
/** A phone number after its label; a fax number is no phone. */
const LABELLED_PHONE =
  /\b(?:tel(?:ephone)?|phone|ph|mobile|mob|cell|hp|t)\b\.?\s*(?:no\.?|number|#)?\s*[:.]?\s*(\+?\(?\d[\d\s()./-]{5,}\d)/i;
/** A phone number without a label, in the spellings only phones have: an area code in parentheses, a +country code. */
const BARE_PHONE = /(?:\+\d{1,3}[\s.-]?)?\(\d{2,5}\)\s*\d{3,4}[\s.-]?\d{3,4}|\+\d{1,3}[\s.-]\d[\d\s.-]{6,}\d/;

/**
 * The lines of a block under `first` in its column: each the nearest line below the last, starting at the
 * block's left edge (within 0.8 em: OCR boxes jitter), no further below than a line's height, in a like type
 * size; it ends at another party's caption.
 */
function columnBelow(index: DocumentIndex, first: IndexedLine, left: number): IndexedLine[] {
  const block: IndexedLine[] = [];
  let last = first;
  while (block.length < MAX_BLOCK_LINES) {
    const box = last.line.box;
    const height = Math.max(6, box.y1 - box.y0);
    const next = index.lines
      .filter(
        (l) =>
          l.page === last.page &&
          l.line.box.y0 >= box.y0 + height * 0.5 &&
          l.line.box.x0 < box.x1 &&
          l.line.box.x1 > left,
      )
      .sort((a, b) => a.line.box.y0 - b.line.box.y0)[0];
    if (!next) break;
    const em = Math.max(6, Math.min(next.line.fontSize, last.line.fontSize));
    const size = next.line.fontSize / Math.max(1, last.line.fontSize);
    if (Math.abs(next.line.box.x0 - left) > Math.max(3, em * 0.8)) break;
    if (next.line.box.y0 - box.y1 > height) break;
    if (size > 1.4 || size < 1 / 1.4) break;
    if (recipientLabelLength(textOf(next)) !== null || ISSUER_LABEL.test(textOf(next))) break;
    block.push(next);
    last = next;
  }
  return block;
}

/** A page pattern of a concept's `pageWords` in every language. */
const pageWords = (concept: string, prefix = false) => new RegExp(pageWording(concept, 'pageWords', prefix), 'iu');
/** The recipient's captions that name its block wherever they stand: "Bill to", "Ship to", "Rechnung an". */
const SURE_RECIPIENT_LABEL = pageWords('recipient');
/** Words starting a delivery caption: "Ship to", "Delivered to", "Lieferadresse". */
const DELIVERY_LABEL = pageWords('delivery', true);

/**
 * The length of the recipient caption a line starts with, or null. The recipient's `pageWords` are captions
 * wherever they stand; its `weakPageWords` ("To", "Customer", "Client") only before a colon or alone on the
 * line: "Customer ID: 7", "Customer service" and "To whom it may concern" name no block.
 */
function recipientLabelLength(text: string): number | null {
  const match = RECIPIENT_LABEL.exec(text);
  if (!match) return null;
  const label = match[0];
  const colonOrAlone = /:\s*$/.test(label) || /^\s*(:|$)/.test(text.slice(label.length));
  return colonOrAlone || SURE_RECIPIENT_LABEL.test(label) ? label.length : null;
}

/** Whether a line can be a party's name: a few words, letters, no label, no digits, no document title. */
function nameLike(text: string): boolean {
  const words = text.split(/\s+/);
  return (
    text.length >= 3 &&
    text.length <= 60 &&
    words.length <= 6 &&
    !/[\d:@]/.test(text) &&
    letterShare(text) >= 0.85 &&
    !NOT_A_NAME.test(text) &&
    !ISSUER_LABEL.test(text) &&
    recipientLabelLength(text) === null
  );
}

/** The address lines of a block: from its first line up to the postal line, before any contact or labelled line. */
function addressLines(lines: IndexedLine[]): IndexedLine[] {
  const out: IndexedLine[] = [];
  for (const line of lines) {
    const text = textOf(line);
    if (CONTACT_LINE.test(text) || text.includes(':') || findDates(text).length > 0 || findAmounts(text).length > 0)
      break;
    out.push(line);
    if (POSTAL_LINE.test(repairGluedAddress(text))) return out;
  }
  return out;
}

/** The block under or beside a recipient caption; delivery captions ("Ship to") when `delivery` asks for them. */
function labelledBlock(index: DocumentIndex, delivery: boolean): PartyBlock | null {
  let best: PartyBlock | null = null;
  for (const entry of index.lines) {
    const text = textOf(entry);
    const length = recipientLabelLength(text);
    if (length === null) continue;
    const shipping = DELIVERY_LABEL.test(text.slice(0, length));
    const rest = text.slice(length).replace(/^\s*:?\s*/, '');
    let first: IndexedLine | undefined;
    let name: string | null;
    let lines: IndexedLine[];
    if (/\p{L}/u.test(rest)) {
      // "Customer: ACME Ltd": the name on the caption's line, the address under the caption or under the name.
      first = entry;
      name = rest;
      const valueLeft = fragmentBox(entry.line, text.length - rest.length, text.length).x0;
      const underLabel = columnBelow(index, entry, entry.line.box.x0);
      const underValue = columnBelow(index, entry, valueLeft);
      lines = underValue.length > underLabel.length ? underValue : underLabel;
    } else {
      const box = entry.line.box;
      const height = Math.max(6, box.y1 - box.y0);
      first =
        index.lines.find(
          (l) =>
            l.page === entry.page &&
            l.rowIndex === entry.rowIndex &&
            l.line.box.x0 > box.x1 &&
            l.line.box.x0 - box.x1 < 150,
        ) ??
        index.lines.find(
          (l) =>
            l.page === entry.page &&
            l.line.box.y0 >= box.y0 + height * 0.5 &&
            l.line.box.y0 <= box.y1 + height * 2.5 &&
            Math.abs(l.line.box.x0 - box.x0) <= Math.max(3, entry.line.fontSize),
        );
      if (!first) continue;
      name = textOf(first);
      lines = columnBelow(index, first, first.line.box.x0);
    }
    // A block that starts with its address ("Ship to: 12 Main St") names no one.
    if (STREET_LINE.test(name) && !/\p{L}{3,}/u.test(name.replace(/\d.*$/, ''))) {
      if (first !== entry) lines.unshift(first);
      name = null;
    }
    const quality = (shipping === delivery ? 0.75 : 0.55) - (entry.page === index.pages[0] ? 0 : 0.1);
    if (!best || quality > best.quality) best = { name: name === null ? null : cleanName(name), lines, quality };
  }
  return best;
}

/** Whether the line just above `entry`, at its left edge, is a sender's caption ("From:", "Seller:"). */
function underSenderCaption(index: DocumentIndex, entry: IndexedLine): boolean {
  const box = entry.line.box;
  const above = index.lines
    .filter(
      (l) =>
        l.page === entry.page &&
        l.line.box.y1 <= box.y0 + (box.y1 - box.y0) * 0.5 &&
        Math.abs(l.line.box.x0 - box.x0) <= Math.max(3, entry.line.fontSize),
    )
    .sort((a, b) => b.line.box.y0 - a.line.box.y0)[0];
  return (
    above !== undefined && box.y0 - above.line.box.y1 < (box.y1 - box.y0) * 1.5 && ISSUER_LABEL.test(textOf(above))
  );
}

/**
 * A name over a postal address with no caption (a payslip's employee, a letter's addressee), not the sender's
 * block (its name found at the top, or a block under "From:"): the lines under the name hold a street line and end
 * at a postal line.
 */
function uncaptionedBlock(index: DocumentIndex): PartyBlock | null {
  const page = index.pages[0];
  if (!page) return null;
  const issuer = pickIssuer(index);
  const issuerLines = new Set(issuer ? [issuer.line, ...columnBelow(index, issuer.line, issuer.line.line.box.x0)] : []);
  const found: PartyBlock[] = [];
  for (const entry of index.lines) {
    if (entry.page !== page || entry.line.box.y0 > page.height * 0.65) continue;
    const text = textOf(entry);
    if (!nameLike(text)) continue;
    const lines = columnBelow(index, entry, entry.line.box.x0);
    const address = addressLines(lines);
    const postal = address.length > 0 && POSTAL_LINE.test(repairGluedAddress(textOf(address[address.length - 1]!)));
    if (!postal || !STREET_LINE.test(textOf(address[0]!))) continue;
    // The sender's own block, or a block under a sender's caption ("From:").
    if (issuerLines.has(entry) || underSenderCaption(index, entry)) continue;
    const capitalised = text === text.toUpperCase() || text.split(/\s+/).every((w) => /^\p{Lu}/u.test(w));
    found.push({ name: text.trim(), lines, quality: 0.5 + (capitalised ? 0.1 : 0) });
  }
  return found[0] ?? null;
}

/** Per analysed document and kind, the recipient's block (the finders of one document share it). */
const recipientBlocks = new WeakMap<DocumentIndex, Map<boolean, PartyBlock | null>>();

function recipientBlock(index: DocumentIndex, delivery: boolean): PartyBlock | null {
  let byKind = recipientBlocks.get(index);
  if (!byKind) {
    byKind = new Map();
    recipientBlocks.set(index, byKind);
  }
  if (!byKind.has(delivery)) byKind.set(delivery, labelledBlock(index, delivery) ?? uncaptionedBlock(index));
  return byKind.get(delivery)!;
}

/**
 * Whether the document is a pay statement (a payslip, an earnings statement): there the money goes from the
 * sender to the recipient, so the payee is the recipient (the employee) and the payer the sender; on an invoice
 * or receipt the payee is the sender.
 */
function isPayStatement(index: DocumentIndex): boolean {
  return PAY_STATEMENT.test(index.lines.slice(0, 300).map(textOf).join(' '));
}
/** What a pay statement prints: "Payslip", "Earnings Statement", "Gross Pay", "Lohnabrechnung". */
const PAY_STATEMENT = pageWords('pay-statement');

const PROVIDER = pageWords('provider');
/** Whether the document prints the word "provider" (a claim's or a bill's billing, rendering or referring provider). */
function namesProvider(index: DocumentIndex): boolean {
  return index.lines.slice(0, 300).some((line) => PROVIDER.test(textOf(line)));
}

/**
 * The party a field's party is on this document; null for a provider the page names, whose printed caption says who
 * it is. A provider the page never names is its sender: the merchant provided what a receipt charges for.
 */
function resolveParty(index: DocumentIndex, party: Party): 'issuer' | 'recipient' | 'delivery' | null {
  if (party === 'payee') return isPayStatement(index) ? 'recipient' : 'issuer';
  if (party === 'payer') return isPayStatement(index) ? 'issuer' : 'recipient';
  if (party === 'provider') return namesProvider(index) ? null : 'issuer';
  return party;
}

/** The first e-mail address or phone number in some lines. */
function contactIn(lines: IndexedLine[], detail: 'email' | 'phone'): string | null {
  for (const line of lines) {
    const text = textOf(line);
    const found =
      detail === 'email' ? EMAIL.exec(text)?.[0] : (LABELLED_PHONE.exec(text)?.[1] ?? BARE_PHONE.exec(text)?.[0]);
    if (found) return found.trim().replace(/[.,;]$/, '');
  }
  return null;
}

/**
 * The sender's e-mail or phone: in its block (the name and the lines under it), else the first printed outside
 * any recipient block (a footer's contact line).
 */
function issuerContact(index: DocumentIndex, detail: 'email' | 'phone'): RoleValue | null {
  const issuer = pickIssuer(index);
  if (issuer) {
    const own = contactIn([issuer.line, ...columnBelow(index, issuer.line, issuer.line.line.box.x0)], detail);
    if (own) return { value: own, quality: 0.7 };
  }
  const recipient = markRecipientLines(index);
  for (const line of recipientBlock(index, false)?.lines ?? []) recipient.add(line);
  const elsewhere = contactIn(
    index.lines.filter((l) => !recipient.has(l)),
    detail,
  );
  return elsewhere ? { value: elsewhere, quality: 0.45 } : null;
}

/** Whether a party role is the document's sender on this document: a payee on an invoice or a receipt, a payer on a payslip. */
export function isSenderHere(index: DocumentIndex, role: PartyRole): boolean {
  return resolveParty(index, role.split('-')[0] as Party) === 'issuer';
}

/** Runs the finder of a party role. */
export function findParty(index: DocumentIndex, role: PartyRole): RoleValue | null {
  const [rawParty, detail = 'name'] = role.split('-') as [Party, string?];
  const party = resolveParty(index, rawParty);
  if (party === null) return null;
  if (party === 'issuer') {
    if (detail === 'name') return findIssuer(index);
    if (detail === 'address') return findIssuerAddress(index);
    return issuerContact(index, detail as 'email' | 'phone');
  }
  const block = recipientBlock(index, party === 'delivery');
  if (!block) return null;
  if (detail === 'name') return block.name ? { value: block.name, quality: block.quality } : null;
  if (detail === 'address') {
    const lines = addressLines(block.lines);
    if (lines.length === 0 || !lines.some((l) => STREET_LINE.test(textOf(l)) || STREET_WORDS.test(textOf(l))))
      return null;
    const parts = lines.map((l) => repairGluedAddress(textOf(l)));
    return { value: repairAddressWords(joinAddressLines(parts)), quality: block.quality * 0.9, lines: parts };
  }
  const contact = contactIn(block.lines, detail as 'email' | 'phone');
  return contact ? { value: contact, quality: block.quality * 0.9 } : null;
}
