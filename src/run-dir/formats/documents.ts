/**
 * documents.jsonl: one line per document with every system's scores and everything a drill-down shows, as
 * summary.json schema 2 writes it, and the schema-1 line older runs have (read through
 * ../upgrade-v1.ts; a line with `systems` is schema 2, one with `status` schema 1). The TypeScript
 * side: ../evaluation-types.ts and ../summary-v1.ts.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineFileCheck } from '../check-file.js';
import { DocumentChecksFormat } from './checks.js';
import { RegionPageFormat } from '../../endpoint-results.js';
import { DocumentBlocksFormat } from './blocks.js';
import {
  anyValue,
  byMode,
  count,
  endpoint,
  keyed,
  nullableCount,
  nullableMode,
  nullableNonNegative,
  nullableNum,
  nullableShare,
  nullableString,
  num,
  oneOf,
  share,
} from '../../format-parts.js';

const verdict = oneOf(['tp', 'fp', 'fn', 'fp+fn', 'tn'] as const);

/** One field as the drill-down shows it. Verdicts: see the extraction scorer's `Verdict` and `FieldError`. */
export const FieldVerdictFormat = Type.Object({
  path: Type.String(),
  truth: anyValue,
  prediction: anyValue,
  verdict,
  strict_verdict: verdict,
  error: Type.Optional(oneOf(['missing', 'hallucinated', 'wrong_value', 'format_only'] as const)),
  /** A miss of a system that gave markdown: whether the truth value is in that markdown. */
  miss: Type.Optional(oneOf(['not_in_text', 'in_text'] as const)),
  /** Where the markdown holds it: page (1-based) and character range in that page. */
  text_match: Type.Optional(Type.Object({ page: count, start: count, end: count })),
});

export const DocumentExtractionFormat = Type.Object({
  f1: share,
  precision: share,
  recall: share,
  strict_f1: share,
  exact_match: Type.Boolean(),
  tp: count,
  fp: count,
  fn: count,
  parse_failure: Type.Boolean(),
  confidence: nullableNum,
  fields: Type.Array(FieldVerdictFormat),
  /** The document's misses by where the truth value was; absent without the system's markdown. */
  misses: Type.Optional(Type.Object({ not_in_text: count, in_text: count })),
});

const markdownProperties = {
  similarity: share,
  /** Σ edits and Σ max length over the pages (normalised): what micro similarity sums across documents. */
  edits: count,
  length: count,
  raw_similarity: share,
  pages: Type.Array(Type.Object({ page: count, similarity: share })),
};
export const DocumentMarkdownFormat = Type.Object(markdownProperties);

const callError = Type.Object({
  endpoint,
  mode: nullableMode,
  code: Type.String(),
  message: Type.String(),
  status: Type.Optional(Type.Integer()),
});
const documentRegions = Type.Object({
  f1_at50: share,
  f1_at75: share,
  mean_iou: nullableNum,
  char_accuracy: num,
  /** Mean normalised ARD of the pages' matched regions (docs/metrics/regions.md); absent before docbench computed it. */
  reading_order: Type.Optional(nullableShare),
});
const pageTexts = Type.Union([Type.Array(Type.String()), Type.Null()]);

/** How one service's calls for a document went, and its extraction scores (schema 1 and 2 alike). */
const outcomeProperties = {
  /** failed: every call failed; partial: some did; ok: none did. */
  status: oneOf(['ok', 'partial', 'failed'] as const),
  errors: Type.Array(callError),
  dashboard_url: nullableString,
  comparison_id: nullableString,
  pages: nullableCount,
  extraction: byMode(DocumentExtractionFormat),
};

/** One system's scores of one document. */
export const SystemDocumentFormat = Type.Object({
  ...outcomeProperties,
  markdown: Type.Optional(
    Type.Object({ ...markdownProperties, teds: nullableNum, blocks: Type.Optional(DocumentBlocksFormat) }),
  ),
  /** No truth markdown: similarity to the reference's output. */
  markdown_drift: Type.Optional(share),
  regions: Type.Optional(documentRegions),
  /** Per call key as in summary calls: client wall time, ms. */
  latency_ms: keyed(Type.Number({ minimum: 0 })),
  /** USD of this document's calls (first repetition); null when none was priced. */
  cost_usd: nullableNonNegative,
  /** Rule checks of this document (checks.jsonl) on the system's markdown. */
  checks: Type.Optional(DocumentChecksFormat),
});

/** One line of documents.jsonl: one document, every system that was planned for it. */
export const DocumentEvaluationFormat = Type.Object({
  document_id: Type.String(),
  tags: keyed(Type.String()),
  /** Keyed by system name, in run order. */
  systems: keyed(SystemDocumentFormat),
  /** For the drill-down: truth and each system's markdown per page (null where absent). */
  texts: Type.Optional(Type.Object({ truth: pageTexts, systems: keyed(pageTexts) })),
  /** For the drill-down: truth and each system's regions (page outlines in points, boxes in inches). */
  region_pages: Type.Optional(
    Type.Object({ truth: Type.Array(RegionPageFormat), systems: keyed(Type.Array(RegionPageFormat)) }),
  ),
});

export const checkDocumentLine = defineFileCheck<Static<typeof DocumentEvaluationFormat>>(
  'document-line',
  DocumentEvaluationFormat,
);

/** A line of documents.jsonl as summary.json schema 1 wrote it: one service, the incumbent beside it. */
export const DocumentEvaluationV1Format = Type.Object({
  document_id: Type.String(),
  tags: keyed(Type.String()),
  ...outcomeProperties,
  extraction_baseline: Type.Optional(DocumentExtractionFormat),
  markdown: Type.Optional(
    Type.Object({
      service: Type.Optional(DocumentMarkdownFormat),
      baseline: Type.Optional(DocumentMarkdownFormat),
      /** service − incumbent similarity. */
      delta: Type.Optional(num),
      drift: Type.Optional(share),
      teds: Type.Optional(nullableNum),
    }),
  ),
  regions: Type.Optional(documentRegions),
  /** Per call key as in summary.calls: client wall time, ms. */
  latency_ms: keyed(Type.Number({ minimum: 0 })),
  /** For the drill-down: truth, service and incumbent markdown per page (null where absent). */
  texts: Type.Optional(Type.Object({ truth: pageTexts, service: pageTexts, baseline: pageTexts })),
  /** For the drill-down: truth and predicted regions (page outlines in points, boxes in inches). */
  region_pages: Type.Optional(
    Type.Object({ truth: Type.Array(RegionPageFormat), predicted: Type.Array(RegionPageFormat) }),
  ),
});

export const checkDocumentLineV1 = defineFileCheck<Static<typeof DocumentEvaluationV1Format>>(
  'document-line-v1',
  DocumentEvaluationV1Format,
);
