/**
 * Which party of a document a text field asks about, and what of it: the sender (the company that issued an
 * invoice or receipt, the employer on a payslip) or the recipient (the customer, the employee, the addressee),
 * their name, address, e-mail or phone (docs/reference.md, "Parties"). Users name these fields in their
 * own words ("supplier_email", "employee_address", "who the invoice is addressed to"), and pages often print
 * no caption at all for them, so the field's words are read here and the page by find-parties.ts.
 *
 * Which words name which party, in which phrases, and what of it they ask for is declared in roles.json over the
 * lexicon's concepts (src/lexicon/README.md) and read by the one scorer of role-scorer.ts; this module chooses the
 * party by place (the field's name and title, its parents' names, its description) and what of it is asked,
 * never by one schema's property names.
 */
import { conceptWords, lexicon, type Party, type PartyDetail, PARTIES } from '../lexicon/lexicon.js';
import { excludes, has, type PlaceWords, phraseLength, type Reading, readingsOf, words } from './role-scorer.js';

export type { Party, PartyDetail };
/** A party field's role: `issuer`, `recipient-address`, `payee-email`… */
export type PartyRole = Party | `${Party}-${Exclude<PartyDetail, 'name' | 'other'>}`;

/** The words of a property, as field-roles.ts reads them: its own (name and title), its parents', its description's. */
export interface PropertyWords {
  /** The property name's words alone. */
  name: string[];
  /** The name's and the title's words. */
  own: string[];
  /** The title's words alone, when it has one. */
  title?: string[];
  /** Parent property names' words, nearest parent first. */
  parents: string[][];
  description: string[];
}

const rules = () => lexicon().party;

/** The parties' readings of some words (roles.json's `parties`). */
export const partyReadings = (list: readonly string[], name = false) => readingsOf(rules().parties, list, name);

/**
 * Whether some words name two parties as alternatives ("the customer or supplier"): a bookkeeping record's contact
 * is the one or the other as the document is a sale or a purchase, so they do not say which.
 */
function namesAlternatives(list: readonly string[]): boolean {
  return list.some((word, i) => {
    if (!conceptWords('particle-or').includes(word) || i === 0) return false;
    const [before] = partyReadings(list.slice(Math.max(0, i - 2), i), false);
    const [after] = partyReadings(list.slice(i + 1, i + 3), false);
    return before !== undefined && after !== undefined && before.rule.party !== after.rule.party;
  });
}

/** The reading some words give: the earliest sure one, else the earliest weak one; none for alternatives. */
function readingOf(list: readonly string[], name: boolean): Reading | undefined {
  if (namesAlternatives(list)) return undefined;
  const all = partyReadings(list, name);
  return all.find((r) => r.sure) ?? all[0];
}

/** What of a party some words ask for (roles.json's `details`, first word first); null when they say none. */
function detailOf(list: readonly string[], place: 'own' | 'description'): PartyDetail | null {
  for (const word of list)
    for (const rule of rules().details)
      if (rule.in.includes(place) && words(rule.needs).includes(word)) return rule.detail;
  return null;
}

let known: string[] | undefined;
/** Every word a party field's name may hold: party, phrase, detail, filler and unqualifying words. */
function knownWords(): string[] {
  const { parties, details, filler, unqualifying } = rules();
  known ??= [
    ...parties.flatMap((r) => [
      ...words([...r.needs, ...r.weak, ...r.leads, ...r.phrases.flat()]),
      ...r.needs.flatMap((c) => conceptWords(c, 'weak')),
    ]),
    ...details.flatMap((r) => words(r.needs)),
    ...words([...filler, ...unqualifying]),
  ];
  return known;
}

/** Whether every word is a known one, or a compound ending in one ("rechnungssteller"). */
function allKnown(list: readonly string[]): boolean {
  const known = knownWords();
  return list.every((word) => known.some((k) => word === k || (k.length >= 5 && word.endsWith(k))));
}

/**
 * What a description says the field is, when it leads with the party (after determiners, filler and a name's
 * words: "The vendor's address", "The public name of the business…", "The party providing the goods") and speaks
 * of no printed number: the party and what of it; null otherwise ("Category of the vendor", "Vendor number").
 */
function described(description: readonly string[]): { party: Party; detail: PartyDetail } | null {
  const reading = readingOf(description, false);
  if (!reading || has(description, conceptWords('number'))) return null;
  const names = rules().details.filter((rule) => rule.detail === 'name');
  const lead = words([...rules().filler, ...rules().unqualifying, ...names.flatMap((rule) => rule.needs)]);
  if (!description.slice(0, reading.start).every((w) => lead.includes(w))) return null;
  const detail = detailOf(description, 'own') ?? 'name';
  return detail === 'other' ? null : { party: reading.rule.party, detail };
}

