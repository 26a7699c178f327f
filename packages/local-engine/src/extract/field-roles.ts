/**
 * Schema understanding beyond printed labels: which well-known part of an invoice or receipt a property asks
 * for (the issuer, its address, the document's date, its total, its currency), read from the property's name,
 * title and description. Documents rarely print a label for these ("company that issued the receipt" is the
 * name at the top), so each role has its own finder (find-by-role.ts) that reads the layout and the usual
 * printed wording (TOTAL, Gesamtbetrag, Date of issue…) instead of the schema's words.
 *
 * The words are the lexicon's (src/lexicon: one file per language, abbreviations spelled out), and
 * roles.json there declares which concepts name the document's date, total and currency, where, and which exclude
 * them; never one schema's property names: a schema that says the same thing in other words (docs/reference.md,
 * "paraphrase check") is read the same way. Which party a text field is about (the issuer, the recipient…) is read
 * by party-roles.ts.
 */
import { conceptWords, lexicon, type Place, type RoleRule } from '../lexicon/lexicon.js';
import { expandAbbreviations } from './name-abbreviations.js';
import { ADDRESS_PART_WORDS, offersWholeOrPart } from './address-parts.js';
import { classifyParty, type PartyRole } from './party-roles.js';

export type FieldRole = PartyRole | 'document-date' | 'total' | 'currency';

/** Qualifiers that make an address, a name or a date someone else's: the customer's, the patient's… */
const OTHER_PARTY_WORDS = [...conceptWords('recipient'), ...conceptWords('other-party')];
const ADDRESS_WORDS = conceptWords('address');
const SENDER_WORDS = conceptWords('sender');
/**
 * "Bill to", "billed to": the recipient's. A bill alone is the document itself, as payables systems name a
 * supplier's invoice ("Date of the bill", "Bill amount"), and "amount billed" is what it charges.
 */
const BILLED_TO = /\bbill(ed)? to\b/;

/**
 * Words that leave an address unqualified: "full address", "address as printed"; and a branch's, which is the
 * sender's own where it trades (the shop a receipt comes from, the bank branch of a statement).
 */
const PLAIN_ADDRESS_WORDS = conceptWords('plain-address');
/**
 * A location's name or description is the place itself: an expense system's `LocationName` is where the money
 * was spent. Only after a location word: a bare "address name" says nothing of the kind.
 */
export const LOCATION_WORDS = conceptWords('location');
/**
 * A place named alone or for what happened there: the place, venue or site of a purchase (`PlaceOfPurchase`,
 * "Venue: where the expense happened") is where the receipt comes from, the shop's address. Qualified otherwise
 * (a "place of service", a "web site", a "place of birth") it is something else, read by its label.
 */
const PLACE_WORDS = conceptWords('place');
/** A place's own name or description is the place: only after a location or place word. */
const PLACE_ITSELF_WORDS = conceptWords('place-itself');
/** Words of a name that ask for one line or part of an address, not the whole. */
const LINE_WORDS = conceptWords('address-line');

/**
 * Whether a field asking an address's part (a city) takes the whole: its name, title or description offers the
 * part as the whole's alternative ("City/Location", "City or location where the expense was incurred"), or its
 * name asks the whole and only its title narrows it (`LocationName` titled "City of Purchase", as an expense
 * system shows its location): the whole address holds the part, and a name and a title that disagree are better
 * answered by it than by nothing.
 */
function offersWholeForPart(path: string[], ownText: string, description: string): boolean {
  if (offersWholeOrPart(ownText) || offersWholeOrPart(definingPart(description))) return true;
  const name = wordsOf(path[path.length - 1] ?? '');
  const asksWhole = [...ADDRESS_WORDS, ...PLACE_WORDS].some((word) => name.has(word));
  return asksWhole && ![...ADDRESS_PART_WORDS, ...LINE_WORDS].some((word) => name.has(word));
}
const CURRENCY_WORDS = conceptWords('currency');
/** Words naming a date; a timestamp or a datetime is one with its time. */
export const DATE_WORDS = conceptWords('date');
/** Qualifiers that make a date another event's than the document's: a due date, a date of birth or of service… */
export const DATE_EXCLUDED = conceptWords('other-date');
/**
 * A record's creation or issue named as its time, as APIs name it (`created`, `created_at`, `creation_time`,
 * `issued_on`): a document's record is created when the document is issued, so the time is the document's date
 * (CHANGELOG.md, "API names"). Not before "by": `created_by` is a person.
 */
