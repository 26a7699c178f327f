/**
 * `docile`: the DocILE benchmark of business documents (docs/datasets-import.md, "docile"): `annotations/<docid>.json`
 * (`field_extractions` for KILE, `line_item_extractions` for LIR, `metadata`) and `pdfs/<docid>.pdf`, with the
 * splits listed in `train.json`, `val.json` and `test.json`. Boxes are fractions of the page ([left, top, right,
 * bottom]); page sizes come from the PDF.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import type { DatasetWriter } from './dataset-writer.js';
import type { DatasetImporter, ImportOptions, ImportSummary } from './formats.js';
import { importDocuments, importedCounts, writeDatasetFiles, type SourceDocument } from './import-documents.js';
import { conformToSchema, inferSchema } from './infer-schema.js';
import { pdfPages, RegionCollector } from './page-geometry.js';
import { filesById, readSourceJson, SourceFile } from './source-file.js';

const FORMAT = 'docile';
const SPLITS = ['train', 'val', 'test'];
const LINE_ITEMS = 'line_items';
/** Metadata that becomes tags when the annotation has it as text. */
const TAGGED_METADATA = ['document_type', 'language', 'currency'];

interface DocileField {
  fieldtype: string;
  text: string;
  page: number;
  /** Fractions of the page: left, top, right, bottom. */
  bbox: [number, number, number, number];
  lineItemId: number | null;
}

interface DocileDocument extends SourceDocument {
  annotation: string;
}

function readFields(list: unknown, source: SourceFile, at: string, lineItems: boolean): DocileField[] {
  return source.array(list ?? [], at).map((value, index) => {
    const fieldAt = `${at}[${index}]`;
    const field = source.object(value, fieldAt);
    return {
      fieldtype: source.string(field.fieldtype, `${fieldAt}.fieldtype`),
      text: typeof field.text === 'string' ? field.text.trim() : '',
      page: source.number(field.page, `${fieldAt}.page`),
      bbox: source.box(field.bbox, `${fieldAt}.bbox`),
      lineItemId: lineItems ? source.number(field.line_item_id, `${fieldAt}.line_item_id`) : null,
    };
  });
}

/** Page, then top, then left: the order a reader meets a document's fields. */
const byPosition = (a: DocileField, b: DocileField) =>
  a.page - b.page || a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0];

/**
 * KILE fields as `{fieldtype: text}` (a field type annotated more than once keeps the first in reading order: the
 * benchmark counts any of them as the field found) and LIR line items as a list of `{fieldtype: text}` in
 * line-item order (a field type spread over several boxes of one item joined by spaces).
 */
export function docileTruth(kile: readonly DocileField[], lir: readonly DocileField[]): Record<string, unknown> {
  const truth: Record<string, unknown> = {};
  for (const field of [...kile].sort(byPosition)) {
    if (field.text !== '' && truth[field.fieldtype] === undefined) truth[field.fieldtype] = field.text;
  }
  const items = new Map<number, Record<string, string>>();
  for (const field of [...lir].sort(byPosition)) {
    if (field.text === '') continue;
    const item = items.get(field.lineItemId!) ?? {};
    item[field.fieldtype] = item[field.fieldtype] === undefined ? field.text : `${item[field.fieldtype]} ${field.text}`;
    items.set(field.lineItemId!, item);
  }
  if (items.size > 0) truth[LINE_ITEMS] = [...items].sort(([a], [b]) => a - b).map(([, item]) => item);
  return truth;
}

/** The split of each listed document, from `train.json`, `val.json` and `test.json`. */
async function readSplits(source: string): Promise<Map<string, string>> {
  const splits = new Map<string, string>();
  for (const split of SPLITS) {
    const file = path.join(source, `${split}.json`);
    if (!existsSync(file)) continue;
    const reader = new SourceFile(file, FORMAT);
    for (const [index, id] of reader.array(await readSourceJson(file, FORMAT), 'the file').entries()) {
      splits.set(reader.string(id, `[${index}]`), split);
    }
  }
  return splits;
}

async function listDocuments(source: string, split: string | undefined): Promise<DocileDocument[]> {
  const annotations = await filesById(path.join(source, 'annotations'), ['.json']);
  const pdfs = await filesById(path.join(source, 'pdfs'), ['.pdf']);
  const splits = await readSplits(source);
  if (split !== undefined && ![...splits.values()].includes(split)) {
    throw new UsageError(`--split ${split}: ${source} has no ${split}.json listing its documents`, {
      hint: `it lists ${[...new Set(splits.values())].join(', ') || 'no split'}`,
    });
  }
  const ids = [...new Set([...pdfs.keys(), ...annotations.keys(), ...splits.keys()])]
    .filter((id) => split === undefined || splits.get(id) === split)
    .sort();
  return ids.map((id) => {
    const annotation = annotations.get(id);
    const listed = splits.get(id);
    return {
      id,
      file: pdfs.get(id) ?? null,
      annotation: annotation ?? '',
      missing: annotation ? null : 'no annotations/ file',
      tags: { source: FORMAT, ...(listed === undefined ? {} : { split: listed }) },
    };
  });
}

