/**
 * Schema understanding beyond printed labels: which well-known part of an invoice or receipt a property asks
 * for (the issuer, its address, the document's date, its total, its currency), read from the property's name,
 * title and description. Documents rarely print a label for these ("company that issued the receipt" is the
 * name at the top), so each role has its own finder (find-by-role.ts) that reads the layout and the usual
 * printed wording (TOTAL, Gesamtbetrag, Date of issue…) instead of the schema's words.
 */

export type FieldRole = 'issuer' | 'issuer-address' | 'document-date' | 'total' | 'currency';

/** Words (lower case, English and German) that name each role; matched against the property's words. */
const ISSUER_WORDS = ['company', 'issuer', 'issued', 'vendor', 'merchant', 'seller', 'supplier', 'shop', 'store', 'business', 'retailer', 'restaurant', 'biller', 'firma', 'verkaufer', 'lieferant'];
/** Qualifiers that make an address or a name someone else's: the customer's, the patient's… */
const OTHER_PARTY_WORDS = ['customer', 'client', 'buyer', 'recipient', 'ship', 'shipping', 'bill', 'billing', 'billed', 'patient', 'insured', 'subscriber', 'provider', 'payer', 'member', 'employee', 'kunde', 'empfanger'];
const DATE_EXCLUDED = ['birth', 'dob', 'service', 'due', 'delivery', 'admission', 'discharge', 'expiry', 'expiration', 'start', 'end', 'from', 'through', 'onset', 'injury', 'payment', 'paid', 'period'];
const TOTAL_WORDS = ['total', 'grand', 'sum', 'summe', 'gesamt', 'gesamtbetrag', 'betrag', 'due', 'payable', 'paid'];
const TOTAL_EXCLUDED = ['subtotal', 'tax', 'vat', 'gst', 'net', 'netto', 'discount', 'unit', 'price', 'quantity', 'qty', 'items', 'count', 'tip', 'rounding', 'deductible', 'copay', 'coinsurance', 'allowed', 'charges', 'patient', 'responsibility', 'balance'];

/** The property's words: name split at case and separators, plus title and description, lower case, ASCII. */
export function describeWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The role a scalar property plays, from its path, type, format and description; null for any other field. */
export function classifyField(path: string[], type: string, format: string | undefined, description: string): FieldRole | null {
  const own = describeWords(path[path.length - 1] ?? '');
  const context = describeWords([...path.slice(0, -1), description].join(' '));
  const words = new Set([...own, ...context]);
  const has = (list: string[]) => list.some((w) => words.has(w));
  const numeric = type === 'number' || type === 'integer';
  // Someone else's name, address or date (the patient's, the customer's) is found by its label instead.
  if (has(OTHER_PARTY_WORDS)) return null;
  if (!numeric && (words.has('currency') || words.has('4217') || words.has('wahrung'))) return 'currency';
  if (format === 'date' || own.includes('date') || own.includes('datum')) return has(DATE_EXCLUDED) ? null : 'document-date';
  if (numeric && has(TOTAL_WORDS) && !own.some((w) => TOTAL_EXCLUDED.includes(w)) && !has(['tax', 'vat', 'gst', 'subtotal', 'net', 'discount'])) return 'total';
  if (own.includes('address') || own.includes('adresse') || own.includes('anschrift')) return path.length === 1 || has(ISSUER_WORDS) ? 'issuer-address' : null;
  if (type === 'string' && (has(ISSUER_WORDS) || (own.includes('name') && path.length === 1 && words.has('issued')))) return 'issuer';
  return null;
}
