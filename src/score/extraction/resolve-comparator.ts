/**
 * Which comparator a field gets, in this order (docs/metrics/extraction.md "Comparator resolution"):
 *   1. explicit — dataset.json `comparators[collapsedPath]`;
 *   2. schema — `format: date|date-time` → date; boolean → boolean; a number/integer/string property whose
 *      name or description says money → money (tolerance 0.005); number/integer → number;
 *   3. name — money words → money; code/id words (cpt, hcpcs, icd, npi, code, member id, id…) → code;
 *      date words (date, dob, dos…) → date;
 *   4. value — the first non-empty truth value at that path (else the prediction's) is a JSON number → number,
 *      a boolean → boolean;
 *   5. default — string.
 * The choice is made once per collapsed path and document, so every item of an array compares alike.
 */
import type { ComparatorSpec, ComparatorType, DateLocale } from '../../types.js';
import { createComparator, type Comparator } from '../normalize/index.js';
import { schemaAnnotations, schemaTypes, type SchemaNode } from './schema.js';

/** Where a field's comparator came from. */
export type ComparatorSource = 'explicit' | 'schema' | 'name' | 'value' | 'default';

/** A comparator with its origin, as recorded in `ExtractionScore.normalization`. */
export interface ResolvedComparator {
  comparator: Comparator;
  source: ComparatorSource;
}

/** The JSON type of the first non-empty value seen at a path. */
export type ValueType = 'number' | 'boolean' | 'string';

const MONEY_WORDS = new Set([
  'amount',
  'amounts',
  'amt',
  'charge',
  'charges',
  'charged',
  'total',
  'totals',
  'subtotal',
  'paid',
  'payment',
  'payments',
  'balance',
  'price',
  'fee',
  'fees',
  'copay',
  'copayment',
  'coinsurance',
  'deductible',
  'allowed',
  'cost',
  'costs',
  'billed',
  'due',
  'owed',
  'tax',
  'refund',
  'reimbursement',
  'payable',
  'outstanding',
]);
// A money word next to one of these names a count, a label or a date, not an amount ("total_units", "due_date").
const NOT_MONEY_WORDS = new Set([
  'units',
  'unit',
  'count',
  'qty',
  'quantity',
  'number',
  'num',
  'no',
  'pages',
  'page',
  'days',
  'day',
  'items',
  'lines',
  'percent',
  'pct',
  'percentage',
  'date',
  'id',
  'code',
  'name',
  'description',
  'desc',
  'status',
  'type',
  'flag',
  'indicator',
  'text',
  'note',
  'notes',
  'reason',
  'method',
  'currency',
]);
const CODE_WORDS = new Set([
  'cpt',
  'hcpcs',
  'icd',
  'icd9',
  'icd10',
  'icd10cm',
  'icd10pcs',
  'npi',
  'ndc',
  'code',
  'codes',
  'id',
  'ids',
  'mrn',
  'tin',
  'ein',
  'modifier',
  'modifiers',
]);
const DATE_WORDS = new Set(['date', 'dates', 'dob', 'dos', 'doi', 'birthdate', 'birthday']);
const MONEY_DESCRIPTION = /\$|\b(amount|dollars?|currency|usd|money|price|charge|fee|payment|balance|cost)\b/iu;

/** Splits a field name into lowercase words: `memberID` → member, id; `ICD10Code` → icd10, code. */
export function splitFieldName(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/gu, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/u)
    .filter(Boolean);
}

function suggestsMoney(words: string[]): boolean {
  return words.some((w) => MONEY_WORDS.has(w)) && !words.some((w) => NOT_MONEY_WORDS.has(w));
}

/** Infers the comparator spec of a field without an explicit one (steps 2–5 above). */
export function inferComparatorSpec(
  fieldName: string,
  schemaNode: SchemaNode | undefined,
  schemaRoot: SchemaNode,
  valueType: ValueType | undefined,
): { spec: ComparatorSpec; source: ComparatorSource } {
  const words = splitFieldName(fieldName);
  if (schemaNode) {
    const types = schemaTypes(schemaNode, schemaRoot);
    const { format, description } = schemaAnnotations(schemaNode, schemaRoot);
    const numeric = types.includes('number') || types.includes('integer');
    if (format === 'date' || format === 'date-time') return { spec: { type: 'date' }, source: 'schema' };
    if (types.length === 1 && types[0] === 'boolean') return { spec: { type: 'boolean' }, source: 'schema' };
    const moneyTyped = types.length === 0 || types.every((t) => t === 'number' || t === 'integer' || t === 'string');
    if (moneyTyped && (suggestsMoney(words) || (numeric && MONEY_DESCRIPTION.test(description)))) {
      return { spec: { type: 'money' }, source: 'schema' };
    }
    if (numeric) return { spec: { type: 'number' }, source: 'schema' };
  }
  if (suggestsMoney(words)) return { spec: { type: 'money' }, source: 'name' };
  if (words.some((w) => CODE_WORDS.has(w))) return { spec: { type: 'code' }, source: 'name' };
  if (words.some((w) => DATE_WORDS.has(w))) return { spec: { type: 'date' }, source: 'name' };
  if (valueType === 'number') return { spec: { type: 'number' }, source: 'value' };
  if (valueType === 'boolean') return { spec: { type: 'boolean' }, source: 'value' };
  return { spec: { type: 'string' }, source: 'default' };
}

/** Options of a comparator table. */
export interface ComparatorTableOptions {
  comparators: Record<string, ComparatorSpec | ComparatorType>;
  schemaRoot: SchemaNode;
  locale: DateLocale;
  valueTypes: ReadonlyMap<string, ValueType>;
}

/** Resolves and caches one comparator per collapsed path. */
export class ComparatorTable {
  readonly resolved = new Map<string, ResolvedComparator>();

  constructor(private readonly options: ComparatorTableOptions) {}

  get(collapsedPath: string, fieldName: string, schemaNode: SchemaNode | undefined): ResolvedComparator {
    let entry = this.resolved.get(collapsedPath);
    if (!entry) {
      // Own properties only: a field named `valueOf` or `__proto__` must not find Object.prototype.
      const explicit = Object.hasOwn(this.options.comparators, collapsedPath)
        ? this.options.comparators[collapsedPath]
        : undefined;
      if (explicit !== undefined) {
        const spec = typeof explicit === 'string' ? { type: explicit } : explicit;
        entry = { comparator: createComparator(spec, this.options.locale), source: 'explicit' };
      } else {
        const inferred = inferComparatorSpec(
          fieldName,
          schemaNode,
          this.options.schemaRoot,
          this.options.valueTypes.get(collapsedPath),
        );
        entry = { comparator: createComparator(inferred.spec, this.options.locale), source: inferred.source };
      }
      this.resolved.set(collapsedPath, entry);
    }
    return entry;
  }
}
