/**
 * Which party of a document a text field asks about, and what of it: the sender (the company that issued an
 * invoice or receipt, the employer on a payslip) or the recipient (the customer, the employee, the addressee),
 * their name, address, e-mail or phone (docs/reference.md, "Parties"). Users name these fields in their
 * own words ("supplier_email", "employee_address", "who the invoice is addressed to"), and pages often print
 * no caption at all for them, so the field's words are read here and the page by find-parties.ts.
 *
 * The words are the lexicon's party concepts in every language (src/lexicon/README.md); never one schema's
 * property names.
 */
import { conceptWords } from '../lexicon/lexicon.js';

/**
 * The sender, the recipient, the recipient's delivery point, whoever is paid or pays, or the provider of what the
 * document charges for (the document decides which party the last three are).
 */
export type Party = 'issuer' | 'recipient' | 'delivery' | 'payee' | 'payer' | 'provider';
/** What of the party a field asks for. */
export type PartyDetail = 'name' | 'address' | 'email' | 'phone';
/** A party field's role: `issuer`, `recipient-address`, `payee-email`… */
export type PartyRole = Party | `${Party}-${Exclude<PartyDetail, 'name'>}`;

/** Each word of the concepts given, mapped to the party its concept names. */
function partyByWord(concepts: Record<string, Party>): Readonly<Record<string, Party>> {
  return Object.fromEntries(
    Object.entries(concepts).flatMap(([concept, party]) => conceptWords(concept).map((word) => [word, party])),
  );
}

/** Words that name the sender outright. */
const SENDER_WORDS = conceptWords('sender');
/**
 * Words that name the sender only when nothing else qualifies them: "company" is the issuer, while a
 * "mortgage company" or an "insurance company" is some third party named on the page.
 */
const WEAK_SENDER_WORDS = conceptWords('sender', 'weak');
/** Words that name the recipient: whom the document is addressed to, billed to, or paid to on a payslip. */
export const RECIPIENT_WORDS = conceptWords('recipient');
/** Words that name where goods go: the ship-to block, which may differ from the bill-to one. */
const DELIVERY_WORDS = conceptWords('delivery');
/** Whoever is paid, and whoever pays: a creditor is owed the money and a debtor owes it, as payment schemes (SEPA) say. */
const PAYEE_WORDS = conceptWords('payee');
const PAYER_WORDS = conceptWords('payer');
/** Verbs that name a party with "to" after them, in property names ("bill_to", "ship_to_address", "sold_to"). */
const TO_VERBS = partyByWord({ 'to-recipient': 'recipient', 'to-delivery': 'delivery', 'to-payee': 'payee' });
/**
 * The party doing what a present participle says, as trade and ERP systems name the parties of an invoice: the
 * invoicing party (SAP's `InvoicingParty`), the issuing or selling party send it; the receiving or buying party get it.
 * Only before "party" or a word such as "company" ("the invoicing company"): a "billing address" is the customer's.
 */
const AGENT_PARTICIPLES = partyByWord({ 'agent-sender': 'issuer', 'agent-recipient': 'recipient' });
/** Verbs that name the sender with "by" after them ("sold_by", "issued_by"). */
const BY_VERBS = conceptWords('by-sender');
/** Verbs that name the sender with "from" after them: whom the goods were bought from (`purchasedFrom`). */
const FROM_VERBS = conceptWords('from-sender');
/**
 * Other parties a page may name (a landlord, an insurer, a bank, a doctor, an applicant and their household):
 * none of them is the sender or the recipient, so fields about them are read by their printed labels.
 */
const THIRD_PARTY_WORDS = conceptWords('third-party');
/**
 * Where the money was spent: the location or address of a purchase, a sale, an expense or a transaction
 * (`purchaseLocation`, `transaction_address`) is the shop's, the place the receipt comes from. In a party's name
 * such a word says what record the party is of, not who or what of them (`ExpenseLocation` titled "Merchant
 * Address" is the merchant's address).
 */
export const PURCHASE_WORDS = conceptWords('purchase');
/** Words that ask for an address. */
export const ADDRESS_WORDS = conceptWords('address');
const NAME_WORDS = conceptWords('name');
const EMAIL_DETAIL = conceptWords('email');
const PHONE_DETAIL = conceptWords('phone');
/** What of a party is none of name, address, e-mail, phone: ids, tax numbers, parts of an address, a person's role. */
const OTHER_DETAIL = conceptWords('party-other-detail');