const CREATION_WORDS = conceptWords('creation');

function namesCreation(words: readonly string[]): boolean {
  return words.some((word, i) => CREATION_WORDS.includes(word) && words[i + 1] !== 'by');
}

/**
 * A period's first day, named so by a record that may span days (Oracle Expenses' `StartDate`), whose description
 * says it is when the thing happened ("Date when the expense occurred, or the first day of an expense that spans
 * several days"): the date of the event the record is, which a receipt prints as its date, not a period's bound
 * beside another date (CHANGELOG.md, "Expense systems' names").
 */
const PERIOD_START_WORDS = conceptWords('period-start');
const OCCURRED = /\b(occurred|occurs|happened|happens|took place|takes place|incurred)\b/;

/** Whether the words that make a date another event's are only a period's start, which the description says occurred. */
function startsWhatOccurred(own: Set<string>, words: Set<string>, description: string): boolean {
  const excluded = DATE_EXCLUDED.filter((word) => words.has(word));
  return (
    excluded.length > 0 &&
    excluded.every((word) => PERIOD_START_WORDS.includes(word) && own.has(word)) &&
    OCCURRED.test(describeWords(description).join(' '))
  );
}

/** Words naming the purchase a receipt records: when it happened is the receipt's date, where the shop's address. */
const PURCHASE_EVENT = new RegExp(`\\b(${conceptWords('purchase-event').join('|')})\\b`);
/** A description that starts by saying where something happened: "Where the expense was incurred", "The place where…". */
const WHERE_IT_HAPPENED = /^(?:the\s+)?(?:place|location|site|venue|address\s+)?\s*(?:where|at which|in which)\b/;

/**
 * Whether a description says the field is where the purchase happened ("Where the expense was incurred", "The place
 * where the goods were bought"), whatever the name: the shop's address, where the receipt comes from. A city or a
 * country "where the expense was incurred" is a part of it, asked for by its name.
 */
function describesWhereBought(description: string): boolean {
  const text = describeWords(definingPart(description)).join(' ');
  return WHERE_IT_HAPPENED.test(text) && PURCHASE_EVENT.test(text);
}

/**
 * Whether the words that make a date another event's are the description's only, and it offers the purchase as
 * the other alternative ("Date the service was provided or the goods were bought"): a receipt records either, on
 * the date it prints; a date named for its service (`serviceDate`) stays the service's.
 */
function offersPurchase(own: Set<string>, description: string): boolean {
  if (DATE_EXCLUDED.some((word) => own.has(word))) return false;
  const alternatives = describeWords(definingPart(description))
    .join(' ')
    .split(/\bor\b/);
  return (
    alternatives.length > 1 &&
    alternatives.some((part) => PURCHASE_EVENT.test(part) && !part.split(' ').some((w) => DATE_EXCLUDED.includes(w)))
  );
}

/**
 * A balance is a running figure (an account's, a patient's share after insurance) unless it is what is to be paid:
 * an invoice's "Balance due" is its amount due.
 */
const BALANCE_DUE = /\bbalance (?:due|payable|owing|owed|to pay)\b/;

/**
 * A price is one item's unless a total word says it is the whole's: `totalPrice`, `grand_total_price` are the
 * document's total, `unit_price` and `price` an item's.
 */
const PRICE_WORDS = conceptWords('price');

/** German compound heads: "Ausstellungsdatum" is a date, "Endbetrag" an amount, "Rechnungssteller" an issuer. */
const COMPOUND_HEADS = lexicon().compoundHeads;

