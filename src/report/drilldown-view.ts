/**
 * The view of one document's drill-down page: field-by-field verdicts, markdown side by side with the
 * differences marked, and regions drawn on page outlines. Built from one DocumentEvaluation at a time.
 */
import type { DocumentEvaluation, DocumentExtraction } from '../run-dir/index.js';
import type { InchBox } from '../service/types.js';
import type { Mode } from '../types.js';
import { type ChartView, px, formatMs, formatPercent, formatPoints } from '../render/index.js';
import { toUnitConfidence } from './charts/calibration-charts.js';
import { describeDocumentError } from './document-row.js';
import { diffTexts, plainSegments, type DiffBudget, type DiffResult } from './markdown-diff.js';
import { resolveDashboardLink } from './dashboard-link.js';
import type { LabelledValue, Tone } from './view-types.js';

export interface FieldVerdictView {
  path: string;
  truth: string;
  prediction: string;
  truth_empty: boolean;
  prediction_empty: boolean;
  verdict: string;
  strict_verdict: string;
  tone: Tone;
  error: string | null;
}

export interface DrilldownView {
  title: string;
  id: string;
  status: string;
  status_tone: Tone;
  errors: string[];
  gate_reasons: string[];
  tags: { key: string; value: string }[];
  dashboard_url: string | null;
  dashboard_href: string | null;
  report_href: string;
  metrics: LabelledValue[];
  extraction: { mode: string; summary: string; parse_failure: boolean; fields: FieldVerdictView[] }[];
  markdown: { page: number; similarity: string; columns: { label: string; present: boolean; diff: DiffResult }[] }[];
  /** What the markdown columns' highlighting is relative to. */
  markdown_reference: string;
  regions: { page: number; chart: ChartView }[];
}

/** A value as the fields table shows it: strings as they are, everything else as JSON. */
function showValue(value: unknown): { text: string; empty: boolean } {
  if (value === null || value === undefined || value === '') return { text: '(empty)', empty: true };
  if (typeof value === 'string') return { text: value, empty: false };
  if (Array.isArray(value) && value.length === 0) return { text: '[]', empty: true };
  return { text: JSON.stringify(value), empty: false };
}

/**
 * Colour of a field's verdict (the word itself is always shown too): the scorer's fixed vocabulary, read
 * defensively since documents.jsonl is input. Equal once normalised but not strictly → amber.
 */
export function toneForVerdict(verdict: unknown, error?: unknown): Tone {
  if (error === 'format_only') return 'warn';
  switch (verdict) {
    case 'tp':
      return 'good';
    case 'fp':
    case 'fn':
    case 'fp+fn':
      return 'bad';
    default:
      return 'neutral';
  }
}

function toExtractionView(mode: string, extraction: DocumentExtraction): DrilldownView['extraction'][number] {
  return {
    mode,
    summary: `F1 ${formatPercent(extraction.f1)} (strict ${formatPercent(extraction.strict_f1)}), precision ${formatPercent(extraction.precision)}, recall ${formatPercent(extraction.recall)}; TP ${extraction.tp}, FP ${extraction.fp}, FN ${extraction.fn}${extraction.exact_match ? '; exact match' : ''}${extraction.confidence !== null ? `; confidence ${extraction.confidence}` : ''}`,
    parse_failure: extraction.parse_failure,
    fields: (extraction.fields ?? []).map((field) => {
      const truth = showValue(field.truth);
      const prediction = showValue(field.prediction);
      return {
        path: field.path,
        truth: truth.text,
        prediction: prediction.text,
        truth_empty: truth.empty,
        prediction_empty: prediction.empty,
        verdict: String(field.verdict),
        strict_verdict: String(field.strict_verdict),
        tone: toneForVerdict(field.verdict, field.error),
        error: field.error ?? null,
      };
    }),
  };
}

