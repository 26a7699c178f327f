/**
 * `sroie`: the ICDAR 2019 SROIE receipts (task 3, key information extraction), in either published layout
 * (docs/datasets-import.md, "sroie"): `img/<id>.jpg`, `box/<id>.csv` and `key/<id>.json` folders (optionally
 * under `train/` and `test/`), or the challenge's own folders of `<id>.jpg` + `<id>.txt` pairs, where the
 * `.txt` holds the box lines (tasks 1 and 2) or the key JSON (task 3).
 */
import path from 'node:path';
import type { JsonSchema } from '../../types.js';
import type { DatasetWriter } from './dataset-writer.js';
import type { DatasetImporter, ImportOptions, ImportSummary } from './formats.js';
import { importDocuments, importedCounts, writeDatasetFiles, type SourceDocument } from './import-documents.js';
import { boundingRectangle, imagePage, RegionCollector } from './page-geometry.js';
import { filesById, isFolder, readSourceJson, readSourceText, SourceFile, splitFolders } from './source-file.js';

const FORMAT = 'sroie';
const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png'];
const SPLITS = { train: 'train', test: 'test' };

/** The four keys of task 3, each described as the receipt prints it. */
const KEYS: Readonly<Record<string, string>> = {
  company: 'Name of the company that issued the receipt, as printed',
  date: 'Date of the receipt, exactly as printed (not reformatted)',
  address: 'Address of the company, as printed, its lines joined by spaces',
  total: 'Total amount paid, as printed, without the currency',
};

export const SROIE_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Key information of a scanned receipt (ICDAR 2019 SROIE, task 3); every value a string as printed',
  properties: Object.fromEntries(
    Object.entries(KEYS).map(([key, description]) => [key, { type: 'string', description }]),
  ),
};

interface SroieDocument extends SourceDocument {
  box: string | null;
  key: string | null;
}

/** One box line: eight coordinates (four corners, clockwise from the top left) and the text, which may hold commas. */
interface BoxLine {
  coordinates: number[];
  text: string;
}

export function parseBoxLines(content: string, source: SourceFile): BoxLine[] {
  const lines: BoxLine[] = [];
  for (const [index, raw] of content.split(/\r?\n/).entries()) {
    if (raw.trim() === '') continue;
    const parts = raw.split(',');
    if (parts.length < 9)
      source.fail(`line ${index + 1}`, 'must be eight coordinates and the text, separated by commas');
    const coordinates = parts.slice(0, 8).map((part, i) => {
      const value = Number(part.trim());
      if (part.trim() === '' || !Number.isFinite(value))
        source.fail(`line ${index + 1}, coordinate ${i + 1}`, `"${part}" is not a number`);
      return value;
    });
    lines.push({ coordinates, text: parts.slice(8).join(',').trim() });
  }
  return lines;
}

function readKeys(value: unknown, source: SourceFile): Record<string, string> {
  const object = source.object(value, 'the key file');
  const truth: Record<string, string> = {};
  for (const key of Object.keys(KEYS)) {
    if (object[key] === undefined) continue;
    truth[key] = source.string(object[key], key);
  }
  return truth;
}

/** The documents of one folder, in either layout. */
async function listFolder(folder: string, split: string | undefined): Promise<SroieDocument[]> {
  // The challenge describes its receipts as English ones.
  const tags: Record<string, string> = { source: FORMAT, language: 'en', ...(split === undefined ? {} : { split }) };
  let images: Map<string, string>;
  let boxes: Map<string, string>;
  let keys: Map<string, string>;
  if (await isFolder(path.join(folder, 'img'))) {
    images = await filesById(path.join(folder, 'img'), IMAGE_EXTENSIONS);
    boxes = await filesById(path.join(folder, 'box'), ['.csv', '.txt']);
    keys = await filesById(path.join(folder, 'key'), ['.json', '.txt']);
  } else {
    // The challenge's folders: `.jpg` + `.txt` pairs, the `.txt` a key file when it holds a JSON object.
    images = await filesById(folder, IMAGE_EXTENSIONS);
    boxes = new Map();
    keys = new Map();
    for (const [id, file] of await filesById(folder, ['.txt'])) {
      const text = await readSourceText(file, FORMAT);
      (text.trimStart().startsWith('{') ? keys : boxes).set(id, file);
    }
  }
  const ids = [...new Set([...images.keys(), ...boxes.keys(), ...keys.keys()])].sort();
  return ids.map((id) => {
    const box = boxes.get(id) ?? null;
    const key = keys.get(id) ?? null;
    return { id, file: images.get(id) ?? null, box, key, missing: box || key ? null : 'no box or key file', tags };
  });
}

