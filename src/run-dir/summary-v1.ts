/**
 * summary.json and documents.jsonl as docbench wrote them before several systems shared a run (schema_version
 * 1): one service, and the incumbent as the dataset's baseline files. Kept only so `upgradeSummaryV1` and
 * `upgradeDocumentV1` can read older run directories; nothing writes these shapes any more.
 */
import type { Endpoint, Mode } from '../types.js';
import type { RegionPage } from '../service/index.js';
import type { ComparisonBlock, DocumentExtraction, DocumentMarkdown, ExtractionBlock, FieldRow, MarkdownBlock, RunSummary, SystemSummary, TagBreakdown } from './evaluation-types.js';

/** Schema 1's tag breakdown: the service's and the incumbent's similarity side by side. */
export interface TagBreakdownV1 extends Omit<TagBreakdown, 'similarity'> {
  similarity_service: number | null;
  similarity_baseline: number | null;
}

/** Schema 1's field row: the incumbent's baseline JSON had the mode `baseline`. */
export interface FieldRowV1 extends Omit<FieldRow, 'mode'> {
  mode: Mode | 'baseline';
}

/** The one service's blocks sat at the top level; their shapes are a system's blocks of schema 2. */
export interface RunSummaryV1 extends Pick<SystemSummary, 'documents' | 'calls' | 'latency_ms' | 'latency_per_page_ms' | 'service_processing_ms' | 'extraction' | 'confidence' | 'regions' | 'repeat'> {
  schema_version: 1;
  run_id: string;
  status: string;
  dataset: RunSummary['dataset'];
  service: { base_url: string | null; local: boolean };
  /** The incumbent's baseline JSON, scored the same way, where it exists. */
  extraction_baseline?: ExtractionBlock;
  markdown?: {
    service: MarkdownBlock;
    baseline?: MarkdownBlock;
    head_to_head?: ComparisonBlock;
    /** Where no truth markdown exists: similarity between service and incumbent output (change, not accuracy). */
    drift?: { similarity: number; documents: number };
  };
  /** tag key → tag value → headline metrics. */
  by_tag: Record<string, Record<string, TagBreakdownV1>>;
  /** Per field path and mode (and the incumbent's baseline JSON), worst F1 first. */
  fields: FieldRowV1[];
  /** What could not be scored for lack of truth or baseline files, per kind: document counts. */
  skipped: { truth_json: number; truth_markdown: number; truth_regions: number; baseline_markdown: number; baseline_json: number };
  /** Versions of the metric definitions, so numbers from different docbench versions are not mixed silently. */
  metric_versions: Record<string, string>;
}


/** One line of documents.jsonl. */
export interface DocumentEvaluationV1 {
  document_id: string;
  tags: Record<string, string>;
  /** failed: every call failed; partial: some did; ok: none did. */
  status: 'ok' | 'partial' | 'failed';
  errors: { endpoint: Endpoint; mode: Mode | null; code: string; message: string; status?: number }[];
  dashboard_url: string | null;
  comparison_id: string | null;
  pages: number | null;
  extraction: Partial<Record<Mode, DocumentExtraction>>;
  extraction_baseline?: DocumentExtraction;
  markdown?: {
    service?: DocumentMarkdown;
    baseline?: DocumentMarkdown;
    /** service − incumbent similarity. */
    delta?: number;
    drift?: number;
    teds?: number | null;
  };
  regions?: { f1_at50: number; f1_at75: number; mean_iou: number | null; char_accuracy: number };
  /** Per call key as in summary.calls: client wall time, ms. */
  latency_ms: Record<string, number>;
  /** For the drill-down: truth, service and incumbent markdown per page (null where absent). */
  texts?: { truth: string[] | null; service: string[] | null; baseline: string[] | null };
  /** For the drill-down: truth and predicted regions (page outlines in points, boxes in inches). */
  region_pages?: { truth: RegionPage[]; predicted: RegionPage[] };
}