function buildMarkdown(doc: DocumentEvaluation, budget: DiffBudget | undefined): { pages: DrilldownView['markdown']; reference: string } {
  const texts = doc.texts;
  if (!texts) return { pages: [], reference: '' };
  const truth = texts.truth;
  const service = texts.service;
  const baseline = texts.baseline;
  const count = Math.max(truth?.length ?? 0, service?.length ?? 0, baseline?.length ?? 0);
  const pages: DrilldownView['markdown'] = [];
  const similarities = new Map((doc.markdown?.service?.pages ?? []).map((p) => [p.page, p.similarity]));
  for (let i = 0; i < count; i++) {
    const t = truth?.[i] ?? null;
    const s = service?.[i] ?? null;
    const b = baseline?.[i] ?? null;
    const columns: DrilldownView['markdown'][number]['columns'] = [];
    if (truth) {
      columns.push({ label: 'Truth', present: t !== null, diff: plainSegments(t ?? '') });
      columns.push({ label: 'Service', present: s !== null, diff: s !== null ? diffTexts(t ?? '', s, budget) : plainSegments('') });
      if (baseline) columns.push({ label: 'Incumbent', present: b !== null, diff: b !== null ? diffTexts(t ?? '', b, budget) : plainSegments('') });
    } else {
      // No truth: show the incumbent plain and the service's changes against it (drift, not accuracy).
      if (baseline) columns.push({ label: 'Incumbent', present: b !== null, diff: plainSegments(b ?? '') });
      columns.push({ label: 'Service', present: s !== null, diff: s !== null ? (baseline && b !== null ? diffTexts(b, s, budget) : plainSegments(s)) : plainSegments('') });
    }
    const similarity = similarities.get(i + 1);
    pages.push({ page: i + 1, similarity: similarity === undefined ? '' : `service similarity ${formatPercent(similarity)}`, columns });
  }
  return { pages, reference: truth ? 'the truth' : baseline ? 'the incumbent (no truth markdown: this shows change, not accuracy)' : '' };
}

