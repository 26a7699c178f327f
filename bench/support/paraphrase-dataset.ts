/**
 * The paraphrase check (docs/local-service.md): a dataset scored again with its schema's property names,
 * titles and descriptions rewritten. The copy is written to a temporary folder: the schema with the new
 * names and wording, every truth file and the manifest's comparators under the new names, and the documents
 * copied (a dataset refuses symlinks that point outside it). An engine that reads the schema rather than the property names it was tuned on
 * scores about the same.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One property said another way. */
export interface PropertyParaphrase {
  name: string;
  title?: string;
  description?: string;
}

/** A paraphrase file (bench/paraphrases/<folder>.json): the top-level properties' new names and wording. */
export interface Paraphrase {
  about: string;
  properties: Record<string, PropertyParaphrase>;
}

type JsonRecord = Record<string, unknown>;

async function readJson(file: string): Promise<JsonRecord> {
  const value: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${file}: expected a JSON object`);
  return value as JsonRecord;
}

function renameKeys(object: JsonRecord, names: Map<string, string>): JsonRecord {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [names.get(key) ?? key, value]));
}

/** Writes the paraphrased copy of the dataset at `source` into `target` (an empty folder). */
export async function writeParaphrasedDataset(source: string, paraphrase: Paraphrase, target: string): Promise<void> {
  const schema = await readJson(path.join(source, 'schema.json'));
  const properties = (schema.properties ?? {}) as Record<string, JsonRecord>;
  const names = new Map<string, string>();
  for (const [name, said] of Object.entries(paraphrase.properties)) {
    if (!(name in properties))
      throw new Error(`paraphrase names property "${name}", which ${path.join(source, 'schema.json')} does not have`);
    names.set(name, said.name);
  }
  const rewritten = Object.fromEntries(
    Object.entries(properties).map(([name, definition]) => {
      const said = paraphrase.properties[name];
      if (!said) return [name, definition];
      // Old wording dropped: a title or description the paraphrase leaves out is left out.
      const { title: _title, description: _description, ...rest } = definition;
      return [
        said.name,
        {
          ...rest,
          ...(said.title ? { title: said.title } : {}),
          ...(said.description ? { description: said.description } : {}),
        },
      ];
    }),
  );
  const required = Array.isArray(schema.required)
    ? (schema.required as string[]).map((name) => names.get(name) ?? name)
    : undefined;
  await mkdir(path.join(target, 'truth'), { recursive: true });
  await writeFile(
    path.join(target, 'schema.json'),
    JSON.stringify({ ...schema, properties: rewritten, ...(required ? { required } : {}) }, null, 2),
  );
  const manifest = await readJson(path.join(source, 'dataset.json'));
  const comparators = (manifest.comparators ?? {}) as JsonRecord;
  await writeFile(
    path.join(target, 'dataset.json'),
    JSON.stringify(
      { ...manifest, name: `${String(manifest.name)}-paraphrased`, comparators: renameKeys(comparators, names) },
      null,
      2,
    ),
  );
  for (const file of await readdir(path.join(source, 'truth'))) {
    if (!file.endsWith('.json')) continue;
    await writeFile(
      path.join(target, 'truth', file),
      JSON.stringify(renameKeys(await readJson(path.join(source, 'truth', file)), names), null, 2),
    );
  }
  await cp(path.join(source, 'documents'), path.join(target, 'documents'), { recursive: true });
}
