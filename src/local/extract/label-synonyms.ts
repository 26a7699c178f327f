/**
 * Words a schema and a page use for one thing: a user asks for the "opening balance" where the statement prints
 * "Previous Balance" or "Balance brought forward", for "transactions until" where it prints "till". Each label a
 * schema suggests is also looked for in its other wordings, a little less surely than as written
 * (docs/local-service.md, "Extraction: label matching").
 *
 * The groups are general terms of statements, invoices, dates and the contact and identity boxes of forms (their
 * usual abbreviations too: a schema says `dob`, `ssn`, `postal_code` where a form prints "Date of Birth", "Social
 * Security Number", "ZIP"), never one document's captions.
 */
import { AS_OF_WORDS, UNTIL_WORDS } from './qualified-dates.js';

/** Words and phrases that name the same thing in a label, lower case. */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // The balance a period starts from.
  ['opening', 'previous', 'prior', 'beginning', 'starting', 'brought forward'],
  // The balance it ends with.
  ['closing', 'ending', 'carried forward'],
  UNTIL_WORDS,
  AS_OF_WORDS,
  // Contact and identity boxes of forms, and their abbreviations.
  ['postal code', 'zip code', 'zip', 'postcode', 'post code'],
  ['address line', 'address'],
  ['mobile', 'cell', 'cellular'],
  ['telephone', 'phone', 'tel'],
  ['date of birth', 'birth date', 'birthdate', 'dob'],
  ['social security number', 'social security no', 'ssn'],
  ['identification', 'id', 'id number'],
  // Health-insurance claims: the policy's holder, the provider's tax number, the accident's vehicle.
  ['insured', 'subscriber', 'member', 'policyholder', 'policy holder'],
  ['tax id', 'tin', 'ein', 'tax id number', 'federal tax id number', 'taxpayer identification number'],
  ['auto', 'car', 'motor vehicle'],
  ['diagnosis', 'icd'],
  // Abbreviations of money and quantity captions.
  ['year to date', 'ytd'],
  ['quantity', 'qty'],
  ['amount', 'amt'],
  ['hours', 'hrs'],
  ['department', 'dept'],
  ['account', 'acct'],
  ['reference', 'ref'],
];

/** The share of a label's weight its other wordings get. */
export const SYNONYM_WEIGHT = 0.9;

/** The label's other wordings: each synonym it holds (as whole words) replaced by each other of its group. */
export function labelSynonyms(label: string): string[] {
  const words = label.toLowerCase().split(/\s+/).filter(Boolean);
  const variants: string[] = [];
  for (const group of SYNONYM_GROUPS) {
    for (const term of group) {
      const termWords = term.split(' ');
      const at = words.findIndex((_, i) => termWords.every((w, j) => words[i + j]?.replace(/[^\p{L}]/gu, '') === w));
      if (at < 0) continue;
      for (const other of group)
        if (other !== term)
          variants.push([...words.slice(0, at), other, ...words.slice(at + termWords.length)].join(' '));
    }
  }
  return variants;
}
