/**
 * Schema understanding beyond printed labels: which well-known part of an invoice or receipt a property asks
 * for (the issuer, its address, the document's date, its total, its currency), read from the property's name,
 * title and description. Documents rarely print a label for these ("company that issued the receipt" is the
 * name at the top), so each role has its own finder (find-by-role.ts) that reads the layout and the usual
 * printed wording (TOTAL, Gesamtbetrag, Date of issue…) instead of the schema's words.
 *
 * The roles are declared in the lexicon's roles.json (src/lexicon/README.md): which concepts name each, where, in
 * which phrases, and which exclude it. The one scorer of role-scorer.ts reads them (the parties through
 * party-roles.ts); never one schema's property names: a schema that says the same thing in other words (docs/reference.md, "paraphrase
 * check") is read the same way.
 */
import { conceptWords, lexicon, type Party, type Place, type RoleRule, wordingPattern } from '../lexicon/lexicon.js';
import { ADDRESS_PART_WORDS, offersWholeOrPart } from './address-parts.js';
import { expandAbbreviations } from './name-abbreviations.js';
import { classifyParty, type PartyRole, partyReadings } from './party-roles.js';
import { excludes, readingsOf } from './role-scorer.js';

export type FieldRole = PartyRole | RoleRule['role'];

/** Words naming a date; a timestamp or a datetime is one with its time. */
export const DATE_WORDS = conceptWords('date');
/** Qualifiers that make a date another event's than the document's: a due date, a period's start, a date of birth… */
export const DATE_EXCLUDED = [...conceptWords('other-date'), ...conceptWords('period-start')];
/** A location's name or description is the place itself: an expense system's `LocationName` is where the money was spent. */
export const LOCATION_WORDS = conceptWords('location');
const CURRENCY_WORDS = conceptWords('currency');
const ADDRESS_WORDS = conceptWords('address');

