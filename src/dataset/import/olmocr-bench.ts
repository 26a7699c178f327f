/**
 * `olmocr-bench`: olmOCR-bench's `bench_data` layout (docs/datasets-import.md, "olmocr-bench"): `pdfs/` (PDFs,
 * sub-folders too), `<category>.jsonl` checks at the root, and one folder per tool holding
 * `<pdf path without .pdf>_pg<page>_repeat<n>.md`. Each PDF becomes a document, every check a line of
 * checks.jsonl (category = its file's stem, `pdf` = the document's file), every tool a stored system whose
 * repeats are kept as `<id>.md`, `<id>.repeat2.md` ….
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { PAGE_BREAK } from '../../types.js';
import { decodeUtf8 } from '../read.js';
import { checkDocumentId, type DatasetWriter } from './dataset-writer.js';
import { drawDocuments } from './draw.js';
import type { DatasetImporter, ImportOptions, ImportSummary } from './formats.js';

/** Every file under `folder` with the given ending, as POSIX paths relative to it, sorted. */
async function listFiles(folder: string, ending: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith(ending))
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

async function readText(file: string): Promise<string> {
  const text = decodeUtf8(await readFile(file));
  if (text === undefined) {
    throw new UsageError(`${file}: not valid UTF-8 text`, { code: 'INPUT_INVALID', hint: 'save it as UTF-8' });
  }
  return text;
}

/** A PDF's document id: its path under pdfs/ without `.pdf`, sub-folders joined by `__`. */
const documentIdOf = (pdf: string): string =>
  pdf
    .replace(/\.pdf$/i, '')
    .split('/')
    .join('__');

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rewrites each line of a category file: `pdf` becomes the document's file, `category` the file's stem. Lines
 * naming a PDF left out by `--limit` are dropped; other problems are left to the dataset's validation.
 */
function rewriteChecks(text: string, file: string, category: string, kept: ReadonlyMap<string, string>): string[] {
  const lines: string[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new UsageError(`${file} line ${index + 1}: not valid JSON (${(error as Error).message})`, {
        code: 'INPUT_INVALID',
        hint: 'each line of a check file is one JSON object',
      });
    }
    if (typeof value !== 'object' || value === null || typeof (value as { pdf?: unknown }).pdf !== 'string') {
      throw new UsageError(`${file} line ${index + 1}: field "pdf" must name a PDF under pdfs/`, {
        code: 'INPUT_INVALID',
      });
    }
    const check = value as Record<string, unknown>;
    const id = kept.get(check.pdf as string);
    if (id === undefined) return;
    lines.push(JSON.stringify({ ...check, pdf: `${id}.pdf`, category }));
  });
  return lines;
}

/** One tool's markdown for one PDF: per repeat (in the tool's numbering order), its pages by number. */
function groupOutputs(mdFiles: readonly string[], pdf: string): Map<number, Map<number, string>> {
  const pattern = new RegExp(`^${escapeRegExp(pdf.replace(/\.pdf$/i, ''))}_pg(\\d+)_repeat(\\d+)\\.md$`);
  const repeats = new Map<number, Map<number, string>>();
  for (const file of mdFiles) {
    const match = pattern.exec(file);
    if (!match) continue;
    const repeat = Number(match[2]);
    const pages = repeats.get(repeat) ?? new Map<number, string>();
    pages.set(Number(match[1]), file);
    repeats.set(repeat, pages);
  }
  return repeats;
}

async function importTool(
  source: string,
  tool: string,
  documents: ReadonlyArray<{ pdf: string; id: string }>,
  writer: DatasetWriter,
): Promise<number> {
  const folder = path.join(source, tool);
  const mdFiles = await listFiles(folder, '.md');
  let written = 0;
  for (const { pdf, id } of documents) {
    const repeats = groupOutputs(mdFiles, pdf);
    const order = [...repeats.keys()].sort((a, b) => a - b);
    for (const [index, repeat] of order.entries()) {
      const pages = repeats.get(repeat) as Map<number, string>;
      const last = Math.max(...pages.keys());
      const texts: string[] = [];
      for (let page = 1; page <= last; page++) {
        const file = pages.get(page);
        // a page the tool has no output for reads as empty, as a missing page of any output does
        texts.push(file === undefined ? '' : await readText(path.join(folder, file)));
      }
      const suffix = index === 0 ? '.md' : `.repeat${index + 1}.md`;
      await writer.writeStoredOutput(tool, id, suffix, texts.join(`\n${PAGE_BREAK}\n`));
      written++;
    }
  }
  return written;
}

export const importer: DatasetImporter = {
  async importInto(source: string, writer: DatasetWriter, options: ImportOptions): Promise<ImportSummary> {
    const pdfRoot = path.join(source, 'pdfs');
    let pdfs: string[];
    try {
      pdfs = await listFiles(pdfRoot, '.pdf');
    } catch {
      throw new UsageError(`${pdfRoot}: no such folder`, { hint: 'name the bench_data folder, which holds pdfs/' });
    }
    if (pdfs.length === 0) throw new UsageError(`${pdfRoot}: holds no PDF`, { hint: 'name the bench_data folder' });
    const drawn = drawDocuments(pdfs, options.limit, options.seed);
    const documents = drawn.map((pdf) => ({ pdf, id: checkDocumentId(documentIdOf(pdf), `pdfs/${pdf}`) }));
    for (const { pdf, id } of documents) await writer.addDocument(id, path.join(pdfRoot, pdf));
    const kept = new Map(documents.map(({ pdf, id }) => [pdf, id]));

    const entries = await readdir(source, { withFileTypes: true });
    const checkFiles = entries
      .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
      .map((e) => e.name)
      .sort();
    if (checkFiles.length === 0) throw new UsageError(`${source}: holds no <category>.jsonl check file`);
    const lines: string[] = [];
    for (const name of checkFiles) {
      const file = path.join(source, name);
      lines.push(...rewriteChecks(await readText(file), file, name.replace(/\.jsonl$/, ''), kept));
    }
    await writer.writeText('checks.jsonl', `${lines.join('\n')}\n`);

    const tools = entries
      .filter((e) => e.isDirectory() && e.name !== 'pdfs')
      .map((e) => e.name)
      .sort();
    const outputs: string[] = [];
    for (const tool of tools) {
      checkDocumentId(tool, `${source}/${tool}`);
      const written = await importTool(source, tool, documents, writer);
      outputs.push(`- \`outputs/${tool}/\`: ${written} output files of the tool \`${tool}\``);
      options.logger.info(`${tool}: ${written} output files`);
    }
    await writer.writeReadme(
      [
        `# olmOCR-bench data imported from ${path.basename(path.resolve(source))}`,
        '',
        `Imported by \`docbench dataset import olmocr-bench\` (docs/datasets-import.md): ${documents.length} PDFs from`,
        `pdfs/ (sub-folders joined by \`__\` in ids), ${lines.length} checks from ${checkFiles.join(', ')} into`,
        'checks.jsonl (category = the file it came from), and each tool folder as a stored system:',
        '',
        ...outputs,
        '',
        'Run them as `kind: stored` systems, with `--repeat N` to score N repeats per page.',
        '',
      ].join('\n'),
    );
    return { documents: documents.length, skipped: [] };
  },
};
