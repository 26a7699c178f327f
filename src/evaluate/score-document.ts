/**
 * Scores one system's answers for one document of a stored run: its final records (one per planned call)
 * against the document's truth. Every system — the candidate, the incumbent, any other — goes through this
 * one function. Pure: truth comes in already loaded. A planned call without a successful record scores as
 * empty output, never skipped (docs/metrics.md: "failures are never skipped").
 */
import type { Endpoint, JsonObject, Mode, ComparatorSpec, DateLocale, JsonSchema } from '../types.js';
import type { RegionPage } from '../service/index.js';
import type { CallRecord, DocumentExtraction, DocumentMarkdown, SystemDocument } from '../run-dir/index.js';
import {
  scoreExtraction,
  type ExtractionScore,
  type FieldResult,
  scoreMarkdownPages,
  scoreWords,
  scoreMarkdownDrift,
  type MarkdownDocumentScore,
  type WordScore,
  scoreTables,
  type TablesScore,
  scoreRegions,
  type RegionCounts,
  scoreDocumentBlocks,
  type DocumentBlocks,
  type TruthBlock,
  type LatencySample,
} from '../score/index.js';

/** What the dataset holds for a document, loaded. Absent = no such file. */
export interface LoadedTruth {
  json?: JsonObject;
  markdown?: string[];
  regions?: RegionPage[];
  /** The truth blocks per page, for the block metrics: truth/<id>.blocks.json's, or the truth markdown's split. */
  blocks?: TruthBlock[][];
}

/** A call the plan holds for this document (repeat 0). */
export interface PlannedSlot {
  endpoint: Endpoint;
  mode: Mode | null;
}

export interface ScoringOptions {
  schema: JsonSchema;
  comparators: Record<string, ComparatorSpec>;
  locale: DateLocale;
}

/** One system's scores of one document, as scoring makes them: documents.jsonl's entry, the texts, the field values. */
export interface ScoredSystemDocument {
  evaluation: SystemDocument;
  extraction: Partial<
    Record<Mode, { score: ExtractionScore; failed: boolean; parseFailure: boolean; confidence: number | null }>
  >;
  markdown?: { score: MarkdownDocumentScore; words: WordScore; tables: TablesScore | null; blocks?: DocumentBlocks };
  drift?: MarkdownDocumentScore;
  regions?: { counts: RegionCounts; failed: boolean };
  latency: LatencySample[];
  /**
   * With --repeat: per mode, document F1 of each repetition, whether each was an exact match, and the collapsed
   * field paths whose predicted values differ between them; similarity of each repetition, and whether the
   * markdown texts differ between them (docs/summary-json.md, `repeat.agreement`).
   */
  repeats: {
    f1: Partial<Record<Mode, number[]>>;
    similarity: number[];
    extraction: Partial<Record<Mode, { exact: boolean[]; flakyFields: string[] }>>;
    markdownDiffers?: boolean;
  };
  /** The markdown pages the system returned (null: no successful /compare); for the drill-down and drift. */
  pages?: string[] | null;
  /** The regions it returned, for the drill-down. */
  regionPages?: RegionPage[];
}

/** The text of a successful /compare record, or null. */
export function readComparePages(records: readonly CallRecord[]): string[] | null {
  const record = records.find((r) => r.repeat === 0 && r.endpoint === 'compare');
  return record?.status === 'ok' && record.endpoint === 'compare' && record.result
    ? record.result.pages.map((p) => p.content)
    : null;
}

/**
 * @param referencePages the reference system's markdown for this document: with no truth markdown, the
 *   system's similarity to it is reported as drift (change, not accuracy). Null for the reference itself.
 */
export function scoreDocument(
  planned: readonly PlannedSlot[],
  records: readonly CallRecord[],
  truth: LoadedTruth,
  referencePages: string[] | null,
  options: ScoringOptions,
): ScoredSystemDocument {
  const first = records.filter((r) => r.repeat === 0);
  const evaluation: SystemDocument = {
    status: 'ok',
    errors: [],
    dashboard_url: null,
    comparison_id: null,
    pages: null,
    extraction: {},
    latency_ms: {},
    cost_usd: null,
  };
  const scores: ScoredSystemDocument = {
    evaluation,
    extraction: {},
    latency: [],
    repeats: { f1: {}, similarity: [], extraction: {} },
  };

  recordCallOutcomes(planned, first, evaluation);
  // A miss is classed against the system's own markdown when it gave one (docs/metrics/extraction.md).
  if (truth.json) scoreExtractionModes(planned, first, records, truth.json, readComparePages(first), options, scores);
  if (planned.some((s) => s.endpoint === 'compare')) scoreCompare(first, records, truth, referencePages, scores);
  if (planned.some((s) => s.endpoint === 'split') && truth.regions) scoreSplit(first, truth.regions, scores);
  recordLatency(first, truth, scores);
  return scores;
}