const has = (words: readonly string[], list: readonly string[]) => words.some((w) => list.includes(w));

/** Words a party field's name may hold besides party and detail words: a name's qualifiers, the document, links. */
const PARTY_FILLER = [...NAME_WORDS, ...conceptWords('party-filler')];

/** Whether every word is a party, detail or generic word (a bare provider before its qualifier counts). */
function allKnown(words: readonly string[]): boolean {
  return words.every((word, i) => knownWord(word) || isBareProvider(words, i + 1));
}

/** Whether a name word is a party, detail or generic word, or a compound ending in one ("rechnungssteller"). */
function knownWord(word: string): boolean {
  const known = [
    ...SENDER_WORDS,
    ...WEAK_SENDER_WORDS,
    ...RECIPIENT_WORDS,
    ...DELIVERY_WORDS,
    ...Object.keys(TO_VERBS),
    ...BY_VERBS,
    ...FROM_VERBS,
    ...Object.keys(AGENT_PARTICIPLES),
    ...EMAIL_DETAIL,
    ...PHONE_DETAIL,
    ...ADDRESS_WORDS,
    ...OTHER_DETAIL,
    ...PARTY_FILLER,
    ...PAYEE_WORDS,
    ...PAYER_WORDS,
    ...PURCHASE_WORDS,
    PROVIDER,
  ];
  return known.some((k) => word === k || (k.length >= 5 && word.endsWith(k)));
}

/** A recipient said in a description: "addressed to", "billed to", "the invoice is issued to", "to whom". */
const RECIPIENT_PHRASE =
  /\b(addressed|sent|issued|bill|billed|invoiced|sold|made out|written) to\b|\bto whom\b|\bfor whom\b|\b(party|company|business) (buying|receiving|purchasing)\b/;
/** Where goods go, said in a description: "shipped to", "delivered to". */
const DELIVERY_PHRASE = /\b(ship|shipped|deliver|delivered) to\b/;
/** A sender said in a description: "issued by", "sent by", "who issued…". */
const SENDER_PHRASE =
  /\b(issued|sent|written|signed|billed|invoiced|sold|supplied|provided) by\b|\bwho (issued|issues|sent|sends|wrote|sold|sells|supplied|supplies|provided|provides)\b|\b(purchased|bought|ordered) from\b|\b(party|company|business) (issuing|sending|selling|supplying|providing)\b/;

/**
 * A provider not qualified by the word before it: "provider", "the provider's address", "ProviderName". Travel and
 * expense systems call the merchant that ("The name of the provider (merchant)"); a "billing provider" or a
 * "referring provider" is one of a claim's parties, read by its printed caption.
 */
function isBareProvider(words: readonly string[], i: number): boolean {
  const before = words[i - 1];
  return (
    words[i] === PROVIDER && (before === undefined || UNQUALIFYING.includes(before) || !/^[a-z]{3,}$/.test(before))
  );
}

const PROVIDER = 'provider';
/** Words before "provider" that leave it bare: determiners, and the service a document charges for. */
const UNQUALIFYING = ['the', 'a', 'an', 'this', 'its', 'of', 'by', 'from', 'service'];

/** The party some words name: a sender or recipient word, weak sender words only unqualified. */
function partyOf(words: readonly string[]): Party | null {
  for (const [i, word] of words.entries()) {
    const next = words[i + 1];
    if (AGENT_PARTICIPLES[word] && next && (next === 'party' || WEAK_SENDER_WORDS.includes(next)))
      return AGENT_PARTICIPLES[word];
    if (TO_VERBS[word] && words[i + 1] === 'to') return TO_VERBS[word];
    if (BY_VERBS.includes(word) && words[i + 1] === 'by') return 'issuer';
    if (FROM_VERBS.includes(word) && next === 'from') return 'issuer';
    if (word === 'paid' && next === 'by') return 'payer';
    if (DELIVERY_WORDS.includes(word)) return 'delivery';
    if (PAYEE_WORDS.includes(word)) return 'payee';
    if (PAYER_WORDS.includes(word)) return 'payer';
    if (isBareProvider(words, i)) return 'provider';
    if (RECIPIENT_WORDS.includes(word)) return 'recipient';
    if (SENDER_WORDS.includes(word)) return 'issuer';
    // "company" qualified by the word before it (a "mortgage company") is a third party; "issuing company" is not.
    const before = words[i - 1];
    if (WEAK_SENDER_WORDS.includes(word) && (before === undefined || !/^[a-z]{3,}$/.test(before) || before === 'the'))
      return 'issuer';
  }
  return null;
}

