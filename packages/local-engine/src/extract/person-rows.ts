/**
 * A person asked for as a group of fields (`applicant.birth_date`, `spouse.ssn`) where the page lists people in a
 * table, one row each: a household's members on an application, the people a claim or a policy covers. The group's
 * fields are read as that table's columns (as an array's items are: table-items.ts), and the person's row is the
 * one a cell names by the group's relation ("Spouse", "Child"), or for the person the form is about (the applicant,
 * the client) the row marked "Self", else the first, which such forms ask to be that person's
 * (CHANGELOG.md, "A person's row of a table of people").
 */
import type { Json, JsonSchema } from '../contract.js';
import { conceptWords, fold, wordingPattern } from '../lexicon/lexicon.js';
import type { PageLayout } from '../layout/types.js';
import type { ExtractOptions } from './extract-fields.js';
import { collectObjects, splitName } from './schema-fields.js';
import { readTableItems, type TableItem } from './table-items.js';

/**
 * Names of the person a form is about (the lexicon's `principal`); their row is marked with one of its `pageWords`,
 * or is the first. Not the insured or a member: a claim's or a policy's person is asked under captions of their
 * own, not as a row; nor "primary" or "head", which as often qualify an address or an office.
 */
const PRINCIPAL_WORDS = new Set(conceptWords('principal'));
/** What a relation column prints for the principal themselves (not "me": a state column prints Maine so). */
const SELF_WORDS = new RegExp(wordingPattern(conceptWords('principal', 'pageWords')), 'iu');
/** A relation by the words a group's name and a table's relation column say it with, read folded. */
const RELATIONS = ['spouse', 'child', 'parent'].map((concept) => {
  const names = conceptWords(concept);
  return { names, printed: new RegExp(wordingPattern(names), 'iu') };
});
/** Fewest of a group's fields a table must read for its row to be the person's (one column may match by chance). */
const MIN_CELLS = 2;

/** Whether a word names a person a table of people may hold a row of. */
function isPersonWord(word: string): boolean {
  return PRINCIPAL_WORDS.has(word) || RELATIONS.some((relation) => relation.names.includes(word));
}

/** Whether a text prints the relation a group's name says ("spouse_info": spouse, wife…); null for none. */
export function printedRelation(groupName: string): ((text: string) => boolean) | null {
  const words = splitName(groupName).split(' ');
  const printed = RELATIONS.find((r) => words.some((word) => r.names.includes(word)))?.printed;
  return printed ? (text) => printed.test(fold(text)) : null;
}

/** Which row of a table of people a group's name asks for. */
function rowChooser(groupName: string): ((rows: TableItem[]) => TableItem | undefined) | null {
  const relation = printedRelation(groupName);
  if (relation) return (rows) => rows.find((row) => row.texts.some(relation));
  if (
    !splitName(groupName)
      .split(' ')
      .some((word) => PRINCIPAL_WORDS.has(word))
  )
    return null;
  return (rows) => rows.find((row) => row.texts.some((text) => SELF_WORDS.test(text))) ?? rows[0];
}

/** A field's value read from its person's row, by the field's path joined with dots. */
export function readPersonRows(pages: PageLayout[], schema: JsonSchema, options: ExtractOptions): Map<string, Json> {
  const values = new Map<string, Json>();
  for (const group of collectObjects(schema, isPersonWord)) {
    const choose = rowChooser(group.path.at(-1)!);
    if (!choose || group.columns.length < MIN_CELLS) continue;
    const table = { kind: 'table' as const, path: group.path, required: false, labels: [], columns: group.columns };
    const row = choose(readTableItems(pages, table, options).rows);
    if (!row || row.cells < MIN_CELLS) continue;
    const at = group.flat ? group.path.slice(0, -1) : group.path;
    for (const [key, value] of Object.entries(row.item)) if (value !== null) values.set([...at, key].join('.'), value);
  }
  return values;
}