/** The first repetition's record of a planned call, if any. */
function findFirst(first: readonly CallRecord[], endpoint: Endpoint, mode: Mode | null): CallRecord | undefined {
  return first.find((r) => r.endpoint === endpoint && r.mode === mode);
}

/** The document's status, errors, latencies, page count and cost, from each planned call's record: a planned call
 * without one was not run. */
function recordCallOutcomes(
  planned: readonly PlannedSlot[],
  first: readonly CallRecord[],
  evaluation: SystemDocument,
): void {
  let failedCalls = 0;
  for (const slot of planned) {
    const record = findFirst(first, slot.endpoint, slot.mode);
    const key = slot.mode ? `${slot.endpoint}:${slot.mode}` : slot.endpoint;
    if (!record || record.status === 'failed') {
      failedCalls++;
      evaluation.errors.push({
        endpoint: slot.endpoint,
        mode: slot.mode,
        code: record?.error?.code ?? 'NOT_RUN',
        message: record?.error?.message ?? 'the call was not made: the run stopped before it',
        ...(record?.error?.status !== undefined ? { status: record.error.status } : {}),
      });
    }
    if (record) {
      evaluation.latency_ms[key] = record.latency_ms;
      if (record.pages !== undefined) evaluation.pages ??= record.pages;
      if (record.cost_usd !== undefined) evaluation.cost_usd = (evaluation.cost_usd ?? 0) + record.cost_usd;
    }
  }
  evaluation.status = failedCalls === 0 ? 'ok' : failedCalls === planned.length ? 'failed' : 'partial';
}

/** Extraction, per mode: the first repetition's score against the truth JSON, and each repetition's F1. */
function scoreExtractionModes(
  planned: readonly PlannedSlot[],
  first: readonly CallRecord[],
  records: readonly CallRecord[],
  truthJson: JsonObject,
  text: string[] | null,
  options: ScoringOptions,
  scores: ScoredSystemDocument,
): void {
  const extractionOptions = { schema: options.schema, comparators: options.comparators, locale: options.locale };
  for (const slot of planned.filter((s) => s.endpoint === 'extract')) {
    const mode = slot.mode!;
    const record = findFirst(first, 'extract', mode);
    const ok = record?.status === 'ok' && record.endpoint === 'extract' && record.result !== undefined;
    const parseFailure = record?.status === 'failed' && record.error?.code === 'SERVICE_RESPONSE_INVALID';
    const confidence = ok && record.endpoint === 'extract' ? (record.result?.confidence ?? null) : null;
    const prediction = ok && record.endpoint === 'extract' ? record.result!.data : {};
    const score = scoreExtraction(truthJson, prediction, { ...extractionOptions, parseFailure: !ok, text });
    scores.extraction[mode] = { score, failed: !ok, parseFailure, confidence };
    scores.evaluation.extraction[mode] = toDocumentExtraction(score, !ok && parseFailure, confidence);
    const repeatScores = records
      .filter((r) => r.endpoint === 'extract' && r.mode === mode)
      .sort((a, b) => a.repeat - b.repeat)
      .map((r) =>
        scoreExtraction(truthJson, r.status === 'ok' && r.endpoint === 'extract' && r.result ? r.result.data : {}, {
          ...extractionOptions,
          parseFailure: r.status !== 'ok',
        }),
      );
    if (repeatScores.length > 1) {
      scores.repeats.f1[mode] = repeatScores.map((repeat) => repeat.f1);
      scores.repeats.extraction[mode] = {
        exact: repeatScores.map((repeat) => repeat.exactMatch),
        flakyFields: differingFields(repeatScores.map((repeat) => repeat.fields)),
      };
    }
  }
}

/** Markdown, from /compare: against the truth markdown (with each repetition's similarity), or, with none, the
 * drift from the reference's. */