/**
 * The party a property's name says; one that starts with "from" or "to" and goes on (`from_email`, `to_name`) is
 * a letter's or a message's sender or addressee.
 */
function partyOfName(words: readonly string[]): Party | null {
  // "from" or "to" alone is a caption whose whole block is asked for: label matching reads it.
  if (words[0] === 'from' && words.length > 1) return 'issuer';
  if (words[0] === 'to' && words.length > 1) return 'recipient';
  return partyOf(words);
}

/**
 * Whether a description names two parties as alternatives ("Name of the recipient or invoicing party", "the customer
 * or supplier"): a bookkeeping record's contact is the one or the other as the document is a sale or a purchase, so
 * the description does not say which; the field's name decides, or the default for its kind of name.
 */
function namesAlternatives(words: readonly string[]): boolean {
  return words.some((word, i) => {
    if (word !== 'or' || i === 0) return false;
    const before = partyOf(words.slice(Math.max(0, i - 2), i));
    const after = partyOf(words.slice(i + 1, i + 3));
    return before !== null && after !== null && before !== after;
  });
}

/**
 * The party a description names: a phrase ("addressed to", "issued by") or the first party word, which heads
 * the phrase ("name of the customer the invoice was issued to"). A phrase naming the recipient outweighs a
 * weak sender word ahead of it ("the business the invoice is addressed to").
 */
function partyOfDescription(words: readonly string[]): Party | null {
  if (namesAlternatives(words)) return null;
  const text = words.join(' ');
  const phrase = DELIVERY_PHRASE.test(text)
    ? 'delivery'
    : RECIPIENT_PHRASE.test(text)
      ? 'recipient'
      : SENDER_PHRASE.test(text)
        ? 'issuer'
        : null;
  const strong = words.findIndex(
    (w) =>
      SENDER_WORDS.includes(w) ||
      RECIPIENT_WORDS.includes(w) ||
      DELIVERY_WORDS.includes(w) ||
      PAYEE_WORDS.includes(w) ||
      PAYER_WORDS.includes(w),
  );
  const provider = words.findIndex((_, i) => isBareProvider(words, i));
  if (provider >= 0 && (strong < 0 || provider < strong)) return 'provider';
  if (strong >= 0) return partyOf(words.slice(strong, strong + 1));
  return phrase ?? partyOf(words);
}

/**
 * What of a party some words ask for; null when they say none of the four, 'other' for an id, a tax number…
 * (only from a property's own words: a description mentions numbers and ids in passing).
 */
function detailOf(words: readonly string[], own: boolean): PartyDetail | 'other' | null {
  for (const [i, word] of words.entries()) {
    if (EMAIL_DETAIL.includes(word)) return 'email';
    if (PHONE_DETAIL.includes(word)) return 'phone';
    // A postal address is the address; a postal code is a part of it.
    if (ADDRESS_WORDS.includes(word) || (word === 'postal' && ADDRESS_WORDS.includes(words[i + 1] ?? '')))
      return 'address';
    if (own && OTHER_DETAIL.includes(word)) return 'other';
    if (NAME_WORDS.includes(word)) return 'name';
  }
  return null;
}

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

/**
 * Words an API names a link to another record with: QuickBooks' `VendorRef`, `CustomerRef`, a `supplier_ref`. After a
 * party word, as a name's last word, such a word points at the party's record: the field is the party itself, not a
 * reference number printed on the page (CHANGELOG.md, "API names").
 */
export const REFERENCE_WORDS = conceptWords('reference');
/** Words that make a description speak of a printed number rather than of the party: "the vendor's reference number". */
const NUMBER_WORDS = conceptWords('number');

/** Whether a property's name is a reference to a party's record: `VendorRef`, `customer_ref` (lower-case words). */
export function namesPartyReference(name: readonly string[]): boolean {
  const last = name[name.length - 1];
  const before = name[name.length - 2];
  return (
    name.length === 2 &&
    last !== undefined &&
    REFERENCE_WORDS.includes(last) &&
    before !== undefined &&
    partyOf([before]) !== null &&
    !WEAK_SENDER_WORDS.includes(before)
  );
}

/** What of a party a description's words lead with: "reference to the vendor", "the public name of the business". */
const DESCRIBED_DETAIL: Readonly<Record<string, PartyDetail>> = {
  ...Object.fromEntries(NAME_WORDS.map((word) => [word, 'name' as const])),
  ...Object.fromEntries(REFERENCE_WORDS.map((word) => [word, 'name' as const])),
  address: 'address',
  email: 'email',
  phone: 'phone',
};

