/**
 * `funsd` and `xfund`: forms annotated as entities (`label` question / answer / header / other, `box`, `words`,
 * `linking`), docs/datasets-import.md. FUNSD keeps one `annotations/<id>.json` (`form`) per image in `images/`,
 * under `training_data/` and `testing_data/`; XFUND one `<lang>.<split>.json` per language and split, its
 * `documents[]` each holding the entities (`document`) and the image's name (`img.fname`), the images beside it.
 * Truth: each form's question → answer pairs; markdown: the entities in reading order; a region per entity.
 */
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import type { JsonSchema } from '../../types.js';
import type { DatasetWriter } from './dataset-writer.js';
import type { DatasetImporter, ImportOptions, ImportSummary } from './formats.js';
import { importDocuments, importedCounts, writeDatasetFiles, type SourceDocument } from './import-documents.js';
import { imagePage, inReadingOrder, RegionCollector } from './page-geometry.js';
import { filesById, isFolder, readSourceJson, SourceFile, splitFolders } from './source-file.js';

const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg'];
const FUNSD_SPLITS = { train: 'training_data', test: 'testing_data' };
/** XFUND's annotation files: `<lang>.<split>.json`. */
const XFUND_FILE = /^([a-z]{2})\.(train|val|test)\.json$/;

interface Entity {
  id: number;
  label: string;
  text: string;
  box: [number, number, number, number];
  linking: [number, number][];
}

interface FormDocument extends SourceDocument {
  /** The entities, read where the document was listed (XFUND) or when it is imported (FUNSD). */
  entities: () => Promise<Entity[]>;
}

function readEntities(list: unknown, source: SourceFile, at: string): Entity[] {
  return source.array(list, at).map((value, index) => {
    const entityAt = `${at}[${index}]`;
    const entity = source.object(value, entityAt);
    const links = source.array(entity.linking ?? [], `${entityAt}.linking`).map((link, l) => {
      const pair = source.array(link, `${entityAt}.linking[${l}]`);
      if (pair.length !== 2) source.fail(`${entityAt}.linking[${l}]`, 'must be a pair of entity ids');
      return [
        source.number(pair[0], `${entityAt}.linking[${l}][0]`),
        source.number(pair[1], `${entityAt}.linking[${l}][1]`),
      ] as [number, number];
    });
    return {
      id: source.number(entity.id ?? index, `${entityAt}.id`),
      label: source.string(entity.label, `${entityAt}.label`),
      text: source.string(entity.text, `${entityAt}.text`).trim(),
      box: source.box(entity.box, `${entityAt}.box`),
      linking: links,
    };
  });
}

/**
 * The question → answer pairs of a form, questions in reading order. A link joins a question and an answer in
 * either order and is listed by both entities: each pair counts once. A question with several answers gets them
 * in reading order, joined by spaces; a question printed twice is keyed `text (2)` the second time.
 */
export function questionAnswerPairs(entities: readonly Entity[]): Record<string, string> {
  const byId = new Map(entities.map((entity) => [entity.id, entity]));
  const answersOf = new Map<number, Set<number>>();
  for (const entity of entities) {
    for (const [a, b] of entity.linking) {
      const [first, second] = [byId.get(a), byId.get(b)];
      if (!first || !second) continue;
      const pair =
        first.label === 'question' && second.label === 'answer'
          ? [first, second]
          : second.label === 'question' && first.label === 'answer'
            ? [second, first]
            : null;
      if (!pair) continue;
      const answers = answersOf.get(pair[0]!.id) ?? new Set<number>();
      answers.add(pair[1]!.id);
      answersOf.set(pair[0]!.id, answers);
    }
  }
  const pairs: Record<string, string> = {};
  const seen = new Map<string, number>();
  const questions = inReadingOrder(
    entities.filter((entity) => answersOf.has(entity.id) && entity.text !== ''),
    (entity) => entity.box,
  );
  for (const question of questions) {
    const answers = inReadingOrder(
      [...answersOf.get(question.id)!].map((id) => byId.get(id)!),
      (entity) => entity.box,
    )
      .map((entity) => entity.text)
      .filter((text) => text !== '');
    if (answers.length === 0) continue;
    const count = (seen.get(question.text) ?? 0) + 1;
    seen.set(question.text, count);
    pairs[count === 1 ? question.text : `${question.text} (${count})`] = answers.join(' ');
  }
  return pairs;
}

