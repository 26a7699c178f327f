/** Boundary reading of /compare, /split and /v1/process responses into the shapes of ./types.ts. */
import type { JsonObject } from '../types.js';
import type { CompareResult, InchBox, MarkdownPage, ProcessResult, RegionPage, SplitResult } from './types.js';
import type { ShapeReader } from './shape.js';

/**
 * /compare: the /markdown payload plus `dashboard_url`. Tolerates `comparison_id` (sent by some versions)
 * and `failed_pages` as a count or a list of page numbers; `pagination` is ignored.
 */
export function readCompare(body: unknown, reader: ShapeReader): CompareResult {
  const root = reader.object(body, '(body)');
  if (root.success === false) reader.fail('success', 'is false: the service reports the comparison failed');
  if (root.pages === undefined || root.pages === null) reader.fail('pages', 'is missing');
  const pages: MarkdownPage[] = reader.array(root.pages, 'pages').map((raw, i) => {
    const page = reader.object(raw, `pages[${i}]`);
    return {
      content:
        page.content === null || page.content === undefined ? '' : reader.string(page.content, `pages[${i}].content`),
      width: reader.optionalNumber(page.width, `pages[${i}].width`),
      height: reader.optionalNumber(page.height, `pages[${i}].height`),
    };
  });
  const dashboardUrl = reader.optionalString(root.dashboard_url, 'dashboard_url');
  if (dashboardUrl !== null && !isHttpUrl(dashboardUrl))
    reader.fail('dashboard_url', `is not an http(s) URL: ${reader.describe(dashboardUrl)}`);
  const failed = readFailedPages(root.failed_pages, reader);
  return {
    success: true,
    pages,
    dashboardUrl,
    comparisonId: reader.optionalString(root.comparison_id, 'comparison_id') ?? comparisonIdFromUrl(dashboardUrl),
    failedPages: failed.count,
    failedPageList: failed.list,
  };
}

function readFailedPages(value: unknown, reader: ShapeReader): { count: number; list: number[] } {
  if (value === undefined || value === null) return { count: 0, list: [] };
  if (Array.isArray(value)) {
    const list = value.map((v, i) => reader.number(v, `failed_pages[${i}]`));
    return { count: list.length, list };
  }
  const count = reader.number(value, 'failed_pages');
  if (!Number.isInteger(count) || count < 0)
    reader.fail('failed_pages', `is ${count}, expected a count or a list of pages`);
  return { count, list: [] };
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `dashboard_url` is `{dashboard_base_url}/evals?filename=<comparison_id>` (docs/service-interface.md §2.4). */
function comparisonIdFromUrl(url: string | null): string | null {
  if (url === null) return null;
  return new URL(url).searchParams.get('filename');
}

export function readSplit(body: unknown, reader: ShapeReader): SplitResult {
  const root = reader.object(body, '(body)');
  if (root.pages === undefined || root.pages === null) reader.fail('pages', 'is missing');
  return { pages: readRegionPages(root.pages, reader, 'pages') };
}

/** Also used for truth/<id>.regions.json, which has the shape of /split's `pages`. */
export function readRegionPages(value: unknown, reader: ShapeReader, field: string): RegionPage[] {
  return reader.array(value, field).map((raw, i) => {
    const at = `${field}[${i}]`;
    const page = reader.object(raw, at);
    const number = reader.number(page.page, `${at}.page`);
    if (!Number.isInteger(number) || number < 1)
      reader.fail(`${at}.page`, `is ${number}, expected a page number from 1`);
    const boxes = reader.optionalArray(page.bounding_boxes, `${at}.bounding_boxes`) ?? [];
    return {
      page: number,
      width: reader.number(page.width, `${at}.width`),
      height: reader.number(page.height, `${at}.height`),
      bounding_boxes: boxes.map((rawBox, j) => {
        const boxAt = `${at}.bounding_boxes[${j}]`;
        const region = reader.object(rawBox, boxAt);
        const box = reader.object(region.bounding_box, `${boxAt}.bounding_box`);
        const inches: InchBox = {
          min_x: reader.number(box.min_x, `${boxAt}.bounding_box.min_x`),
          min_y: reader.number(box.min_y, `${boxAt}.bounding_box.min_y`),
          max_x: reader.number(box.max_x, `${boxAt}.bounding_box.max_x`),
          max_y: reader.number(box.max_y, `${boxAt}.bounding_box.max_y`),
        };
        const content =
          region.content === null || region.content === undefined
            ? ''
            : reader.string(region.content, `${boxAt}.content`);
        return { bounding_box: inches, content };
      }),
    };
  });
}

export function readProcess(body: unknown, reader: ShapeReader): ProcessResult {
  const root = reader.object(body, '(body)');
  const content = reader.optionalObject(root.content, 'content') ?? {};
  const metadata = reader.optionalObject(root.metadata, 'metadata') ?? {};
  const pageCount = reader.optionalNumber(metadata.page_count, 'metadata.page_count');
  if (pageCount !== null && (!Number.isInteger(pageCount) || pageCount < 0))
    reader.fail('metadata.page_count', `is ${pageCount}, expected a non-negative integer`);
  const optional = (name: 'images' | 'bounding_boxes' | 'barcodes' | 'signatures') =>
    reader.optionalArray(root[name], name);
  const images = optional('images');
  const boundingBoxes = optional('bounding_boxes');
  const barcodes = optional('barcodes');
  const signatures = optional('signatures');
  return {
    status: reader.optionalString(root.status, 'status') ?? 'success',
    documentId: reader.optionalString(root.document_id, 'document_id'),
    text: reader.optionalString(content.text, 'content.text') ?? '',
    structuredData: (reader.optionalObject(content.structured_data, 'content.structured_data') ?? {}) as JsonObject,
    pageCount,
    processingTimeMs: reader.optionalNumber(metadata.processing_time_ms, 'metadata.processing_time_ms'),
    ...(images ? { images } : {}),
    ...(boundingBoxes ? { boundingBoxes } : {}),
    ...(barcodes ? { barcodes } : {}),
    ...(signatures ? { signatures } : {}),
  };
}
