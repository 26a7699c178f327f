/**
 * From per-document scores to the run's headline numbers (summary.json). Pure: the scorers' aggregation
 * functions do the arithmetic; this assembles the documented blocks of every system, by mode and by tag,
 * and `compare-run-systems.ts` sets the systems against each other.
 */
import { repeatAgreement } from './repeat-agreement.js';
import type { Mode } from '../types.js';
import type { CallRecord, RunManifest } from '../run-dir/index.js';
import { checksBlock } from './document-checks.js';
import {
  aggregateExtraction,
  type ExtractionAggregate,
  type ExtractionScore,
  aggregateMarkdown,
  aggregateBlocks,
  aggregateWords,
  aggregateTables,
  aggregateRegions,
  summarizeLatency,
  type LatencyStats,
  calibration,
} from '../score/index.js';
import type { DocumentScores, SystemDocumentScores } from './kept-scores.js';
import type { RunSystems } from './run-systems.js';
import { compareRunSystems } from './compare-run-systems.js';
import { tagIntervals } from './tag-intervals.js';
import {
  SUMMARY_SCHEMA_VERSION,
  type ConfidenceBlock,
  type CostBlock,
  type ExtractionBlock,
  type FieldRow,
  type LatencyBlock,
  type MarkdownBlock,
  type RunSummary,
  type SystemSummary,
  type TagBreakdown,
} from '../run-dir/index.js';

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
  run: RunSystems;
  documents: readonly DocumentScores[];
  /** Every final record (all repetitions) per system and document: call counts, attempts and cost. */
  records: ReadonlyMap<string, ReadonlyMap<string, readonly CallRecord[]>>;
  skipped: RunSummary['skipped'];
  /** Target field F1 for the auto-accept threshold. @default 0.95 */
  autoAcceptTarget?: number;
  /** Seed of the paired bootstrap. @default 1 */
  seed?: number;
  /** The normalisation settings and schema hash the scores were made with (summary.json `scoring`). */
  scoring?: RunSummary['scoring'];
}

export function aggregateRun(input: AggregateInput): RunSummary {
  const { manifest, run } = input;
  const seed = input.seed ?? 1;
  const systems: Record<string, SystemSummary> = {};
  for (const system of run.systems) {
    const documents = input.documents.flatMap((d) => {
      const scores = d.systems.get(system.name);
      return scores ? [{ tags: d.tags, scores }] : [];
    });
    const records = [...(input.records.get(system.name)?.values() ?? [])].flat();
    systems[system.name] = aggregateSystem(
      system.kind,
      documents,
      records,
      manifest.options.modes,
      input.autoAcceptTarget ?? 0.95,
      seed,
    );
  }
  for (const system of run.systems) {
    const perDocument = input.documents.flatMap((d) => {
      const results = d.checks?.get(system.name);
      return results ? [results] : [];
    });
    if (perDocument.length > 0 && systems[system.name]) systems[system.name]!.checks = checksBlock(perDocument, seed);
  }
  const names = run.systems.map((s) => s.name);
  const compared = compareRunSystems(input.documents, names, run.reference, manifest.options.modes, seed);
  return {
    schema_version: SUMMARY_SCHEMA_VERSION,
    run_id: manifest.run_id,
    status: manifest.status,
    dataset: {
      name: manifest.dataset.name,
      version: manifest.dataset.version,
      content_hash: manifest.dataset.content_hash,
    },
    system_names: names,
    reference: run.reference,
    primary: run.primary,
    systems,
    ...compared,
    skipped: input.skipped,
    metric_versions: METRIC_VERSIONS,
    ...(input.scoring ? { scoring: input.scoring } : {}),
  };
}

/** One system's documents: its scores and the document's tags. */
interface SystemDocuments {
  tags: Record<string, string>;
  scores: SystemDocumentScores;
}

