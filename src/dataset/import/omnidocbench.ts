/**
 * `docbench dataset import omnidocbench <OmniDocBench.json> --images <dir> [--predictions <dir> --as <name>]`
 * (docs/datasets-import.md "omnidocbench"): one document per page image; truth markdown from the page's
 * layout blocks in reading order; the blocks themselves in truth/<id>.blocks.json for the block metrics;
 * page attributes as tags; a folder of per-page markdown (named by the image's stem, as OmniDocBench's
 * predictions are) as a stored system.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { toJson } from '../../fs-utils.js';
import { TRUTH_DIR } from '../format.js';
import type { DatasetManifest, ManifestDocument } from '../manifest.js';
import { checkDocumentId } from './dataset-writer.js';
import { checkSystemName } from './predictions.js';
import { isFolder, readSourceText } from './source-file.js';
import { drawDocuments } from './draw.js';
import type { DatasetImporter, ImportOptions, ImportSummary } from './formats.js';
import type { DatasetWriter } from './dataset-writer.js';
import { readOmniPages, truthMarkdown, type OmniPage } from './omnidocbench-pages.js';

const stem = (file: string): string => file.replace(/\.[^.]+$/, '');

async function readAnnotations(source: string): Promise<OmniPage[]> {
  if (await isFolder(source)) {
    throw new UsageError(`<source> ${source}: is a folder; name OmniDocBench.json itself`, {
      hint: 'e.g. docbench dataset import omnidocbench OmniDocBench/OmniDocBench.json --images OmniDocBench/images',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(await readFile(source, 'utf8'));
  } catch (error) {
    throw new UsageError(`${source}: not JSON (${(error as Error).message})`, {
      hint: "name OmniDocBench's annotation file",
    });
  }
  return readOmniPages(value, source);
}

/** Per-page markdown files by the stem they are named after; a file for no page of the source is an error. */
async function readPredictions(folder: string, pages: readonly OmniPage[]): Promise<Map<string, string>> {
  if (!(await isFolder(folder))) {
    throw new UsageError(`--predictions ${folder}: no such folder`, { hint: 'name the folder of per-page .md files' });
  }
  const known = new Set(pages.map((page) => stem(page.image)));
  const files = new Map<string, string>();
  for (const name of (await readdir(folder)).sort()) {
    if (!name.endsWith('.md')) continue;
    if (!known.has(stem(name))) {
      throw new UsageError(`--predictions ${path.join(folder, name)}: no page "${stem(name)}" in the annotation file`, {
        hint: 'each file is named after the image of the page it reads (<image stem>.md)',
      });
    }
    files.set(stem(name), path.join(folder, name));
  }
  return files;
}

function readme(source: string, pages: number, system: string | undefined): string {
  return [
    '# OmniDocBench (imported)',
    '',
    `Imported by \`docbench dataset import omnidocbench\` from \`${path.basename(source)}\`: ${pages} page image${pages === 1 ? '' : 's'}.`,
    '',
    "- `truth/<id>.md`: the page's scored layout blocks in reading order (headers, footers, page numbers, captions,",
    '  figures and ignored blocks left out).',
    '- `truth/<id>.blocks.json`: every layout block with its category, order and ignore flag, for the block',
    '  metrics (OmniDocBench\'s end-to-end evaluation; see docbench\'s docs/metrics.md "Blocks").',
    '- tags: the page attributes (`language`, `layout`, `data_source`, one `special_issue.<name>=yes` per special issue).',
    ...(system ? [`- \`outputs/${system}/\`: a parser's markdown per page, the stored system \`${system}\`.`] : []),
    '',
  ].join('\n');
}

async function importInto(source: string, writer: DatasetWriter, options: ImportOptions): Promise<ImportSummary> {
  const all = await readAnnotations(source);
  const images = options.images ?? path.join(path.dirname(source), 'images');
  if (!existsSync(images)) {
    throw new UsageError(`--images ${images}: no such folder`, {
      hint: "name the folder of OmniDocBench's page images",
    });
  }
  if (options.predictionsAs !== undefined) checkSystemName(options.predictionsAs);
  const predictions = options.predictions === undefined ? undefined : await readPredictions(options.predictions, all);
  const pages = drawDocuments(all, options.limit, options.seed);
  const documents: ManifestDocument[] = [];
  const seen = new Set<string>();
  for (const [index, page] of pages.entries()) {
    const id = checkDocumentId(stem(page.image).replace(/[^A-Za-z0-9._-]/g, '_'), `${source}: entry ${index}`);
    if (seen.has(id)) {
      throw new UsageError(`${source}: two pages have the image ${page.image}`, {
        hint: 'each page needs its own image',
      });
    }
    seen.add(id);
    const image = path.join(images, page.image);
    if (!existsSync(image)) {
      throw new UsageError(`${source}: the image of entry ${all.indexOf(page)} (${page.image}) is not in ${images}`, {
        hint: 'name the folder holding every page image with --images',
      });
    }
    const file = await writer.addDocument(id, image);
    await writer.writeTruthMarkdown(id, truthMarkdown(page.blocks));
    await writer.writeText(`${TRUTH_DIR}/${id}.blocks.json`, toJson({ blocks: page.blocks }));
    const prediction = predictions?.get(stem(page.image));
    if (prediction !== undefined && options.predictionsAs !== undefined) {
      await writer.writeStoredOutput(
        options.predictionsAs,
        id,
        '.md',
        await readSourceText(prediction, 'omnidocbench'),
      );
    }
    documents.push({ id, file, tags: page.tags });
  }
  const manifest: DatasetManifest = {
    name: 'omnidocbench',
    description: `OmniDocBench pages imported from ${path.basename(source)}`,
    documents,
  };
  await writer.writeManifest(manifest);
  // OmniDocBench has no extraction truth: the schema every dataset carries asks for nothing.
  await writer.writeSchema({ type: 'object', properties: {} });
  await writer.writeReadme(readme(source, documents.length, options.predictionsAs));
  return { documents: documents.length, skipped: [] };
}

export const omnidocbenchImporter: DatasetImporter = { importInto };
