/**
 * The view of one document's drill-down page: truth and every system side by side — field by field with
 * each system's verdict, markdown per page with each system's differences from the truth marked, and regions
 * drawn on page outlines. Built from one DocumentEvaluation at a time.
 */
import { buildCheckBlocks, type CheckBlockView } from './checks-view.js';
import { drilldownAnchor } from './drilldown-name.js';
import type { DocumentEvaluation, FieldVerdict } from '../run-dir/index.js';
import { buildBlocksDrilldown, type BlocksDrilldown } from './blocks-view.js';
import type { InchBox } from '../service/index.js';
import type { Mode } from '../types.js';
import { type ChartView, px, formatDecimal, formatMs, formatPercent, formatUsd } from '../render/index.js';
import { resolveDashboardLink } from './dashboard-link.js';
import { toUnitConfidence } from './charts/calibration-charts.js';
import { describeDocumentError } from './document-row.js';
import { diffTexts, plainSegments, type DiffBudget, type DiffResult } from './markdown-diff.js';
import type { LabelledValue, Tone } from './view-types.js';

/** One system's answer for one field. */
export interface FieldCellView {
  prediction: string;
  prediction_empty: boolean;
  verdict: string;
  strict_verdict: string;
  tone: Tone;
  error: string | null;
  /** A miss of a system that gave markdown: whether the truth value was in it (docs/metrics/extraction.md). */
  miss: { text: string; tone: Tone } | null;
}

/** Where an `in_text` miss's truth value is in the system's markdown: the words around it, and it. */
export interface LocatedMissView {
  system: string;
  path: string;
  page: number;
  before: string;
  value: string;
  after: string;
}

/** One field path: the truth, then one cell per system (in the order of `systems`). */
export interface FieldVerdictView {
  path: string;
  truth: string;
  truth_empty: boolean;
  cells: FieldCellView[];
}

