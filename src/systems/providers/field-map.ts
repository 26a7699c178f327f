/**
 * A provider's extracted fields (Azure `documents[0].fields`, Document AI `entities`) mapped onto the
 * dataset's schema. The system's map says where each schema path comes from; schema properties the map does
 * not name are matched by name (docs/providers.md, "Field maps"). Values are typed by the schema from the
 * provider's normalised values (money amounts, ISO dates, numbers) where it gives them, else from the text.
 */
import type { Json, JsonObject, JsonSchema } from '../../types.js';
import { setPath } from './layout.js';

/**
 * Where one schema path comes from: the provider's field name, or for an array of objects the name of the
 * repeated field (`from`) with a map of the items' properties (item property path → the provider's name of
 * the sub-field); item properties the map leaves out are matched by name.
 */
export type FieldMapEntry = string | { from: string; items?: Record<string, string> };

/** Dataset field path (`billing.total`) → where its value comes from. */
export type FieldMap = Record<string, FieldMapEntry>;

/** One value a provider found, with what it normalised; the schema decides which of them is used. */
export interface FoundField {
  /** The text as printed (Azure `content`, Document AI `mentionText`). */
  text: string | null;
  /** A normalised number: a money amount, a number, an integer. */
  number?: number;
  /** A normalised date, `YYYY-MM-DD`. */
  date?: string;
  boolean?: boolean;
  /** A normalised text value (Azure `valueString`, Document AI `normalizedValue.text`). */
  string?: string;
  /** 0–100, or null when the provider gave none. */
  confidence: number | null;
  /** The sub-fields of an object-valued field, by the provider's names. */
  properties?: FieldSource;
  /** The elements of an array-valued field (Azure `valueArray`). */
  items?: readonly FoundField[];
}

/** Fields by the provider's name; a name may hold several values (Document AI: one entity per line item). */
export type FieldSource = ReadonlyMap<string, readonly FoundField[]>;

export interface MappedFields {
  data: JsonObject;
  /** One confidence (0–100) per filled schema field; an array's is the mean of its items'. */
  confidences: number[];
}

type SchemaNode = Record<string, unknown>;

/** Fills the schema from `source`: the map's entries first, then the schema's other properties by name. */
export function mapFields(schema: JsonSchema, map: FieldMap, source: FieldSource): MappedFields {
  const data: JsonObject = {};
  const confidences: number[] = [];
  const used = new Set<string>();
  const put = (path: string, entry: FieldMapEntry) => {
    const name = typeof entry === 'string' ? entry : entry.from;
    const found = lookup(source, name);
    if (found.length === 0) return;
    used.add(name);
    const mapped = mapValue(found, schemaAt(schema, path), typeof entry === 'string' ? undefined : (entry.items ?? {}));
    if (mapped === undefined) return;
    setPath(data, path, mapped.value);
    if (mapped.confidence !== null) confidences.push(mapped.confidence);
  };
  for (const [path, entry] of Object.entries(map)) put(path, entry);
  const mapped = new Set(Object.keys(map));
  for (const [key, property] of Object.entries(properties(schema))) {
    if ([...mapped].some((path) => path === key || path.startsWith(`${key}.`))) continue;
    const name = matchName(
      key,
      property,
      [...source.keys()].filter((n) => !used.has(n)),
    );
    if (name !== undefined) put(key, name);
  }
  return { data, confidences };
}

/** `Customer.Name` looks into the object field `Customer`; a name the source holds as it is wins. */
function lookup(source: FieldSource, name: string): readonly FoundField[] {
  const direct = source.get(name);
  if (direct) return direct;
  const dot = name.indexOf('.');
  if (dot === -1) return [];
  const parent = best(source.get(name.slice(0, dot)) ?? []);
  return parent?.properties ? lookup(parent.properties, name.slice(dot + 1)) : [];
}

/** The most confident value (the first among equals). */
function best(found: readonly FoundField[]): FoundField | undefined {
  return found.reduce<FoundField | undefined>(
    (top, f) => (top === undefined || (f.confidence ?? 0) > (top.confidence ?? 0) ? f : top),
    undefined,
  );
}

interface Mapped {
  value: Json;
  confidence: number | null;
}

/**
 * The value for one schema node. An array node takes every value of a repeated field (Document AI) or the
 * elements of an array field (Azure); an object node (or an item under `items`) is filled property by
 * property; anything else takes the most confident value.
 */
function mapValue(
  found: readonly FoundField[],
  node: SchemaNode | undefined,
  items: Record<string, string> | undefined,
): Mapped | undefined {
  const type = schemaType(node);
  if (type === 'array' || items !== undefined) {
    const elements = found.length === 1 && found[0]!.items ? found[0]!.items : found;
    const itemNode =
      node && typeof node.items === 'object' && node.items !== null ? (node.items as SchemaNode) : undefined;
    const values: Json[] = [];
    const confidences: number[] = [];
    const itemType = schemaType(itemNode);
    for (const element of elements) {
      const asObject =
        items !== undefined || itemType === 'object' || (itemType === undefined && element.properties !== undefined);
      const value = asObject ? mapObject(element, itemNode, items ?? {}) : mapValue([element], itemNode, undefined);
      if (value === undefined) continue;
      values.push(value.value);
      if (value.confidence !== null) confidences.push(value.confidence);
    }
    if (values.length === 0) return undefined;
    return { value: values, confidence: mean(confidences) };
  }
  const top = best(found)!;
  if (type === 'object' && top.properties) return mapObject(top, node, {});
  const value = typedValue(top, node);
  return value === undefined ? undefined : { value, confidence: top.confidence };
}

