/**
 * Textract → docbench's extract result (docs/providers.md, textract): the schema's scalar fields filled
 * first from QUERIES (one query per field, the field's path as its alias), then, for the fields no query
 * answered, from FORMS key-value pairs — by `fieldMap` (dataset path → the key as printed) where given, else
 * by matching the key's words against the field's name, path, title and description. Confidence comes from
 * the blocks (QUERY_RESULT, KEY_VALUE_SET), on Textract's own 0–100 scale.
 */
import type { ExtractResult } from '../../service/index.js';
import type { Json, JsonObject, JsonSchema } from '../../types.js';
import { meanConfidence, setPath } from '../providers/layout.js';
import { keyValuePairs, ofType, related, type BlockGraph } from './textract-blocks.js';

/** The synchronous API's limit of queries per page (Textract quotas, "Queries per page"). */
const MAX_QUERIES = 15;

/** A scalar leaf of the schema (arrays are left out: a query or a key-value pair has one answer). */
export interface SchemaField {
  /** Dotted path, e.g. `billing.total`. */
  path: string;
  type: string;
  title: string | null;
  description: string | null;
}

/** The schema's scalar leaves in property order, inside nested objects too. */
export function schemaFields(schema: JsonSchema): SchemaField[] {
  const fields: SchemaField[] = [];
  const walk = (node: Record<string, unknown>, path: string) => {
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      const at = path ? `${path}.${key}` : key;
      const type = Array.isArray(child.type)
        ? String(child.type.find((t) => t !== 'null'))
        : String(child.type ?? 'string');
      const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
      if (type === 'object') walk(child, at);
      else if (type !== 'array')
        fields.push({ path: at, type, title: text(child.title), description: text(child.description) });
    }
  };
  walk(schema, '');
  return fields;
}

export interface SchemaQuery {
  /** The field's dotted path, sent as the query's alias. */
  alias: string;
  text: string;
  type: string;
}

/** One query per scalar field, at most MAX_QUERIES. */
export function schemaQueries(schema: JsonSchema): SchemaQuery[] {
  return schemaFields(schema)
    .slice(0, MAX_QUERIES)
    .map((field) => ({ alias: field.path, text: questionFor(field), type: field.type }));
}

/** Textract queries are questions: the field's description when it has one, else its name in words. */
function questionFor(field: SchemaField): string {
  if (field.description) return `What is the ${field.description.replace(/[.?]+$/, '')}?`;
  return `What is the ${field.path
    .split('.')
    .join(' ')
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()}?`;
}

interface Answer {
  value: Json;
  confidence: number;
}

/** The fields of `schema` from the pages' query answers, then their key-value pairs. */
export function toExtract(
  pages: readonly BlockGraph[],
  schema: JsonSchema,
  fieldMap: Readonly<Record<string, string>>,
): ExtractResult {
  const fields = schemaFields(schema);
  const answers = queryAnswers(pages, fields);
  const pairs = pages.flatMap((graph) => formPairs(graph));
  for (const [path, answer] of formAnswers(
    fields.filter((f) => !answers.has(f.path)),
    pairs,
    fieldMap,
  ))
    answers.set(path, answer);
  const data: JsonObject = {};
  for (const field of fields) {
    const answer = answers.get(field.path);
    if (answer) setPath(data, field.path, answer.value);
  }
  const confidence = meanConfidence(
    [...answers.values()].map((a) => a.confidence),
    100,
  );
  return {
    data,
    responseForm: 'object',
    method: null,
    pagesProcessed: pages.length,
    confidence,
    confidenceScale: confidence === null ? null : '0-100',
  };
}

/** Each query's most confident answer over the pages, coerced to its field's type. */
function queryAnswers(pages: readonly BlockGraph[], fields: readonly SchemaField[]): Map<string, Answer> {
  const types = new Map(fields.map((f) => [f.path, f.type]));
  const best = new Map<string, Answer>();
  for (const graph of pages) {
    for (const query of ofType(graph, 'QUERY')) {
      const type = query.alias === null ? undefined : types.get(query.alias);
      if (type === undefined) continue;
      for (const answer of related(graph, query, 'ANSWER')) {
        const confidence = answer.confidence ?? 0;
        if (answer.text && (best.get(query.alias!)?.confidence ?? -1) < confidence)
          best.set(query.alias!, { value: coerce(answer.text, type), confidence });
      }
    }
  }
  return best;
}

/** A FORMS key with its value: the value's words, or the state of its check box. */
interface FormPair {
  /** The key's words as {@link keyWords} gives them: in full, and without a note in parentheses if it has one. */
  keys: readonly (readonly string[])[];
  text: string;
  selected: boolean | null;
  confidence: number;
}

function formPairs(graph: BlockGraph): FormPair[] {
  return keyValuePairs(graph).map(({ key, values, keyText, valueText, selected }) => {
    const confidence =
      meanConfidence(
        [key, ...values].map((b) => b.confidence ?? Number.NaN),
        100,
      ) ?? 0;
    const withoutNote = keyText.replace(/\([^)]*\)/g, ' ');
    return {
      keys: withoutNote === keyText ? [keyWords(keyText)] : [keyWords(keyText), keyWords(withoutNote)],
      text: valueText,
      selected,
      confidence,
    };
  });
}

