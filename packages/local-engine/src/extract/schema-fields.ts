/**
 * JSON Schema → the fields to look for: each scalar property with its label candidates (from its name and
 * description), arrays of objects as table specs, arrays of scalars as list fields. Only the subset of JSON
 * Schema the interface describes is read (objects, arrays, required, string/integer/number/boolean, enum,
 * format, pattern, local $ref).
 */
import type { JsonSchema } from '../contract.js';
import { conceptWords } from '../lexicon/lexicon.js';
import { classifyField, describeWords, type FieldRole, LOCATION_WORDS, withoutNegations } from './field-roles.js';
import { labelSynonyms, SYNONYM_WEIGHT } from './label-synonyms.js';
import { BARE_CAPTION_WORDS } from './caption-words.js';
import { dataElementLabels } from './data-element-names.js';
import { expandAbbreviation } from './name-abbreviations.js';
import {
  classifyParty,
  isPartyRole,
  isPartyWord,
  namesPartyReference,
  type PartyRole,
  toVerbLead,
} from './party-roles.js';
import { type AddressPart, addressPartOf, widensToWholeAddress, withoutPartWords } from './address-parts.js';
import { type NamePart, namePartOf, wholeNameOf } from './name-parts.js';

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

/** A label a field may be printed under, with its weight (1 = exact printed label). */
export interface WeightedLabel {
  text: string;
  weight: number;
  /** Another wording of a label (label-synonyms.ts), looked for only on a page that prints words like it. */
  reworded?: boolean;
}

/** A scalar to find: where it goes and how to recognise and coerce it. */
export interface ScalarSpec {
  kind: 'scalar';
  /** Property path from the root, e.g. ['patient', 'name']. */
  path: string[];
  type: ScalarType;
  format?: string;
  pattern?: string;
  enum?: string[];
  required: boolean;
  /** Label candidates, most specific first, each with a weight (1 = exact printed label). */
  labels: WeightedLabel[];
  /** The well-known part of an invoice or receipt the property asks for, when it is one (field-roles.ts). */
  role?: FieldRole;
  /** The property's description: the words a printed caption may be explained by (caption-words.ts). */
  description?: string;
  /**
   * A caption printing the field's own words is read before the role's finder: a `VendorRef` with no description
   * may be a printed "Vendor ref." rather than the vendor (CHANGELOG.md, "API names").
   */
  captionFirst?: boolean;
  /**
   * A part of a party's address (`supplier_city`, `employee.postalCode`): read from that party's address block,
   * where the page prints the address whole (address-parts.ts).
   */
  addressPart?: { role: PartyRole; part: AddressPart };
  /** A part of a person's name (`lastName`, `given_name`): read from the name printed whole (name-parts.ts). */
  namePart?: NamePart;
  /** For a name part, the field of the whole name it is a part of ("client last name" → "client name"). */
  wholeName?: ScalarSpec;
}

/** An array of objects, read from a table. */
export interface TableSpec {
  kind: 'table';
  path: string[];
  required: boolean;
  labels: WeightedLabel[];
  /** Item properties (paths relative to the item). */
  columns: ScalarSpec[];
}

/** An array of scalars, read from one labelled value split into items. */
export interface ListSpec {
  kind: 'list';
  path: string[];
  required: boolean;
  item: ScalarSpec;
  labels: WeightedLabel[];
  /** Its name says its items are codes ("diagnosis_codes"): each item is read as the code it starts with. */
  itemsAreCodes?: boolean;
  /** The array's description: the words a printed caption may be explained by (question-captions.ts). */
  description?: string;
}

export type FieldSpec = ScalarSpec | TableSpec | ListSpec;

/** "patientName", "patient_name", "PatientName" → "patient name"; "addr1" → "addr". */
export function splitName(name: string): string {
  return (
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/[_\-.]+/g, ' ')
      .trim()
      .toLowerCase()
      // "addr1", "address_line_2": the ordinal of a repeated field, and the line of an address, no caption prints.
      .replace(/([a-z]{4,}) ?[1-9]$/, '$1')
      .replace(/\b(address|addr|street) line$/, '$1')
  );
}

