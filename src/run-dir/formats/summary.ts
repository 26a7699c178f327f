/**
 * summary.json: the headline numbers of every system of a scored run (docs/summary-json.md), schema version
 * 2, and the version-1 form older runs have (one service, the incumbent as the dataset's baseline files),
 * read through ../upgrade-v1.ts. The TypeScript side: ../evaluation-types.ts and ../summary-v1.ts.
 * Further keys are allowed.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MODES } from '../../types.js';
import type { DecisionFamily } from '../../score/index.js';
import { SUMMARY_SCHEMA_VERSION } from '../evaluation-types.js';
import { defineFileCheck } from '../check-file.js';
import { ChecksBlockFormat } from './checks.js';
import { BlockFiguresFormat } from './blocks.js';
import {
  byMode,
  count,
  interval,
  keyed,
  mode,
  nonNegative,
  nullableInterval,
  nullableNonNegative,
  nullableNum,
  nullableShare,
  nullableString,
  num,
  oneOf,
  share,
  systemName,
} from '../../format-parts.js';

/**
 * Percentiles of one latency population (without `min`); the method is named so numbers can be reproduced.
 * `failed` calls are counted and shown, never dropped, but not in the percentiles.
 */
export const LatencyBlockFormat = Type.Object({
  method: Type.String(),
  /** Values summarised (successful calls). */
  count,
  /** Failed calls, not in the figures. */
  failed: count,
  p50: nullableNum,
  p90: nullableNum,
  p95: nullableNum,
  p99: nullableNum,
  mean: nullableNum,
  max: nullableNum,
});

/** Misses by where the truth value was: nowhere in the system's markdown, or in it. */
export const MissCountsFormat = Type.Object({ not_in_text: count, in_text: count });

export const ExtractionBlockFormat = Type.Object({
  /** Micro over leaf fields, normalised pass: the headline. */
  precision: share,
  recall: share,
  f1: share,
  strict_precision: share,
  strict_recall: share,
  strict_f1: share,
  /** Mean of per-document F1. */
  macro_f1: share,
  /** Documents with no FP and no FN: the straight-through rate. */
  exact_match_rate: share,
  /** Calls whose response could not be read as JSON: counted as empty output. */
  parse_failures: count,
  parse_failure_rate: share,
  /** Documents scored (with truth JSON). */
  documents: count,
  /** Of those, documents whose call failed: scored as empty output. */
  failed: count,
  /** Line items matched with every field equal, as an F1 over items. */
  line_item_f1: nullableShare,
  /** Mean |predicted items − truth items|. */
  item_count_error: nullableNonNegative,
  /** ANLS* over free-text fields (secondary). */
  anls: nullableShare,
  tp: count,
  fp: count,
  fn: count,
  /**
   * The misses (FN side) by where the truth value was, over the documents the system also gave markdown for
   * (docs/metrics/extraction.md "Reading or extraction"); absent for a system without markdown.
   */
  misses: Type.Optional(MissCountsFormat),
});

export const MarkdownBlockFormat = Type.Object({
  /** Micro: 1 − Σedits / Σmaxlen over all pages (headline). */
  similarity: share,
  /** Mean over pages. */
  similarity_macro: share,
  raw_similarity: share,
  word_precision: share,
  word_recall: share,
  /** Mean TEDS over truth tables; null when the truth has no tables. */
  teds: nullableShare,
  teds_structure: nullableShare,
  documents: count,
  pages: count,
  /** Documents with no output (failed call, or no baseline): similarity 0. */
  failed: count,
  /** Pages where truth and output are both empty (similarity 1), reported apart. */
  both_empty_pages: count,
  /** OmniDocBench's end-to-end block metrics (docs/metrics.md "Blocks"). */
  blocks: Type.Optional(BlockFiguresFormat),
});

const comparisonProperties = {
  /** Aggregate of the system − aggregate of the reference on the paired documents (micro where the headline is micro). */
  delta: num,
  ci95: interval,
  wins: count,
  losses: count,
  ties: count,
  p_sign: nullableShare,
  p_wilcoxon: nullableShare,
  documents: count,
};
export const ComparisonBlockFormat = Type.Object(comparisonProperties);

