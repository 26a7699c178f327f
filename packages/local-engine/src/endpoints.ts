/**
 * The bodies of the service's answers, built from analysed documents (docs/service-interface.md §2). Element shapes the
 * interface leaves open (bounding_boxes, barcodes, signatures, images, structured_data) are documented in
 * docs/reference.md.
 */
import sharp from 'sharp';
import type { DateLocale, JsonSchema } from './contract.js';
import type { AnalysedDocument } from './analyse-document.js';
import { readPageBarcodes } from './barcodes.js';
import { extractFields } from './extract/extract-fields.js';
import { HttpProblem } from './http-problem.js';
import { blockText, renderPageMarkdown, renderPageText, toInchBox } from './layout/render-text.js';
import type { PageLayout, PointBox } from './layout/types.js';
import { findFigures, findSignatures, type FoundFigure } from './visual-elements.js';

const round2 = (v: number) => Math.round(v * 100) / 100;

/** `structured_data` of /v1/process: "Label: value" pairs and tables found on the pages. */
export function buildStructuredData(pages: PageLayout[]) {
  const keyValuePairs: { key: string; value: string; page: number }[] = [];
  for (const page of pages) {
    for (const row of page.rows) {
      row.lines.forEach((line, i) => {
        const match = /^([^:]{1,48}?)\s*:\s*(.*)$/.exec(line.text);
        if (!match || /\d{1,2}$/.test(match[1]!)) return;
        // "Label:" alone: its value is the next line of the row.
        const value =
          match[2]!.trim() || (row.lines[i + 1] && !row.lines[i + 1]!.text.includes(':') ? row.lines[i + 1]!.text : '');
        if (value) keyValuePairs.push({ key: match[1]!.trim(), value, page: page.page });
      });
    }
  }
  const tables = pages.flatMap((page) =>
    page.blocks.flatMap((b) => (b.kind === 'table' ? [{ page: page.page, header: b.header, rows: b.rows }] : [])),
  );
  return { key_value_pairs: keyValuePairs, tables };
}

/** Which optional arrays /v1/process should add. */
export interface ProcessFlags {
  outputFormat: 'json' | 'text' | 'markdown';
  boundingBoxes: boolean;
  barcodes: boolean;
  signatures: boolean;
  images: boolean;
}

/** The /v1/process result (§2.1). */
export async function buildProcessResult(doc: AnalysedDocument, flags: ProcessFlags, started: number) {
  const text = doc.pages
    .map((p) => (flags.outputFormat === 'markdown' ? renderPageMarkdown(p) : renderPageText(p)))
    .join('\n\n');
  const sources = new Set(doc.pages.map((p) => p.source));
  const body: Record<string, unknown> = {
    status: 'success',
    document_id: `doc_${doc.hash.slice(0, 24)}`,
    content: { text, structured_data: buildStructuredData(doc.pages) },
    metadata: {
      page_count: doc.pageCount,
      processing_time_ms: 0,
      text_source: sources.size > 1 ? 'mixed' : ([...sources][0] ?? 'text-layer'),
      pages: doc.pages.map((p) => ({
        page: p.page,
        width: round2(p.width),
        height: round2(p.height),
        source: p.source,
      })),
    },
  };
  if (flags.boundingBoxes) {
    body.bounding_boxes = doc.pages.flatMap((page) =>
      page.lines.map((line) => ({
        type: 'line',
        page: page.page,
        text: line.text,
        bounding_box: toInchBox(line.box),
        confidence: round2(line.confidence / 100),
      })),
    );
  }
  if (flags.barcodes) {
    const found = [];
    for (const page of doc.pages) {
      for (const code of await readPageBarcodes(await doc.raster(page.page)))
        found.push({ value: code.value, type: code.type, page: page.page, bounding_box: toInchBox(code.box) });
    }
    body.barcodes = found;
  }
  if (flags.signatures) {
    body.signatures = (await findSignatures(doc)).map((s) => ({
      page: s.page,
      bounding_box: toInchBox(s.box),
      confidence: s.confidence,
      label: s.label,
      method: s.method,
    }));
  }
  if (flags.images) {
    body.images = (await findFigures(doc)).map((f, i) => ({
      id: i + 1,
      page: f.page,
      bounding_box: toInchBox(f.box),
      source: f.source,
    }));
  }
  (body.metadata as Record<string, unknown>).processing_time_ms = Math.round(performance.now() - started);
  return body;
}

