/**
 * The page of a dataset document as a PNG, for the review: PDFs rendered with pdf.js, images decoded with
 * sharp (@docbench/pdf). Both are heavy, so they load on the first page asked for; rendered pages are kept in a
 * small cache, since a reviewer moves back and forth over the same few pages. The cache is bounded in pages
 * and bytes, and keyed by the file's path, size and modification time, so a replaced document shows its new
 * page.
 */
import { open } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { UsageError } from '../errors.js';
import type { DatasetDocument } from '../types.js';

/** Enough to read small print on a screen, small enough to render quickly. */
const RENDER_DPI = 110;
const CACHED_PAGES = 24;
/** A page of small print is ~0.3-1 MB as PNG: at most this much is kept whatever the pages hold. */
const CACHED_BYTES = 64 * 1024 * 1024;

const cache = new LRUCache<string, Buffer>({
  max: CACHED_PAGES,
  maxSize: CACHED_BYTES,
  sizeCalculation: (png) => Math.max(1, png.length),
});

export async function renderDocumentPage(doc: DatasetDocument, page: number): Promise<Buffer> {
  if (doc.file === undefined)
    throw new UsageError(`${doc.id} is fetched by URL by the service: there is no local file to show`, {
      code: 'INPUT_INVALID',
      subject: doc.id,
    });
  // The size and time are read from the same open file as the bytes: a file replaced in between cannot
  // store its new page under the old key.
  const handle = await open(doc.file, 'r');
  let bytes: Buffer;
  let key: string;
  try {
    const info = await handle.stat();
    key = `${doc.file}\0${info.size}\0${info.mtimeMs}\0${page}`;
    const hit = cache.get(key);
    if (hit) return hit;
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  const { openPdf, decodeImagePage, encodeGreyPng, rgbaToGrey, countImagePages } = await import('@docbench/pdf');
  let png: Buffer;
  if (doc.mediaType === 'application/pdf') {
    const pdf = await openPdf(bytes);
    try {
      if (!Number.isInteger(page) || page < 1 || page > pdf.pageCount) throw outOfRange(doc, page, pdf.pageCount);
      const rendered = await pdf.renderPage(page, RENDER_DPI);
      png = await encodeGreyPng({
        width: rendered.width,
        height: rendered.height,
        dpi: rendered.dpi,
        pixels: rgbaToGrey(rendered.rgba, rendered.width, rendered.height),
      });
    } finally {
      await pdf.close();
    }
  } else {
    const pages = await countImagePages(bytes);
    if (!Number.isInteger(page) || page < 1 || page > pages) throw outOfRange(doc, page, pages);
    png = await encodeGreyPng(await decodeImagePage(bytes, page - 1));
  }
  cache.set(key, png);
  return png;
}

function outOfRange(doc: DatasetDocument, page: number, count: number): UsageError {
  return new UsageError(`${doc.id} has ${count} page${count === 1 ? '' : 's'}, not page ${page}`, {
    code: 'INPUT_INVALID',
    subject: 'page',
  });
}