/**
 * The party a description says the field is, when it leads with what of whom: "Reference to the vendor of this
 * transaction" (the vendor), "The public name of the business associated with this invoice" (its name). Up to two
 * words may come first ("the public"); the detail word, "of"/"to"/"for", a determiner, then the party word. Or the
 * party word first, as a data type's help text says it: "Merchant name", "The vendor's address" (Dynamics 365 calls
 * its expense line's `MerchantId` "Merchant name"); not "Customer reference", which on a page is a number.
 */
function describedParty(words: readonly string[]): PartyRole | null {
  if (has(words, NUMBER_WORDS)) return null;
  const text = words.slice(0, 8).join(' ');
  const detailFirst = text.match(/^(?:[a-z]+ ){0,2}?([a-z]+) (?:of|to|for) (?:(?:the|a|an|this|its) )?([a-z]+)\b/);
  // Two words for one party may come first: "Vendor or merchant name".
  const partyFirst = text.match(/^(?:(?:the|a|an|this|its) )?([a-z]+)(?: or ([a-z]+))? (?:s )?([a-z]+)\b/);
  const said = [
    detailFirst && { detail: detailFirst[1]!, parties: [detailFirst[2]!] },
    partyFirst &&
      !REFERENCE_WORDS.includes(partyFirst[3]!) && {
        detail: partyFirst[3]!,
        parties: [partyFirst[1]!, ...(partyFirst[2] ? [partyFirst[2]] : [])],
      },
  ];
  for (const pair of said) {
    const detail = pair ? DESCRIBED_DETAIL[pair.detail] : undefined;
    const parties = pair ? pair.parties.map((word) => partyOf([word])) : [null];
    const party = parties.every((p) => p === parties[0]) ? parties[0] : null;
    if (detail && party) return detail === 'name' ? party : `${party}-${detail}`;
  }
  return null;
}

/**
 * The other side of a record, as accounting APIs name it: Xero's and Merge's `contact`, Odoo's `partner_id`, NetSuite's
 * `entity`, QuickBooks' `EntityRef`, a `counterparty`. On a document a user receives to record (a bill, an invoice, a
 * receipt) that is the party who sent it, unless the description names another; it is found where the issuer is,
 * not at a printed "Contact:" caption, which on invoices introduces the customer's contact person or a help line.
 * Only as the name's whole meaning, with at most a reference word or what of the party it asks for after it
 * (`ContactAddress`): an emergency contact or a `contact_person` is someone printed on the page.
 */
const COUNTERPARTY_WORDS = conceptWords('counterparty');
const COUNTERPARTY_SUFFIXES = ['id', 'ref', 'reference'];

/** What of a record's counterparty a property's name (lower-case words) asks for; null when it names none. */
function counterpartyDetail(name: readonly string[]): PartyDetail | null {
  const [first, ...rest] = name;
  if (first === undefined || !COUNTERPARTY_WORDS.includes(first)) return null;
  if (rest.every((w) => COUNTERPARTY_SUFFIXES.includes(w))) return 'name';
  const detail = rest.length === 1 ? detailOf(rest, false) : null;
  return detail === 'other' ? null : detail;
}

/**
 * Whether a property whose name holds a word of no known meaning after its party's (an expense system's
 * `vendorListItem`, a `supplierLabel`) is that party itself: its title is the party's name alone ("Vendor",
 * "Supplier name"), or its description says so ("Name of the vendor", "The party providing the goods").
 */
function saysPartyItself(words: PropertyWords, party: Party): boolean {
  const title = words.title ?? [];
  const titled =
    title.length > 0 && allKnown(title) && partyOfName(title) === party && (detailOf(title, true) ?? 'name') === 'name';
  // Or the description leads with the party as a party: "The party providing the goods or services".
  const leadsWithParty =
    PARTY_ITSELF.test(words.description.join(' ')) && partyOfDescription(words.description) === party;
  return titled || leadsWithParty || describedParty(words.description) === party;
}

/** A description that starts with a party as such: "The party…", "The company that…", "Business issuing…". */
const PARTY_ITSELF = /^(?:(?:the|a|an) )?(?:party|company|business|entity|organisation|organization|firm)\b/;

