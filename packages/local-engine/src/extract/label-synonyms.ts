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
  ['mobile', 'cell', 'cellular'],
  // "Communication number": an EDI claim's and contact record's name for the telephone.
  ['telephone', 'phone', 'tel', 'communication number'],
  ['date of birth', 'birth date', 'birthdate', 'dob'],
  ['social security number', 'social security no', 'ssn'],
  ['identification', 'identifier', 'primary identifier', 'id', 'id number'],
  ['sex', 'gender'],
  ['city', 'city name'],
  // Health-insurance claims: the insured person, the provider's tax number, what a condition is related to.
  ['insured', 'subscriber', 'member'],
  ['tax id', 'tax id number', 'federal tax id number', 'taxpayer identification number'],
  ['auto', 'car', 'motor vehicle'],
  ['employment', 'work', 'job'],
  ['total charge', 'total charges', 'billed amount', 'amount billed'],
  // The employer's group plan the insured's policy belongs to.
  ['group number', 'policy group', 'policy group number', 'group policy number'],
  // Whether the patient has another plan besides this one (the electronic claim's "other subscriber" loop).
  [
    'other plan',
    'other subscriber',
    'other coverage',
    'other insurance',
    'secondary coverage',
    'secondary insurance',
    'another health benefit plan',
  ],
  // The number a provider files the patient's claim under (the electronic claim's "patient control number").
  ['patient account number', 'patient account no', 'patient control number'],
  // A provider's national identifier.
  ['npi', 'national provider identifier', 'provider identifier', 'provider id'],
  ['diagnosis', 'health care diagnosis'],
  // Whether the provider accepts assignment of the benefits: "assignment" alone in a claim's names.
  ['accept assignment', 'assignment'],
  // Abbreviations of money and quantity captions.
  ['year to date', 'ytd'],
  // A payslip's figures for the period it covers, beside the year's.
  ['current', 'this period', 'current period'],
  ['quantity', 'qty'],
  ['amount', 'amt'],
  ['hours', 'hrs'],
  ['vacation', 'vac'],
  ['department', 'dept'],
  ['account', 'acct'],
  ['reference', 'ref'],
  // How an invoice, order or account number is printed: "Invoice No.", "Invoice #", "Rechnung Nr.".
  ['number', 'no', 'nr', '#'],
  // The date a payment is due.
  ['due date', 'date due', 'payment due', 'due by', 'pay by', 'payable by'],
  // An invoice's taxes under their usual names (sales tax, value added tax, goods and services tax).
  ['tax', 'sales tax', 'vat', 'gst'],
  // The amount before taxes. Not "net amount": its value would be read after a caption of "Net" alone, and
  // "Net 30" is an invoice's payment terms.
  ['subtotal', 'sub total', 'total before tax', 'total excl tax', 'total excluding tax', 'amount before tax'],
  // A receipt's own words: its number is the sale's (transaction's), the tip a gratuity, the change given back
  // the change due, how it was paid the tender, who rang it up the cashier, clerk or server.
  ['receipt', 'transaction', 'trans'],
  ['tip', 'gratuity'],
  ['change', 'change due'],
  ['payment method', 'method of payment', 'payment type', 'paid by', 'tender', 'tender type'],
  ['cashier', 'clerk', 'server', 'operator'],
  // Columns of an invoice's line items: what one unit costs, and the seller's code of the article.
  ['price', 'unit price', 'rate', 'unit cost'],
  ['sku', 'item number', 'item code', 'product code', 'part number', 'article number'],
  // A payslip's pay period, by where it ends or starts ("Period ending:", "Period beginning:").
  ['period end', 'period ending', 'pay period end', 'pay period ending', 'period end date', 'pay period end date'],
  ['period start', 'period beginning', 'period starting', 'pay period start', 'pay period begin', 'period start date'],
  // The filing status a payslip prints for the employee's income tax withholding (the W-4's marital status).
  ['filing status', 'tax filing status', 'marital status', 'taxable marital status'],
  // When an invoice is to be paid ("Net 30").
  ['terms', 'payment terms', 'terms of payment'],
  // A buyer's order number.
  ['purchase order', 'po', 'p o'],
];

/**
 * Each group's terms, longest first: a label holding "tax id number" has it replaced whole, not its "tax id".
 * Sorted once here, as every label of every field is reworded.
 */
const LONGEST_FIRST = SYNONYM_GROUPS.map((group) => ({
  group,
  terms: [...group].sort((a, b) => b.length - a.length),
}));

/** The share of a label's weight its other wordings get. */
export const SYNONYM_WEIGHT = 0.9;

/** The label's other wordings: each synonym it holds (as whole words) replaced by each other of its group. */
export function labelSynonyms(label: string): string[] {
  const words = label.toLowerCase().split(/\s+/).filter(Boolean);
  const variants: string[] = [];
  for (const { group, terms } of LONGEST_FIRST) {
    for (const term of terms) {
      const termWords = term.split(' ');
      const at = words.findIndex((_, i) => termWords.every((w, j) => words[i + j]?.replace(/[^\p{L}]/gu, '') === w));
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