/** A compound word with its head split off ("nettobetrag" → "netto", "betrag"); other words as they are. */
function splitCompound(word: string): string[] {
  for (const head of COMPOUND_HEADS) {
    if (word.length >= head.length + 2 && word.endsWith(head))
      return [word, word.slice(0, -head.length).replace(/s$/, ''), head];
  }
  return [word];
}

/**
 * The property's words: name split at case and separators, plus title and description, lower case, ASCII,
 * abbreviations spelled out (`txnAmt` → transaction, amount).
 */
export function describeWords(text: string): string[] {
  return expandAbbreviations(
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );
}

function wordsOf(text: string): Set<string> {
  return new Set(describeWords(text).flatMap(splitCompound));
}

/**
 * Words that say a tax is part of an amount: "incl. VAT", "including tax", "inkl. MwSt.", "taxes included", "after
 * tax".
 */
const INCLUDING_WORDS = conceptWords('including');
const TAX_WORDS = conceptWords('tax');

/**
 * A description's words without the taxes it says are included: "gross, incl. VAT / tax" asks for the total, not
 * for a tax (up to three words between the two: "including all sales taxes").
 */
function withoutIncludedTaxes(words: readonly string[]): string[] {
  const near = (i: number) =>
    words.slice(Math.max(0, i - 3), i).some((w) => INCLUDING_WORDS.includes(w)) ||
    words.slice(i + 1, i + 2).some((w) => INCLUDING_WORDS.includes(w));
  return words.filter((word, i) => !(TAX_WORDS.includes(word) && near(i)));
}

/** A term of a sum spelled out: one or two words. */
const TERM = String.raw`[\p{L}\p{N}]+(?:\s+[\p{L}\p{N}]+)?`;
/** Terms added with "+" or "plus": "SubTotal + TotalTax", "net amount plus taxes". */
const SUM = new RegExp(String.raw`${TERM}(?:\s*(?:\+|\bplus\b)\s*${TERM})+`, 'giu');

/**
 * A description without the sums it spells out: "Total of Invoice tax inclusive (i.e. SubTotal + TotalTax)",
 * "Total (net amount plus taxes)" name the parts the field adds up, which are not what it asks for.
 */
function withoutSums(description: string): string {
  return description.replace(SUM, ' ');
}

/**
 * A description without what it says the field is not, up to its clause's end: "not the due date", "rather than
 * the delivery date". Only a negated thing (a determiner after the negation): "not including tax" says what the
 * field is.
 */
export function withoutNegations(description: string): string {
  return description.replace(
    /\b(?:not|rather than|instead of|other than|as opposed to)\s+(?:the|a|an|its|any)\b[^,.;()]*/gi,
    ' ',
  );
}

/**
 * The part of a description that says what the field is: its first sentence, without a relative clause that speaks
 * of something else ("Date of the transaction as printed, which may differ from the posting date"; "The amount on
 * the receipt, from which the net and tax amounts are derived"). Later sentences are notes ("For hotel stays, the
 * end date").
 */
