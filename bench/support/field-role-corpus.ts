/**
 * The field-role corpus (bench/field-roles/README.md, docs/field-role-corpus.md): every field wording of the
 * paraphrased schemas in bench/paraphrases/<set>/ with the role it plays (bench/field-roles/labels.json), as one
 * JSON line per field, split by variant into a development part (dev.jsonl) and a held-out part
 * (held-out.jsonl), and scored against a classifier such as the local engine's `classifyField`.
 *
 * `npx tsx bench/support/field-role-corpus.ts` writes both files again from the paraphrases and the labels.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PropertyParaphrase, readParaphraseVariants } from './paraphrase-dataset.js';

/** One field as a schema words it, and the role it plays (null: none). */
export interface CorpusEntry {
  /** The paraphrase set (bench/paraphrases/<set>/) and its variant (the file's name); `original` is the set's schema. */
  set: string;
  variant: string;
  /** The field in the original schema, dotted: `patient.full_name`. */
  field: string;
  /** The field's path under the variant's names. */
  path: string[];
  type: string;
  format?: string;
  title?: string;
  description?: string;
  role: string | null;
}

/** A labelled field of an original schema (labels.json): its type, format, wording and role. */
export interface LabelledField {
  type: string;
  format?: string;
  title?: string;
  description?: string;
  role: string | null;
}

/**
 * labels.json: per set, each scalar field of its original schema (dotted path) labelled; `reworded`, a variant's
 * wording that asks for another role than its field (`<set>/<variant>/<field>` → the role and why).
 */
export interface CorpusLabels {
  about: string;
  sets: Record<string, Record<string, LabelledField>>;
  reworded?: Record<string, { role: string | null; why: string }>;
}

export type CorpusPart = 'dev' | 'held-out';
export const CORPUS_PARTS: readonly CorpusPart[] = ['dev', 'held-out'];

/**
 * The part a variant belongs to: held out when its file is named `held-out-…` (written from the schema alone by
 * someone who had not read the engine's rules, and never written against), development otherwise.
 */
export function partOf(variant: string): CorpusPart {
  return variant.startsWith('held-out-') ? 'held-out' : 'dev';
}

/** The variant's wording of one labelled field, or undefined when the variant leaves the field as it was. */
function wordingOf(
  field: string,
  said: Record<string, PropertyParaphrase>,
): Pick<CorpusEntry, 'path' | 'title' | 'description'> | undefined {
  const names: string[] = [];
  let level: Record<string, PropertyParaphrase> | undefined = said;
  let own: PropertyParaphrase | undefined;
  for (const name of field.split('.')) {
    own = level?.[name];
    names.push(own?.name ?? name);
    level = own?.properties;
  }
  if (!own) return undefined;
  // As paraphraseSchema words a property: the old title and description go, the variant's own come.
  return {
    path: names,
    ...(own.title ? { title: own.title } : {}),
    ...(own.description ? { description: own.description } : {}),
  };
}

function entryOf(
  set: string,
  variant: string,
  field: string,
  label: LabelledField,
  wording: Pick<CorpusEntry, 'path' | 'title' | 'description'>,
  reworded: CorpusLabels['reworded'],
): CorpusEntry {
  const own = reworded?.[`${set}/${variant}/${field}`];
  return {
    set,
    variant,
    field,
    path: wording.path,
    type: label.type,
    ...(label.format ? { format: label.format } : {}),
    ...(wording.title ? { title: wording.title } : {}),
    ...(wording.description ? { description: wording.description } : {}),
    role: own ? own.role : label.role,
  };
}

async function hasVariant(paraphrasesDir: string, set: string, variant: string): Promise<boolean> {
  return access(path.join(paraphrasesDir, set, `${variant}.json`)).then(
    () => true,
    () => false,
  );
}

/** Every labelled field in each set's original wording and in each variant that words it, in file order. */
export async function buildFieldRoleCorpus(paraphrasesDir: string, labels: CorpusLabels): Promise<CorpusEntry[]> {
  for (const key of Object.keys(labels.reworded ?? {})) {
    const [set = '', variant = '', field = ''] = key.split('/');
    if (!labels.sets[set]?.[field] || (variant !== 'original' && !(await hasVariant(paraphrasesDir, set, variant))))
      throw new Error(
        `labels: "reworded" names ${key}, which is no labelled field of a variant (<set>/<variant>/<field>)`,
      );
  }
  const entries: CorpusEntry[] = [];
  for (const [set, fields] of Object.entries(labels.sets)) {
    for (const [field, label] of Object.entries(fields))
      entries.push(entryOf(set, 'original', field, label, { ...label, path: field.split('.') }, labels.reworded));
    for (const { variant, paraphrase } of await readParaphraseVariants(path.join(paraphrasesDir, set))) {
      for (const [field, label] of Object.entries(fields)) {
        const wording = wordingOf(field, paraphrase.properties);
        if (wording) entries.push(entryOf(set, variant, field, label, wording, labels.reworded));
      }
    }
  }
  return entries;
}

