/**
 * What the client returns for each endpoint, after tolerant reading (see read-*.ts). These normalised shapes
 * are what results.jsonl stores and what the scorers read; the service's raw quirks stop at the client.
 */
import type { JsonObject } from '../types.js';

/** /v1/process, normalised. Element shapes the interface leaves unspecified are kept as received. */
export interface ProcessResult {
  status: string;
  documentId: string | null;
  text: string;
  structuredData: JsonObject;
  pageCount: number | null;
  /** The service's own `metadata.processing_time_ms`. */
  processingTimeMs: number | null;
  images?: unknown[];
  boundingBoxes?: unknown[];
  barcodes?: unknown[];
  signatures?: unknown[];
}

/** /extract, normalised. */
export interface ExtractResult {
  /** `response` read as a JSON object (absent → `{}`). */
  data: JsonObject;
  /** How `response` arrived: a JSON string (as declared), an object, JSON inside prose or fences, or absent. */
  responseForm: 'string' | 'object' | 'embedded' | 'absent';
  method: 'fast' | 'slow' | null;
  pagesProcessed: number | null;
  /** Always on the 0–100 scale. */
  confidence: number | null;
  /** The scale the service used: a value in [0, 1] is read as a fraction. */
  confidenceScale: '0-1' | '0-100' | null;
  imageMetadata?: unknown[];
}

/** One page of /compare (and /markdown). */
export interface MarkdownPage {
  content: string;
  width: number | null;
  height: number | null;
}

/** /compare, normalised. */
export interface CompareResult {
  success: boolean;
  pages: MarkdownPage[];
  dashboardUrl: string | null;
  comparisonId: string | null;
  /** `failed_pages` from the /markdown payload, as a count, whether it came as a count or a list. */
  failedPages: number;
  failedPageList: number[];
}

/** A box in inches, origin top-left (docs/service-interface.md §2.3). */
export interface InchBox {
  min_x: number;
  min_y: number;
  max_x: number;
  max_y: number;
}

/** One page of /split, and of truth/<id>.regions.json. */
export interface RegionPage {
  page: number;
  /** Points. */
  width: number;
  height: number;
  /**
   * `confidence` (0–100): the provider's mean word confidence for the region, where it gives one (provider
   * kinds, docs/systems.md); the interface defines none.
   */
  bounding_boxes: { bounding_box: InchBox; content: string; confidence?: number }[];
}

/** /split, normalised. */
export interface SplitResult {
  pages: RegionPage[];
}

export type EndpointResult = ProcessResult | ExtractResult | CompareResult | SplitResult;