/** The blocks a single-system summary has, for one system. */
export function aggregateSystem(
  kind: string,
  documents: readonly SystemDocuments[],
  records: readonly CallRecord[],
  modes: readonly Mode[],
  autoAcceptTarget: number,
  seed = 1,
): SystemSummary {
  const scores = documents.map((d) => d.scores);
  const failedDocuments = scores.filter((d) => d.evaluation.status !== 'ok').length;
  const summary: SystemSummary = {
    kind,
    documents: { total: scores.length, succeeded: scores.length - failedDocuments, failed: failedDocuments },
    calls: callCounts(records),
    latency_ms: {},
    latency_per_page_ms: {},
    extraction: {},
    confidence: {},
    by_tag: {},
    fields: [],
  };

  for (const group of summarizeLatency(scores.flatMap((d) => d.latency))) {
    const key = group.mode ? `${group.endpoint}:${group.mode}` : group.endpoint;
    summary.latency_ms[key] = latencyBlock(group.perDocument, group.failed);
    summary.latency_per_page_ms[key] = latencyBlock(group.perPage, group.failed);
    if (group.serviceProcessing.count > 0)
      summary.service_processing_ms = latencyBlock(group.serviceProcessing, group.failed);
  }

  for (const mode of modes) {
    const scored = scores.flatMap((d) => (d.extraction[mode] ? [d.extraction[mode]!] : []));
    if (scored.length === 0) continue;
    const aggregate = aggregateExtraction(scored.map((s) => s.score));
    summary.extraction[mode] = extractionBlock(
      aggregate,
      scored.filter((s) => s.failed).length,
      scored.filter((s) => s.parseFailure).length,
    );
    summary.fields.push(...fieldRows(aggregate, mode));
    const items = scored
      .filter((s) => s.confidence !== null)
      .map((s) => ({ confidence: s.confidence!, correct: s.score.f1 }));
    summary.confidence[mode] = confidenceBlock(items, autoAcceptTarget);
  }
  summary.fields.sort((a, b) => a.f1 - b.f1 || a.path.localeCompare(b.path));

  const markdown = scores.flatMap((d) => (d.markdown ? [d.markdown] : []));
  if (markdown.length > 0) summary.markdown = markdownBlock(markdown);
  const drift = scores.flatMap((d) => (d.drift ? [d.drift] : []));
  if (drift.length > 0) {
    const aggregate = aggregateMarkdown(drift);
    summary.markdown_drift = { similarity: aggregate.micro ?? 0, documents: aggregate.documents };
  }

  const regionDocs = scores.flatMap((d) => (d.regions ? [d.regions] : []));
  if (regionDocs.length > 0) {
    const regions = aggregateRegions(regionDocs.map((r) => r.counts));
    summary.regions = {
      at50: { precision: regions.at50.precision, recall: regions.at50.recall, f1: regions.at50.f1 },
      at75: { precision: regions.at75.precision, recall: regions.at75.recall, f1: regions.at75.f1 },
      mean_iou: regions.meanIoU,
      char_accuracy: regions.charAccuracy,
      reading_order: regions.readingOrder,
      documents: regionDocs.length,
      failed: regionDocs.filter((r) => r.failed).length,
    };
  }

  const repeats = repeatSpread(scores, modes);
  if (repeats) summary.repeat = repeats;
  summary.by_tag = tagBreakdowns(documents, modes, seed);
  const cost = costBlock(scores, records, summary);
  if (cost) summary.cost = cost;
  return summary;
}

/**
 * Cost from the records' `cost_usd` (first repetition). Per correct field: the extraction calls' cost over
 * the true positives of every mode scored, i.e. what one correct field cost. Null blocks for systems
 * without prices: "unknown" is not "free".
 */
function costBlock(
  scores: readonly SystemDocumentScores[],
  records: readonly CallRecord[],
  summary: SystemSummary,
): CostBlock | null {
  const first = records.filter((r) => r.repeat === 0);
  const priced = first.filter((r) => typeof r.cost_usd === 'number' && Number.isFinite(r.cost_usd));
  if (priced.length === 0) return null;
  const total = priced.reduce((sum, r) => sum + r.cost_usd!, 0);
  const extractionCost = priced.filter((r) => r.endpoint === 'extract').reduce((sum, r) => sum + r.cost_usd!, 0);
  const correct = Object.values(summary.extraction).reduce((sum, block) => sum + block.tp, 0);
  const pageCounts = scores.map((d) => d.evaluation.pages);
  const pages = pageCounts.every((p) => p !== null) ? pageCounts.reduce<number>((sum, p) => sum + p!, 0) : null;
  return {
    total_usd: total,
    per_page_usd: pages ? total / pages : null,
    per_document_usd: scores.length === 0 ? 0 : total / scores.length,
    per_correct_field_usd:
      correct > 0 && priced.some((r) => r.endpoint === 'extract') ? extractionCost / correct : null,
    priced_calls: priced.length,
    calls: first.length,
  };
}

function callCounts(records: readonly CallRecord[]): SystemSummary['calls'] {
  const calls: SystemSummary['calls'] = {};
  for (const record of records) {
    const key = record.mode ? `${record.endpoint}:${record.mode}` : record.endpoint;
    calls[key] ??= { calls: 0, failed: 0, attempts: 0, retried: 0, from_cache: 0 };
    const entry = calls[key];
    entry.calls++;
    if (record.status === 'failed') {
      entry.failed++;
      // Counted apart: a configuration fault (the token limit), not the system's reading (docs/summary-json.md).
      if (record.error.code === 'SERVICE_OUTPUT_TRUNCATED') entry.truncated = (entry.truncated ?? 0) + 1;
    }
    if (record.from_cache) entry.from_cache++;
    else {
      entry.attempts += record.attempts;
      if (record.attempts > 1) entry.retried++;
    }
  }
  return calls;
}

