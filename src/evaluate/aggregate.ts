/**
 * From per-document scores to the run's headline numbers (summary.json). Pure: the scorers' aggregation
 * functions do the arithmetic; this assembles the documented blocks, by mode, by tag and head to head.
 */
import type { Mode } from '../types.js';
import type { CallRecord } from '../run/record.js';
import type { RunManifest } from '../run/manifest.js';
import { aggregateExtraction, type ExtractionAggregate, type ExtractionScore } from '../score/extraction/index.js';
import { aggregateMarkdown, aggregateWords, createMicroSimilarityDelta, type MarkdownDocumentScore } from '../score/markdown/index.js';
import { aggregateTables } from '../score/tables/index.js';
import { aggregateRegions } from '../score/regions/index.js';
import { summarizeLatency, type LatencyStats } from '../score/latency.js';
import { calibration } from '../score/calibration/index.js';
import { compareSystems } from '../score/stats/index.js';
import type { DocumentScores } from './score-document.js';
import {
  SUMMARY_SCHEMA_VERSION,
  type ComparisonBlock,
  type ConfidenceBlock,
  type ExtractionBlock,
  type FieldRow,
  type LatencyBlock,
  type MarkdownBlock,
  type RunSummary,
  type TagBreakdown,
} from './types.js';

/** Bumped when a metric's definition changes, so numbers of different versions are not mixed silently. */
export const METRIC_VERSIONS: Record<string, string> = {
  extraction: 'field-f1/1 (docs/metrics/extraction.md)',
  markdown: 'ned-omnidocbench/1 (docs/metrics/markdown.md)',
  tables: 'teds/1',
  regions: 'iou-hungarian/1 (docs/metrics/regions.md)',
  calibration: 'ece-10-bins-(lo,hi]/1 (docs/metrics/calibration.md)',
  comparison: 'paired-bootstrap-10000/1 (docs/metrics/comparison.md)',
  latency: 'hyndman-fan-7/1 (docs/metrics/latency.md)',
};

export interface AggregateInput {
  manifest: RunManifest;
  documents: readonly DocumentScores[];
  /** Every final record (all repetitions): call counts and attempts. */
  records: readonly CallRecord[];
  skipped: RunSummary['skipped'];
  /** Target field F1 for the auto-accept threshold. @default 0.95 */
  autoAcceptTarget?: number;
  /** Seed of the paired bootstrap. @default 1 */
  seed?: number;
}

export function aggregateRun(input: AggregateInput): RunSummary {
  const { manifest, documents } = input;
  const modes = manifest.options.modes;
  const failedDocuments = documents.filter((d) => d.evaluation.status !== 'ok').length;

  const summary: RunSummary = {
    schema_version: SUMMARY_SCHEMA_VERSION,
    run_id: manifest.run_id,
    status: manifest.status,
    dataset: { name: manifest.dataset.name, version: manifest.dataset.version, content_hash: manifest.dataset.content_hash },
    service: { base_url: manifest.service.base_url, local: manifest.service.local },
    documents: { total: documents.length, succeeded: documents.length - failedDocuments, failed: failedDocuments },
    calls: callCounts(input.records),
    latency_ms: {},
    latency_per_page_ms: {},
    extraction: {},
    confidence: {},
    by_tag: {},
    fields: [],
    skipped: input.skipped,
    metric_versions: METRIC_VERSIONS,
  };

  for (const group of summarizeLatency(documents.flatMap((d) => d.latency))) {
    const key = group.mode ? `${group.endpoint}:${group.mode}` : group.endpoint;
    summary.latency_ms[key] = latencyBlock(group.perDocument, group.failed);
    summary.latency_per_page_ms[key] = latencyBlock(group.perPage, group.failed);
    if (group.serviceProcessing.count > 0) summary.service_processing_ms = latencyBlock(group.serviceProcessing, group.failed);
  }

  for (const mode of modes) {
    const scored = documents.flatMap((d) => (d.extraction[mode] ? [d.extraction[mode]!] : []));
    if (scored.length === 0) continue;
    const aggregate = aggregateExtraction(scored.map((s) => s.score));
    summary.extraction[mode] = extractionBlock(aggregate, scored.filter((s) => s.failed).length, scored.filter((s) => s.parseFailure).length);
    summary.fields.push(...fieldRows(aggregate, mode));
    const items = scored.filter((s) => s.confidence !== null).map((s) => ({ confidence: s.confidence!, correct: s.score.f1 }));
    summary.confidence[mode] = confidenceBlock(items, input.autoAcceptTarget ?? 0.95);
  }
  const baselineScores = documents.flatMap((d) => (d.extractionBaseline ? [d.extractionBaseline] : []));
  if (baselineScores.length > 0) {
    const aggregate = aggregateExtraction(baselineScores);
    summary.extraction_baseline = extractionBlock(aggregate, 0, 0);
    summary.fields.push(...fieldRows(aggregate, 'baseline'));
  }
  summary.fields.sort((a, b) => a.f1 - b.f1 || a.path.localeCompare(b.path));

  const markdown = markdownBlocks(documents, input.seed ?? 1);
  if (markdown) summary.markdown = markdown;

  const regionDocs = documents.flatMap((d) => (d.regions ? [d.regions] : []));
  if (regionDocs.length > 0) {
    const regions = aggregateRegions(regionDocs.map((r) => r.counts));
    summary.regions = {
      at50: { precision: regions.at50.precision, recall: regions.at50.recall, f1: regions.at50.f1 },
      at75: { precision: regions.at75.precision, recall: regions.at75.recall, f1: regions.at75.f1 },
      mean_iou: regions.meanIoU,
      char_accuracy: regions.charAccuracy,
      documents: regionDocs.length,
      failed: regionDocs.filter((r) => r.failed).length,
    };
  }

  const repeats = repeatSpread(documents, modes);
  if (repeats) summary.repeat = repeats;
  summary.by_tag = tagBreakdowns(documents, modes);
  return summary;
}