/** Confidences are on the service's 0–100 scale throughout; accuracies are field F1 in [0, 1]. */
export const ConfidenceBlockFormat = Type.Object({
  /** Mean confidence, 0–100. */
  mean: nullableNum,
  ece: nullableNum,
  adaptive_ece: nullableNum,
  brier: nullableNum,
  auroc: nullableNum,
  /** Lowest confidence (0–100) at which accepted documents reach the target field F1; null if none. */
  auto_accept_threshold: nullableNum,
  auto_accept_share: nullableShare,
  /** The target accuracy (mean field F1) used. */
  auto_accept_target: share,
  documents: count,
  /** Reliability table: equal-width bins over 0–100 (`lo`, `hi`, mean `confidence` on 0–100; `accuracy` 0–1). */
  bins: Type.Array(Type.Object({ lo: num, hi: num, count, confidence: nullableNum, accuracy: nullableShare })),
  /** Risk–coverage: accepting documents with confidence ≥ threshold. */
  risk_coverage: Type.Array(Type.Object({ threshold: num, coverage: share, accuracy: share })),
});

const prf = Type.Object({ precision: share, recall: share, f1: share });

export const RegionsBlockFormat = Type.Object({
  at50: prf,
  at75: prf,
  mean_iou: nullableShare,
  char_accuracy: num,
  /**
   * Mean normalised ARD over the pages with a region matched at IoU ≥ 0.5 (docs/metrics/regions.md); higher is
   * better; null: no such page; absent in summaries written before docbench computed it.
   */
  reading_order: Type.Optional(nullableShare),
  documents: count,
  failed: count,
});

const tagBreakdownProperties = {
  documents: count,
  failed: count,
  /** Per mode: micro field F1 (normalised). */
  extraction_f1: byMode(share),
  exact_match_rate: byMode(share),
};

/** Bootstrap 95% intervals of a tag's figures, each over the documents with the tag (docs/summary-json.md). */
export const TagIntervalsFormat = Type.Object({
  extraction_f1: byMode(interval),
  exact_match_rate: byMode(interval),
  similarity: nullableInterval,
});

export const TagBreakdownFormat = Type.Object({
  ...tagBreakdownProperties,
  /** Micro markdown similarity of the documents with this tag; null without markdown scores. */
  similarity: nullableShare,
  /** The figures' intervals; absent in summaries written before they were computed. */
  ci95: Type.Optional(TagIntervalsFormat),
  /** Block metrics of the documents with this tag (docs/metrics.md "Blocks"). */
  blocks: Type.Optional(BlockFiguresFormat),
});

/** One field path in one mode, worst F1 first. */
function fieldRow<M extends TSchema>(modeFormat: M) {
  return Type.Object({
    /** Field path with indices collapsed, e.g. `codes[].cpt`. */
    path: Type.String(),
    mode: modeFormat,
    tp: count,
    fp: count,
    fn: count,
    precision: share,
    recall: share,
    f1: share,
    missing: count,
    hallucinated: count,
    wrong_value: count,
    format_only: count,
    /** The path's misses by where the truth value was; absent for a system without markdown. */
    not_in_text: Type.Optional(count),
    in_text: Type.Optional(count),
  });
}
export const FieldRowFormat = fieldRow(mode);

/** What a system's calls cost, from the prices and usage the runner recorded (`cost_usd` per record). */
export const CostBlockFormat = Type.Object({
  /** USD over every recorded call of the first repetition. */
  total_usd: nonNegative,
  /** Divided by the pages of the documents it was charged for (null when no page counts are known). */
  per_page_usd: nullableNum,
  per_document_usd: nonNegative,
  /** Total ÷ correct fields (true positives) of the main extraction mode; null without extraction scores or with none correct. */
  per_correct_field_usd: nullableNum,
  /** Calls with a recorded cost, and all calls. A system without prices has no cost block at all. */
  priced_calls: count,
  calls: count,
});

