/**
 * The document as pages, for providers that take images or need page sizes: a PDF's pages rendered with the
 * project's pdf.js helpers (@docbench/pdf, imported only when a PDF is met), an image file's pages decoded with
 * sharp. Sizes are in points (the unit of regions' page sizes); a page's PNG carries its resolution.
 */
import type { Endpoint } from '../../types.js';
import { type DocumentInput, ServiceError } from '../../service/index.js';

/** A page size in points. */
export interface PageSize {
  width: number;
  height: number;
}

/** A page as PNG with its size in pixels. */
export interface PagePng {
  data: Buffer;
  width: number;
  height: number;
}

export interface DocumentPages {
  /** Pages in the document (not capped). */
  count: number;
  isPdf: boolean;
  /** Size of page `n` (1-based), points. */
  size(page: number): Promise<PageSize>;
  /** Page `n` (1-based) as PNG: a PDF page rendered at `dpi`, an image page as it is. */
  png(page: number): Promise<PagePng>;
  close(): Promise<void>;
}

/** A document's bytes, or a non-retryable failure for kinds that cannot send a URL. */
export function requireBytes(
  input: DocumentInput,
  endpoint: Endpoint,
  system: string,
): { bytes: Uint8Array; filename: string; contentType: string } {
  if ('bytes' in input) return input;
  throw new ServiceError(
    'INPUT_INVALID',
    `${system}: this kind needs the document's bytes, and the dataset gives a URL`,
    {
      endpoint,
      retryable: false,
      hint: 'download the document into the dataset, or use a kind that accepts URLs (azure-di, mistral-ocr)',
    },
  );
}

export async function openDocumentPages(
  input: { bytes: Uint8Array; contentType: string },
  dpi: number,
  endpoint: Endpoint,
): Promise<DocumentPages> {
  // sharp loads here, not with the module: only rendering or sizing pages needs it (CONTRIBUTING.md, Habits).
  const { default: sharp } = await import('sharp');
  if (input.contentType === 'application/pdf') {
    const { openPdf } = await import('@docbench/pdf');
    const pdf = await openPdf(input.bytes).catch((error: unknown) => {
      throw new ServiceError(
        'INPUT_INVALID',
        `the PDF could not be opened to render its pages: ${error instanceof Error ? error.message : String(error)}`,
        { endpoint, retryable: false, cause: error },
      );
    });
    return {
      count: pdf.pageCount,
      isPdf: true,
      size: async (page) => {
        const { width, height } = await pdf.readPage(page);
        return { width, height };
      },
      png: async (page) => {
        const rendered = await pdf.renderPage(page, dpi);
        const data = await sharp(
          Buffer.from(rendered.rgba.buffer, rendered.rgba.byteOffset, rendered.rgba.byteLength),
          { raw: { width: rendered.width, height: rendered.height, channels: 4 } },
        )
          // White paper behind transparent areas: a model or OCR engine reads transparent as black otherwise.
          .flatten({ background: '#ffffff' })
          .withMetadata({ density: dpi })
          .png()
          .toBuffer();
        return { data, width: rendered.width, height: rendered.height };
      },
      close: () => pdf.close(),
    };
  }
  if (input.contentType.startsWith('image/')) {
    const { countImagePages, DEFAULT_IMAGE_DPI } = await import('@docbench/pdf');
    const count = await countImagePages(input.bytes);
    return {
      count,
      isPdf: false,
      size: async (page) => {
        const meta = await sharp(input.bytes, { page: page - 1 }).metadata();
        // An image without density metadata is read at 72 dpi: one pixel per point (@docbench/pdf, raster.ts).
        const density = meta.density && meta.density > 0 ? meta.density : DEFAULT_IMAGE_DPI;
        return {
          width: ((meta.width ?? 0) * 72) / density,
          height: ((meta.pageHeight ?? meta.height ?? 0) * 72) / density,
        };
      },
      png: async (page) => {
        const { data, info } = await sharp(input.bytes, { page: page - 1 })
          .png()
          .toBuffer({ resolveWithObject: true });
        return { data, width: info.width, height: info.height };
      },
      close: async () => {},
    };
  }
  throw new ServiceError('INPUT_INVALID', `documents of type ${input.contentType} cannot be sent to this kind`, {
    endpoint,
    retryable: false,
    hint: 'provider kinds read PDF and image files',
  });
}

/** Page numbers 1..min(count, maxPages). */
export function pageNumbers(count: number, maxPages: number | undefined): number[] {
  return Array.from({ length: Math.min(count, maxPages ?? count) }, (_, i) => i + 1);
}
