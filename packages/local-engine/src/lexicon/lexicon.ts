/**
 * The engine's words, read from one JSON file per language in this folder (format and how to add a language:
 * README.md here). Every file's words for a concept are merged: a schema or a page may mix languages, and a word
 * names its concept whatever the document's language. The folder may be replaced with DOCBENCH_LEXICON_DIR.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineOptionError } from '../contract.js';

/** What a lexicon file may say of a concept. */
const KINDS = ['words', 'weak', 'captions', 'pageWords', 'weakPageWords', 'columnCaptions', 'cellWords'] as const;
type Kind = (typeof KINDS)[number];

/** A concept's words in every language, merged. */
export interface Concept {
  /** Words naming it in a schema's names, titles and descriptions: lower case, ASCII (diacritics folded). */
  words: string[];
  /** Words naming it only when nothing else qualifies them ("company" is the sender, a "mortgage company" not). */
  weak: string[];
  /** Captions a page prints for it, each other's synonyms in a label: lower case, as written. */
  captions: string[];
  /** Wordings the role finders look for on a page (a total's, a date's, a customer block's caption). */
  pageWords: string[];
  /** Wordings that name it less surely on a page. */
  weakPageWords: string[];
  /** Captions a line-item table's header prints for it, each other's synonyms in a column's caption. */
  columnCaptions: string[];
  /** What a table prints for it in a row's label or a column's caption, read there as one word. */
  cellWords: string[];
}

/** Where a field's words are read: its name and title (`own`), its parents' names, its description. */
export type Place = 'own' | 'parents' | 'description';

/**
 * Concepts whose words, where given, make a field something else than a role: the role abstains; `unless` the
 * defining part of the description holds a word of these concepts (a period's start described as when the purchase
 * occurred).
 */
export interface Exclusion {
  concepts: string[];
  in: Place[];
  unless?: string[];
}

/** A role of the document itself, as roles.json declares it (format in README.md). */
export interface RoleRule {
  role: 'currency' | 'document-date' | 'total' | 'issuer-address';
  /** The field's type: a number (`number`, `integer`) or anything else (`text`). */
  value: 'text' | 'number';
  /** A format that names the role alone (`date`). */
  format?: string;
  /** Concepts one of whose words names the role, and where. */
  needs: string[];
  in: Place[];
  /** Runs of concepts, one word of each in a row in the name and title, naming the role: their words exclude nothing. */
  phrases: string[][];
  /** Concepts every word of the field's name, title and parents' names must belong to for the role to apply. */
  only?: string[];
  excludedBy: Exclusion[];
}

const ROLE_NAMES: readonly RoleRule['role'][] = ['currency', 'document-date', 'total', 'issuer-address'];
const PLACES: readonly Place[] = ['own', 'parents', 'description'];

/** The parties the engine has finders for (find-parties.ts); roles.json says which words name each. */
export const PARTIES = ['issuer', 'recipient', 'delivery', 'payee', 'payer', 'provider'] as const;
export type Party = (typeof PARTIES)[number];
/** What of a party a field may ask for; `other` (an id, a tax number) has no finder: its printed label is read. */
export const DETAILS = ['email', 'phone', 'address', 'other', 'name'] as const;
export type PartyDetail = (typeof DETAILS)[number];

/** A party as roles.json declares it (format in README.md). */
export interface PartyRule {
  party: Party;
  /** Concepts whose words name the party. */
  needs: string[];
  /**
   * Concepts all of whose words name it weakly: only unqualified, and only when no place names a party surely (the
   * `weak` words of a `needs` concept name it so too).
   */
  weak: string[];
  /** Its words name it only unqualified: a content word before them makes them someone else ("billing provider"). */
  unqualified: boolean;
  /** Runs of concepts, one word of each in a row, naming it: "bill to", "issued by", "invoicing party". */
  phrases: string[][];
  /** Concepts whose words, first in a property name that goes on, name it (`from_email`, `to_name`). */
  leads: string[];
}

/** What of a party a field asks for, as roles.json declares it. */
export interface DetailRule {
  detail: PartyDetail;
  needs: string[];
  /** `own`: only in the property's name and title (a description mentions ids and numbers in passing). */
  in: Place[];
}