/** The form's text: entities in reading order, a header as a heading, one paragraph each. */
function formMarkdown(entities: readonly Entity[]): string {
  const blocks = inReadingOrder(
    entities.filter((entity) => entity.text !== ''),
    (entity) => entity.box,
  ).map((entity) => (entity.label === 'header' ? `## ${entity.text}` : entity.text));
  return `${blocks.join('\n\n')}\n`;
}

async function listFunsd(source: string, split: string | undefined): Promise<FormDocument[]> {
  const documents: FormDocument[] = [];
  for (const { folder, split: splitName } of await splitFolders(source, split, FUNSD_SPLITS)) {
    const images = await filesById(path.join(folder, 'images'), IMAGE_EXTENSIONS);
    const annotations = await filesById(path.join(folder, 'annotations'), ['.json']);
    const tags: Record<string, string> = {
      source: 'funsd',
      language: 'en',
      ...(splitName === undefined ? {} : { split: splitName }),
    };
    for (const id of [...new Set([...images.keys(), ...annotations.keys()])].sort()) {
      const annotation = annotations.get(id);
      documents.push({
        id,
        file: images.get(id) ?? null,
        missing: annotation ? null : 'no annotations/ file',
        tags,
        entities: async () => {
          const file = new SourceFile(annotation!, 'funsd');
          const root = file.object(await readSourceJson(annotation!, 'funsd'), 'the file');
          return readEntities(root.form, file, 'form');
        },
      });
    }
  }
  return documents;
}

/** The folders that may hold an XFUND file's images: `--images`, `<lang>.<split>/` beside it, its own folder. */
function xfundImageFolders(file: string, images: string | undefined): string[] {
  const folder = path.dirname(file);
  const named = path.join(folder, path.basename(file, '.json'));
  return images === undefined ? [named, path.join(folder, 'images'), folder] : [images];
}

async function listXfund(source: string, options: ImportOptions): Promise<FormDocument[]> {
  const files = (await isFolder(source))
    ? (await readdir(source))
        .filter((name) => XFUND_FILE.test(name))
        .sort()
        .map((name) => path.join(source, name))
    : [source];
  const documents: FormDocument[] = [];
  for (const file of files) {
    const match = XFUND_FILE.exec(path.basename(file));
    if (!match) {
      throw new UsageError(`${file}: not an XFUND annotation file`, {
        hint: 'name a <lang>.<split>.json file (e.g. de.val.json) or the folder holding them',
      });
    }
    const [, language, split] = match as unknown as [string, string, string];
    if (options.split !== undefined && options.split !== split) continue;
    const reader = new SourceFile(file, 'xfund');
    const root = reader.object(await readSourceJson(file, 'xfund'), 'the file');
    const imageFolders = xfundImageFolders(file, options.images);
    const images = new Map<string, string>();
    for (const folder of [...imageFolders].reverse()) {
      for (const [id, image] of await filesById(folder, IMAGE_EXTENSIONS)) images.set(id, image);
    }
    for (const [index, value] of reader.array(root.documents, 'documents').entries()) {
      const at = `documents[${index}]`;
      const document = reader.object(value, at);
      const fname = reader.string(reader.object(document.img, `${at}.img`).fname, `${at}.img.fname`);
      const id = path.basename(fname, path.extname(fname));
      const entities = readEntities(document.document, reader, `${at}.document`);
      documents.push({
        id,
        file: images.get(id) ?? null,
        missing: images.has(id) ? null : `no image ${fname}`,
        tags: { source: 'xfund', language, split },
        entities: async () => entities,
      });
    }
  }
  return documents;
}

