/**
 * The paraphrase check (packages/local-engine/CHANGELOG.md, "Other field names"): a schema's property names, titles and
 * descriptions rewritten, and the values scored under it renamed to match. Each variant is one file in
 * bench/paraphrases/<set>/ (several per dev-set folder or form); a variant may rename nested properties (an
 * object's, or an array's items'). For a dataset the copy is written to a temporary folder: the schema with the
 * new names and wording, every truth file and the manifest's comparators under the new names, and the documents
 * copied (a dataset refuses symlinks that point outside it). An engine that reads the schema rather than the
 * property names it was tuned on scores about the same.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One property said another way; `properties` says its nested properties (an object's or its items'). */
export interface PropertyParaphrase {
  name: string;
  title?: string;
  description?: string;
  properties?: Record<string, PropertyParaphrase>;
}

/** A paraphrase file (bench/paraphrases/<set>/<variant>.json): how it was written, and the properties' new names. */
export interface Paraphrase {
  about: string;
  properties: Record<string, PropertyParaphrase>;
}

/** A variant read from its file: the file's name without `.json` names it. */
export interface ParaphraseVariant {
  variant: string;
  paraphrase: Paraphrase;
}

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(file: string): Promise<JsonRecord> {
  const value: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!isRecord(value)) throw new Error(`${file}: expected a JSON object`);
  return value;
}

/** Every variant of one set (bench/paraphrases/<set>/*.json), by file name. */
export async function readParaphraseVariants(dir: string): Promise<ParaphraseVariant[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => ({
      variant: file.slice(0, -'.json'.length),
      paraphrase: (await readJson(path.join(dir, file))) as unknown as Paraphrase,
    })),
  );
}

/** Rewrites the `properties` of `holder` under `said`; throws when `said` names a property the schema lacks. */
function rewriteProperties(holder: JsonRecord, said: Record<string, PropertyParaphrase>, where: string): JsonRecord {
  const properties = holder.properties as Record<string, JsonRecord>;
  for (const name of Object.keys(said))
    if (!(name in properties)) throw new Error(`paraphrase names property "${where}${name}", which the schema lacks`);
  const rewritten = Object.fromEntries(
    Object.entries(properties).map(([name, definition]) => {
      const paraphrase = said[name];
      return paraphrase
        ? [paraphrase.name, rewriteProperty(definition, paraphrase, `${where}${name}.`)]
        : [name, definition];
    }),
  );
  const required = Array.isArray(holder.required)
    ? (holder.required as string[]).map((name) => said[name]?.name ?? name)
    : undefined;
  return { ...holder, properties: rewritten, ...(required ? { required } : {}) };
}

function rewriteProperty(definition: JsonRecord, said: PropertyParaphrase, where: string): JsonRecord {
  // Old wording dropped: a title or description the paraphrase leaves out is left out.
  const { title: _title, description: _description, ...rest } = definition;
  let result: JsonRecord = {
    ...rest,
    ...(said.title ? { title: said.title } : {}),
    ...(said.description ? { description: said.description } : {}),
  };
  if (said.properties) {
    if (isRecord(result.properties)) result = rewriteProperties(result, said.properties, where);
    else if (isRecord(result.items) && isRecord(result.items.properties))
      result = { ...result, items: rewriteProperties(result.items, said.properties, where) };
    else throw new Error(`paraphrase gives nested properties to "${where.slice(0, -1)}", which has none`);
  }
  return result;
}

/** `schema` (an object schema) with its properties renamed and reworded as `paraphrase` says. */
export function paraphraseSchema(schema: JsonRecord, paraphrase: Paraphrase): JsonRecord {
  if (!isRecord(schema.properties)) throw new Error('paraphrase: the schema has no properties');
  return rewriteProperties(schema, paraphrase.properties, '');
}

/** `value` (a truth or answer under the original schema) with its keys renamed as `said` renames them. */
export function renameValue(value: unknown, said: Record<string, PropertyParaphrase>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameValue(item, said));
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const paraphrase = said[key];
      if (!paraphrase) return [key, inner];
      return [paraphrase.name, paraphrase.properties ? renameValue(inner, paraphrase.properties) : inner];
    }),
  );
}

/** A comparator's field path (`a.b`, `codes[].cpt`) under the new names. */
function renamePath(fieldPath: string, said: Record<string, PropertyParaphrase>): string {
  let level: Record<string, PropertyParaphrase> | undefined = said;
  return fieldPath
    .split('.')
    .map((segment) => {
      const [name, ...suffix] = segment.split('[');
      const paraphrase: PropertyParaphrase | undefined = level?.[name!];
      level = paraphrase?.properties;
      return [paraphrase?.name ?? name, ...suffix].join('[');
    })
    .join('.');
}

/** Writes the paraphrased copy of the dataset at `source` into `target` (an empty folder). */
export async function writeParaphrasedDataset(source: string, paraphrase: Paraphrase, target: string): Promise<void> {
  const schema = paraphraseSchema(await readJson(path.join(source, 'schema.json')), paraphrase);
  await mkdir(path.join(target, 'truth'), { recursive: true });
  await writeFile(path.join(target, 'schema.json'), JSON.stringify(schema, null, 2));
  const manifest = await readJson(path.join(source, 'dataset.json'));
  const comparators = Object.fromEntries(
    Object.entries((manifest.comparators ?? {}) as JsonRecord).map(([fieldPath, spec]) => [
      renamePath(fieldPath, paraphrase.properties),
      spec,
    ]),
  );
  await writeFile(
    path.join(target, 'dataset.json'),
    JSON.stringify({ ...manifest, name: `${String(manifest.name)}-paraphrased`, comparators }, null, 2),
  );
  for (const file of await readdir(path.join(source, 'truth'))) {
    if (!file.endsWith('.json')) continue;
    const truth = await readJson(path.join(source, 'truth', file));
    await writeFile(
      path.join(target, 'truth', file),
      JSON.stringify(renameValue(truth, paraphrase.properties), null, 2),
    );
  }
  await cp(path.join(source, 'documents'), path.join(target, 'documents'), { recursive: true });
}