/** How roles.json reads a party field's words: the parties, the details, what excludes a party and what adds nothing. */
export interface PartyRoles {
  /** In the order a word's readings are tried. */
  parties: PartyRule[];
  /** In the order a word's readings are tried. */
  details: DetailRule[];
  /** Concepts whose words, where given, make the field a party no finder reads (a landlord): its label is read. */
  excludedBy: Exclusion[];
  /** Concepts whose words a party field's name may hold besides party and detail words. */
  filler: string[];
  /** Concepts whose words before a party word leave it unqualified ("the company", "service provider"). */
  unqualifying: string[];
}

export interface Lexicon {
  /** The document roles, in the order they are tried. */
  roles: RoleRule[];
  /** The party roles. */
  party: PartyRoles;
  /** The languages read, by file name. */
  languages: string[];
  concept(name: string): Concept;
  /** The names of the concepts with words of one kind, in any language. */
  conceptsWith(kind: Kind): string[];
  /** Each concept's captions in every language: the groups of label synonyms. */
  captionGroups: string[][];
  /** Abbreviation → the word(s) it stands for. */
  abbreviations: Readonly<Record<string, string>>;
  /** Heads of compound words ("datum" in "Rechnungsdatum"), folded. */
  compoundHeads: string[];
}

/** The file declaring the document roles; every other `*.json` is a language. */
const ROLES_FILE = 'roles.json';

const EMPTY: Concept = {
  words: [],
  weak: [],
  captions: [],
  pageWords: [],
  weakPageWords: [],
  columnCaptions: [],
  cellWords: [],
};

/** Lower case, diacritics dropped: how field-roles.ts reads a schema's words. */
export function fold(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** A word's folded forms: German umlauts and ß are also written ae, oe, ue and ss ("Waehrung"). */
function foldedForms(word: string): string[] {
  const lower = word.toLowerCase().replace(/ß/g, 'ss');
  const spelled = lower.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue');
  return [...new Set([fold(lower), fold(spelled)])];
}

function fail(file: string, key: string, what: string): never {
  throw new EngineOptionError(
    `lexicon ${file}: ${key} ${what}`,
    file,
    'fix the file as described in src/lexicon/README.md',
  );
}

function stringList(value: unknown, file: string, key: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === ''))
    fail(file, key, 'must be a list of non-empty strings');
  return value as string[];
}

/** A JSON file's object, checked to hold only the keys given. */
function readObject(file: string, text: string, keys: readonly string[]): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    fail(file, '(file)', `is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(file, '(file)', 'must hold an object');
  const unknown = Object.keys(data).find((key) => !keys.includes(key));
  if (unknown !== undefined) fail(file, unknown, `is not one of ${keys.join(', ')}`);
  return data as Record<string, unknown>;
}

interface LexiconFile {
  language: string;
  concepts: Record<string, Partial<Record<Kind, string[]>>>;
  abbreviations: Record<string, string>;
  compoundHeads: string[];
}

/** One file, checked: every key known, every list a list of words. */
function parseFile(file: string, text: string): LexiconFile {
  const record = readObject(file, text, ['language', 'concepts', 'abbreviations', 'compoundHeads']);
  const expected = path.basename(file, '.json');
  if (record.language !== expected) fail(file, 'language', `must be "${expected}", the file's name`);
  const concepts: LexiconFile['concepts'] = {};
  const given = record.concepts ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) fail(file, 'concepts', 'must be an object');
  for (const [name, entry] of Object.entries(given)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      fail(file, `concepts.${name}`, 'must be an object');
    const kinds: Partial<Record<Kind, string[]>> = {};
    for (const [kind, list] of Object.entries(entry as Record<string, unknown>)) {
      if (!(KINDS as readonly string[]).includes(kind))
        fail(file, `concepts.${name}.${kind}`, `is not one of ${KINDS.join(', ')}`);
      kinds[kind as Kind] = stringList(list, file, `concepts.${name}.${kind}`);
    }
    concepts[name] = kinds;
  }
  const abbreviations = record.abbreviations ?? {};
  if (
    typeof abbreviations !== 'object' ||
    abbreviations === null ||
    Object.values(abbreviations).some((v) => typeof v !== 'string')
  )
    fail(file, 'abbreviations', 'must map each abbreviation to the word it stands for');
  const compoundHeads = stringList(record.compoundHeads ?? [], file, 'compoundHeads');
  return {
    language: expected,
    concepts,
    abbreviations: abbreviations as Record<string, string>,
    compoundHeads,
  };
}