/** The corpus split into its two parts, each as JSON lines. */
export function splitCorpus(entries: readonly CorpusEntry[]): Record<CorpusPart, string> {
  const lines = (part: CorpusPart) =>
    entries
      .filter((entry) => partOf(entry.variant) === part)
      .map((entry) => `${JSON.stringify(entry)}\n`)
      .join('');
  return { dev: lines('dev'), 'held-out': lines('held-out') };
}

const OPTIONAL_TEXT = ['format', 'title', 'description'] as const;

/** One line of a corpus file checked; `where` (file:line) names it in every error. */
function checkEntry(value: unknown, where: string): CorpusEntry {
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what} (each line is one field: set, variant, field, path, type, role)`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  const entry = value as Record<string, unknown>;
  for (const key of ['set', 'variant', 'field', 'type'] as const)
    if (typeof entry[key] !== 'string' || entry[key] === '') fail(`"${key}" must be a non-empty string`);
  if (!Array.isArray(entry.path) || entry.path.length === 0 || !entry.path.every((n) => typeof n === 'string'))
    fail('"path" must be a non-empty array of names');
  for (const key of OPTIONAL_TEXT)
    if (entry[key] !== undefined && typeof entry[key] !== 'string') fail(`"${key}" must be a string when given`);
  if (entry.role !== null && (typeof entry.role !== 'string' || entry.role === ''))
    fail('"role" must be a role name or null');
  return entry as unknown as CorpusEntry;
}

/** Reads one corpus file (JSON lines; blank lines skipped); throws naming the file and line of a bad entry. */
export async function readFieldRoleCorpus(file: string): Promise<CorpusEntry[]> {
  const text = await readFile(file, 'utf8');
  const entries: CorpusEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(`${where}: not JSON (${(error as Error).message})`);
    }
    entries.push(checkEntry(value, where));
  });
  return entries;
}

/** A classifier under test: `classifyField`'s signature. */
export type FieldClassifier = (
  path: string[],
  type: string,
  format: string | undefined,
  wording: { title?: string | undefined; description?: string | undefined },
) => string | null;

/** One role's counts: a prediction of the role is right (tp) or not (fp); a field of the role missed is fn. */
export interface RoleScore {
  role: string;
  /** Fields labelled with the role. */
  support: number;
  tp: number;
  fp: number;
  fn: number;
  /** tp / (tp + fp); null when the role was never predicted. */
  precision: number | null;
  /** tp / (tp + fn); null when no field has the role. */
  recall: number | null;
}

export interface CorpusScore {
  entries: number;
  /** Fields given their labelled role, abstentions on unlabelled fields included. */
  correct: number;
  accuracy: number;
  /** Per role, by name; fields with no role are not a role. */
  roles: RoleScore[];
  /** Each field given another role than its label, for reading (never printed for the held-out part). */
  misses: { entry: CorpusEntry; predicted: string | null }[];
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** Scores `classify` on the entries: accuracy over every field, precision and recall per role. */
export function scoreFieldRoles(entries: readonly CorpusEntry[], classify: FieldClassifier): CorpusScore {
  const counts = new Map<string, { support: number; tp: number; fp: number; fn: number }>();
  const count = (role: string) => {
    const known = counts.get(role);
    if (known) return known;
    const fresh = { support: 0, tp: 0, fp: 0, fn: 0 };
    counts.set(role, fresh);
    return fresh;
  };
  const misses: CorpusScore['misses'] = [];
  for (const entry of entries) {
    const predicted = classify(entry.path, entry.type, entry.format, {
      title: entry.title,
      description: entry.description,
    });
    if (entry.role !== null) count(entry.role).support++;
    if (predicted === entry.role) {
      if (predicted !== null) count(predicted).tp++;
      continue;
    }
    misses.push({ entry, predicted });
    if (predicted !== null) count(predicted).fp++;
    if (entry.role !== null) count(entry.role).fn++;
  }
  const roles = [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([role, c]) => ({ role, ...c, precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn) }));
  const correct = entries.length - misses.length;
  return { entries: entries.length, correct, accuracy: ratio(correct, entries.length) ?? 0, roles, misses };
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the corpus lives: labels.json, dev.jsonl, held-out.jsonl. */
export const CORPUS_DIR = path.join(root, 'bench', 'field-roles');
export const PARAPHRASES_DIR = path.join(root, 'bench', 'paraphrases');

export async function readCorpusLabels(): Promise<CorpusLabels> {
  return JSON.parse(await readFile(path.join(CORPUS_DIR, 'labels.json'), 'utf8')) as CorpusLabels;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const parts = splitCorpus(await buildFieldRoleCorpus(PARAPHRASES_DIR, await readCorpusLabels()));
  for (const part of CORPUS_PARTS) await writeFile(path.join(CORPUS_DIR, `${part}.jsonl`), parts[part]);
}
