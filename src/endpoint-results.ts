/**
 * What each endpoint returns after tolerant reading (src/service/read-*.ts): the normalised results the service
 * client hands back, results.jsonl stores and the scorers read. Each is one TypeBox definition, the JSON Schema
 * a stored call record is checked against (src/run-dir/formats/results.ts) and, through `Static`, the
 * TypeScript type (src/service/types.ts), so the two cannot drift. Imported by type only, except by the
 * run-directory formats, which load on a file's first check: TypeBox never loads with the library's entry.
 */
import { Type } from '@sinclair/typebox';
import type { JsonObject } from './types.js';
import { count, nullableCount, nullableNum, nullableString, oneOf } from './format-parts.js';

/** A JSON object kept as received (the extracted data, /process's structured data). */
const jsonObject = Type.Unsafe<JsonObject>({ type: 'object' });

/** /v1/process, normalised. Element shapes the interface leaves unspecified are kept as received. */
export const ProcessResultFormat = Type.Object({
  status: Type.String(),
  documentId: nullableString,
  text: Type.String(),
  structuredData: jsonObject,
  pageCount: nullableCount,
  /** The service's own `metadata.processing_time_ms`. */
  processingTimeMs: nullableNum,
  images: Type.Optional(Type.Array(Type.Unknown())),
  boundingBoxes: Type.Optional(Type.Array(Type.Unknown())),
  barcodes: Type.Optional(Type.Array(Type.Unknown())),
  signatures: Type.Optional(Type.Array(Type.Unknown())),
});

/** /extract, normalised. */
export const ExtractResultFormat = Type.Object({
  /** `response` read as a JSON object (absent → `{}`). */
  data: jsonObject,
  /** How `response` arrived: a JSON string (as declared), an object, JSON inside prose or fences, or absent. */
  responseForm: oneOf(['string', 'object', 'embedded', 'absent'] as const),
  method: oneOf(['fast', 'slow', null] as const),
  pagesProcessed: nullableNum,
  /** Always on the 0–100 scale. */
  confidence: nullableNum,
  /** The scale the service used: a value in [0, 1] is read as a fraction. */
  confidenceScale: oneOf(['0-1', '0-100', null] as const),
  imageMetadata: Type.Optional(Type.Array(Type.Unknown())),
});

/** One page of /compare (and /markdown). */
export const MarkdownPageFormat = Type.Object({ content: Type.String(), width: nullableNum, height: nullableNum });

/** /compare, normalised. */
export const CompareResultFormat = Type.Object({
  success: Type.Boolean(),
  pages: Type.Array(MarkdownPageFormat),
  dashboardUrl: nullableString,
  comparisonId: nullableString,
  /** `failed_pages` from the /markdown payload, as a count, whether it came as a count or a list. */
  failedPages: count,
  failedPageList: Type.Array(Type.Integer()),
});

/** A box in inches, origin top-left (docs/service-interface.md §2.3). */
export const InchBoxFormat = Type.Object({
  min_x: Type.Number(),
  min_y: Type.Number(),
  max_x: Type.Number(),
  max_y: Type.Number(),
});

/** One page of /split, and of truth/<id>.regions.json. */
export const RegionPageFormat = Type.Object({
  page: Type.Integer({ minimum: 1 }),
  /** Points. */
  width: Type.Number(),
  height: Type.Number(),
  /**
   * `confidence` (0–100): the provider's mean word confidence for the region, where it gives one (provider
   * kinds, docs/systems.md); the interface defines none.
   */
  bounding_boxes: Type.Array(
    Type.Object({ bounding_box: InchBoxFormat, content: Type.String(), confidence: Type.Optional(Type.Number()) }),
  ),
});

/** /split, normalised. */
export const SplitResultFormat = Type.Object({ pages: Type.Array(RegionPageFormat) });