function latencyBlock(stats: LatencyStats, failed: number): LatencyBlock {
  return {
    count: stats.count,
    failed,
    p50: stats.p50,
    p90: stats.p90,
    p95: stats.p95,
    p99: stats.p99,
    mean: stats.mean,
    max: stats.max,
    method: stats.method,
  };
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
    ...(aggregate.misses ? { misses: aggregate.misses } : {}),
  };
}

function fieldRows(aggregate: ExtractionAggregate, mode: Mode): FieldRow[] {
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
    ...(p.misses ? { not_in_text: p.misses.not_in_text, in_text: p.misses.in_text } : {}),
  }));
}

function confidenceBlock(items: { confidence: number; correct: number }[], target: number): ConfidenceBlock {
  if (items.length === 0) {
    return {
      mean: null,
      ece: null,
      adaptive_ece: null,
      brier: null,
      auroc: null,
      auto_accept_threshold: null,
      auto_accept_share: null,
      auto_accept_target: target,
      documents: 0,
      bins: [],
      risk_coverage: [],
    };
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
    bins: result.bins.map((b) => ({
      lo: b.lo * 100,
      hi: b.hi * 100,
      count: b.count,
      confidence: b.meanConfidence === null ? null : b.meanConfidence * 100,
      accuracy: b.accuracy,
    })),
    risk_coverage: result.riskCoverage.map((p) => ({
      threshold: p.threshold,
      coverage: p.coverage,
      accuracy: p.accuracy,
    })),
  };
}

function markdownBlock(scored: readonly NonNullable<SystemDocumentScores['markdown']>[]): MarkdownBlock {
  const pages = aggregateMarkdown(scored.map((s) => s.score));
  const words = aggregateWords(scored.map((s) => s.words));
  const tables = aggregateTables(scored.flatMap((s) => (s.tables ? [s.tables] : [])));
  const block: MarkdownBlock = {
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
  const blockPages = scored.flatMap((s) => s.blocks?.pages ?? []);
  if (blockPages.length > 0) block.blocks = aggregateBlocks(blockPages);
  return block;
}

function repeatSpread(
  documents: readonly SystemDocumentScores[],
  modes: readonly Mode[],
): SystemSummary['repeat'] | undefined {
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
  const agreement = repeatAgreement(documents, modes);
  return {
    runs,
    f1_std_mean: f1,
    similarity_std_mean: meanOf(similarity.map(std)),
    ...(agreement ? { agreement } : {}),
  };
}

function tagBreakdowns(
  documents: readonly SystemDocuments[],
  modes: readonly Mode[],
  seed: number,
): SystemSummary['by_tag'] {
  const groups = new Map<string, Map<string, SystemDocumentScores[]>>();
  for (const doc of documents) {
    for (const [key, value] of Object.entries(doc.tags)) {
      const byValue = groups.get(key) ?? new Map<string, SystemDocumentScores[]>();
      groups.set(key, byValue);
      const list = byValue.get(value);
      if (list) list.push(doc.scores);
      else byValue.set(value, [doc.scores]);
    }
  }
  const byTag: SystemSummary['by_tag'] = {};
  const groupsOfTags: { breakdown: TagBreakdown; docs: SystemDocumentScores[] }[] = [];
  for (const [key, byValue] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    byTag[key] = {};
    for (const [value, docs] of [...byValue].sort(([a], [b]) => a.localeCompare(b))) {
      const markdown = docs.flatMap((d) => (d.markdown ? [d.markdown.score] : []));
      const breakdown: TagBreakdown = {
        documents: docs.length,
        failed: docs.filter((d) => d.evaluation.status !== 'ok').length,
        extraction_f1: {},
        exact_match_rate: {},
        similarity: markdown.length === 0 ? null : aggregateMarkdown(markdown).micro,
      };
      const blockPages = docs.flatMap((d) => d.markdown?.blocks?.pages ?? []);
      if (blockPages.length > 0) breakdown.blocks = aggregateBlocks(blockPages);
      for (const mode of modes) {
        const scored: ExtractionScore[] = docs.flatMap((d) => (d.extraction[mode] ? [d.extraction[mode]!.score] : []));
        if (scored.length === 0) continue;
        const aggregate = aggregateExtraction(scored);
        breakdown.extraction_f1[mode] = aggregate.micro.f1;
        breakdown.exact_match_rate[mode] = aggregate.exactMatchRate;
      }
      byTag[key]![value] = breakdown;
      groupsOfTags.push({ breakdown, docs });
    }
  }
  const intervals = tagIntervals(
    groupsOfTags.map((group) => group.docs),
    modes,
    seed,
  );
  groupsOfTags.forEach((group, index) => {
    group.breakdown.ci95 = intervals[index]!;
  });
  return byTag;
}
