/**
 * Words a schema and a page use for one thing: a user asks for the "opening balance" where the statement prints
 * "Previous Balance" or "Balance brought forward", for "transactions until" where it prints "till". Each label a
 * schema suggests is also looked for in its other wordings, a little less surely than as written
 * (docs/reference.md, "Extraction: label matching").
 *
 * The groups are general terms of statements, invoices, dates and the contact and identity boxes of forms (their
 * usual abbreviations too: a schema says `dob`, `ssn`, `postal_code` where a form prints "Date of Birth", "Social
 * Security Number", "ZIP"), and of health-insurance claims (the insured, the provider's tax number, a work or
 * car accident, the total charge billed), never one document's captions.
 */
import { fold, lexicon } from '../lexicon/lexicon.js';

/** Words and phrases that name the same thing in a label, lower case: each concept's captions in every language. */
const SYNONYM_GROUPS = lexicon().captionGroups;

/**
 * Each group's terms, longest first: a label holding "tax id number" has it replaced whole, not its "tax id".
 * Sorted once here, as every label of every field is reworded.
 */
const LONGEST_FIRST = SYNONYM_GROUPS.map((group) => ({
  group,
  terms: [...group]
    .sort((a, b) => b.length - a.length)
    .map((term) => ({ term, words: term.split(' '), folded: term.split(' ').map(fold) })),
}));

/** The share of a label's weight its other wordings get. */
export const SYNONYM_WEIGHT = 0.9;

/** The label's other wordings: each synonym it holds (as whole words) replaced by each other of its group. */
export function labelSynonyms(label: string): string[] {
  const words = label.toLowerCase().split(/\s+/).filter(Boolean);
  // Compared without marks and punctuation ("Échéance" is "echeance"), each word folded once.
  const plain = words.map((word) => fold(word.replace(/[^\p{L}]/gu, '')));
  const variants: string[] = [];
  for (const { group, terms } of LONGEST_FIRST) {
    for (const { term, words: termWords, folded } of terms) {
      const at = plain.findIndex((_, i) => folded.every((w, j) => plain[i + j] === w));
      if (at < 0) continue;
      for (const other of group) {
        if (other === term) continue;
        const variant = [...words.slice(0, at), ...other.split(' '), ...words.slice(at + termWords.length)];
        // "federal" + "federal tax id number" says a word twice: no caption prints that.
        if (!variant.some((word, i) => word === variant[i + 1])) variants.push(variant.join(' '));
      }
      break;
    }
  }
  return variants;
}