async function writeForm(
  document: FormDocument & { file: string },
  writer: DatasetWriter,
): Promise<Record<string, string>> {
  const entities = await document.entities();
  const pairs = questionAnswerPairs(entities);
  await writer.writeTruthJson(document.id, pairs);
  await writer.writeTruthMarkdown(document.id, formMarkdown(entities));
  const page = await imagePage(document.file);
  const regions = new RegionCollector();
  for (const entity of entities) if (entity.text !== '') regions.add(page, entity.box, entity.text);
  const pages = regions.result();
  if (pages) await writer.writeTruthRegions(document.id, pages);
  return pairs;
}

/** One schema for forms whose questions differ: every question of the imported forms, a string each. */
function formSchema(forms: readonly Record<string, string>[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const form of forms) {
    for (const question of Object.keys(form)) {
      properties[question] ??= { type: 'string', description: `The answer printed for "${question}"` };
    }
  }
  return {
    type: 'object',
    description: "A form's questions (keys, as printed) and their answers; each form has only its own questions",
    properties,
  };
}

const SOURCES = {
  funsd: {
    title: 'FUNSD (noisy scanned forms)',
    origin: `FUNSD, Form Understanding in Noisy Scanned Documents (Jaume, Ekenel and Thiran, ICDAR-OST 2019;
guillaumejaume.github.io/FUNSD), forms drawn from the RVL-CDIP collection. Licence: the authors grant use for
non-commercial, research and educational purposes; check the terms of the copy you downloaded.`,
    files: '`images/<id>.png` and `annotations/<id>.json` (`form`)',
    tags: '`source: funsd`, `language: en`, `split` (`train` from `training_data/`, `test` from `testing_data/`)',
  },
  xfund: {
    title: 'XFUND (multilingual forms)',
    origin: `XFUND, the multilingual form understanding benchmark of LayoutXLM (Xu et al., 2021;
github.com/doc-analysis/XFUND), forms in Chinese, Japanese, Spanish, French, Italian, German and Portuguese.
Licence: as stated with the release (check the terms of the copy you downloaded).`,
    files: '`<lang>.<split>.json` (`documents[].document`, `documents[].img.fname`) and the images beside it',
    tags: '`source: xfund`, `language` (from the file name), `split` (`train` or `val`)',
  },
} as const;

function readme(format: keyof typeof SOURCES, summary: ImportSummary, options: ImportOptions): string {
  const source = SOURCES[format];
  return `# ${source.title}, imported by docbench

Source: ${source.origin}

## Mapping

| docbench | from |
|---|---|
| document id | the image's file name without extension |
| \`documents/<id>\` | the form's image, copied unchanged (from ${source.files}) |
| \`truth/<id>.json\` | the form's question → answer pairs: \`{"<question text>": "<answer text>"}\` for every linked question and answer (a link counted once though both entities list it); several answers of one question joined by spaces in reading order; a question printed twice keyed \`<text> (2)\` the second time |
| \`schema.json\` | every question of the imported forms, a string each (a form's truth holds only its own questions) |
| \`truth/<id>.md\` | every entity's text in reading order (rows top to bottom, left to right), headers as \`##\` headings |
| \`truth/<id>.regions.json\` | one region per entity: its box, in inches at the resolution the image states (72 pixels an inch when it states none) |
| tags | ${source.tags} |

${importedCounts(summary, options)}`;
}

function formImporter(format: keyof typeof SOURCES): DatasetImporter {
  return {
    async importInto(source, writer, options) {
      const candidates = format === 'funsd' ? await listFunsd(source, options.split) : await listXfund(source, options);
      const { summary, written, manifest } = await importDocuments(candidates, writer, options, (document) =>
        writeForm(document, writer),
      );
      await writer.writeSchema(formSchema(written));
      await writeDatasetFiles(
        writer,
        {
          name: format,
          description: `${SOURCES[format].title}: question → answer pairs, text and entity regions`,
          readme: (done) => readme(format, done, options),
        },
        manifest,
        summary,
      );
      return summary;
    },
  };
}

export const funsdImporter = formImporter('funsd');
export const xfundImporter = formImporter('xfund');