/**
 * A name or short title with its abbreviations spelled out ("txn dt" → "transaction date", "Inv. date" → "invoice
 * date"); null when it holds none. Pages print either form, so both are labels.
 */
export function spellOut(text: string, inAddress = false): string | null {
  const words = text.split(/\s+/).filter(Boolean);
  const bareWords = words.map((word) => word.replace(/\.$/, ''));
  const spelled = words.map((word, i) => {
    const bare = bareWords[i]!;
    const full = expandAbbreviation(bare, { previous: bareWords[i - 1], next: bareWords[i + 1], inAddress });
    return full === bare ? word : full;
  });
  return spelled.some((word, i) => word !== words[i]) ? spelled.join(' ') : null;
}

/**
 * A phrase "X of the Y" as forms caption it, its owner first: "street address of the home" is printed "Home Address"
 * (the owner and the head word), "phone number of the landlord" "Landlord Phone Number" (the owner and every word).
 */
function ownerFirst(phrase: string): string[] {
  const m = /^((?:[\p{L}-]+\s+){0,2}?([\p{L}-]+))\s+of\s+(?:the\s+|a\s+|an\s+|your\s+|their\s+)?([\p{L}-]+)$/iu.exec(
    phrase.trim(),
  );
  if (!m) return [];
  const [, words, head, owner] = m;
  return [...new Set([`${owner} ${words}`, `${owner} ${head}`])];
}

/** Label phrases a description suggests: quoted text, parenthesised text, the first clause, a short whole. */
export function labelsFromDescription(description: string): string[] {
  const labels: string[] = [];
  for (const match of description.matchAll(/["“'‘]([^"”'’]{2,60})["”'’]/g)) labels.push(match[1]!);
  // A parenthesised rate or amount ("GST (10%)") names nothing: as a label it would find every "10".
  for (const match of description.matchAll(/\(([^)]{2,60})\)/g)) if (/\p{L}/u.test(match[1]!)) labels.push(match[1]!);
  const firstClause = description.split(/[.;:,(]|\s[-–—]\s/)[0]!.trim();
  if (firstClause && firstClause.split(/\s+/).length <= 8) labels.push(firstClause, ...ownerFirst(firstClause));
  return labels.map((l) => l.trim()).filter((l) => l.length >= 2);
}

type SchemaNode = { [key: string]: unknown };

function resolveRef(node: SchemaNode, root: SchemaNode): SchemaNode {
  let current = node;
  for (let depth = 0; depth < 8 && typeof current.$ref === 'string'; depth++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) break;
    let target: unknown = root;
    for (const part of ref.slice(2).split('/'))
      target = (target as SchemaNode | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!target || typeof target !== 'object') break;
    current = {
      ...(target as SchemaNode),
      ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')),
    };
  }
  return current;
}

/** The first non-null type of a node, looking through type arrays and anyOf/oneOf. */
function typeOf(node: SchemaNode, root: SchemaNode): { type: string | undefined; node: SchemaNode } {
  const resolved = resolveRef(node, root);
  const type = resolved.type;
  if (typeof type === 'string') return { type, node: resolved };
  if (Array.isArray(type)) return { type: type.find((t) => t !== 'null') as string | undefined, node: resolved };
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = resolved[key];
    if (Array.isArray(options)) {
      for (const option of options as SchemaNode[]) {
        const inner = typeOf(option, root);
        if (inner.type && inner.type !== 'null') return { type: inner.type, node: { ...resolved, ...inner.node } };
      }
    }
  }
  if (resolved.properties) return { type: 'object', node: resolved };
  if (Array.isArray(resolved.enum)) return { type: 'string', node: resolved };
  return { type: undefined, node: resolved };
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A property's description without what it says the property is not ("The date on the invoice, not the due date"):
 * the words of another thing, which would otherwise make its labels and its role (field-roles.ts).
 */
function descriptionOf(node: SchemaNode): string | undefined {
  const text = textOf(node.description);
  return text === undefined ? undefined : withoutNegations(text);
}