export interface DrilldownView {
  title: string;
  id: string;
  /** The id of the document's section in its drill-down file (drilldown-name.ts). */
  anchor: string;
  status: string;
  status_tone: Tone;
  errors: string[];
  gate_reasons: string[];
  tags: { key: string; value: string }[];
  dashboard_url: string | null;
  dashboard_href: string | null;
  report_href: string;
  metrics: LabelledValue[];
  /** The systems planned for this document, in run order: the column order of every table. */
  systems: { name: string; cls: string }[];
  extraction: {
    mode: string;
    summaries: { system: string; text: string; parse_failure: boolean }[];
    fields: FieldVerdictView[];
    located: LocatedMissView[];
  }[];
  markdown: { page: number; similarity: string; columns: { label: string; present: boolean; diff: DiffResult }[] }[];
  /** What the markdown columns' highlighting is relative to. */
  markdown_reference: string;
  regions: { page: number; system: string; chart: ChartView }[];
  /** Rule checks of the document, failing first (checks-view.ts). */
  checks: CheckBlockView[];
  /** Each system's truth blocks with their matches and reading order (blocks-view.ts). */
  blocks: BlocksDrilldown[];
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

/** One mode's fields: the union of every system's field paths, truth once, one cell per system. */
function toExtractionView(
  doc: DocumentEvaluation,
  mode: Mode,
  systems: readonly string[],
): DrilldownView['extraction'][number] | null {
  const scored = systems.filter((name) => doc.systems[name]?.extraction?.[mode]);
  if (scored.length === 0) return null;
  const byPath = new Map<string, Map<string, FieldVerdict>>();
  for (const name of scored) {
    for (const field of doc.systems[name]!.extraction[mode]!.fields ?? []) {
      const row = byPath.get(field.path) ?? new Map<string, FieldVerdict>();
      row.set(name, field);
      byPath.set(field.path, row);
    }
  }
  return {
    mode,
    summaries: scored.map((name) => {
      const e = doc.systems[name]!.extraction[mode]!;
      return {
        system: name,
        text: `F1 ${formatPercent(e.f1)} (strict ${formatPercent(e.strict_f1)}), precision ${formatPercent(e.precision)}, recall ${formatPercent(e.recall)}; TP ${e.tp}, FP ${e.fp}, FN ${e.fn}${e.misses ? ` (${e.misses.not_in_text} not in its text, ${e.misses.in_text} in it)` : ''}${e.exact_match ? '; exact match' : ''}${e.confidence !== null ? `; confidence ${e.confidence}` : ''}`,
        parse_failure: e.parse_failure,
      };
    }),
    fields: [...byPath].map(([fieldPath, row]) => {
      const truth = showValue([...row.values()][0]?.truth);
      return {
        path: fieldPath,
        truth: truth.text,
        truth_empty: truth.empty,
        cells: systems.map((name) => {
          const field = row.get(name);
          if (!field)
            return {
              prediction: scored.includes(name) ? '(not listed)' : '(not run)',
              prediction_empty: true,
              verdict: scored.includes(name) ? 'tn' : '—',
              strict_verdict: '',
              tone: 'neutral' as Tone,
              error: null,
              miss: null,
            };
          const prediction = showValue(field.prediction);
          return {
            prediction: prediction.text,
            prediction_empty: prediction.empty,
            verdict: String(field.verdict),
            strict_verdict: String(field.strict_verdict),
            tone: toneForVerdict(field.verdict, field.error),
            error: field.error ?? null,
            miss: field.miss ? MISS_LABELS[field.miss] : null,
          };
        }),
      };
    }),
    located: scored.flatMap((name) =>
      (doc.systems[name]!.extraction[mode]!.fields ?? []).flatMap((field) => {
        const page = field.text_match ? doc.texts?.systems?.[name]?.[field.text_match.page - 1] : undefined;
        return field.text_match && page !== undefined ? [locatedMiss(name, field.path, field.text_match, page)] : [];
      }),
    ),
  };
}

const MISS_LABELS: Record<'not_in_text' | 'in_text', { text: string; tone: Tone }> = {
  not_in_text: { text: 'not in its text', tone: 'warn' },
  in_text: { text: 'in its text', tone: 'neutral' },
};

/** Characters of the markdown shown on each side of a located value. */
const CONTEXT_CHARS = 60;

function locatedMiss(
  system: string,
  path: string,
  match: { page: number; start: number; end: number },
  page: string,
): LocatedMissView {
  const from = Math.max(0, match.start - CONTEXT_CHARS);
  const to = Math.min(page.length, match.end + CONTEXT_CHARS);
  return {
    system,
    path,
    page: match.page,
    before: `${from > 0 ? '…' : ''}${page.slice(from, match.start)}`,
    value: page.slice(match.start, match.end),
    after: `${page.slice(match.end, to)}${to < page.length ? '…' : ''}`,
  };
}

/**
 * Markdown per page: the truth plain, then each system with its differences from the truth marked. Without
 * truth markdown the reference system is shown plain and the others marked against it (drift, not accuracy).
 */
function buildMarkdown(
  doc: DocumentEvaluation,
  systems: readonly string[],
  reference: string | null,
  budget: DiffBudget | undefined,
): { pages: DrilldownView['markdown']; reference: string } {
  const texts = doc.texts;
  if (!texts) return { pages: [], reference: '' };
  const truth = texts.truth;
  const outputs = systems
    .filter((name) => Object.hasOwn(texts.systems ?? {}, name))
    .map((name) => ({ name, pages: texts.systems[name] ?? null }));
  const base = truth ? null : (outputs.find((o) => o.name === reference) ?? null);
  const count = Math.max(truth?.length ?? 0, ...outputs.map((o) => o.pages?.length ?? 0));
  const pages: DrilldownView['markdown'] = [];
  for (let i = 0; i < count; i++) {
    const t = truth?.[i] ?? null;
    const columns: DrilldownView['markdown'][number]['columns'] = [];
    if (truth) columns.push({ label: 'Truth', present: t !== null, diff: plainSegments(t ?? '') });
    if (base)
      columns.push({
        label: `${base.name} (reference)`,
        present: base.pages?.[i] !== undefined && base.pages !== null,
        diff: plainSegments(base.pages?.[i] ?? ''),
      });
    const against = truth ? t : (base?.pages?.[i] ?? null);
    for (const output of outputs) {
      if (output === base) continue;
      const page = output.pages?.[i] ?? null;
      columns.push({
        label: output.name,
        present: page !== null,
        diff:
          page === null
            ? plainSegments('')
            : against !== null || truth
              ? diffTexts(against ?? '', page, budget)
              : plainSegments(page),
      });
    }
    const similarities = outputs.flatMap((o) => {
      const similarity = doc.systems[o.name]?.markdown?.pages?.find((p) => p.page === i + 1)?.similarity;
      return typeof similarity === 'number' ? [`${o.name} ${formatPercent(similarity)}`] : [];
    });
    pages.push({
      page: i + 1,
      similarity: similarities.length > 0 ? `similarity: ${similarities.join(', ')}` : '',
      columns,
    });
  }
  return {
    pages,
    reference: truth
      ? 'the truth'
      : base
        ? `the reference system ${base.name} (no truth markdown: this shows change, not accuracy)`
        : '',
  };
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
    if (
      !page ||
      !isFiniteNumber(page.page) ||
      !isFiniteNumber(page.width) ||
      !isFiniteNumber(page.height) ||
      page.width <= 0 ||
      page.height <= 0
    )
      return [];
    const boxes = Array.isArray(page.bounding_boxes)
      ? page.bounding_boxes.filter((b) => {
          const box = b?.bounding_box;
          return (
            box &&
            isFiniteNumber(box.min_x) &&
            isFiniteNumber(box.min_y) &&
            isFiniteNumber(box.max_x) &&
            isFiniteNumber(box.max_y)
          );
        })
      : [];
    return [{ page: page.page, width: page.width, height: page.height, bounding_boxes: boxes }];
  });
}

