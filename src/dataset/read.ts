/**
 * Readers for a loaded dataset's truth and baseline files. They re-check what they read (a file may have
 * changed since validation) and throw UsageError naming the file, never return half-parsed data.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { type DatasetDocument, type JsonObject, PAGE_BREAK } from '../types.js';
import type { RegionPage } from '../service/index.js';
import { checkRegionPages } from './regions.js';
import { blocksByPage, checkTruthBlocks, type TruthBlockRecord } from './truth-blocks.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 strictly (a leading BOM is dropped); undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A text file of the dataset, strictly UTF-8 (a BOM is dropped); anything else is a UsageError naming the file. */
export async function readUtf8File(file: string): Promise<string> {
  const bytes = await readFileOrThrow(file);
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    throw new UsageError(`${file}: not valid UTF-8 text`, {
      code: 'DATASET_INVALID',
      subject: file,
      hint: 'save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)',
    });
  }
  return text;
}

async function readFileOrThrow(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new UsageError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
      code: 'DATASET_INVALID',
      subject: file,
      cause: error,
      hint: 'check that the file exists and is readable',
    });
  }
}

async function readJsonFile(file: string): Promise<unknown> {
  const text = await readUtf8File(file);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`, {
      code: 'DATASET_INVALID',
      subject: file,
      cause: error,
    });
  }
}

/**
 * Splits markdown into pages on PAGE_BREAK lines (the marker alone on a line, surrounding spaces allowed).
 * Line endings are normalised to \n; blank lines at the edges of each page are dropped. Pure, for tests.
 */
export function splitMarkdownPages(text: string): string[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const pages: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === PAGE_BREAK) pages.push([]);
    else pages[pages.length - 1]!.push(line);
  }
  return pages.map((page) => page.join('\n').replace(/^\n+|\s+$/g, ''));
}

/** Reads a truth or baseline markdown file as pages. Non-UTF-8 bytes → UsageError naming the file. */
export async function readMarkdownPages(file: string): Promise<string[]> {
  return splitMarkdownPages(await readUtf8File(file));
}

/** Reads truth/<id>.blocks.json as pages of blocks; a shape error → UsageError listing each problem. */
export async function readTruthBlocks(file: string): Promise<TruthBlockRecord[][]> {
  const value = await readJsonFile(file);
  const problems = checkTruthBlocks(value);
  if (problems.length > 0) {
    throw new UsageError(`${file}: not valid blocks:\n  ${problems.slice(0, 20).join('\n  ')}`, {
      code: 'DATASET_INVALID',
      subject: file,
    });
  }
  return blocksByPage((value as { blocks: TruthBlockRecord[] }).blocks);
}

/** Reads truth/<id>.regions.json; a shape error → UsageError listing each problem. */
export async function readRegionPages(file: string): Promise<RegionPage[]> {
  const value = await readJsonFile(file);
  const problems = checkRegionPages(value);
  if (problems.length > 0) {
    throw new UsageError(`${file}: not valid regions:\n  ${problems.slice(0, 20).join('\n  ')}`, {
      code: 'DATASET_INVALID',
      subject: file,
    });
  }
  return value as RegionPage[];
}

async function readJsonObject(file: string): Promise<JsonObject> {
  const value = await readJsonFile(file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${file}: must hold a JSON object`, { code: 'DATASET_INVALID', subject: file });
  }
  return value as JsonObject;
}

/** truth/<id>.json as an object, or undefined when the document has none. */
export async function readTruthJson(doc: DatasetDocument): Promise<JsonObject | undefined> {
  return doc.truth.json === undefined ? undefined : readJsonObject(doc.truth.json);
}

/** baseline/<id>.json (the incumbent's extraction), or undefined when the document has none. */
export async function readBaselineJson(doc: DatasetDocument): Promise<JsonObject | undefined> {
  return doc.baseline.json === undefined ? undefined : readJsonObject(doc.baseline.json);
}
