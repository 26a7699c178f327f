/**
 * summary.json: read (validated, by schema version) and written here only. The format: RunSummary in
 * evaluation-types.ts. Each readable schema version is one row of SUMMARY_READERS: its own shape check, then
 * the step to the current in-memory form, so files written by an older docbench stay readable. A version 2
 * is one more row; version 1's row then converts what it checked into the version 2 form.
 */
import { UsageError } from '../errors.js';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import { MODES } from '../types.js';
import { SUMMARY_SCHEMA_VERSION, type RunSummary } from './evaluation-types.js';
import type { RunSummaryV1 } from './summary-v1.js';
import { upgradeSummaryV1 } from './upgrade-v1.js';
import { checkShape, defineFileCheck, damagedFile, readJsonFile, type FileRole } from './check-file.js';
import { count, modeKeys, nullableNum, nullableShare, num, share } from './schema-parts.js';
import { runDirPath } from './layout.js';


const latencyBlock = {
  type: 'object',
  required: ['method', 'count', 'failed', 'p50', 'p90', 'p95', 'p99', 'mean', 'max'],
  properties: { method: { type: 'string' }, count, failed: count, p50: nullableNum, p90: nullableNum, p95: nullableNum, p99: nullableNum, mean: nullableNum, max: nullableNum },
};
const latencyTable = { type: 'object', additionalProperties: latencyBlock };

const extractionBlock = {
  type: 'object',
  required: ['precision', 'recall', 'f1', 'strict_precision', 'strict_recall', 'strict_f1', 'macro_f1', 'exact_match_rate', 'parse_failures', 'parse_failure_rate', 'documents', 'failed', 'line_item_f1', 'item_count_error', 'anls', 'tp', 'fp', 'fn'],
  properties: {
    precision: share, recall: share, f1: share, strict_precision: share, strict_recall: share, strict_f1: share, macro_f1: share, exact_match_rate: share,
    parse_failures: count, parse_failure_rate: share, documents: count, failed: count,
    line_item_f1: nullableShare, item_count_error: { type: ['number', 'null'], minimum: 0 }, anls: nullableShare, tp: count, fp: count, fn: count,
  },
};

const markdownBlock = {
  type: 'object',
  required: ['similarity', 'similarity_macro', 'raw_similarity', 'word_precision', 'word_recall', 'teds', 'teds_structure', 'documents', 'pages', 'failed', 'both_empty_pages'],
  properties: {
    similarity: share, similarity_macro: share, raw_similarity: share, word_precision: share, word_recall: share, teds: nullableShare, teds_structure: nullableShare,
    documents: count, pages: count, failed: count, both_empty_pages: count,
  },
};

const comparisonBlock = {
  type: 'object',
  required: ['delta', 'ci95', 'wins', 'losses', 'ties', 'p_sign', 'p_wilcoxon', 'documents'],
  properties: { delta: num, ci95: { type: 'array', items: num, minItems: 2, maxItems: 2 }, wins: count, losses: count, ties: count, p_sign: nullableShare, p_wilcoxon: nullableShare, documents: count },
};

const confidenceBlock = {
  type: 'object',
  required: ['mean', 'ece', 'adaptive_ece', 'brier', 'auroc', 'auto_accept_threshold', 'auto_accept_share', 'auto_accept_target', 'documents', 'bins', 'risk_coverage'],
  properties: {
    mean: nullableNum, ece: nullableNum, adaptive_ece: nullableNum, brier: nullableNum, auroc: nullableNum, auto_accept_threshold: nullableNum, auto_accept_share: nullableShare,
    auto_accept_target: share, documents: count,
    bins: { type: 'array', items: { type: 'object', required: ['lo', 'hi', 'count', 'confidence', 'accuracy'], properties: { lo: num, hi: num, count, confidence: nullableNum, accuracy: nullableShare } } },
    risk_coverage: { type: 'array', items: { type: 'object', required: ['threshold', 'coverage', 'accuracy'], properties: { threshold: num, coverage: share, accuracy: share } } },
  },
};