function callCounts(records: readonly CallRecord[]): RunSummary['calls'] {
  const calls: RunSummary['calls'] = {};
  for (const record of records) {
    const key = record.mode ? `${record.endpoint}:${record.mode}` : record.endpoint;
    const entry = (calls[key] ??= { calls: 0, failed: 0, attempts: 0, retried: 0, from_cache: 0 });
    entry.calls++;
    if (record.status === 'failed') entry.failed++;
    if (record.from_cache) entry.from_cache++;
    else {
      entry.attempts += record.attempts;
      if (record.attempts > 1) entry.retried++;
    }
  }
  return calls;
}

function latencyBlock(stats: LatencyStats, failed: number): LatencyBlock {
  return { count: stats.count, failed, p50: stats.p50, p90: stats.p90, p95: stats.p95, p99: stats.p99, mean: stats.mean, max: stats.max, method: stats.method };
}

function extractionBlock(aggregate: ExtractionAggregate, failed: number, parseFailures: number): ExtractionBlock {
  return {
    precision: aggregate.micro.precision,
    recall: aggregate.micro.recall,
    f1: aggregate.micro.f1,
    strict_precision: aggregate.strict.precision,
    strict_recall: aggregate.strict.recall,
    strict_f1: aggregate.strict.f1,
    macro_f1: aggregate.macro.f1,
    exact_match_rate: aggregate.exactMatchRate,
    parse_failures: parseFailures,
    parse_failure_rate: aggregate.documents === 0 ? 0 : parseFailures / aggregate.documents,
    documents: aggregate.documents,
    failed,
    line_item_f1: aggregate.items.f1,
    item_count_error: aggregate.itemCountError,
    anls: aggregate.anls?.mean ?? null,
    tp: aggregate.micro.tp,
    fp: aggregate.micro.fp,
    fn: aggregate.micro.fn,
  };
}

function fieldRows(aggregate: ExtractionAggregate, mode: Mode | 'baseline'): FieldRow[] {
  return aggregate.byPath.map((p) => ({
    path: p.path,
    mode,
    tp: p.tp,
    fp: p.fp,
    fn: p.fn,
    precision: p.precision,
    recall: p.recall,
    f1: p.f1,
    missing: p.errors.missing,
    hallucinated: p.errors.hallucinated,
    wrong_value: p.errors.wrong_value,
    format_only: p.errors.format_only,
  }));
}

function confidenceBlock(items: { confidence: number; correct: number }[], target: number): ConfidenceBlock {
  if (items.length === 0) {
    return { mean: null, ece: null, adaptive_ece: null, brier: null, auroc: null, auto_accept_threshold: null, auto_accept_share: null, auto_accept_target: target, documents: 0, bins: [], risk_coverage: [] };
  }
  const result = calibration(items, { target });
  return {
    mean: items.reduce((s, i) => s + i.confidence, 0) / items.length,
    ece: result.ece,
    adaptive_ece: result.adaptiveEce,
    brier: result.brier,
    auroc: result.auroc,
    auto_accept_threshold: result.autoAccept?.threshold ?? null,
    auto_accept_share: result.autoAccept?.coverage ?? null,
    auto_accept_target: target,
    documents: items.length,
    bins: result.bins.map((b) => ({ lo: b.lo * 100, hi: b.hi * 100, count: b.count, confidence: b.meanConfidence === null ? null : b.meanConfidence * 100, accuracy: b.accuracy })),
    risk_coverage: result.riskCoverage.map((p) => ({ threshold: p.threshold, coverage: p.coverage, accuracy: p.accuracy })),
  };
}