const drift = Type.Object({ similarity: share, documents: count });
/** One mode's agreement between repetitions (docs/summary-json.md, `repeat.agreement`). */
const repeatExtractionAgreement = Type.Object({
  /** Documents with more than one repetition of this mode. */
  documents: count,
  /** Of those, documents where some field's predicted value differs between repetitions. */
  flaky_documents: count,
  /** Exact-match rate of the first repetition alone, of all repetitions (pass^N), of most of them (majority). */
  exact_first: share,
  exact_all: share,
  exact_majority: share,
  /** The collapsed field paths that differ on the most documents, most first (at most 10). */
  flakiest_fields: Type.Array(Type.Object({ path: Type.String(), documents: count })),
});
const repeatAgreement = Type.Object({
  /** Documents with more than one repetition of any operation. */
  documents: count,
  /** Of those, documents whose outputs differ between repetitions (a field's value, or the markdown text). */
  flaky_documents: count,
  /** flaky_documents ÷ documents: what the gate's `max_flaky_documents` checks. */
  flaky_share: share,
  extraction: byMode(repeatExtractionAgreement),
  /** Markdown: documents whose texts differ between repetitions, and the spread (max − min) of their similarity. */
  markdown: Type.Optional(
    Type.Object({
      documents: count,
      flaky_documents: count,
      similarity_spread_mean: share,
      similarity_spread_max: share,
    }),
  ),
});
const repeatBlock = Type.Object({
  runs: count,
  f1_std_mean: byMode(num),
  similarity_std_mean: nullableNum,
  /** Whether the repetitions gave the same outputs; absent in summaries written before it. */
  agreement: Type.Optional(repeatAgreement),
});
const datasetBlock = Type.Object({ name: Type.String(), version: nullableString, content_hash: Type.String() });
const metricVersions = keyed(Type.String());

/** One service's calls and extraction scores: a system's in schema 2, the one service's at the top of schema 1. */
const serviceProperties = {
  /** A document failed when any of this system's calls for it failed. */
  documents: Type.Object({ total: count, succeeded: count, failed: count }),
  /** Per endpoint ("compare", "split", "process") and per extract mode ("extract:fast"). */
  calls: keyed(
    Type.Object({
      calls: count,
      failed: count,
      attempts: count,
      retried: count,
      from_cache: count,
      /** Of the failed calls, answers cut short at the token limit (SERVICE_OUTPUT_TRUNCATED); absent when none. */
      truncated: Type.Optional(count),
    }),
  ),
  /** Per call, client wall time including retries. Keys as in `calls`. Stored systems report 0 unless their meta files say otherwise. */
  latency_ms: keyed(LatencyBlockFormat),
  /** The same divided by the document's page count. */
  latency_per_page_ms: keyed(LatencyBlockFormat),
  /** The system's own processing_time_ms (/v1/process), when reported. */
  service_processing_ms: Type.Optional(LatencyBlockFormat),
  extraction: byMode(ExtractionBlockFormat),
};

/** One system's figures: the blocks a single-system summary had, scored by the same code on the same truth. */
export const SystemSummaryFormat = Type.Object({
  /** `interface`, `local`, `stored`, `command`, … as run.json names it. */
  kind: Type.String(),
  ...serviceProperties,
  markdown: Type.Optional(MarkdownBlockFormat),
  /** Where no truth markdown exists: similarity between this system's and the reference's output (change, not accuracy). */
  markdown_drift: Type.Optional(drift),
  confidence: byMode(ConfidenceBlockFormat),
  regions: Type.Optional(RegionsBlockFormat),
  /** With --repeat N: how much the system's answers vary between identical calls. */
  repeat: Type.Optional(repeatBlock),
  /** tag key → tag value → headline metrics. */
  by_tag: keyed(keyed(TagBreakdownFormat)),
  /** Per field path and mode, worst F1 first. */
  fields: Type.Array(FieldRowFormat),
  cost: Type.Optional(CostBlockFormat),
  /** Rule checks (checks.jsonl), on the system's markdown. */
  checks: Type.Optional(ChecksBlockFormat),
});