const prf = { type: 'object', required: ['precision', 'recall', 'f1'], properties: { precision: share, recall: share, f1: share } };

/** Schema 1's tag breakdown: the service's and the incumbent's similarity side by side. */
const tagBreakdownV1 = {
  type: 'object',
  required: ['documents', 'failed', 'extraction_f1', 'exact_match_rate', 'similarity_service', 'similarity_baseline'],
  properties: {
    documents: count, failed: count,
    extraction_f1: { type: 'object', ...modeKeys, additionalProperties: share },
    exact_match_rate: { type: 'object', ...modeKeys, additionalProperties: share },
    similarity_service: nullableShare, similarity_baseline: nullableShare,
  },
};

/** Schema 1's field row: the incumbent's baseline JSON had the mode `baseline`. */
const fieldRowV1 = {
  type: 'object',
  required: ['path', 'mode', 'tp', 'fp', 'fn', 'precision', 'recall', 'f1', 'missing', 'hallucinated', 'wrong_value', 'format_only'],
  properties: {
    path: { type: 'string' }, mode: { enum: [...MODES, 'baseline'] }, tp: count, fp: count, fn: count, precision: share, recall: share, f1: share,
    missing: count, hallucinated: count, wrong_value: count, format_only: count,
  },
};

const callCounts = {
  type: 'object',
  required: ['calls', 'failed', 'attempts', 'retried', 'from_cache'],
  properties: { calls: count, failed: count, attempts: count, retried: count, from_cache: count },
};

