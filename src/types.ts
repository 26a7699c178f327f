/**
 * The types that cross module boundaries: dataset → runner → store → scorers → reporters.
 * Each folder owns its internals; only what flows between folders lives here.
 */

/** The four service operations docbench drives. */
export const ENDPOINTS = ['extract', 'compare', 'split', 'process'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** /extract modes: `fast=true` or the full ("slow") pipeline. */
export const MODES = ['fast', 'slow'] as const;
export type Mode = (typeof MODES)[number];

export function isEndpoint(value: string): value is Endpoint {
  return (ENDPOINTS as readonly string[]).includes(value);
}
export function isMode(value: string): value is Mode {
  return (MODES as readonly string[]).includes(value);
}

/** A JSON value as parsed from a file or a response. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A JSON Schema document as the dataset supplies it (only the subset the interface supports is validated). */
export type JsonSchema = { [key: string]: unknown };

/**
 * How two values of one field are compared in the normalised pass (docs/metrics/extraction.md). Set per field path in
 * dataset.json `comparators`, e.g. `{"codes[].cpt": "code", "billing.total": {"type": "money"}}`.
 */
export type ComparatorType = 'exact' | 'string' | 'number' | 'money' | 'date' | 'boolean' | 'code' | 'text';
export interface ComparatorSpec {
  type: ComparatorType;
  /** Absolute tolerance for numbers. @default 0.005 for money, 0 otherwise */
  tolerance?: number;
  /** ICD-10 style: ignore dots when comparing codes. @default false */
  ignoreDots?: boolean;
  /** Compare strings case-sensitively. @default false */
  caseSensitive?: boolean;
}

/** Date order for ambiguous dates such as 03/05/2024. US = month first (the default). */
export type DateLocale = 'US' | 'EU';

/**
 * The OCR of scanned pages in the local engine: `pp-ocr` (PaddleOCR's models on onnxruntime-node, optional
 * dependencies), `tesseract` (tesseract.js), or `auto`: PP-OCR when it is installed and loads, else tesseract.js.
 */
export const OCR_CHOICES = ['auto', 'pp-ocr', 'tesseract'] as const;
export type OcrChoice = (typeof OCR_CHOICES)[number];

/** One labelled document of a dataset, with absolute paths to whatever files exist for it. */
export interface DatasetDocument {
  /** Unique id; file names in truth/ and baseline/ use it. */
  id: string;
  /** Absolute path of the document, when it is a local file. */
  file?: string;
  /** A public URL the service fetches itself, instead of an upload. */
  fileUrl?: string;
  /** Media type detected from the file's content (not its extension), e.g. `application/pdf`. */
  mediaType?: string;
  /** Size in bytes of the local file. */
  bytes?: number;
  /**
   * Pages, when validation settled them from the file's bytes (src/dataset/page-count.ts): the count, or null
   * when no reader can count them (a PDF without a document root).
   */
  pages?: number | null;
  /** Free-form tags, e.g. `{ tier: "fax", doc_type: "cms1500" }`. */
  tags: Record<string, string>;
  /** customContext for /extract; overrides the dataset's. */
  customContext?: string;
  /** Per-document overrides of the dataset's defaults. */
  modes?: Mode[];
  endpoints?: Endpoint[];
  truth: {
    /** truth/<id>.json: ground-truth extraction. */
    json?: string;
    /** truth/<id>.md: ground-truth markdown, pages separated by PAGE_BREAK. */
    markdown?: string;
    /** truth/<id>.regions.json: ground-truth regions, in the shape of /split's `pages`. */
    regions?: string;
    /** truth/<id>.blocks.json: layout blocks for the block metrics (datasets/README.md). */
    blocks?: string;
  };
  baseline: {
    /** baseline/<id>.md: the incumbent's markdown. */
    markdown?: string;
    /** baseline/<id>.json: the incumbent's extraction. */
    json?: string;
  };
}

/** A loaded, validated dataset. */
export interface Dataset {
  /** Absolute path of the dataset directory. */
  root: string;
  name: string;
  version?: string;
  description?: string;
  locale: DateLocale;
  /** schema.json, parsed. */
  schema: JsonSchema;
  /** customContext from dataset.json defaults or context.txt. */
  customContext?: string;
  defaults: { modes?: Mode[]; endpoints?: Endpoint[] };
  /** Field path (indices collapsed, e.g. `codes[].cpt`) → comparator. */
  comparators: Record<string, ComparatorSpec>;
  documents: DatasetDocument[];
  /** sha256 over every file of the dataset (names and bytes, in sorted order): what every run records. */
  contentHash: string;
  /** Absolute path of checks.jsonl, when the dataset has rule checks (docs/checks.md). */
  checksFile?: string;
  /**
   * Truth markdown without truth/<id>.blocks.json is split into blocks and scored by block too (dataset.json
   * `markdownBlocks`; docs/metrics.md, "Blocks"): off by default, since it costs a large run about a quarter more.
   */
  markdownBlocks?: true;
}

/**
 * Ground-truth and baseline markdown separate pages with this marker on a line of its own. It is an HTML
 * comment, so the files still render as markdown.
 */
export const PAGE_BREAK = '<!-- page-break -->';