/**
 * The party role of a text property, or undefined when it names no party (then the other roles and label
 * matching read it as before). Null when it names a party but asks for something of it that has no finder (an
 * id, a tax number) or names a third party (a landlord): such fields are read by their printed labels.
 */
export function classifyParty(words: PropertyWords): PartyRole | null | undefined {
  const counterparty = words.parents.length === 0 ? counterpartyDetail(words.name) : null;
  if (counterparty) {
    const party = (words.description.length > 0 ? partyOfDescription(words.description) : null) ?? 'issuer';
    return counterparty === 'name' ? party : `${party}-${counterparty}`;
  }
  // A bare provider may be the document's sender (find-parties.ts decides); any other third party is read by its caption.
  const bare = (list: readonly string[]) => list.flatMap((word, i) => (isBareProvider(list, i) ? [] : [word]));
  if (has([...bare(words.own), ...words.parents.flatMap(bare)], THIRD_PARTY_WORDS)) return null;
  // A name word that says neither a party nor what of it ("relationship", "npi", "branch") asks for something else,
  // unless the title or the description says the field is the party itself.
  if (!allKnown(words.name)) {
    const named = partyOfName(words.name);
    if (named) return saysPartyItself(words, named) ? named : null;
    // A name that says nothing of a party (`emitter`, `field_7`) leaves it to a title in party words ("Issuer").
    const title = words.title ?? [];
    return title.length > 0 && allKnown(title)
      ? classifyParty({ ...words, name: title, own: title, title: [] })
      : undefined;
  }
  if (namesAlternatives(words.name)) return null;
  // A weak sender word under a parent naming a party says what kind of party that one is, not the sender: X12's
  // `patientLoop.nameLastOrOrganizationName`, a `customer.company_name`.
  const ownParty = partyOfName(words.own);
  const weakOnly = ownParty !== null && partyOfName(words.own.filter((w) => !WEAK_SENDER_WORDS.includes(w))) === null;
  const party =
    (weakOnly && words.parents.some((parent) => parent.some(isPartyWord)) ? null : ownParty) ??
    words.parents.map(partyOfName).find((p) => p !== null) ??
    (words.description.length > 0 ? partyOfDescription(words.description) : null);
  if (!party) return undefined;
  // The detail: the property's own words first ("supplier_email"), else the description's ("the shop's address").
  const detail = detailOf(words.own, true) ?? detailOf(words.description, false) ?? 'name';
  if (detail === 'other') {
    // A name that reads as an id or an account ("VendorRef", "account_name") whose description says it is the party
    // itself, or its name, is the party: the description says what the name's words only point at.
    const described = words.description.length > 0 ? describedParty(words.description) : null;
    if (described) return described;
    // A reference to a party's record is the party, unless the description speaks of a number.
    return namesPartyReference(words.name) && !has(words.description, NUMBER_WORDS) ? party : null;
  }
  return detail === 'name' ? party : `${party}-${detail}`;
}

/** Whether a word names the document's sender outright: a vendor, a merchant, a store. */
export function isSenderWord(word: string): boolean {
  return SENDER_WORDS.includes(word);
}

/** Whether a word names a party no finder reads (a landlord, an insurer, a contact): only its printed labels do. */
export function isThirdPartyWord(word: string): boolean {
  return THIRD_PARTY_WORDS.includes(word);
}

/**
 * Whether a word names a party of a document or a form (the vendor, the customer, the insured, the provider, the
 * patient…): in a property name it qualifies what is asked for ("vendor_phone", "pt_zip").
 */
export function isPartyWord(word: string): boolean {
  return (
    word === 'patient' ||
    PAYEE_WORDS.includes(word) ||
    PAYER_WORDS.includes(word) ||
    [...SENDER_WORDS, ...RECIPIENT_WORDS, ...DELIVERY_WORDS, ...THIRD_PARTY_WORDS].includes(word)
  );
}

/**
 * How many of a name's first words name its party as a verb and "to" do ("bill to", "remit to", "ship to"): in
 * `remit_to_bsb` the rest ("bsb") is what of the party is asked; 0 when the name does not start so.
 */
export function toVerbLead(words: readonly string[]): number {
  return words.length > 2 && words[0]! in TO_VERBS && words[1] === 'to' ? 2 : 0;
}

/** Whether a role is a party's (read by find-parties.ts) rather than the document's own (its date, total, currency). */
export function isPartyRole(role: string): role is PartyRole {
  return /^(issuer|recipient|delivery|payee|payer|provider)(-|$)/.test(role);
}