function scoreCompare(
  first: readonly CallRecord[],
  records: readonly CallRecord[],
  truth: LoadedTruth,
  referencePages: string[] | null,
  scores: ScoredSystemDocument,
): void {
  const { evaluation } = scores;
  const record = findFirst(first, 'compare', null);
  const pages = readComparePages(first);
  if (record?.endpoint === 'compare' && record.status === 'ok') {
    evaluation.dashboard_url = record.result.dashboardUrl;
    evaluation.comparison_id = record.result.comparisonId;
  }
  scores.pages = pages;
  if (truth.markdown) {
    const truthMarkdown = truth.markdown;
    const score = scoreMarkdownPages(pages, truthMarkdown);
    const tables = scoreTables(pages === null ? null : pages.join('\n\n'), truthMarkdown.join('\n\n'));
    const blocks = truth.blocks ? scoreDocumentBlocks(truth.blocks, pages) : undefined;
    scores.markdown = {
      score,
      words: scoreWords(pages, truthMarkdown),
      tables: tables.truthTables > 0 ? tables : null,
      ...(blocks ? { blocks } : {}),
    };
    evaluation.markdown = { ...toDocumentMarkdown(score), teds: tables.teds, ...(blocks ? { blocks } : {}) };
    const repeatPages = records
      .filter((r) => r.endpoint === 'compare')
      .sort((a, b) => a.repeat - b.repeat)
      .map((r) =>
        r.status === 'ok' && r.endpoint === 'compare' && r.result ? r.result.pages.map((p) => p.content) : null,
      );
    if (repeatPages.length > 1) {
      scores.repeats.similarity = repeatPages.map((texts) => scoreMarkdownPages(texts, truthMarkdown).similarity);
      scores.repeats.markdownDiffers = new Set(repeatPages.map((texts) => JSON.stringify(texts))).size > 1;
    }
  } else if (referencePages) {
    // No truth: the similarity between this system and the reference measures change, not accuracy.
    scores.drift = scoreMarkdownDrift(pages, referencePages);
    evaluation.markdown_drift = scores.drift.similarity;
  }
}

/** Regions, from /split, against the truth regions. */
function scoreSplit(first: readonly CallRecord[], truthRegions: RegionPage[], scores: ScoredSystemDocument): void {
  const record = findFirst(first, 'split', null);
  const predicted =
    record?.status === 'ok' && record.endpoint === 'split' && record.result ? record.result.pages : null;
  const regions = scoreRegions(predicted, truthRegions);
  scores.regions = { counts: regions, failed: regions.failed };
  scores.evaluation.regions = {
    f1_at50: regions.at50.f1,
    f1_at75: regions.at75.f1,
    mean_iou: regions.meanIoU,
    char_accuracy: regions.charAccuracy,
    reading_order: regions.readingOrder,
  };
  scores.regionPages = predicted ?? [];
}

/**
 * The collapsed paths of the fields whose predicted value differs between repetitions (a repetition without the
 * field counts as null there), sorted.
 */
function differingFields(repeats: readonly (readonly FieldResult[])[]): string[] {
  const byPath = new Map<string, { collapsed: string; answers: string[] }>();
  repeats.forEach((fields, i) => {
    for (const field of fields) {
      const entry = byPath.get(field.path) ?? { collapsed: field.collapsedPath, answers: repeats.map(() => 'null') };
      entry.answers[i] = JSON.stringify(field.prediction ?? null);
      byPath.set(field.path, entry);
    }
  });
  const flaky = [...byPath.values()].filter((entry) => new Set(entry.answers).size > 1);
  return [...new Set(flaky.map((entry) => entry.collapsed))].sort();
}

/** Latency, every recorded call of the first repetition (failed ones are counted, not in the percentiles). */
function recordLatency(first: readonly CallRecord[], truth: LoadedTruth, scores: ScoredSystemDocument): void {
  const pageCount = scores.evaluation.pages ?? truth.markdown?.length ?? truth.regions?.length ?? null;
  for (const record of first) {
    scores.latency.push({
      endpoint: record.endpoint,
      mode: record.mode,
      latencyMs: record.latency_ms,
      outcome: record.status === 'ok' ? 'ok' : record.error.code === 'SERVICE_TIMEOUT' ? 'timeout' : 'failed',
      pages: record.pages ?? pageCount,
      processingTimeMs: record.endpoint === 'process' && record.status === 'ok' ? record.result.processingTimeMs : null,
    });
  }
}

function toDocumentExtraction(
  score: ExtractionScore,
  parseFailure: boolean,
  confidence: number | null,
): DocumentExtraction {
  return {
    f1: score.f1,
    precision: score.precision,
    recall: score.recall,
    strict_f1: score.strict.f1,
    exact_match: score.exactMatch,
    tp: score.tp,
    fp: score.fp,
    fn: score.fn,
    parse_failure: parseFailure,
    confidence,
    fields: score.fields
      .filter((f) => f.verdict !== 'tn')
      .map((f) => ({
        path: f.path,
        truth: f.truth ?? null,
        prediction: f.prediction ?? null,
        verdict: f.verdict,
        strict_verdict: f.strictVerdict,
        ...(f.error ? { error: f.error } : {}),
        ...(f.miss ? { miss: f.miss } : {}),
        ...(f.textMatch ? { text_match: f.textMatch } : {}),
      })),
    ...(score.misses ? { misses: score.misses } : {}),
  };
}

function toDocumentMarkdown(score: MarkdownDocumentScore): DocumentMarkdown {
  return {
    similarity: score.similarity,
    edits: score.edits,
    length: score.length,
    raw_similarity: score.raw.similarity,
    pages: score.pages.map((p) => ({ page: p.page, similarity: p.similarity })),
  };
}