/** One system in a leaderboard block (its fields: LeaderboardBlockFormat's `rows`). */
export const LeaderboardRowFormat = Type.Object({
  rank: count,
  system: systemName,
  value: num,
  ci95: nullableInterval,
  documents: count,
  shared: Type.Optional(Type.Union([Type.Object({ value: num, ci95: interval, documents: count }), Type.Null()])),
  covers_fewer: Type.Optional(Type.Boolean()),
});

/** A headline metric the leaderboard ranks and the comparisons test, e.g. `extraction.slow.f1`, `markdown.similarity`. */
export const LeaderboardBlockFormat = Type.Object({
  metric: Type.String(),
  /** Human label, e.g. "field F1 (slow)". */
  label: Type.String(),
  /** 'lower' for edit distances (`markdown.blocks.*_edit`): ranked ascending. Absent: higher is better. */
  better: Type.Optional(Type.Literal('lower')),
  /**
   * Documents every system of `rows` was scored on for this metric: what the ranking compares. Absent in
   * summaries written before it was (their ranks are by each system's own figure).
   */
  shared_documents: Type.Optional(count),
  /**
   * Best first by `shared.value` (by `value` when no document is shared); ties share a rank.
   * `value`, `ci95`, `documents`: the system's own figure on all the documents it was scored on (`ci95` the
   * bootstrap 95% interval; null in runs scored with schema 1). `shared`: the same metric on the
   * `shared_documents` only (null when none is shared). `covers_fewer`: scored on fewer documents than the
   * system that covers the most.
   */
  rows: Type.Array(LeaderboardRowFormat),
});

/** One system against the reference on one headline metric (paired by document). */
export const SystemComparisonBlockFormat = Type.Object({
  ...comparisonProperties,
  system: systemName,
  reference: systemName,
  metric: Type.String(),
  /**
   * 'lower' for edit distances: `delta` < 0 is the system doing better, and `wins` counts documents where its
   * edit distance is lower. Absent: higher is better.
   */
  better: Type.Optional(Type.Literal('lower')),
  /**
   * The p the decision uses (docs/metrics/comparison.md "Decision rule"): for the system's primary metric its
   * own bootstrap p (a Holm family of one), for its other metrics Holm-adjusted among themselves. Null in runs
   * scored with schema 1, which kept only the markdown head-to-head.
   */
  p_holm: nullableShare,
  /** Which family `p_holm` was adjusted in; absent in summaries written before families. */
  family: Type.Optional(oneOf(['primary', 'secondary'] as const satisfies readonly DecisionFamily[])),
  /** p_holm ≤ `decision.alpha` (schema 1: the interval excluded 0). */
  significant: Type.Boolean(),
});

/**
 * Per field path and mode: the system with the highest F1 on the documents every system scored in that mode,
 * and whether its lead over the runner-up on them is significant.
 */
export const FieldLeaderFormat = Type.Object({
  path: Type.String(),
  mode,
  best: systemName,
  f1: share,
  runner_up: Type.Union([systemName, Type.Null()]),
  runner_up_f1: nullableShare,
  /** Best − runner-up, micro F1 of the path, with its paired-bootstrap interval; null with one system. */
  delta: nullableNum,
  ci95: nullableInterval,
  /** Holm-adjusted across the run's field paths. */
  p_holm: nullableShare,
  significant: Type.Boolean(),
});

/** A document on which the systems' scores differ most (largest max − min of the metric). */
export const DisagreementFormat = Type.Object({
  document_id: Type.String(),
  metric: Type.String(),
  spread: num,
  /** system → the document's score; null when the system has none for it. */
  values: keyed(nullableNum),
});

