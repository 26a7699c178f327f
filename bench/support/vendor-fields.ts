/**
 * A schema and its truth made generically from a vendor's recorded key-value pairs (packages/local-engine/docs/reference.md,
 * "Unseen real documents"): one property per key, named by the key's text in snake_case and described by the
 * key's text as printed, the vendor's value as truth. Nothing is written per document except the corrections
 * a person checked against the page: the vendor's reading is not taken on trust where it is visibly wrong.
 */
import type { Json, JsonSchema } from '../../src/types.js';

/** One key with its value as the vendor read it: the value's words, or the state of its check box. */
export interface VendorPair {
  key: string;
  value: string;
  /** The check box the value holds (true when ticked); null when the value is text. */
  selected: boolean | null;
}

/**
 * A pair the vendor read wrongly, checked by eye on the page: matched by its key and the vendor's value (a key
 * may be printed twice), then given the value the page shows, or dropped when the pair is not a field at all.
 */
export interface PairCorrection {
  key: string;
  vendorValue: string | boolean;
  /** The value the page shows; `null` drops the pair. */
  value: string | boolean | null;
  why: string;
}

export interface VendorFields {
  schema: JsonSchema;
  truth: Record<string, Json>;
  /** Property names left out because the same name holds different values (the schema cannot tell them apart). */
  ambiguous: string[];
  /** Corrections that matched no pair: a stale correction would otherwise pass silently. */
  unused: PairCorrection[];
}

/**
 * `Invoice Number:` → `invoice_number`; `ACC #` → `acc_number` (a number sign reads as "number"); an item number
 * the form puts before its question (`3. Landlord Name:`, `(2) Date`) is not part of the name.
 */
export function propertyName(key: string): string {
  return key
    .replace(/^\s*\(?\d+[.)]\s+/, '')
    .replace(/#/g, ' number ')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

// A value is a number only when it obviously is one: a currency sign or decimals (`$85.00`, `840.00`); a bare
// run of digits is more often an identifier (a zip code, an account number) and stays text.
const MONEY_OR_DECIMAL = /^[$€£]?\s?[-+]?\d{1,3}(?:,\d{3})*(?:\.\d+)?$|^[$€£]?\s?[-+]?\d+\.\d+$/;
const HAS_SIGN_OR_DECIMALS = /[$€£]|\.\d/;
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DATE = new RegExp(`^(?:\\d{1,2}/\\d{1,2}/\\d{4}|(?:${MONTHS}) \\d{1,2}, \\d{4}|\\d{4}-\\d{2}-\\d{2})$`, 'i');

function typed(value: string | boolean): { schema: JsonSchema; truth: Json } {
  if (typeof value === 'boolean') return { schema: { type: 'boolean' }, truth: value };
  if (MONEY_OR_DECIMAL.test(value) && HAS_SIGN_OR_DECIMALS.test(value))
    return { schema: { type: 'number' }, truth: Number(value.replace(/[$€£,\s]/g, '')) };
  if (DATE.test(value)) return { schema: { type: 'string', format: 'date' }, truth: value };
  return { schema: { type: 'string' }, truth: value };
}

function findCorrection(pair: VendorPair, corrections: readonly PairCorrection[]): PairCorrection | undefined {
  const vendorValue = pair.selected ?? pair.value.trim();
  return corrections.find((c) => c.key === pair.key && c.vendorValue === vendorValue);
}

/**
 * The schema and truth of one document's pairs. Empty values are skipped (nothing to find); a check box is a
 * boolean (ticked or not); a name given to two different values is left out and listed as ambiguous.
 */
export function fieldsFromPairs(pairs: readonly VendorPair[], corrections: readonly PairCorrection[]): VendorFields {
  const byName = new Map<string, { key: string; values: (string | boolean)[] }>();
  const used = new Set<PairCorrection>();
  for (const pair of pairs) {
    const correction = findCorrection(pair, corrections);
    if (correction) used.add(correction);
    const value = correction ? correction.value : (pair.selected ?? pair.value.trim());
    const name = propertyName(pair.key);
    if (value === null || value === '' || name === '') continue;
    const entry = byName.get(name) ?? { key: pair.key.trim(), values: [] };
    entry.values.push(value);
    byName.set(name, entry);
  }
  const properties: Record<string, JsonSchema> = {};
  const truth: Record<string, Json> = {};
  const ambiguous: string[] = [];
  for (const [name, { key, values }] of byName) {
    if (values.some((v) => v !== values[0])) {
      ambiguous.push(name);
      continue;
    }
    const field = typed(values[0]!);
    properties[name] = { ...field.schema, description: key };
    truth[name] = field.truth;
  }
  return {
    schema: { type: 'object', properties },
    truth,
    ambiguous,
    unused: corrections.filter((c) => !used.has(c)),
  };
}