const REGION_WIDTH = 340;

/** Per page and system: the page outline with the truth's boxes and that system's. */
function buildRegions(doc: DocumentEvaluation, systems: readonly string[]): DrilldownView['regions'] {
  if (!doc.region_pages) return [];
  const truth = toRegionPages(doc.region_pages.truth);
  const predicted = systems
    .filter((name) => Object.hasOwn(doc.region_pages!.systems ?? {}, name))
    .map((name) => ({ name, pages: toRegionPages(doc.region_pages!.systems[name]) }));
  const pageNumbers = [...new Set([...truth, ...predicted.flatMap((p) => p.pages)].map((p) => p.page))].sort(
    (a, b) => a - b,
  );
  return pageNumbers.flatMap((pageNumber) =>
    predicted.map(({ name, pages }) => {
      const outline =
        truth.find((p) => p.page === pageNumber) ??
        pages.find((p) => p.page === pageNumber) ??
        predicted.flatMap((p) => p.pages).find((p) => p.page === pageNumber)!;
      // Page outline in points; boxes in inches (72 points each), origin top-left.
      const scale = REGION_WIDTH / outline.width;
      const height = px(outline.height * scale);
      const chart: ChartView = {
        label: `Regions on page ${pageNumber}: truth and ${name}`,
        width: REGION_WIDTH,
        height,
        paths: [],
        rects: [],
        circles: [],
        texts: [],
        legend: [],
      };
      chart.rects.push({
        x: 0.5,
        y: 0.5,
        width: REGION_WIDTH - 1,
        height: px(height - 1),
        cls: 'page',
        title: `page ${pageNumber}`,
      });
      const draw = (source: RegionPageLike[], cls: string, label: string) => {
        for (const b of source.find((p) => p.page === pageNumber)?.bounding_boxes ?? []) {
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
      draw(pages, 'region-predicted', name);
      chart.legend.push({ cls: 'region-truth', label: 'truth' }, { cls: 'region-predicted', label: name });
      return { page: pageNumber, system: name, chart };
    }),
  );
}

const STATUS_RANK = { failed: 0, partial: 1, ok: 2 } as const;

/**
 * @param systems every system of the run in run order, with its colour class; those not planned for this
 *   document are left out.
 */
export function buildDrilldownView(
  doc: DocumentEvaluation,
  modes: readonly Mode[],
  systems: readonly { name: string; kind: string; cls: string }[],
  reference: string | null,
  gateReasons: string[],
  reportHref: string,
  budget?: DiffBudget,
): DrilldownView {
  const present = systems.filter((s) => doc.systems?.[s.name]);
  const names = present.map((s) => s.name);
  const metrics: LabelledValue[] = [];
  for (const name of names) {
    const s = doc.systems[name]!;
    for (const mode of modes) {
      const e = s.extraction?.[mode];
      if (e)
        metrics.push({
          label: `${name} · field F1 (${mode})`,
          value: formatPercent(e.f1),
          detail: `strict ${formatPercent(e.strict_f1)}${e.confidence !== null ? `; confidence ${formatPercent(toUnitConfidence(e.confidence))}` : ''}`,
        });
    }
    if (s.markdown)
      metrics.push({
        label: `${name} · markdown similarity`,
        value: formatPercent(s.markdown.similarity),
        detail: `raw ${formatPercent(s.markdown.raw_similarity)}`,
      });
    if (typeof s.markdown_drift === 'number')
      metrics.push({ label: `${name} · drift vs ${reference ?? 'reference'}`, value: formatPercent(s.markdown_drift) });
    if (s.regions)
      metrics.push({
        label: `${name} · region F1 @ 0.5`,
        value: formatPercent(s.regions.f1_at50),
        detail: `@ 0.75 ${formatPercent(s.regions.f1_at75)}${
          typeof s.regions.reading_order === 'number'
            ? ` · reading order ${formatDecimal(s.regions.reading_order)}`
            : ''
        }`,
      });
    const latency = Object.entries(s.latency_ms ?? {}).filter(([, ms]) => typeof ms === 'number' && ms > 0);
    if (latency.length > 0)
      metrics.push({
        label: `${name} · latency`,
        value: latency.map(([key, ms]) => `${key} ${formatMs(ms)}`).join(', '),
      });
    if (typeof s.cost_usd === 'number') metrics.push({ label: `${name} · cost`, value: formatUsd(s.cost_usd) });
  }
  const markdown = buildMarkdown(doc, names, reference, budget);
  const status = names.reduce<'ok' | 'partial' | 'failed'>((worst, name) => {
    const own = doc.systems[name]!.status;
    return STATUS_RANK[own] < STATUS_RANK[worst] ? own : worst;
  }, 'ok');
  // The first system with a comparison view; the page sits in drilldown/, one level below the run directory.
  const dashboard = present
    .map((s) => resolveDashboardLink(doc.systems[s.name]!, s.kind === 'local', '../'))
    .find((link) => link.url !== null) ?? { url: null, href: null };
  return {
    title: `${doc.document_id}: docbench drill-down`,
    id: doc.document_id,
    anchor: drilldownAnchor(doc.document_id),
    status: status === 'ok' ? 'ok' : status === 'failed' ? 'FAILED' : 'PARTLY FAILED',
    status_tone: status === 'ok' ? 'good' : 'bad',
    errors: names.flatMap((name) =>
      (doc.systems[name]!.errors ?? []).map((e) => `${name}: ${describeDocumentError(e)}`),
    ),
    gate_reasons: gateReasons,
    tags: Object.entries(doc.tags ?? {}).map(([key, value]) => ({ key, value: String(value) })),
    dashboard_url: dashboard.url,
    dashboard_href: dashboard.href,
    report_href: reportHref,
    metrics,
    systems: present.map((s) => ({ name: s.name, cls: s.cls })),
    extraction: modes.flatMap((mode) => {
      const view = toExtractionView(doc, mode, names);
      return view ? [view] : [];
    }),
    markdown: markdown.pages,
    markdown_reference: markdown.reference,
    regions: buildRegions(doc, names),
    checks: buildCheckBlocks(doc, names, drilldownAnchor(doc.document_id)),
    blocks: buildBlocksDrilldown(doc, names),
  };
}