async function writeDocument(document: SroieDocument & { file: string }, writer: DatasetWriter): Promise<void> {
  if (document.key) {
    const value = await readSourceJson(document.key, FORMAT);
    await writer.writeTruthJson(document.id, readKeys(value, new SourceFile(document.key, FORMAT)));
  }
  if (document.box) {
    const lines = parseBoxLines(await readSourceText(document.box, FORMAT), new SourceFile(document.box, FORMAT));
    const texts = lines.map((line) => line.text).filter((text) => text !== '');
    await writer.writeTruthMarkdown(document.id, `${texts.join('\n')}\n`);
    const page = await imagePage(document.file);
    const regions = new RegionCollector();
    for (const line of lines) if (line.text !== '') regions.add(page, boundingRectangle(line.coordinates), line.text);
    const pages = regions.result();
    if (pages) await writer.writeTruthRegions(document.id, pages);
  }
}

function readme(summary: ImportSummary, options: ImportOptions): string {
  return `# SROIE (ICDAR 2019 scanned receipts), imported by docbench

Source: the ICDAR 2019 Robust Reading Challenge on Scanned Receipts OCR and Information Extraction (SROIE),
tasks 1–3 (Huang et al., ICDAR 2019; rrc.cvc.uab.es, challenge 13). Licence: released by the challenge for
research; the copies most often shared state CC BY 4.0. Check the terms of the copy you downloaded before
sharing this dataset.

## Mapping

| docbench | from |
|---|---|
| document id | the image's file name without extension (\`X00016469612\`) |
| \`documents/<id>.jpg\` | \`img/<id>.jpg\` (or \`<id>.jpg\` in the challenge's folders), copied unchanged |
| \`truth/<id>.json\` | \`key/<id>.json\` (task 3): \`company\`, \`date\`, \`address\`, \`total\`, strings exactly as in the key file |
| \`schema.json\` | the four keys, each a string described as the receipt prints it |
| \`truth/<id>.md\` | the text of every line of \`box/<id>.csv\` (tasks 1–2), in the file's order, one per line |
| \`truth/<id>.regions.json\` | one region per box line: the bounding rectangle of its four corners, in inches at the resolution the image states (72 pixels an inch when it states none) |
| tags | \`source: sroie\`, \`language: en\`, \`split\` (from the \`train/\`/\`test/\` folder or \`--split\`) |

A document with an image but neither box nor key file is skipped.

${importedCounts(summary, options)}`;
}

export const sroieImporter: DatasetImporter = {
  async importInto(source, writer, options) {
    const candidates: SroieDocument[] = [];
    for (const { folder, split } of await splitFolders(source, options.split, SPLITS)) {
      candidates.push(...(await listFolder(folder, split)));
    }
    const { summary, manifest } = await importDocuments(candidates, writer, options, (document) =>
      writeDocument(document, writer),
    );
    await writer.writeSchema(SROIE_SCHEMA);
    await writeDatasetFiles(
      writer,
      {
        name: 'sroie',
        description: 'ICDAR 2019 SROIE scanned receipts: key information (task 3) and text lines (tasks 1–2)',
        readme: (done) => readme(done, options),
      },
      manifest,
      summary,
    );
    return summary;
  },
};