/**
 * Words as keys and field names are compared: without case, punctuation or small words (`the`, `of` …,
 * unless nothing else is left: "To:" is a key), common form abbreviations spelled out, a plural `s` dropped.
 */
function keyWords(text: string): string[] {
  const all = text
    .replace(/#|\bno\.(?=\s|$)/gi, ' number ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  const content = all.filter((word) => !STOP_WORDS.has(word));
  return (content.length > 0 ? content : all)
    .flatMap((word) => (ABBREVIATIONS[word] ?? word).split(' '))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/** A field's name in words: `amountDue`, `amount_due` and "Amount due" alike. */
function nameWords(name: string): string[] {
  return keyWords(name.replace(/([a-z])([A-Z])/g, '$1 $2'));
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'and',
  'or',
  'to',
  'for',
  'in',
  'on',
  'at',
  'by',
  'is',
  'are',
  'was',
  'what',
  'your',
  'this',
  'if',
]);
/** Abbreviations forms print in keys; "No." is handled before splitting, since "No" alone is an answer. */
const ABBREVIATIONS: Record<string, string> = {
  num: 'number',
  nbr: 'number',
  amt: 'amount',
  qty: 'quantity',
  addr: 'address',
  tel: 'phone',
  telephone: 'phone',
  ph: 'phone',
  acct: 'account',
  acc: 'account',
  ref: 'reference',
  inv: 'invoice',
  dt: 'date',
  desc: 'description',
  tot: 'total',
  subtotal: 'sub total',
};

/** The {@link keyMatch} at or above which a key names a field. */
const MIN_KEY_MATCH = 0.6;

/**
 * Pairs → fields. A mapped field takes the most confident pair whose key equals its `fieldMap` entry (same
 * words); the others are matched greedily, best word overlap first — on equal overlap the key sharing more of
 * the field's words, then the more confident pair — one pair per field and one field per pair. A pair is only
 * taken when its value fits the field's type.
 */
function formAnswers(
  fields: readonly SchemaField[],
  pairs: readonly FormPair[],
  fieldMap: Readonly<Record<string, string>>,
): Map<string, Answer> {
  const answers = new Map<string, Answer>();
  const used = new Set<number>();
  const candidates: { field: SchemaField; pair: number; score: number; shared: number; value: Json }[] = [];
  for (const field of fields) {
    const mapped = fieldMap[field.path];
    const names =
      mapped === undefined
        ? [field.path.split('.').pop()!, field.path, field.title ?? '', field.description ?? ''].map(nameWords)
        : [];
    const wanted = mapped === undefined ? null : keyWords(mapped).join(' ');
    pairs.forEach((pair, i) => {
      const value = fieldValue(pair, field.type);
      if (value === undefined) return;
      const score =
        wanted !== null
          ? pair.keys.some((key) => key.join(' ') === wanted)
            ? 2
            : 0
          : Math.max(...pair.keys.flatMap((key) => names.map((name) => keyMatch(key, name))));
      const shared = new Set(pair.keys[0]!.filter((word) => names.some((name) => name.includes(word)))).size;
      if (score >= MIN_KEY_MATCH) candidates.push({ field, pair: i, score, shared, value });
    });
  }
  // Equal overlap: the key sharing more words is the more specific ("Patient Name" over "Name" for patient.name).
  candidates.sort(
    (a, b) => b.score - a.score || b.shared - a.shared || pairs[b.pair]!.confidence - pairs[a.pair]!.confidence,
  );
  for (const { field, pair, value } of candidates) {
    if (answers.has(field.path) || used.has(pair)) continue;
    answers.set(field.path, { value, confidence: pairs[pair]!.confidence });
    used.add(pair);
  }
  return answers;
}

/**
 * The Dice overlap of a key's and a field name's word sets, or 0 unless the key holds more than half of the
 * name's words: "Date" alone (0.67 by Dice) does not name a date of birth, "Home Address" names an address.
 */
function keyMatch(key: readonly string[], name: readonly string[]): number {
  const left = new Set(key);
  const right = new Set(name);
  const shared = [...left].filter((word) => right.has(word)).length;
  return right.size > 0 && shared / right.size > 0.5 ? (2 * shared) / (left.size + right.size) : 0;
}

/** A pair's value as the field's type, or undefined when it does not fit (no text, not a number …). */
function fieldValue(pair: FormPair, type: string): Json | undefined {
  if (type === 'boolean') {
    if (pair.selected !== null) return pair.selected;
    const value = coerce(pair.text, type);
    return typeof value === 'boolean' ? value : undefined;
  }
  if (pair.text.trim() === '') return undefined;
  const value = coerce(pair.text, type);
  return (type === 'number' || type === 'integer') && typeof value !== 'number' ? undefined : value;
}

/** Answers are text: numbers lose currency signs and thousands separators; unparseable stays text. */
function coerce(text: string, type: string): Json {
  if (type === 'number' || type === 'integer') {
    const n = Number(text.replace(/[$€£,\s]/g, ''));
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean') {
    if (/^(yes|true|x|checked)$/i.test(text.trim())) return true;
    if (/^(no|false|unchecked)$/i.test(text.trim())) return false;
  }
  return text;
}