/** A compound word with its head split off ("nettobetrag" → "netto", "betrag"); other words as they are. */
function splitCompound(word: string): string[] {
  const head = lexicon().compoundHeads.find((h) => word.length >= h.length + 2 && word.endsWith(h));
  return head ? [word, word.slice(0, -head.length).replace(/s$/, ''), head] : [word];
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
 * A text's words without the taxes it says are included: "gross, incl. VAT / tax" asks for the total, not for a
 * tax. A tax is included when an including word stands up to three words before it or right after it ("including
 * all sales taxes", "taxes included", "after tax"), or when it is in the list an including word opens or closes
 * within its clause ("including all charges, allowances and taxes", "taxes, discounts, fees and tips included").
 */
function withoutIncludedTaxes(text: string): string[] {
  const including = conceptWords('including');
  const tax = conceptWords('tax');
  return text.split(/[.;:()]/).flatMap((clause) => {
    const words = describeWords(clause);
    const at = words.flatMap((w, i) => (including.includes(w) ? [i] : []));
    const included = (i: number) => at.some((k) => k < i || k - i <= 3 || k === words.length - 1);
    return words.filter((word, i) => !(tax.includes(word) && included(i)));
  });
}

/** A term of a sum spelled out: one or two words. */
const TERM = String.raw`[\p{L}\p{N}]+(?:\s+[\p{L}\p{N}]+)?`;
/**
 * Terms added with "+" or the lexicon's `plus` ("Total of Invoice tax inclusive (i.e. SubTotal + TotalTax)", "net amount plus
 * taxes") name the parts the field adds up, which are not what it asks for.
 */
const PLUS = `\\+|${wordingPattern(conceptWords('plus'))}`;
const SUM = new RegExp(String.raw`${TERM}(?:\s*(?:${PLUS})\s*${TERM})+`, 'giu');

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
 * of something else ("Date of the transaction as printed, which may differ from the posting date"). Later
 * sentences are notes ("For hotel stays, the end date").
 */
function definingPart(description: string): string {
  const first = description.split(/(?<=[.;!?])\s+(?=[A-Z(])|;\s*/)[0] ?? '';
  return first.replace(/,?\s*\b(?:which|from which|of which|in which|on which|whereas|while)\b.*$/i, '');
}

/**
 * The words of a description that can exclude a role: those of its defining part without the sums it spells out,
 * a period's preposition ("from", "through") only right before a date word, not "taken from the receipt".
 */
function excludingWords(description: string): Set<string> {
  const words = withoutIncludedTaxes(definingPart(description).replace(SUM, ' '));
  const period = conceptWords('period-preposition');
  return new Set(
    words.filter((word, i) => !period.includes(word) || DATE_WORDS.includes(words[i + 1] ?? '')).flatMap(splitCompound),
  );
}

/**
 * The parties on the other side of a document from its sender. A date, an amount or an address of theirs (the
 * customer's, the patient's) is found by its printed label, not by the document's finders.
 */
const OTHER_SIDE: readonly Party[] = ['recipient', 'delivery', 'payer'];

/**
 * Where some words name another party than the sender: a reading of one (only a sure one for a date: a "billing
 * date" is when the document billed), or a word of `other-party`.
 */
function otherPartiesAt(words: readonly string[], dated: boolean): number[] {
  const readings = partyReadings(words).filter((r) => (r.sure || !dated) && OTHER_SIDE.includes(r.rule.party));
  const others = conceptWords('other-party');
  return [...readings.map((r) => r.start), ...words.flatMap((w, i) => (others.includes(w) ? [i] : []))];
}

/**
 * Whether the field is another party's: its names name one, or its description says the thing asked is theirs
 * ("the customer's address", "name of the patient", "the bill-to party") rather than that they take part in it
 * ("what the customer paid in the end" is the total).
 */
function namesOtherParty(named: string, description: string, dated: boolean): boolean {
  if (otherPartiesAt(describeWords(named).flatMap(splitCompound), dated).length > 0) return true;
  const words = describeWords(description.replace(/['’]s\b/g, ' s'));
  const owning = ['particle-of', 'particle-for', 'particle-to'].flatMap((concept) => conceptWords(concept));
  const determiner = (w: string | undefined) => w !== undefined && conceptWords('unqualifying').includes(w);
  return (
    // A phrase naming the recipient: "the bill-to party", "whom the invoice is addressed to".
    partyReadings(words).some((r) => r.end - r.start > 1 && r.rule.party === 'recipient') ||
    otherPartiesAt(words, dated).some((i) => {
      const before = determiner(words[i - 1]) ? i - 2 : i - 1;
      return before < 0 || words[i + 1] === 's' || owning.includes(words[before] ?? '');
    })
  );
}

/**
 * Whether a description says the field is where the purchase happened ("Where the expense was incurred", "The place
 * where the goods were bought"), whatever the name: the shop's address.
 */
function describesWhereBought(description: string): boolean {
  const words = describeWords(definingPart(description));
  const lead = ['unqualifying', 'place', 'address'].flatMap((concept) => conceptWords(concept));
  const first = words.find((word) => !lead.includes(word)) ?? '';
  return conceptWords('where').includes(first) && words.some((word) => conceptWords('purchase-event').includes(word));
}

/**
 * Whether a field asking an address's part (a city) takes the whole: its name, title or description offers the
 * part as the whole's alternative ("City/Location"), or its name asks the whole and only its title narrows it
 * (`LocationName` titled "City of Purchase"): the whole address holds the part.
 */
function offersWholeForPart(name: string, ownText: string, description: string): boolean {
  if (offersWholeOrPart(ownText) || offersWholeOrPart(definingPart(description))) return true;
  const words = wordsOf(name);
  const asksWhole = [...ADDRESS_WORDS, ...conceptWords('place')].some((word) => words.has(word));
  return asksWhole && ![...ADDRESS_PART_WORDS, ...conceptWords('address-line')].some((word) => words.has(word));
}

/** What the schema says about a property besides its name. */
export interface FieldWording {
  title?: string | undefined;
  description?: string | undefined;
}

/** A field's words where roles.json may look for them: as naming a role, and as excluding one. */
interface ScoredField {
  numeric: boolean;
  format: string | undefined;
  naming: Record<Place, string[]>;
  /** The description's only by its defining part: a note in passing ("taken from the receipt") excludes nothing. */
  excluding: Record<Place, string[]>;
}

const PLACES: readonly Place[] = ['own', 'parents', 'description'];

/**
 * The document role a field's words name (roles.json: the first role of the field's kind that a word or a phrase
 * names where the role looks, and whose `only` concepts hold every word of the field's names): that role, or null
 * when a word of an excluding concept outside the words naming it says it is something else (the scorer
 * abstains); undefined when no role is named.
 */
function scoreDocumentRole(field: ScoredField): FieldRole | null | undefined {
  for (const rule of lexicon().roles) {
    if ((rule.value === 'number') !== field.numeric) continue;
    const named =
      (rule.format !== undefined && field.format === rule.format) ||
      rule.in.some((place) => readingsOf([rule], field.naming[place]).length > 0);
    const only = rule.only?.flatMap((concept) => conceptWords(concept));
    if (!named || (only && ![...field.naming.own, ...field.naming.parents].every((w) => only.includes(w)))) continue;
    const places = PLACES.map((place) => {
      const words = field.excluding[place];
      return { place, words, naming: readingsOf([rule], words) };
    });
    return excludes(rule.excludedBy, places, field.excluding.description) ? null : rule.role;
  }
  return undefined;
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
  const name = path[path.length - 1] ?? '';
  // The name and the title say what the field is; parents and the description add context. A name may say the
  // taxes are included as a description does: `invoice_total_amount_with_vat` is a total.
  const ownText = [name, wording.title ?? ''].join(' ');
  const ownList = withoutIncludedTaxes(ownText);
  const own = new Set(ownList.flatMap(splitCompound));
  const parents = wordsOf(path.slice(0, -1).join(' '));
  const described = new Set(withoutIncludedTaxes(description.replace(SUM, ' ')).flatMap(splitCompound));
  const numeric = type === 'number' || type === 'integer';
  // A text field about a party (whose name, address, e-mail or phone) is read by the party finders.
  const dated = [...own].some((w) => DATE_WORDS.includes(w));
  const anyCurrency = [...own, ...parents, ...described].some((w) => CURRENCY_WORDS.includes(w));
  if (type === 'string' && format !== 'date' && !dated && !anyCurrency) {
    const party = classifyParty({
      name: [...wordsOf(name)],
      own: [...own],
      title: [...wordsOf(wording.title ?? '')],
      parents: path
        .slice(0, -1)
        .reverse()
        .map((parent) => [...wordsOf(parent)]),
      description: describeWords(description),
    });
    if (party !== undefined) return party;
  }
  const named = [...path, wording.title ?? ''].join(' ');
  if (namesOtherParty(named, description, !numeric && (format === 'date' || dated))) return null;
  // A part offered as the whole's alternative ("City/Location") reads as the whole address.
  if (!numeric && offersWholeForPart(name, ownText, description))
    for (const word of ADDRESS_PART_WORDS) if (own.delete(word)) for (const whole of ADDRESS_WORDS) own.add(whole);
  const role = scoreDocumentRole({
    numeric,
    format,
    naming: { own: [...own], parents: [...parents], description: [...described] },
    excluding: { own: [...own], parents: [...parents], description: [...excludingWords(description)] },
  });
  if (role !== undefined) return role;
  return !numeric && path.length === 1 && describesWhereBought(description) ? 'issuer-address' : null;
}
