/**
 * The page of a dataset document as a PNG, for the review: PDFs rendered with pdf.js, images decoded with
 * sharp (src/pdf). Both are heavy, so they load on the first page asked for; rendered pages are kept in a
 * small cache, since a reviewer moves back and forth over the same few pages.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import type { DatasetDocument } from '../types.js';

/** Enough to read small print on a screen, small enough to render quickly. */
const RENDER_DPI = 110;
const CACHED_PAGES = 24;

const cache = new Map<string, Buffer>();

export async function renderDocumentPage(doc: DatasetDocument, page: number): Promise<Buffer> {
  if (doc.file === undefined) throw new UsageError(`${doc.id} is fetched by URL by the service: there is no local file to show`, { code: 'INPUT_INVALID', subject: doc.id });
  const key = `${doc.file}\0${page}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const { openPdf, decodeImagePage, encodeGreyPng, rgbaToGrey, countImagePages } = await import('../pdf/index.js');
  const bytes = await readFile(doc.file);
  let png: Buffer;
  if (doc.mediaType === 'application/pdf') {
    const pdf = await openPdf(bytes);
    try {
      if (!Number.isInteger(page) || page < 1 || page > pdf.pageCount) throw outOfRange(doc, page, pdf.pageCount);
      const rendered = await pdf.renderPage(page, RENDER_DPI);
      png = await encodeGreyPng({ width: rendered.width, height: rendered.height, dpi: rendered.dpi, pixels: rgbaToGrey(rendered.rgba, rendered.width, rendered.height) });
    } finally {
      await pdf.close();
    }
  } else {
    const pages = await countImagePages(bytes);
    if (!Number.isInteger(page) || page < 1 || page > pages) throw outOfRange(doc, page, pages);
    png = await encodeGreyPng(await decodeImagePage(bytes, page - 1));
  }
  cache.set(key, png);
  if (cache.size > CACHED_PAGES) cache.delete(cache.keys().next().value!);
  return png;
}

function outOfRange(doc: DatasetDocument, page: number, count: number): UsageError {
  return new UsageError(`${doc.id} has ${count} page${count === 1 ? '' : 's'}, not page ${page}`, { code: 'INPUT_INVALID', subject: 'page' });
}
