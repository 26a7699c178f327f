/**
 * The abbreviations users write in property names and short titles: warehouse and ERP columns are named with
 * class words (`vendor_nm`, `doc_dt`, `gross_amt`, `curr_cd`), back offices abbreviate (`Inv. date`, `ccy`,
 * `acct`), claims systems too (`pt`, `grp`, `chg`). A schema's words are read with each such abbreviation
 * spelled out (CHANGELOG.md, "Other field names"), so that `txnAmt` is a transaction's amount and
 * `vendor_nm` a vendor's name. General naming conventions, never one schema's names; words that are also
 * ordinary words or abbreviate several things (`no`, `st`, `rel`, `acc`) are left as written unless their
 * neighbours say which thing: `auto_acc` is an auto accident and `emp_rel` employment-related (a claim's
 * related causes), `st` beside a city is a state (US addresses: city, ST, ZIP), and `sub` is a claim's
 * subscriber except in a subtotal (`sub_total`).
 */
import { lexicon } from '../lexicon/lexicon.js';

/** Abbreviation → the word it stands for, lower case (the lexicon's `abbreviations`). */
const ABBREVIATIONS = lexicon().abbreviations;

/** Abbreviations left as written before these words: `sub_total` is a subtotal, not a subscriber's total. */
const NOT_BEFORE: Readonly<Record<string, readonly string[]>> = { sub: ['total', 'totals', 'tot', 'ttl'] };

/**
 * Two words that abbreviate a claim form's term together, where either alone is ambiguous: `acc` is also an
 * account, `rel` a relationship, `emp` an employee.
 */
const PAIRS: Readonly<Record<string, readonly [string, string]>> = {
  'auto acc': ['auto', 'accident'],
  'emp rel': ['employment', 'related'],
};

/** Abbreviations of an address's parts, read so only beside another part (a city): alone `st` is also a street. */
const ADDRESS_PARTS: Readonly<Record<string, string>> = { st: 'state' };

/** What is known around a word of a name. */
export interface WordContext {
  /** The word before it in the name, if any. */
  previous?: string | undefined;
  /** The word after it in the name, if any. */
  next?: string | undefined;
  /** The name is a part of an address (another property beside it names a city): read its last word so. */
  inAddress?: boolean;
}

/** Whether a word is one of the abbreviations spelled out (`txn`, `amt`): as written it stands for one word only. */
export function isAbbreviation(word: string): boolean {
  return Object.hasOwn(ABBREVIATIONS, word);
}

/** The word an abbreviation stands for, or the word itself. */
export function expandAbbreviation(word: string, context: WordContext = {}): string {
  const lower = word.toLowerCase();
  const next = context.next?.toLowerCase();
  const previous = context.previous?.toLowerCase();
  const endsPair = previous === undefined ? undefined : PAIRS[`${previous} ${lower}`];
  if (endsPair) return endsPair[1];
  const startsPair = next === undefined ? undefined : PAIRS[`${lower} ${next}`];
  if (startsPair) return startsPair[0];
  if (next !== undefined && NOT_BEFORE[lower]?.includes(next)) return word;
  // The name's last word: `pt_st` is the patient's state, `st_dt` no state's date.
  if (context.inAddress && next === undefined && ADDRESS_PARTS[lower]) return ADDRESS_PARTS[lower];
  return ABBREVIATIONS[lower] ?? word;
}

/** Lower-case words with each abbreviation spelled out. */
export function expandAbbreviations(words: readonly string[]): string[] {
  return words.flatMap((word, i) =>
    expandAbbreviation(word, { previous: words[i - 1], next: words[i + 1] }).split(' '),
  );
}