/** Parses the `schema` part: a JSON Schema serialised to a string (§4.2). */
export function parseSchemaPart(raw: string | undefined): JsonSchema {
  if (raw === undefined || raw.trim() === '')
    throw new HttpProblem(400, 'missing_schema', 'The "schema" part is required: a JSON Schema serialised to a string');
  let schema: unknown;
  try {
    schema = JSON.parse(raw);
  } catch (error) {
    throw new HttpProblem(
      400,
      'invalid_schema',
      `The "schema" part is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    throw new HttpProblem(400, 'invalid_schema', 'The "schema" part must be a JSON object (a JSON Schema)');
  return schema as JsonSchema;
}

function captionFor(page: PageLayout, box: PointBox): string {
  const near = page.lines.filter(
    (l) =>
      l.box.x1 > box.x0 &&
      l.box.x0 < box.x1 &&
      ((l.box.y0 >= box.y1 && l.box.y0 - box.y1 < 36) || (l.box.y1 <= box.y0 && box.y0 - l.box.y1 < 24)),
  );
  const labelled = near.find((l) => /^(fig(ure)?\.?|image|chart|photo|exhibit)\b/i.test(l.text));
  return (labelled ?? near.find((l) => l.box.y0 >= box.y1) ?? { text: '' }).text;
}

/** `image_metadata` of /extract: one entry per figure, with its crop as a data: URL. */
export async function buildImageMetadata(docs: AnalysedDocument[], pages: PageLayout[]) {
  const entries = [];
  let pageOffset = 0;
  for (const doc of docs) {
    const detectStarted = performance.now();
    const figures: FoundFigure[] = await findFigures(doc);
    const detectionMs = figures.length > 0 ? (performance.now() - detectStarted) / figures.length : 0;
    for (const figure of figures) {
      const cropStarted = performance.now();
      const raster = await doc.raster(figure.page);
      const toPixels = raster.dpi / 72;
      const left = Math.max(0, Math.floor(figure.box.x0 * toPixels));
      const top = Math.max(0, Math.floor(figure.box.y0 * toPixels));
      const width = Math.max(1, Math.min(raster.width - left, Math.ceil((figure.box.x1 - figure.box.x0) * toPixels)));
      const height = Math.max(1, Math.min(raster.height - top, Math.ceil((figure.box.y1 - figure.box.y0) * toPixels)));
      const crop = await sharp(raster.pixels, { raw: { width: raster.width, height: raster.height, channels: 1 } })
        .extract({ left, top, width, height })
        .resize({ width: 400, height: 400, fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer();
      const cropMs = performance.now() - cropStarted;
      const textStarted = performance.now();
      const page = pages[pageOffset + figure.page - 1]!;
      const caption = captionFor(page, figure.box);
      const inside = page.lines.filter(
        (l) =>
          l.box.x0 >= figure.box.x0 &&
          l.box.x1 <= figure.box.x1 &&
          l.box.y0 >= figure.box.y0 &&
          l.box.y1 <= figure.box.y1,
      );
      const ocrMs = performance.now() - textStarted;
      // `original`: the document's own units (points for PDF, source pixels for images); `pixel`: the raster analysed.
      const originalScale = doc.format === 'pdf' ? 1 : toPixels;
      const r = (v: number) => Math.round(v * 100) / 100;
      entries.push({
        figure_id: entries.length + 1,
        cropped_image_url: `data:image/png;base64,${crop.toString('base64')}`,
        bounding_box: {
          original: {
            x: r(figure.box.x0 * originalScale),
            y: r(figure.box.y0 * originalScale),
            w: r((figure.box.x1 - figure.box.x0) * originalScale),
            h: r((figure.box.y1 - figure.box.y0) * originalScale),
          },
          pixel: { x: left, y: top, w: width, h: height },
        },
        caption,
        metadata: {
          page: pageOffset + figure.page,
          source: figure.source,
          units_original: doc.format === 'pdf' ? 'points' : 'pixels',
          dpi: raster.dpi,
          text_inside: inside.map((l) => l.text).join('\n'),
        },
        subfigure_count: 1,
        processing_times: {
          detection_ms: r(detectionMs),
          crop_ms: r(cropMs),
          ocr_ms: r(ocrMs),
          total_ms: r(detectionMs + cropMs + ocrMs),
        },
      });
    }
    pageOffset += doc.pages.length;
  }
  return entries;
}

/** The /extract result (§2.2): `response` is a JSON string, as the interface declares. */
export function buildExtractResult(pages: PageLayout[], schema: JsonSchema, fast: boolean, locale?: DateLocale) {
  // OCR confidence enters through each line's word confidences (see ocrFactor in extract-fields.ts).
  const result = extractFields(pages, schema, { fast, locale });
  const body: Record<string, unknown> = { response: JSON.stringify(result.data), method: fast ? 'fast' : 'slow' };
  if (!fast) {
    body.pages_processed = pages.length;
    body.confidence_score = result.confidence;
  }
  return body;
}

/** The /markdown payload: one markdown string per page with the page size in points. */
export function buildMarkdownPages(pages: PageLayout[]) {
  return pages.map((p) => ({ content: renderPageMarkdown(p), width: round2(p.width), height: round2(p.height) }));
}

/** The /split result (§2.3): paragraph-level regions, boxes in inches from the top-left. */
export function buildSplitResult(pages: PageLayout[]) {
  return {
    pages: pages.map((p) => ({
      page: p.page,
      width: round2(p.width),
      height: round2(p.height),
      bounding_boxes: p.blocks.map((b) => ({ bounding_box: toInchBox(b.box), content: blockText(b) })),
    })),
  };
}