interface RegionPageLike {
  page: number;
  width: number;
  height: number;
  bounding_boxes: { bounding_box: InchBox; content?: unknown }[];
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Region pages arrive as `unknown[]`: keep those with a usable outline and boxes, drop anything else. */
function toRegionPages(values: unknown): RegionPageLike[] {
  if (!Array.isArray(values)) return [];
  return values.flatMap((value) => {
    const page = value as Partial<RegionPageLike> | null;
    if (!page || !isFiniteNumber(page.page) || !isFiniteNumber(page.width) || !isFiniteNumber(page.height) || page.width <= 0 || page.height <= 0) return [];
    const boxes = Array.isArray(page.bounding_boxes)
      ? page.bounding_boxes.filter((b) => {
          const box = b?.bounding_box;
          return box && isFiniteNumber(box.min_x) && isFiniteNumber(box.min_y) && isFiniteNumber(box.max_x) && isFiniteNumber(box.max_y);
        })
      : [];
    return [{ page: page.page, width: page.width, height: page.height, bounding_boxes: boxes }];
  });
}

const REGION_WIDTH = 340;

function buildRegions(doc: DocumentEvaluation): DrilldownView['regions'] {
  if (!doc.region_pages) return [];
  const truth = toRegionPages(doc.region_pages.truth);
  const predicted = toRegionPages(doc.region_pages.predicted);
  const pageNumbers = [...new Set([...truth, ...predicted].map((p) => p.page))].sort((a, b) => a - b);
  return pageNumbers.map((pageNumber) => {
    const outline = truth.find((p) => p.page === pageNumber) ?? predicted.find((p) => p.page === pageNumber)!;
    // Page outline in points; boxes in inches (72 points each), origin top-left.
    const scale = REGION_WIDTH / outline.width;
    const height = px(outline.height * scale);
    const chart: ChartView = { label: `Regions on page ${pageNumber}`, width: REGION_WIDTH, height, paths: [], rects: [], circles: [], texts: [], legend: [] };
    chart.rects.push({ x: 0.5, y: 0.5, width: REGION_WIDTH - 1, height: px(height - 1), cls: 'page', title: `page ${pageNumber}` });
    const draw = (pages: RegionPageLike[], cls: string, label: string) => {
      for (const b of pages.find((p) => p.page === pageNumber)?.bounding_boxes ?? []) {
        const box = b.bounding_box;
        const content = typeof b.content === 'string' ? b.content : '';
        chart.rects.push({
          x: px(box.min_x * 72 * scale),
          y: px(box.min_y * 72 * scale),
          width: px(Math.max((box.max_x - box.min_x) * 72 * scale, 1)),
          height: px(Math.max((box.max_y - box.min_y) * 72 * scale, 1)),
          cls,
          title: `${label}: ${content.slice(0, 300)}`,
        });
      }
    };
    draw(truth, 'region-truth', 'truth');
    draw(predicted, 'region-predicted', 'service');
    chart.legend.push({ cls: 'region-truth', label: 'truth' }, { cls: 'region-predicted', label: 'service' });
    return { page: pageNumber, chart };
  });
}

/** `local`: the run used the embedded engine; the page sits in drilldown/, one level below the run directory. */
export function buildDrilldownView(doc: DocumentEvaluation, modes: readonly Mode[], gateReasons: string[], reportHref: string, local: boolean, budget?: DiffBudget): DrilldownView {
  const dashboard = resolveDashboardLink(doc, local, '../');
  const metrics: LabelledValue[] = [];
  for (const mode of modes) {
    const e = doc.extraction?.[mode];
    if (e) {
      metrics.push({ label: `Field F1 (${mode})`, value: formatPercent(e.f1), detail: `strict ${formatPercent(e.strict_f1)}` });
      if (e.confidence !== null) metrics.push({ label: `Confidence (${mode})`, value: formatPercent(toUnitConfidence(e.confidence)) });
    }
  }
  if (doc.markdown?.service) metrics.push({ label: 'Markdown similarity', value: formatPercent(doc.markdown.service.similarity), detail: `raw ${formatPercent(doc.markdown.service.raw_similarity)}` });
  if (doc.markdown?.baseline) metrics.push({ label: 'Incumbent similarity', value: formatPercent(doc.markdown.baseline.similarity), detail: doc.markdown.delta !== undefined ? `Δ ${formatPoints(doc.markdown.delta)}` : undefined });
  if (doc.regions) metrics.push({ label: 'Region F1 @ 0.5', value: formatPercent(doc.regions.f1_at50), detail: `@ 0.75 ${formatPercent(doc.regions.f1_at75)}` });
  for (const [key, ms] of Object.entries(doc.latency_ms ?? {})) metrics.push({ label: `Latency ${key}`, value: formatMs(ms) });
  const markdown = buildMarkdown(doc, budget);
  const extraction = modes.flatMap((mode) => (doc.extraction?.[mode] ? [toExtractionView(mode, doc.extraction[mode]!)] : []));
  if (doc.extraction_baseline) extraction.push(toExtractionView('incumbent', doc.extraction_baseline));
  return {
    title: `${doc.document_id}: docbench drill-down`,
    id: doc.document_id,
    status: doc.status === 'ok' ? 'ok' : doc.status === 'failed' ? 'FAILED' : 'PARTLY FAILED',
    status_tone: doc.status === 'ok' ? 'good' : 'bad',
    errors: (doc.errors ?? []).map(describeDocumentError),
    gate_reasons: gateReasons,
    tags: Object.entries(doc.tags ?? {}).map(([key, value]) => ({ key, value: String(value) })),
    dashboard_url: dashboard.url,
    dashboard_href: dashboard.href,
    report_href: reportHref,
    metrics,
    extraction,
    markdown: markdown.pages,
    markdown_reference: markdown.reference,
    regions: buildRegions(doc),
  };
}