/** A list of one of `allowed`, or a failure naming the file and key. */
function oneOf<T extends string>(value: unknown, allowed: readonly T[], file: string, key: string): T[] {
  const list = stringList(value, file, key);
  const wrong = list.find((item) => !allowed.includes(item as T));
  if (wrong !== undefined) fail(file, key, `holds "${wrong}", not one of ${allowed.join(', ')}`);
  return list as T[];
}

/** The entries of a list of objects in roles.json, each checked to be an object with only the keys given. */
function entries(value: unknown, file: string, key: string, keys: readonly string[]): Record<string, unknown>[] {
  if (!Array.isArray(value)) fail(file, key, 'must be a list');
  return value.map((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      fail(file, `${key}[${i}]`, 'must be an object');
    const unknown = Object.keys(entry).find((k) => !keys.includes(k));
    if (unknown !== undefined) fail(file, `${key}[${i}].${unknown}`, `is not one of ${keys.join(', ')}`);
    return entry as Record<string, unknown>;
  });
}

/** roles.json, checked against the concepts the language files define. */
function parseRoles(file: string, text: string, concepts: ReadonlySet<string>): Pick<Lexicon, 'roles' | 'party'> {
  const data = readObject(file, text, [
    'roles',
    'parties',
    'details',
    'partyExcludedBy',
    'partyFiller',
    'unqualifying',
  ]);
  const known = [...concepts];
  const conceptList = (value: unknown, key: string) => oneOf(value ?? [], known, file, key);
  const exclusions = (value: unknown, key: string) =>
    entries(value ?? [], file, key, ['concepts', 'in', 'unless']).map((exclusion, j) => ({
      concepts: conceptList(exclusion.concepts, `${key}[${j}].concepts`),
      in: oneOf(exclusion.in, PLACES, file, `${key}[${j}].in`),
      ...(exclusion.unless === undefined ? {} : { unless: conceptList(exclusion.unless, `${key}[${j}].unless`) }),
    }));
  const roleKeys = ['role', 'value', 'format', 'needs', 'in', 'phrases', 'only', 'excludedBy'];
  const phrases = (value: unknown, key: string) => {
    if (!Array.isArray(value ?? [])) fail(file, key, 'must be a list of lists of concepts');
    return ((value ?? []) as unknown[]).map((phrase, j) => conceptList(phrase, `${key}[${j}]`));
  };
  const roles = entries(data.roles, file, 'roles', roleKeys).map((entry, i): RoleRule => {
    const key = `roles[${i}]`;
    return {
      role: oneOf([entry.role], ROLE_NAMES, file, `${key}.role`)[0]!,
      value: oneOf([entry.value], ['text', 'number'] as const, file, `${key}.value`)[0]!,
      ...(typeof entry.format === 'string' ? { format: entry.format } : {}),
      needs: conceptList(entry.needs, `${key}.needs`),
      in: oneOf(entry.in, PLACES, file, `${key}.in`),
      phrases: phrases(entry.phrases, `${key}.phrases`),
      ...(entry.only === undefined ? {} : { only: conceptList(entry.only, `${key}.only`) }),
      excludedBy: exclusions(entry.excludedBy, `${key}.excludedBy`),
    };
  });
  const partyKeys = ['party', 'needs', 'weak', 'unqualified', 'phrases', 'leads'];
  const parties = entries(data.parties, file, 'parties', partyKeys).map((entry, i): PartyRule => {
    const key = `parties[${i}]`;
    return {
      party: oneOf([entry.party], PARTIES, file, `${key}.party`)[0]!,
      needs: conceptList(entry.needs, `${key}.needs`),
      weak: conceptList(entry.weak, `${key}.weak`),
      unqualified: entry.unqualified === true,
      phrases: phrases(entry.phrases, `${key}.phrases`),
      leads: conceptList(entry.leads, `${key}.leads`),
    };
  });
  const details = entries(data.details, file, 'details', ['detail', 'needs', 'in']).map((entry, i) => ({
    detail: oneOf([entry.detail], DETAILS, file, `details[${i}].detail`)[0]!,
    needs: conceptList(entry.needs, `details[${i}].needs`),
    in: oneOf(entry.in ?? PLACES, PLACES, file, `details[${i}].in`),
  }));
  return {
    roles,
    party: {
      parties,
      details,
      excludedBy: exclusions(data.partyExcludedBy, 'partyExcludedBy'),
      filler: conceptList(data.partyFiller, 'partyFiller'),
      unqualifying: conceptList(data.unqualifying, 'unqualifying'),
    },
  };
}