/** summary.json, schema version 2. */
export const RunSummaryFormat = Type.Object({
  schema_version: Type.Literal(SUMMARY_SCHEMA_VERSION),
  run_id: Type.String(),
  status: Type.String(),
  dataset: datasetBlock,
  /** The systems in run order. */
  system_names: Type.Array(systemName, { minItems: 1 }),
  /** What every other system is compared with (null with one system). */
  reference: Type.Union([systemName, Type.Null()]),
  /** The system the report's single-system sections describe: the first system that is not the reference. */
  primary: systemName,
  systems: Type.Record(Type.String(), SystemSummaryFormat, { propertyNames: systemName }),
  leaderboard: Type.Array(LeaderboardBlockFormat),
  comparisons: Type.Array(SystemComparisonBlockFormat),
  field_leaders: Type.Array(FieldLeaderFormat),
  disagreements: Type.Array(DisagreementFormat),
  /**
   * The rule `comparisons` and `field_leaders` were decided by: two-sided at `alpha`; fewer than
   * `fewest_significant` documents that differ can never be significant. Absent in older summaries.
   */
  decision: Type.Optional(Type.Object({ alpha: share, sides: Type.Literal('two-sided'), fewest_significant: count })),
  /** What could not be scored for lack of truth files, per kind: document counts. */
  skipped: Type.Object({ truth_json: count, truth_markdown: count, truth_regions: count }),
  /** Versions of the metric definitions, so numbers from different docbench versions are not mixed silently. */
  metric_versions: metricVersions,
  /**
   * The normalisation settings the scores were made with (dataset.json's `locale` and `comparators`) and the
   * sha256 of the schema the systems were asked to fill, so `docbench diff` can name a change. Absent in older
   * summaries.
   */
  scoring: Type.Optional(
    Type.Object({
      locale: Type.String(),
      comparators: Type.Record(Type.String(), Type.Unknown()),
      schema_sha256: Type.String(),
    }),
  ),
});

export const checkSummaryV2 = defineFileCheck<Static<typeof RunSummaryFormat>>('summary-v2', RunSummaryFormat);

/** Schema 1's tag breakdown: the service's and the incumbent's similarity side by side. */
export const TagBreakdownV1Format = Type.Object({
  ...tagBreakdownProperties,
  similarity_service: nullableShare,
  similarity_baseline: nullableShare,
});

/** Schema 1's field row: the incumbent's baseline JSON had the mode `baseline`. */
export const FieldRowV1Format = fieldRow(oneOf([...MODES, 'baseline'] as const));

/** summary.json schema version 1: the one service's blocks sat at the top level. */
export const RunSummaryV1Format = Type.Object({
  schema_version: Type.Literal(1),
  run_id: Type.String(),
  status: Type.String(),
  dataset: datasetBlock,
  service: Type.Object({ base_url: nullableString, local: Type.Boolean() }),
  ...serviceProperties,
  /** The incumbent's baseline JSON, scored the same way, where it exists. */
  extraction_baseline: Type.Optional(ExtractionBlockFormat),
  markdown: Type.Optional(
    Type.Object({
      service: MarkdownBlockFormat,
      baseline: Type.Optional(MarkdownBlockFormat),
      head_to_head: Type.Optional(ComparisonBlockFormat),
      /** Where no truth markdown exists: similarity between service and incumbent output (change, not accuracy). */
      drift: Type.Optional(drift),
    }),
  ),
  confidence: byMode(ConfidenceBlockFormat),
  regions: Type.Optional(RegionsBlockFormat),
  repeat: Type.Optional(repeatBlock),
  /** tag key → tag value → headline metrics. */
  by_tag: keyed(keyed(TagBreakdownV1Format)),
  /** Per field path and mode (and the incumbent's baseline JSON), worst F1 first. */
  fields: Type.Array(FieldRowV1Format),
  /** What could not be scored for lack of truth or baseline files, per kind: document counts. */
  skipped: Type.Object({
    truth_json: count,
    truth_markdown: count,
    truth_regions: count,
    baseline_markdown: count,
    baseline_json: count,
  }),
  metric_versions: metricVersions,
});

export const checkSummaryV1 = defineFileCheck<Static<typeof RunSummaryV1Format>>('summary-v1', RunSummaryV1Format);