/** An object from a field's sub-fields: the item map's names first, then each schema property by name. */
function mapObject(field: FoundField, node: SchemaNode | undefined, map: Record<string, string>): Mapped | undefined {
  const source = field.properties ?? new Map<string, readonly FoundField[]>();
  const object: JsonObject = {};
  const confidences: number[] = [];
  const used = new Set(Object.values(map));
  const entries: [string, string][] = Object.entries(map);
  for (const [key, property] of Object.entries(properties(node))) {
    if (Object.hasOwn(map, key)) continue;
    const name = matchName(
      key,
      property,
      [...source.keys()].filter((n) => !used.has(n)),
    );
    if (name === undefined) continue;
    used.add(name);
    entries.push([key, name]);
  }
  // Without a schema for the object, its sub-fields are kept under the provider's names.
  if (node === undefined || Object.keys(properties(node)).length === 0)
    for (const name of source.keys()) if (!used.has(name)) entries.push([name, name]);
  for (const [path, name] of entries) {
    const found = lookup(source, name);
    if (found.length === 0) continue;
    const mapped = mapValue(found, schemaAt(node ?? {}, path), undefined);
    if (mapped === undefined) continue;
    setPath(object, path, mapped.value);
    if (mapped.confidence !== null) confidences.push(mapped.confidence);
  }
  if (Object.keys(object).length === 0) return undefined;
  return { value: object, confidence: field.confidence ?? mean(confidences) };
}

/**
 * A scalar typed by the schema: numbers from the normalised number (else the text without currency signs
 * and separators), dates as `YYYY-MM-DD` when the provider normalised one and the schema asks for a date,
 * text as the provider normalised it, else as printed. Without a type: the normalised value, else the text.
 */
function typedValue(found: FoundField, node: SchemaNode | undefined): Json | undefined {
  const type = schemaType(node);
  if (type === 'number' || type === 'integer') return found.number ?? parseNumber(found.string ?? found.text);
  if (type === 'boolean') return found.boolean ?? parseBoolean(found.text);
  if (type === 'string') {
    if (found.date !== undefined && (node?.format === 'date' || found.string === undefined)) return found.date;
    return found.string ?? found.text ?? (found.number === undefined ? undefined : String(found.number));
  }
  if (found.items) {
    const values = found.items.map((item) =>
      item.properties ? (mapObject(item, undefined, {})?.value ?? null) : (typedValue(item, undefined) ?? null),
    );
    return values;
  }
  if (found.properties) return mapObject(found, undefined, {})?.value;
  return found.number ?? found.date ?? found.boolean ?? found.string ?? found.text ?? undefined;
}

function parseNumber(text: string | null): number | undefined {
  const digits = text?.replace(/[^\d.,-]/g, '').replace(/,(?=\d{3}\b)/g, '') ?? '';
  const n = Number(digits);
  return /\d/.test(digits) && Number.isFinite(n) ? n : undefined;
}

function parseBoolean(text: string | null): boolean | undefined {
  if (text === null) return undefined;
  if (/^(yes|true|x|☒|☑|checked|selected)$/i.test(text.trim())) return true;
  if (/^(no|false|☐|unchecked|unselected)$/i.test(text.trim())) return false;
  return undefined;
}

function schemaType(node: SchemaNode | undefined): string | undefined {
  const type = node?.type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return typeof type === 'string' ? type : undefined;
}

function properties(node: SchemaNode | undefined): Record<string, SchemaNode> {
  const props = node?.properties;
  return typeof props === 'object' && props !== null ? (props as Record<string, SchemaNode>) : {};
}

/** The schema node at a dotted path, through `properties`. */
function schemaAt(schema: SchemaNode, path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = schema;
  for (const key of path.split('.')) node = properties(node)[key];
  return node;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** `UnitPrice`, `unit_price`, `line_item/unit-price` → ["unit", "price"] (the part after a `/` only). */
function words(name: string): string[] {
  return tokens(name.slice(name.lastIndexOf('/') + 1));
}

function tokens(text: string): string[] {
  return text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter(Boolean);
}

/**
 * The provider name matching a schema property: the property's name, then its `title`, equal to the name's
 * words (case and separators aside); then the longest name whose words occur in order in its `description`.
 */
function matchName(key: string, property: SchemaNode | undefined, names: readonly string[]): string | undefined {
  const squash = (text: string) => words(text).join('');
  const byKey = names.find((name) => squash(name) === squash(key));
  if (byKey !== undefined) return byKey;
  const title = typeof property?.title === 'string' ? squash(property.title) : '';
  const byTitle = title === '' ? undefined : names.find((name) => squash(name) === title);
  if (byTitle !== undefined) return byTitle;
  const description = typeof property?.description === 'string' ? ` ${tokens(property.description).join(' ')} ` : '';
  if (description.trim() === '') return undefined;
  return names
    .filter((name) => words(name).length > 0 && description.includes(` ${words(name).join(' ')} `))
    .sort((a, b) => words(b).length - words(a).length)[0];
}