function definingPart(description: string): string {
  const first = description.split(/(?<=[.;!?])\s+(?=[A-Z(])|;\s*/)[0] ?? '';
  return first.replace(/,?\s*\b(?:which|from which|of which|in which|on which|whereas|while)\b.*$/i, '');
}

/** Prepositions that make a date a period's bound only right before a date word ("from date"), not "taken from the receipt". */
const PERIOD_PREPOSITIONS = ['from', 'through'];

/**
 * The words of a description that can make a date another event's or an amount a part of the total: those of its
 * defining part, a period's preposition only right before a date word.
 */
function excludingWords(description: string): string[] {
  const words = withoutIncludedTaxes(describeWords(withoutSums(definingPart(description))));
  return words
    .filter((word, i) => !PERIOD_PREPOSITIONS.includes(word) || DATE_WORDS.includes(words[i + 1] ?? ''))
    .flatMap(splitCompound);
}

/** The words of `text` as wordsOf reads them, without the taxes it says are included. */
function wordsBesideIncludedTaxes(text: string): Set<string> {
  return new Set(withoutIncludedTaxes(describeWords(text)).flatMap(splitCompound));
}

/**
 * Whether a description says the field is another party's: the party qualifies the thing asked for ("the
 * customer's address", "name of the patient", "Kundenadresse") rather than taking part in it ("what the
 * customer paid in the end" is the total).
 */
function describesOtherParty(description: string, parties: readonly string[]): boolean {
  const party = `(${parties.join('|')})`;
  const text = describeWords(description.replace(/['’]s\b/g, ' s')).join(' ');
  if (BILLED_TO.test(text)) return true;
  return new RegExp(
    `^((the|a|an|der|die|des|dem)\\s+)?${party}\\b|\\b${party}\\s+s\\b|\\b(of|for|to)\\s+(the\\s+|a\\s+|an\\s+)?${party}\\b`,
  ).test(text);
}

/** What the schema says about a property besides its name. */
export interface FieldWording {
  title?: string | undefined;
  description?: string | undefined;
}

/** The role a scalar property plays, from its path, type, format, title and description; null for any other field. */
export function classifyField(
  path: string[],
  type: string,
  format: string | undefined,
  wording: FieldWording = {},
): FieldRole | null {
  // What the description says the field is not names another thing (schema-fields.ts reads descriptions so too).
  const description = withoutNegations(wording.description ?? '');
  // The name and the title say what the field is; parents and the description add context.
  // A name may say the taxes are included as a description does: `invoice_total_amount_with_vat` is a total.
  const ownText = [path[path.length - 1] ?? '', wording.title ?? ''].join(' ');
  const own = wordsBesideIncludedTaxes(ownText);
  const words = new Set([
    ...own,
    ...wordsOf(path.slice(0, -1).join(' ')),
    ...wordsBesideIncludedTaxes(withoutSums(description)),
  ]);
  const has = (list: string[], set: Set<string> = words) => list.some((w) => set.has(w));
  const numeric = type === 'number' || type === 'integer';
  // A text field about a party (whose name, address, e-mail or phone) is read by the party finders.
  if (type === 'string' && format !== 'date' && !has(DATE_WORDS, own) && !has(CURRENCY_WORDS)) {
    const party = classifyParty({
      name: [...wordsOf(path[path.length - 1] ?? '')],
      own: [...own],
      title: [...wordsOf(wording.title ?? '')],
      parents: path
        .slice(0, -1)
        .reverse()
        .map((name) => [...wordsOf(name)]),
      description: describeWords(description),
    });
    if (party !== undefined) return party;
  }
  // Someone else's name, address or date (the patient's, the customer's) is found by its label instead. A date
  // named by its billing is when the document billed ("Billing date"), not the billing party's.
  const named = [...path, wording.title ?? ''].join(' ');
  const dated = !numeric && (format === 'date' || has(DATE_WORDS, own));
  const otherParties = dated ? OTHER_PARTY_WORDS.filter((word) => word !== 'billing') : OTHER_PARTY_WORDS;
  if (
    has(otherParties, wordsOf(named)) ||
    BILLED_TO.test(describeWords(named).join(' ')) ||
    describesOtherParty(description, otherParties)
  )
    return null;
  // A name saying the record's creation dates the record its description names ("when the payment was created"):
  // only the name's and title's own words can make it another event's date.
  if (!numeric && !has(CURRENCY_WORDS) && namesCreation(describeWords(ownText)))
    return has(DATE_EXCLUDED, own) ? null : 'document-date';
  const parents = wordsOf(path.slice(0, -1).join(' '));
  const role = scoreDocumentRole({
    numeric,
    format,
    ownText,
    description,
    naming: { own, parents, description: wordsBesideIncludedTaxes(withoutSums(description)) },
    excluding: { own, parents, description: new Set(excludingWords(description)) },
  });
  if (role !== undefined) return role;
  if (numeric) return null;
  return classifyPlace(path, ownText, own, description);
}

/** A field's words where roles.json may look for them: as naming a role, and as excluding one. */
interface ScoredField {
  numeric: boolean;
  format: string | undefined;
  ownText: string;
  description: string;
  naming: Record<Place, Set<string>>;
  /** The description's only by its defining part: a note in passing ("taken from the receipt") excludes nothing. */
  excluding: Record<Place, Set<string>>;
}

/**
 * General rules that let an excluding word pass: a price is one item's unless a total word says it is the
 * whole's (`totalPrice`); a balance is a running figure unless it is the balance due; a period's start is the
 * date of what the description says occurred then; a date of "the service or the purchase" is the receipt's.
 */
const EXCUSED: Partial<Record<RoleRule['role'], (word: string, field: ScoredField) => boolean>> = {
  total: (word, field) =>
    (PRICE_WORDS.includes(word) && ['total', 'grand'].some((w) => field.naming.own.has(w))) ||
    (word === 'balance' && BALANCE_DUE.test(describeWords(field.ownText).join(' '))),
  'document-date': (_, field) => {
    const excluding = new Set(PLACES_READ.flatMap((place) => [...field.excluding[place]]));
    return (
      startsWhatOccurred(field.naming.own, excluding, field.description) ||
      offersPurchase(field.naming.own, field.description)
    );
  },
};
const PLACES_READ: readonly Place[] = ['own', 'parents', 'description'];

/**
 * The document role a field's words name (roles.json: the first role of the field's kind whose concepts a word
 * names where the role looks): that role, or null when a word of an excluding concept says it is something else
 * (the scorer abstains); undefined when no role is named.
 */
function scoreDocumentRole(field: ScoredField): FieldRole | null | undefined {
  for (const rule of lexicon().roles) {
    if ((rule.value === 'number') !== field.numeric) continue;
    const needs = rule.needs.flatMap((concept) => conceptWords(concept));
    const named =
      (rule.format !== undefined && field.format === rule.format) ||
      rule.in.some((place) => needs.some((word) => field.naming[place].has(word)));
    if (!named) continue;
    const excluded = rule.excludedBy.some((exclusion) =>
      exclusion.concepts
        .flatMap((concept) => conceptWords(concept))
        .some(
          (word) =>
            exclusion.in.some((place) => field.excluding[place].has(word)) && !EXCUSED[rule.role]?.(word, field),
        ),
    );
    return excluded ? null : rule.role;
  }
  return undefined;
}

/**
 * An address naming no party is the issuer's (a receipt's only address) unless a word qualifies it as someone's
 * other address: a "home address", a "mailing address" on a form. A part whose wording offers the whole as its
 * alternative ("City": "City or location of the expense") is one too.
 */
function classifyPlace(path: string[], ownText: string, own: Set<string>, description: string): FieldRole | null {
  const has = (list: string[]) => list.some((w) => own.has(w));
  const wholeForPart = offersWholeForPart(path, ownText, description);
  if (has(ADDRESS_WORDS) || has(PLACE_WORDS) || (wholeForPart && has(ADDRESS_PART_WORDS))) {
    const place = has(LOCATION_WORDS) || has(PLACE_WORDS);
    const plain = [
      ...PLAIN_ADDRESS_WORDS,
      ...conceptWords('purchase'),
      ...(place ? [...PLACE_WORDS, ...PLACE_ITSELF_WORDS] : []),
      ...(wholeForPart ? ADDRESS_PART_WORDS : []),
    ];
    // A sender word leaves it the sender's own: a place or venue titled as the store's or the merchant's address.
    return path.length === 1 &&
      [...own].every((w) => ADDRESS_WORDS.includes(w) || plain.includes(w) || SENDER_WORDS.includes(w))
      ? 'issuer-address'
      : null;
  }
  return path.length === 1 && describesWhereBought(description) ? 'issuer-address' : null;
}