interface ReadDocument {
  id: string;
  source: SourceFile;
  truth: Record<string, unknown>;
}

async function readDocument(document: DocileDocument & { file: string }, writer: DatasetWriter): Promise<ReadDocument> {
  const source = new SourceFile(document.annotation, FORMAT);
  const root = source.object(await readSourceJson(document.annotation, FORMAT), 'the file');
  const kile = readFields(root.field_extractions, source, 'field_extractions', false);
  const lir = readFields(root.line_item_extractions, source, 'line_item_extractions', true);
  const metadata = root.metadata === undefined ? {} : source.object(root.metadata, 'metadata');
  for (const key of TAGGED_METADATA) {
    if (typeof metadata[key] === 'string' && metadata[key] !== '') document.tags[key] = metadata[key];
  }
  const pages = await pdfPages(document.file);
  const regions = new RegionCollector();
  const located = [
    ...kile.map((field, index) => ({ field, at: `field_extractions[${index}].page` })),
    ...lir.map((field, index) => ({ field, at: `line_item_extractions[${index}].page` })),
  ];
  for (const { field, at } of located) {
    if (field.text === '') continue;
    const page =
      pages[field.page] ?? source.fail(at, `${field.page}, but the PDF has ${pages.length} page(s), counted from 0`);
    const [width, height] = [page.widthPt / 72, page.heightPt / 72];
    const [left, top, right, bottom] = field.bbox;
    regions.add(
      { ...page, inchesPerUnit: 1 },
      [left * width, top * height, right * width, bottom * height],
      field.text,
    );
  }
  const regionPages = regions.result();
  if (regionPages) await writer.writeTruthRegions(document.id, regionPages);
  return { id: document.id, source, truth: docileTruth(kile, lir) };
}

function describe(fieldPath: string): string | undefined {
  if (fieldPath === LINE_ITEMS) return 'The line items of the document';
  const fieldtype = fieldPath.replace(`${LINE_ITEMS}[].`, '');
  return `${fieldtype.replaceAll('_', ' ')}, as printed`;
}

function readme(summary: ImportSummary, options: ImportOptions): string {
  return `# DocILE (business documents), imported by docbench

Source: DocILE, the Document Information Localization and Extraction benchmark (Šimsa et al., ICDAR 2023;
docile.rossum.ai), annotated invoices, orders and similar documents from public sources. Licence: the annotated
set is released for non-commercial research under the terms accepted on download; check them before sharing
this dataset.

## Mapping

| docbench | from |
|---|---|
| document id | the document id, the file names' stem (\`<docid>.pdf\`, \`<docid>.json\`) |
| \`documents/<id>.pdf\` | \`pdfs/<id>.pdf\`, copied unchanged |
| \`truth/<id>.json\` | KILE: \`field_extractions\` as \`{"<fieldtype>": "<text>"}\` (a field type annotated more than once keeps the first in reading order); LIR: \`line_item_extractions\` grouped by \`line_item_id\` into \`line_items\`, a list of \`{"<fieldtype>": "<text>"}\` in item order (several boxes of one field type in one item joined by spaces) |
| \`schema.json\` | the field types present in the imported documents, strings; \`line_items\` a list of objects |
| \`truth/<id>.regions.json\` | one region per KILE or LIR field with text: its \`bbox\` (fractions of the page) times the PDF page's size |
| tags | \`source: docile\`, \`split\` (from \`train.json\`, \`val.json\`, \`test.json\`), and \`document_type\`, \`language\`, \`currency\` when the metadata has them |

A PDF without its annotation (the test split's are not published) is skipped.

${importedCounts(summary, options)}`;
}

export const docileImporter: DatasetImporter = {
  async importInto(source, writer, options) {
    const candidates = await listDocuments(source, options.split);
    const { summary, written, manifest } = await importDocuments(candidates, writer, options, (document) =>
      readDocument(document, writer),
    );
    const schema = inferSchema(
      written.map((document) => document.truth),
      describe,
      [LINE_ITEMS],
    );
    for (const document of written) {
      await writer.writeTruthJson(document.id, conformToSchema(document.truth, schema, document.source, 'the truth'));
    }
    await writer.writeSchema({
      ...schema,
      description: 'Key fields (KILE) and line items (LIR) of a business document',
    });
    await writeDatasetFiles(
      writer,
      {
        name: FORMAT,
        description: 'DocILE business documents: key fields, line items and their boxes',
        readme: (done) => readme(done, options),
      },
      manifest,
      summary,
    );
    return summary;
  },
};