/**
 * A list named by the codes it holds ("diagnosis codes", `healthCareDiagnosisCodes`, `dx_codes`) is printed under
 * what the codes are of: "21. DIAGNOSIS OR NATURE OF ILLNESS OR INJURY", "Diagnoses (ICD-10)". Such a caption
 * lists a code and its description as one item, so the items are read as their codes.
 */
const CODES_WORD = / codes$/;
/** Fewer letters than this left of a label without "codes" ("icd", of "ICD Ind.") name no list in particular. */
const MIN_CODE_SUBJECT = 4;

function namesCodeSubject(label: WeightedLabel): boolean {
  return label.text.replace(/[^\p{L}]/gu, '').length >= MIN_CODE_SUBJECT;
}

/** A description's label led by a party's possessive: "the buyer's order number", "supplier’s VAT number". */
const OWNED_BY_PARTY = /^(?:(?:the|a|an|our|their) )?([\p{L}]+)['’]s? (.+)$/iu;

/** A word that only says a parent groups its children's fields: "patient_info", "vendor_details". */
const GROUPING_WORD = / (info|information|details|data|record|loop)$/;

/** The last word of a sum's name that says what happened to it. */
const MONEY_PARTICIPLE = /\b(paid|due|billed|owed|charged)$/;

function isAmount(node: SchemaNode): boolean {
  return node.type === 'number' || node.type === 'integer';
}

/** A property naming a city ("city", "pt_city", "cityName"): the properties beside it are an address's parts. */
const CITY_WORD = /\b(city|town)\b/;

/**
 * Whether a name's word, left alone after its party's, names nothing in particular: a generic word ("name"), or a
 * reference (`VendorRef`: a caption "Ref" or "Reference" is any reference number on the page).
 */
function namesNothingAlone(word: string): boolean {
  return BARE_CAPTION_WORDS.has(word) || conceptWords('reference').includes(word);
}

/** Label candidates of a property: its title (a printed label is often exactly that), what its description suggests, its name. */
function labelsFor(name: string, node: SchemaNode, parents: string[], inAddress = false): WeightedLabel[] {
  const labels: WeightedLabel[] = [];
  // Each label as written and, when it abbreviates, spelled out.
  const push = (text: string, weight: number) => {
    labels.push({ text, weight });
    const spelled = spellOut(text, inAddress);
    if (spelled) labels.push({ text: spelled, weight });
  };
  const title = textOf(node.title)?.trim();
  if (title && title.length >= 2) push(title, 1);
  const description = descriptionOf(node);
  if (description)
    for (const text of labelsFromDescription(description)) {
      labels.push({ text, weight: 1 });
      // "the buyer's order number" is printed "Order Number": whose it is, the page says by where it prints it.
      const owned = OWNED_BY_PARTY.exec(text);
      if (owned && isPartyWord(owned[1]!.toLowerCase()) && owned[2]!.includes(' '))
        labels.push({ text: owned[2]!, weight: 0.85 });
    }
  const own = splitName(name);
  // "patient_info" groups the patient's fields: its boxes say "patient", never "info".
  const parent = parents.length > 0 ? splitName(parents[parents.length - 1]!).replace(GROUPING_WORD, '') : '';
  // "patient" + "name" → "patient name"; skip when the name already carries the parent ("patient_name").
  if (parent && !own.startsWith(parent)) push(`${parent} ${own}`, 0.97);
  // A bare child name ("name") is less specific: it also matches other sections' labels.
  push(own, parent ? 0.85 : 0.95);
  const spelledOwn = spellOut(own, inAddress) ?? own;
  // A data-element name without how its value is stored, and each of its alternatives ("gender code" → "gender").
  for (const reduced of dataElementLabels(spelledOwn)) {
    if (parent) push(`${parent} ${reduced}`, 0.97 * SYNONYM_WEIGHT);
    push(reduced, (parent ? 0.85 : 0.95) * SYNONYM_WEIGHT);
  }
  // A flat name led by its party ("pt_zip", "provider_ein", "billing_provider_tax_id") is that party's section in
  // one word: its box is captioned by the rest ("ZIP CODE"), as a nested child's is by its own name. When the
  // rest names nothing in particular, the last party word stays ("insured_name" is no label "name";
  // "billing_provider_identifier" is captioned "provider identifier").
  const words = spelledOwn.split(' ');
  const lead = toVerbLead(words) || words.findIndex((word) => !isPartyWord(word));
  const from = lead > 0 && words.slice(lead).every(namesNothingAlone) ? lead - 1 : lead;
  const rest = words.slice(from);
  if (!parent && from > 0) {
    push(rest.join(' '), 0.85);
    for (const reduced of dataElementLabels(rest.join(' '))) push(reduced, 0.85 * SYNONYM_WEIGHT);
  }
  // A sum named by who or what it happened to ("patient_paid", "balance_due") is printed "Amount Paid", "Amount
  // Due"; not a one-word name ("paid"), a table column's caption as it stands.
  if (isAmount(node) && MONEY_PARTICIPLE.test(own) && own.includes(' ') && !own.includes('amount'))
    push(`amount ${own.match(MONEY_PARTICIPLE)![1]}`, 0.85 * SYNONYM_WEIGHT);
  const reworded = (from: WeightedLabel[]) =>
    from.flatMap((l) =>
      labelSynonyms(l.text).map((text) => ({ text, weight: l.weight * SYNONYM_WEIGHT, reworded: true })),
    );
  const synonyms = reworded(labels);
  // A label may say two things in other words: "member id" is printed "Insured's ID Number".
  const seen = new Set<string>();
  return [...labels, ...synonyms, ...reworded(synonyms)].filter((l) => {
    const key = l.text.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The words a yes/no question's name puts around what it asks about: "work_related", "related_causes_employment"
 * ask whether the condition is related to work, to employment.
 */
const RELATED_WORD = / related$|^related (causes? |to )?/;

/**
 * The words a yes/no property's name opens with to ask about what a form's check box is captioned by: an API's
 * `is_`, `has_`, `was_` (`is_disabled`, `hasVehicle`), or a verb with its preposition (`referredByFriend`,
 * `lives_in_public_housing`, `paid_by_card`): the box is captioned "Disabled", "Friend", "Public housing".
 */
const YES_NO_LEAD =
  /^(?:(?:is|has|have|was|were|are|does|do|did|can|should|will) |(?:[a-z]+(?:ed|s)|heard|paid|sold|sent|made|found|told|seen|known|given|taken|bought|brought|held|kept|got) (?:by|in|at|from|via|through|with|on|for) )/;

/**
 * Labels without the words `words` matches, which no caption prints, a little less sure: a form captions the
 * check box of "work_related" under "Is the condition related to:" by what it is related to ("EMPLOYMENT?").
 */
function labelsWithout(labels: WeightedLabel[], words: RegExp): WeightedLabel[] {
  return labels.flatMap((label) => {
    const rest = label.text.toLowerCase().replace(words, '');
    return rest !== label.text.toLowerCase() ? [{ text: rest, weight: label.weight * SYNONYM_WEIGHT }] : [];
  });
}

/**
 * The last word of a column that holds which kind of row each is (`earningType`, `deduction_kind`): the column is
 * captioned by what the rows are ("Earnings", "Deductions").
 */
const KIND_WORD = / (type|kind|category)$/;

function scalarFrom(
  node: SchemaNode,
  type: string,
  path: string[],
  required: boolean,
  labels: ScalarSpec['labels'],
): ScalarSpec {
  const scalarType: ScalarType = type === 'integer' || type === 'number' || type === 'boolean' ? type : 'string';
  const spec: ScalarSpec = { kind: 'scalar', path, type: scalarType, required, labels };
  const name = path[path.length - 1];
  const part = scalarType === 'string' && name !== undefined ? namePartOf(describeWords(name)) : null;
  if (part) spec.namePart = part;
  if (typeof node.format === 'string') spec.format = node.format;
  if (typeof node.pattern === 'string') spec.pattern = node.pattern;
  if (Array.isArray(node.enum)) spec.enum = node.enum.filter((v) => v !== null).map(String);
  return spec;
}

/**
 * The party address a property's name asks a part of: its name without the part's words, read as an address
 * ("supplier postal code" → the supplier's address), qualified by a party in its name, its parents or its
 * description; null when no party is named (a form's `city` box is read by its caption).
 */
function addressPartFor(
  path: string[],
  description: string | undefined,
  inAddress: boolean,
): ScalarSpec['addressPart'] | null {
  if (asksAddressOnOneLine(path, inAddress)) return null;
  const name = describeWords(path[path.length - 1]!);
  const part = addressPartOf(name);
  if (!part || (description && widensToWholeAddress(withoutNegations(description), part))) return null;
  const asAddress = [...withoutPartWords(name), 'address'];
  const role = classifyParty({
    name: asAddress,
    own: asAddress,
    parents: path
      .slice(0, -1)
      .reverse()
      .map((parent) => describeWords(parent)),
    description: description ? describeWords(description) : [],
  });
  if (role?.endsWith('-address')) return { role, part };
  // A part of where a purchase was made ("city of purchase", `LocationCity`) is the shop's: its address's part.
  const where = asAddress.filter((word) => conceptWords('purchase').includes(word) || LOCATION_WORDS.includes(word));
  return where.length > 0 && classifyField([asAddress.join(' ')], 'string', undefined) === 'issuer-address'
    ? { role: 'issuer-address', part }
    : null;
}

/** The field of a whole name (`client name`, read by its caption or as its party) under `parents`. */
function wholeNameField(parents: string[], name: string, required: boolean): ScalarSpec {
  const node: SchemaNode = { type: 'string' };
  const spec = scalarFrom(node, 'string', [...parents, name], required, labelsFor(name, node, parents));
  const role = classifyField(spec.path, 'string', undefined);
  if (role) spec.role = role;
  return spec;
}

/** The scalar properties of an object read as the columns of a table row (paths relative to the object). */
function columnsOf(node: SchemaNode, root: SchemaNode): ScalarSpec[] {
  const columns: ScalarSpec[] = [];
  const properties = (node.properties ?? {}) as Record<string, SchemaNode>;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const [name, property] of Object.entries(properties)) {
    const { type, node: resolved } = typeOf(property, root);
    if (type === 'object' || type === 'array') continue;
    const labels = labelsFor(name, resolved, []);
    columns.push(
      scalarFrom(resolved, type ?? 'string', [name], required.has(name), [
        ...labels,
        ...labelsWithout(labels, KIND_WORD),
      ]),
    );
  }
  return columns;
}

/** An object property of the schema (a group of fields), its path and its properties read as a table row's columns. */
export interface ObjectGroup {
  path: string[];
  columns: ScalarSpec[];
  /** Sibling fields sharing a leading word, not an object: values sit beside the group, not under it. */
  flat?: boolean;
}

/**
 * The groups of fields of the schema outside arrays that `leads` names: each object property at any depth with a
 * word of its name `leads` accepts (`spouse_info`), and the sibling scalars whose names start with one such word
 * (`clientLastName`, `clientDob` as the group `client`, each column labelled by the rest of its name). A flat
 * group's path is its parent's with the word; its columns keep their own names, so a value's path is the group's
 * parent path and the column's name.
 */
export function collectObjects(schema: JsonSchema, leads: (word: string) => boolean): ObjectGroup[] {
  const root = schema as SchemaNode;
  const groups: ObjectGroup[] = [];
  const walk = (node: SchemaNode, path: string[]) => {
    const properties = (typeOf(node, root).node.properties ?? {}) as Record<string, SchemaNode>;
    const byLead = new Map<string, ScalarSpec[]>();
    for (const [name, child] of Object.entries(properties)) {
      const { type, node: resolved } = typeOf(child, root);
      if (type === 'object') {
        if (splitName(name).split(' ').some(leads))
          groups.push({ path: [...path, name], columns: columnsOf(resolved, root) });
        walk(resolved, [...path, name]);
        continue;
      }
      if (type === 'array') continue;
      const [lead, ...rest] = splitName(name).split(' ');
      if (!lead || rest.length === 0 || !leads(lead)) continue;
      const labels = labelsFor(rest.join(' '), resolved, []);
      const column = scalarFrom(resolved, type ?? 'string', [name], false, labels);
      byLead.set(lead, [...(byLead.get(lead) ?? []), column]);
    }
    for (const [lead, columns] of byLead)
      if (columns.length >= 2) groups.push({ path: [...path, lead], columns, flat: true });
  };
  walk(root, []);
  return groups;
}

/**
 * The path a field's role is read from. An address line asked for with no city, state or postcode beside it
 * (`merchantAddressLine`, `address_line`) is the address written on one line, so its role is the address's; beside
 * them it is the street line, and a form's caption or a party's part reads it.
 */
function roleNameOf(path: string[], inAddress: boolean): string[] {
  if (!asksAddressOnOneLine(path, inAddress)) return path;
  return [...path.slice(0, -1), describeWords(path.at(-1)!).slice(0, -1).join(' ')];
}

/** Whether a field is an address line with no city, state or postcode asked beside it: the address on one line. */
function asksAddressOnOneLine(path: string[], inAddress: boolean): boolean {
  const words = describeWords(path.at(-1)!);
  return !inAddress && words.length >= 2 && words.at(-1) === 'line' && words.at(-2) === 'address';
}

/** Walks the schema and lists every field to extract. */
export function collectFields(schema: JsonSchema): FieldSpec[] {
  const root = schema as SchemaNode;
  const fields: FieldSpec[] = [];
  const walk = (node: SchemaNode, path: string[], requiredChain: boolean) => {
    const { node: resolved } = typeOf(node, root);
    const properties = (resolved.properties ?? {}) as Record<string, SchemaNode>;
    const required = new Set(Array.isArray(resolved.required) ? (resolved.required as string[]) : []);
    const inAddress = Object.keys(properties).some((name) => CITY_WORD.test(splitName(name)));
    for (const [name, child] of Object.entries(properties)) {
      const { type, node: childNode } = typeOf(child, root);
      const childPath = [...path, name];
      const isRequired = requiredChain && required.has(name);
      const labels = labelsFor(name, childNode, path, inAddress);
      if (type === 'object') {
        walk(childNode, childPath, isRequired);
      } else if (type === 'array') {
        const items = typeOf((childNode.items ?? {}) as SchemaNode, root);
        if (items.type === 'object') {
          fields.push({
            kind: 'table',
            path: childPath,
            required: isRequired,
            labels,
            columns: columnsOf(items.node, root),
          });
        } else {
          const own = splitName(name);
          const codes = CODES_WORD.test(spellOut(own) ?? own);
          const listLabels = codes
            ? [...labels, ...labelsWithout(labels, CODES_WORD).filter(namesCodeSubject)]
            : labels;
          const item = scalarFrom(items.node, items.type ?? 'string', [], false, listLabels);
          const description = descriptionOf(childNode);
          fields.push({
            kind: 'list',
            path: childPath,
            required: isRequired,
            item,
            labels: listLabels,
            ...(codes && { itemsAreCodes: true }),
            ...(description && { description }),
          });
        }
      } else {
        const scalarLabels =
          type === 'boolean'
            ? [...labels, ...labelsWithout(labels, RELATED_WORD), ...labelsWithout(labels, YES_NO_LEAD)]
            : labels;
        const scalar = scalarFrom(childNode, type ?? 'string', childPath, isRequired, scalarLabels);
        const description = descriptionOf(childNode);
        const role = classifyField(roleNameOf(childPath, inAddress), scalar.type, scalar.format, {
          title: textOf(childNode.title),
          description,
        });
        if (scalar.namePart) scalar.wholeName = wholeNameField(path, wholeNameOf(describeWords(name)), isRequired);
        if (role) scalar.role = role;
        // A party's reference without a description may be a printed reference caption: read that first.
        if (role && isPartyRole(role) && !childNode.description && namesPartyReference(describeWords(name)))
          scalar.captionFirst = true;
        const addressPart = scalar.type === 'string' ? addressPartFor(childPath, description, inAddress) : null;
        if (addressPart) scalar.addressPart = addressPart;
        if (description) scalar.description = description;
        fields.push(scalar);
      }
    }
  };
  walk(root, [], true);
  return fields;
}