const roleOf = (party: Party, detail: PartyDetail): PartyRole =>
  detail === 'name' ? party : (`${party}-${detail}` as PartyRole);

/** Whether a property's name is a reference to a party's record: `VendorRef`, `customer_ref` (lower-case words). */
export function namesPartyReference(name: readonly string[]): boolean {
  return (
    name.length === 2 &&
    conceptWords('reference').includes(name[1]!) &&
    partyReadings(name.slice(0, 1), true).length > 0
  );
}

/**
 * The party role of a text property, or undefined when it names no party (then the other roles and label
 * matching read it). Null when it names a party but asks for something of it that has no finder (an id, a tax
 * number), names a third party (a landlord), or names two parties as alternatives: such fields are read by their
 * printed labels. A place naming a party surely outweighs a weak word elsewhere: a `customer.company_name` is the
 * customer's, a `contact` described as "the customer the invoice is for" the customer.
 */
export function classifyParty(field: PropertyWords): PartyRole | null | undefined {
  if (namesAlternatives(field.name)) return null;
  const places = [field.own, ...field.parents, field.description];
  const readings = places.map((list, i) => readingOf(list, i < places.length - 1));
  const index = [readings.findIndex((r) => r?.sure), readings.findIndex((r) => r !== undefined)].find((i) => i >= 0);
  const chosen = index === undefined ? undefined : readings[index];
  // A word of an excluding concept (a third party) outside the words that name a party makes it someone else.
  const placed = places.map((list, i): PlaceWords => {
    const place = i === 0 ? 'own' : i === places.length - 1 ? 'description' : 'parents';
    return { place, words: list, naming: readings[i] ? [readings[i]!] : [] };
  });
  if (excludes(rules().excludedBy, placed, field.description)) return null;
  // A name word that says neither a party nor what of it ("relationship", "npi", "category") asks for something
  // else, unless the title or the description says the field is the party itself.
  if (!allKnown(field.name)) {
    const named = readingOf(field.name, true);
    const title = field.title ?? [];
    if (!named)
      return title.length > 0 && allKnown(title)
        ? classifyParty({ ...field, name: title, own: title, title: [] })
        : undefined;
    const titled =
      title.length > 0 &&
      allKnown(title) &&
      readingOf(title, true)?.rule.party === named.rule.party &&
      (detailOf(title, 'own') ?? 'name') === 'name';
    const said = described(field.description);
    return titled || (said?.party === named.rule.party && said.detail === 'name') ? named.rule.party : null;
  }
  if (!chosen) return undefined;
  const detail = detailOf(field.own, 'own') ?? detailOf(field.description, 'description') ?? 'name';
  if (detail !== 'other') return roleOf(chosen.rule.party, detail);
  // A name that reads as an id or an account ("VendorRef", "account_name") whose description says it is the party
  // or what of it, or a reference to the party's record that speaks of no number, is the party.
  const said = described(field.description);
  if (said) return roleOf(said.party, said.detail);
  return namesPartyReference(field.name) && !has(field.description, conceptWords('number')) ? chosen.rule.party : null;
}

/**
 * Whether a word names a party no finder reads (a landlord, an insurer, a contact) in a field's own name: only its
 * printed labels do.
 */
export function isThirdPartyWord(word: string): boolean {
  return rules().excludedBy.some(
    (exclusion) => exclusion.in.includes('own') && words(exclusion.concepts).includes(word),
  );
}

/**
 * Whether a word names a party of a document or a form (the vendor, the customer, the insured, the patient…): in a
 * property name it qualifies what is asked for ("vendor_phone", "pt_zip").
 */
export function isPartyWord(word: string): boolean {
  const { excludedBy, parties } = rules();
  const concepts = [...excludedBy.flatMap((e) => e.concepts), ...parties.flatMap((rule) => rule.needs)];
  return concepts.some(
    (concept) => conceptWords(concept).includes(word) || conceptWords(concept, 'weak').includes(word),
  );
}

/**
 * How many of a name's first words are a phrase naming its party ("bill to", "remit to", "ship to"): in
 * `remit_to_bsb` the rest ("bsb") is what of the party is asked; 0 when the name does not start so.
 */
export function toVerbLead(list: readonly string[]): number {
  const length = Math.max(0, ...rules().parties.map((rule) => phraseLength(rule.phrases, list, 0)));
  return list.length > length ? length : 0;
}

/** Whether a role is a party's (read by find-parties.ts) rather than the document's own (its date, total, currency). */
export function isPartyRole(role: string): role is PartyRole {
  return PARTIES.some((party) => role === party || role.startsWith(`${party}-`));
}