/** Reads and merges every language file (`*.json`) of `dir`, and its roles.json. */
export function loadLexicon(dir: string): Lexicon {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.json') && name !== ROLES_FILE)
      .sort();
  } catch (error) {
    throw new EngineOptionError(
      `lexicon folder ${dir} cannot be read: ${(error as Error).message}`,
      dir,
      'set DOCBENCH_LEXICON_DIR to a folder of lexicon files, or unset it',
    );
  }
  if (names.length === 0)
    throw new EngineOptionError(
      `lexicon folder ${dir} holds no .json file`,
      dir,
      'a lexicon needs at least one language file (src/lexicon/README.md)',
    );
  const files = names.map((name) => parseFile(path.join(dir, name), readFileSync(path.join(dir, name), 'utf8')));
  const merged = new Map<string, Concept>();
  for (const file of files)
    for (const [name, kinds] of Object.entries(file.concepts)) {
      const concept = merged.get(name) ?? structuredClone(EMPTY);
      concept.words.push(...(kinds.words ?? []).flatMap(foldedForms));
      concept.weak.push(...(kinds.weak ?? []).flatMap(foldedForms));
      for (const kind of ['captions', 'pageWords', 'weakPageWords', 'columnCaptions', 'cellWords'] as const)
        concept[kind].push(...(kinds[kind] ?? []).map((w) => w.toLowerCase()));
      merged.set(name, concept);
    }
  for (const concept of merged.values()) for (const kind of KINDS) concept[kind] = [...new Set(concept[kind])];
  const rolesPath = path.join(dir, ROLES_FILE);
  let rolesText: string;
  try {
    rolesText = readFileSync(rolesPath, 'utf8');
  } catch {
    fail(rolesPath, '(file)', 'is missing: the lexicon folder needs its roles');
  }
  return {
    ...parseRoles(rolesPath, rolesText, new Set(merged.keys())),
    languages: files.map((file) => file.language),
    concept: (name) => merged.get(name) ?? EMPTY,
    conceptsWith: (kind) => [...merged].filter(([, concept]) => concept[kind].length > 0).map(([name]) => name),
    captionGroups: [...merged.values()].map((c) => c.captions).filter((group) => group.length > 1),
    abbreviations: Object.assign({}, ...files.map((file) => file.abbreviations)),
    compoundHeads: [...new Set(files.flatMap((file) => file.compoundHeads.flatMap(foldedForms)))],
  };
}

/** The folder of the language files: beside this module when run from source, else the package's copy. */
function defaultDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(path.dirname(here)) === 'dist' ? path.resolve(here, '../../src/lexicon') : here;
}

let loaded: Lexicon | undefined;

/** The lexicon, read once per process. */
export function lexicon(): Lexicon {
  loaded ??= loadLexicon(process.env.DOCBENCH_LEXICON_DIR || defaultDir());
  return loaded;
}

/** A concept's words of one kind in every language. */
export function conceptWords(concept: string, kind: Kind = 'words'): string[] {
  return lexicon().concept(concept)[kind];
}

/** A letter and its plain forms in a page pattern: "ä" also matches "a" and "ae" (the OCR drops marks). */
function letterPattern(char: string): string {
  const base = fold(char);
  if (base === char.toLowerCase()) return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const spelled = { ä: 'ae', ö: 'oe', ü: 'ue' }[char.toLowerCase()];
  return `(?:${char}|${base}${spelled ? `|${spelled}` : ''})`;
}

/**
 * A regular-expression source matching any of the wordings as whole words, case aside: their words may be glued
 * or parted by spaces, dots, hyphens or a parenthesis ("Sub-Total", "Total (incl"). Use with the `iu` flags.
 * `prefix`: a wording may also start a longer word ("Thank" in "THANKS", "Receipt" in "Receipts").
 */
export function wordingPattern(wordings: readonly string[], prefix = false): string {
  const alternatives = [...wordings]
    .sort((a, b) => b.length - a.length)
    .map((wording) =>
      wording
        .split(/\s+/)
        .map((word) => [...word].map(letterPattern).join(''))
        .join(String.raw`[\s.()/-]*`),
    );
  return String.raw`(?<![\p{L}\p{N}])(?:${alternatives.join('|')})${prefix ? '' : String.raw`(?![\p{L}\p{N}])`}`;
}
