/**
 * How many pages each document has, read from its file without rendering anything: what `docbench plan`
 * prices per-page systems by (docs/systems.md, "Estimates"). PDFs: the page tree's /Count; TIFF: its chain
 * of image directories; PNG and JPEG: one page. A document given by URL, or a file that cannot be read,
 * has no count (null): the estimate then says how many documents it could not count.
 */
import { readFile } from 'node:fs/promises';
import type { DatasetDocument } from '../types.js';

/**
 * The pages of every document, by id, read `parallel` at a time. The estimate must take well under a second
 * for a thousand documents (bench case `plan-many`), so files are read once each and scanned as bytes.
 */
export async function countDocumentPages(
  documents: readonly DatasetDocument[],
  parallel = 16,
): Promise<Map<string, number | null>> {
  const counts = new Map<string, number | null>();
  let next = 0;
  const worker = async () => {
    while (next < documents.length) {
      const document = documents[next++]!;
      counts.set(document.id, await countPages(document));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, documents.length) }, worker));
  return counts;
}

async function countPages(document: DatasetDocument): Promise<number | null> {
  // Counted during validation when the file was read whole.
  if (document.pages !== undefined) return document.pages;
  if (!document.file) return null;
  const type = document.mediaType;
  // PNG and JPEG hold one image: nothing to read.
  if (type !== 'application/pdf' && type !== 'image/tiff') return 1;
  let bytes: Buffer;
  try {
    bytes = await readFile(document.file);
  } catch {
    return null;
  }
  return type === 'application/pdf' ? countPdfPages(bytes) : (countTiffPages(bytes) ?? (await countWithSharp(bytes)));
}

/**
 * Pages counted from the bytes alone, synchronously (the dataset validator calls it on the files its hash
 * reads whole): the count; null when no reader can count them (a PDF without a document root); undefined
 * when only a library can tell (object streams, BigTIFF, damage).
 */
export function scanPageCount(mediaType: string, bytes: Buffer): number | null | undefined {
  if (mediaType === 'application/pdf') return scanPdfPages(bytes);
  if (mediaType === 'image/tiff') return countTiffPages(bytes) ?? undefined;
  return mediaType === 'image/png' || mediaType === 'image/jpeg' ? 1 : undefined;
}

const OBJECT_START = /(\d+)\s+\d+\s+obj\b/g;
/** How far around a `/Pages` name its dictionary is looked at: page tree nodes are short. */
const WINDOW = 2048;

/**
 * A PDF's page count. Hand-written because pdf.js, the library docbench renders with, takes ~170 ms to load
 * and ~1.6 ms per document to open (measured on the sample): seconds for a thousand documents, where this
 * scan takes ~0.3 ms for a small PDF. The page tree's root is the `/Type /Pages` dictionary with the
 * largest /Count (every node counts the pages below it); of an object redefined by an incremental update
 * the last definition holds. Files whose objects may be compressed into object streams (which no byte scan
 * can read), and files where no page tree is found but a document root may be, are opened with pdf.js instead.
 */
export async function countPdfPages(bytes: Buffer): Promise<number | null> {
  const scanned = scanPdfPages(bytes);
  return scanned !== undefined ? scanned : await openPdfPageCount(bytes);
}

/** What the bytes tell of a PDF's pages, in scanPageCount's terms. */
function scanPdfPages(bytes: Buffer): number | null | undefined {
  return scanPdfPageCount(bytes) ?? (lacksDocumentRoot(bytes) ? null : undefined);
}

/**
 * Whether no reader can find this PDF's document. pdf.js starts from a dictionary with a /Root key: the
 * trailer, a cross-reference stream's dictionary, or (recovering a damaged file) any object; none of them can
 * hide that key from a byte scan but inside an object stream or behind a `#`-escaped name. pdf.js fails to
 * open such files (truncated or placeholder PDFs), so they are not handed to it: loading it takes ~170 ms and
 * each failed open ~1.5 ms, seconds for a dataset of them.
 */
function lacksDocumentRoot(bytes: Buffer): boolean {
  return bytes.indexOf('/Root') < 0 && bytes.indexOf('/ObjStm') < 0 && bytes.indexOf('#') < 0;
}

/** The page tree's count as the bytes show it; null when they cannot (object streams, no page tree found). */
function scanPdfPageCount(bytes: Buffer): number | null {
  if (bytes.indexOf('/ObjStm') < 0) {
    const counts = new Map<string, number>();
    for (let at = bytes.indexOf('/Pages'); at >= 0; at = bytes.indexOf('/Pages', at + 6)) {
      const before = bytes.toString('latin1', Math.max(0, at - WINDOW), at);
      const after = bytes.toString('latin1', at, Math.min(bytes.length, at + WINDOW));
      // `/Type /Pages`, not the catalog's `/Pages 2 0 R` nor a `/PagesX` name.
      if (!/\/Type\s*$/.test(before) || /^\/Pages[A-Za-z0-9]/.test(after)) continue;
      const objectAt = before.lastIndexOf(' obj');
      const id =
        objectAt < 0
          ? undefined
          : [...before.slice(Math.max(0, objectAt - 24), objectAt + 4).matchAll(OBJECT_START)].at(-1)?.[1];
      const body = before.slice(objectAt) + after.slice(0, Math.max(0, after.indexOf('endobj')));
      const count = /\/Count\s+(\d+)/.exec(body)?.[1];
      if (id !== undefined && count !== undefined) counts.set(id, Number(count));
    }
    if (counts.size > 0) return Math.max(...counts.values());
  }
  return null;
}

async function openPdfPageCount(bytes: Buffer): Promise<number | null> {
  try {
    const { openPdf } = await import('@docbench/pdf');
    const pdf = await openPdf(new Uint8Array(bytes));
    const pages = pdf.pageCount;
    await pdf.close();
    return pages;
  } catch {
    return null;
  }
}

/**
 * A TIFF's pages: its image file directories, each pointing at the next (TIFF 6.0, section 2). Classic TIFF
 * only; BigTIFF (8-byte offsets) and damaged chains return null, and sharp counts those.
 */
export function countTiffPages(bytes: Buffer): number | null {
  if (bytes.length < 8) return null;
  const little = bytes.toString('latin1', 0, 2) === 'II';
  if (!little && bytes.toString('latin1', 0, 2) !== 'MM') return null;
  const u16 = (at: number) => (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number) => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const seen = new Set<number>();
  let offset = u32(4);
  while (offset !== 0) {
    if (seen.has(offset) || offset + 2 > bytes.length) return null;
    seen.add(offset);
    const entries = u16(offset);
    const next = offset + 2 + entries * 12;
    if (next + 4 > bytes.length) return null;
    offset = u32(next);
  }
  return seen.size || null;
}

async function countWithSharp(bytes: Buffer): Promise<number | null> {
  try {
    const { countImagePages } = await import('@docbench/pdf');
    return await countImagePages(bytes);
  } catch {
    return null;
  }
}