function markdownBlocks(documents: readonly DocumentScores[], seed: number): RunSummary['markdown'] | undefined {
  const service = documents.flatMap((d) => (d.markdown?.service ? [d.markdown.service] : []));
  const drift = documents.flatMap((d) => (d.markdown?.drift ? [d.markdown.drift] : []));
  if (service.length === 0 && drift.length === 0) return undefined;
  const block = (scored: typeof service): MarkdownBlock => {
    const pages = aggregateMarkdown(scored.map((s) => s.score));
    const words = aggregateWords(scored.map((s) => s.words));
    const tables = aggregateTables(scored.flatMap((s) => (s.tables ? [s.tables] : [])));
    return {
      similarity: pages.micro ?? 0,
      similarity_macro: pages.macro ?? 0,
      raw_similarity: pages.raw.micro ?? 0,
      word_precision: words.precision ?? 0,
      word_recall: words.recall ?? 0,
      teds: tables.teds,
      teds_structure: tables.tedsStructure,
      documents: pages.documents,
      pages: pages.pages,
      failed: pages.failedDocuments,
      both_empty_pages: pages.bothEmptyPages,
    };
  };
  const result: NonNullable<RunSummary['markdown']> = { service: block(service) };
  const paired = documents.filter((d) => d.markdown?.service && d.markdown.baseline);
  if (paired.length > 0) {
    result.baseline = block(paired.map((d) => d.markdown!.baseline!));
    result.head_to_head = headToHeadBlock(paired, seed);
  }
  if (drift.length > 0) {
    const aggregate = aggregateMarkdown(drift);
    result.drift = { similarity: aggregate.micro ?? 0, documents: aggregate.documents };
  }
  return result;
}

/**
 * Service vs incumbent on the documents that have both: Δ of the headline (micro) similarity, recomputed
 * from summed edits and lengths on every bootstrap resample; wins/losses/ties and the tests on per-document
 * similarities.
 */
function headToHeadBlock(paired: readonly DocumentScores[], seed: number): ComparisonBlock {
  const service = paired.map((d) => d.markdown!.service!.score);
  const baseline = paired.map((d) => d.markdown!.baseline!.score);
  // Δ and its interval on the headline (micro) similarity, recomputed on every resample; wins, losses and
  // the tests on per-document similarities.
  const per = compareSystems(
    service.map((s) => s.similarity),
    baseline.map((s) => s.similarity),
    { seed, statistic: createMicroSimilarityDelta(service, baseline) },
  );
  return {
    delta: per.delta,
    ci95: per.ci95,
    wins: per.wins,
    losses: per.losses,
    ties: per.ties,
    p_sign: per.pSign,
    p_wilcoxon: per.pWilcoxon,
    documents: paired.length,
  };
}

function repeatSpread(documents: readonly DocumentScores[], modes: readonly Mode[]): RunSummary['repeat'] | undefined {
  const std = (values: number[]) => {
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
  };
  const meanOf = (values: number[]) => (values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length);
  let runs = 0;
  const f1: Partial<Record<Mode, number>> = {};
  for (const mode of modes) {
    const spreads = documents.flatMap((d) => (d.repeats.f1[mode] ? [d.repeats.f1[mode]!] : []));
    if (spreads.length === 0) continue;
    runs = Math.max(runs, ...spreads.map((s) => s.length));
    f1[mode] = meanOf(spreads.map(std))!;
  }
  const similarity = documents.filter((d) => d.repeats.similarity.length > 1).map((d) => d.repeats.similarity);
  runs = Math.max(runs, ...similarity.map((s) => s.length), 0);
  if (runs < 2) return undefined;
  return { runs, f1_std_mean: f1, similarity_std_mean: meanOf(similarity.map(std)) };
}

function tagBreakdowns(documents: readonly DocumentScores[], modes: readonly Mode[]): RunSummary['by_tag'] {
  const groups = new Map<string, Map<string, DocumentScores[]>>();
  for (const doc of documents) {
    for (const [key, value] of Object.entries(doc.evaluation.tags)) {
      const byValue = groups.get(key) ?? new Map<string, DocumentScores[]>();
      groups.set(key, byValue);
      byValue.set(value, [...(byValue.get(value) ?? []), doc]);
    }
  }
  const byTag: RunSummary['by_tag'] = {};
  for (const [key, byValue] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    byTag[key] = {};
    for (const [value, docs] of [...byValue].sort(([a], [b]) => a.localeCompare(b))) {
      const breakdown: TagBreakdown = {
        documents: docs.length,
        failed: docs.filter((d) => d.evaluation.status !== 'ok').length,
        extraction_f1: {},
        exact_match_rate: {},
        similarity_service: microSimilarity(docs.flatMap((d) => (d.markdown?.service ? [d.markdown.service.score] : []))),
        similarity_baseline: microSimilarity(docs.flatMap((d) => (d.markdown?.baseline ? [d.markdown.baseline.score] : []))),
      };
      for (const mode of modes) {
        const scored: ExtractionScore[] = docs.flatMap((d) => (d.extraction[mode] ? [d.extraction[mode]!.score] : []));
        if (scored.length === 0) continue;
        const aggregate = aggregateExtraction(scored);
        breakdown.extraction_f1[mode] = aggregate.micro.f1;
        breakdown.exact_match_rate[mode] = aggregate.exactMatchRate;
      }
      byTag[key]![value] = breakdown;
    }
  }
  return byTag;
}

function microSimilarity(scores: readonly MarkdownDocumentScore[]): number | null {
  return scores.length === 0 ? null : aggregateMarkdown(scores).micro;
}