/** summary.json schema version 1: every part a reader uses, its type and range. Further keys are allowed. */
const SUMMARY_V1 = {
  type: 'object',
  required: ['schema_version', 'run_id', 'status', 'dataset', 'service', 'documents', 'calls', 'latency_ms', 'latency_per_page_ms', 'extraction', 'confidence', 'by_tag', 'fields', 'skipped', 'metric_versions'],
  properties: {
    schema_version: { const: 1 },
    run_id: { type: 'string' },
    status: { type: 'string' },
    dataset: { type: 'object', required: ['name', 'version', 'content_hash'], properties: { name: { type: 'string' }, version: { type: ['string', 'null'] }, content_hash: { type: 'string' } } },
    service: { type: 'object', required: ['base_url', 'local'], properties: { base_url: { type: ['string', 'null'] }, local: { type: 'boolean' } } },
    documents: { type: 'object', required: ['total', 'succeeded', 'failed'], properties: { total: count, succeeded: count, failed: count } },
    calls: { type: 'object', additionalProperties: callCounts },
    latency_ms: latencyTable,
    latency_per_page_ms: latencyTable,
    service_processing_ms: latencyBlock,
    extraction: { type: 'object', ...modeKeys, additionalProperties: extractionBlock },
    extraction_baseline: extractionBlock,
    markdown: {
      type: 'object',
      required: ['service'],
      properties: {
        service: markdownBlock,
        baseline: markdownBlock,
        head_to_head: comparisonBlock,
        drift: { type: 'object', required: ['similarity', 'documents'], properties: { similarity: share, documents: count } },
      },
    },
    confidence: { type: 'object', ...modeKeys, additionalProperties: confidenceBlock },
    regions: {
      type: 'object',
      required: ['at50', 'at75', 'mean_iou', 'char_accuracy', 'documents', 'failed'],
      properties: { at50: prf, at75: prf, mean_iou: nullableShare, char_accuracy: num, documents: count, failed: count },
    },
    repeat: {
      type: 'object',
      required: ['runs', 'f1_std_mean', 'similarity_std_mean'],
      properties: { runs: count, f1_std_mean: { type: 'object', ...modeKeys, additionalProperties: num }, similarity_std_mean: nullableNum },
    },
    by_tag: { type: 'object', additionalProperties: { type: 'object', additionalProperties: tagBreakdownV1 } },
    fields: { type: 'array', items: fieldRowV1 },
    skipped: {
      type: 'object',
      required: ['truth_json', 'truth_markdown', 'truth_regions', 'baseline_markdown', 'baseline_json'],
      properties: { truth_json: count, truth_markdown: count, truth_regions: count, baseline_markdown: count, baseline_json: count },
    },
    metric_versions: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

const checkSummaryV1 = defineFileCheck<RunSummaryV1>('summary-v1', SUMMARY_V1);

const interval = { type: 'array', items: num, minItems: 2, maxItems: 2 };
const systemName = { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,39}$' };

const tagBreakdown = {
  type: 'object',
  required: ['documents', 'failed', 'extraction_f1', 'exact_match_rate', 'similarity'],
  properties: {
    documents: count, failed: count,
    extraction_f1: { type: 'object', ...modeKeys, additionalProperties: share },
    exact_match_rate: { type: 'object', ...modeKeys, additionalProperties: share },
    similarity: nullableShare,
  },
};

const fieldRow = { ...fieldRowV1, properties: { ...fieldRowV1.properties, mode: { enum: [...MODES] } } };

/** One system's blocks (summary.json schema 2, `systems.<name>`). */
const systemBlock = {
  type: 'object',
  required: ['kind', 'documents', 'calls', 'latency_ms', 'latency_per_page_ms', 'extraction', 'confidence', 'by_tag', 'fields'],
  properties: {
    kind: { type: 'string' },
    documents: SUMMARY_V1.properties.documents,
    calls: SUMMARY_V1.properties.calls,
    latency_ms: latencyTable,
    latency_per_page_ms: latencyTable,
    service_processing_ms: latencyBlock,
    extraction: SUMMARY_V1.properties.extraction,
    markdown: markdownBlock,
    markdown_drift: SUMMARY_V1.properties.markdown.properties.drift,
    confidence: SUMMARY_V1.properties.confidence,
    regions: SUMMARY_V1.properties.regions,
    repeat: SUMMARY_V1.properties.repeat,
    by_tag: { type: 'object', additionalProperties: { type: 'object', additionalProperties: tagBreakdown } },
    fields: { type: 'array', items: fieldRow },
    cost: {
      type: 'object',
      required: ['total_usd', 'per_page_usd', 'per_document_usd', 'per_correct_field_usd', 'priced_calls', 'calls'],
      properties: { total_usd: { type: 'number', minimum: 0 }, per_page_usd: nullableNum, per_document_usd: { type: 'number', minimum: 0 }, per_correct_field_usd: nullableNum, priced_calls: count, calls: count },
    },
  },
};

/** summary.json schema version 2: every system's blocks and the systems set against each other. Further keys are allowed. */
const SUMMARY_V2 = {
  type: 'object',
  required: ['schema_version', 'run_id', 'status', 'dataset', 'system_names', 'reference', 'primary', 'systems', 'leaderboard', 'comparisons', 'field_leaders', 'disagreements', 'skipped', 'metric_versions'],
  properties: {
    schema_version: { const: 2 },
    run_id: { type: 'string' },
    status: { type: 'string' },
    dataset: SUMMARY_V1.properties.dataset,
    system_names: { type: 'array', items: systemName, minItems: 1 },
    reference: { anyOf: [systemName, { type: 'null' }] },
    primary: systemName,
    systems: { type: 'object', propertyNames: systemName, additionalProperties: systemBlock },
    leaderboard: {
      type: 'array',
      items: {
        type: 'object',
        required: ['metric', 'label', 'rows'],
        properties: {
          metric: { type: 'string' }, label: { type: 'string' }, shared_documents: count,
          rows: {
            type: 'array',
            items: {
              type: 'object',
              required: ['rank', 'system', 'value', 'ci95', 'documents'],
              properties: {
                rank: count, system: systemName, value: num, ci95: { anyOf: [interval, { type: 'null' }] }, documents: count,
                shared: { anyOf: [{ type: 'object', required: ['value', 'ci95', 'documents'], properties: { value: num, ci95: interval, documents: count } }, { type: 'null' }] },
                covers_fewer: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
    comparisons: {
      type: 'array',
      items: { ...comparisonBlock, required: [...comparisonBlock.required, 'system', 'reference', 'metric', 'p_holm', 'significant'], properties: { ...comparisonBlock.properties, system: systemName, reference: systemName, metric: { type: 'string' }, p_holm: nullableShare, family: { enum: ['primary', 'secondary'] }, significant: { type: 'boolean' } } },
    },
    field_leaders: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'mode', 'best', 'f1', 'runner_up', 'runner_up_f1', 'delta', 'ci95', 'p_holm', 'significant'],
        properties: { path: { type: 'string' }, mode: { enum: [...MODES] }, best: systemName, f1: share, runner_up: { anyOf: [systemName, { type: 'null' }] }, runner_up_f1: nullableShare, delta: nullableNum, ci95: { anyOf: [interval, { type: 'null' }] }, p_holm: nullableShare, significant: { type: 'boolean' } },
      },
    },
    disagreements: {
      type: 'array',
      items: { type: 'object', required: ['document_id', 'metric', 'spread', 'values'], properties: { document_id: { type: 'string' }, metric: { type: 'string' }, spread: num, values: { type: 'object', additionalProperties: nullableNum } } },
    },
    decision: { type: 'object', required: ['alpha', 'sides', 'fewest_significant'], properties: { alpha: share, sides: { const: 'two-sided' }, fewest_significant: count } },
    skipped: { type: 'object', required: ['truth_json', 'truth_markdown', 'truth_regions'], properties: { truth_json: count, truth_markdown: count, truth_regions: count } },
    metric_versions: SUMMARY_V1.properties.metric_versions,
  },
} as const;

const checkSummaryV2 = defineFileCheck<RunSummary>('summary-v2', SUMMARY_V2);

/** How to read one schema version: check its shape, then bring it to the current RunSummary. */
interface SummaryReader {
  version: number;
  read: (value: unknown, role: FileRole) => RunSummary;
}

/** Readable schema versions; the current one (SUMMARY_SCHEMA_VERSION) is the one written. */
const SUMMARY_READERS: readonly SummaryReader[] = [
  // Schema 1 (one service, the incumbent as baseline files): read as that system and the stored incumbent.
  { version: 1, read: (value, role) => upgradeSummaryV1(checkShape(value, checkSummaryV1, role)) },
  { version: 2, read: (value, role) => checkShape(value, checkSummaryV2, role) },
];

function summaryRole(runDir: string): FileRole {
  return { file: runDirPath(runDir, 'summary'), hint: `re-create it with: docbench score ${runDir}` };
}

/** summary.json of `runDir`, or null when the run has not been scored. @throws UsageError (exit 2) when damaged. */
export async function readSummary(runDir: string): Promise<RunSummary | null> {
  const role = summaryRole(runDir);
  const read = await readJsonFile(role);
  if (!read.found) return null;
  const version = (read.value as { schema_version?: unknown } | null)?.schema_version;
  const reader = SUMMARY_READERS.find((r) => r.version === version);
  if (!reader) {
    const readable = SUMMARY_READERS.map((r) => r.version).join(', ');
    if (typeof version === 'number' && version > SUMMARY_SCHEMA_VERSION) {
      throw new UsageError(`${role.file} has schema_version ${version}; this docbench reads ${readable}`, { code: 'INPUT_INVALID', subject: role.file, hint: `use a newer docbench, or re-create it with: docbench score ${runDir}` });
    }
    throw damagedFile(role, '$.schema_version', `expected one of ${readable}, found ${JSON.stringify(version) ?? 'none'}`);
  }
  return reader.read(read.value, role);
}

/** summary.json of a run that must be scored. @throws UsageError (exit 2) when missing or damaged. */
export async function readScoredSummary(runDir: string): Promise<RunSummary> {
  const summary = await readSummary(runDir);
  if (summary === null) {
    throw new UsageError(`${runDirPath(runDir, 'summary')} not found: the run has not been scored`, { code: 'INPUT_INVALID', subject: runDir, hint: `score it with: docbench score ${runDir} (or finish it with: docbench run --resume ${runDir})` });
  }
  return summary;
}

export async function writeSummary(runDir: string, summary: RunSummary): Promise<void> {
  await writeFileAtomic(runDirPath(runDir, 'summary'), toJson(summary));
}
