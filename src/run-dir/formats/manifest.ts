/**
 * run.json: the provenance of a run — who ran what against which service on which data, with which settings
 * (never the key), when, and how far it got. The TypeScript side: RunManifest in ../manifest.ts.
 * Further keys are allowed (written by later minor versions).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Price } from '../../systems/index.js';
import { MANIFEST_SCHEMA_VERSION } from '../manifest.js';
import { defineFileCheck } from '../check-file.js';
import {
  count,
  endpoint,
  mode,
  nonNegative,
  nullableNonNegative,
  nullableString,
  oneOf,
  systemName,
} from '../../format-parts.js';

/** Why a run (or one system's calls) stopped early. */
export const StopReasonFormat = oneOf(['interrupted', 'auth', 'outage', 'output', 'budget', null] as const);

/** Which documents a run takes (src/run/plan.ts). */
export const SelectionFormat = Type.Object({
  /** Tag filters `key=value`; a document must match all of them. */
  filters: Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
  /** Keep a seeded random sample of this many documents. */
  sample: Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1 }),
  seed: Type.Integer(),
  /** Keep the first N (after filter and sample). */
  limit: Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 0 }),
  /** Take shard `index` (1-based) of `count`. */
  shard: Type.Union([
    Type.Null(),
    Type.Object({ index: Type.Integer({ minimum: 1 }), count: Type.Integer({ minimum: 1 }) }),
  ]),
});

/** A system's estimate as run.json keeps it (docs/systems.md, "Budgets"). */
export const ManifestEstimateFormat = Type.Object({
  calls: count,
  /** Calls the cache held; null when not checked. */
  cached: Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 0 }),
  pages: count,
  cost_usd: nullableNonNegative,
  basis: Type.String(),
});

/** One system of a run, as run.json records it (never a secret: keys are only named by their variables). */
export const ManifestSystemFormat = Type.Object({
  name: systemName,
  kind: Type.String({ minLength: 1 }),
  /** What the cache keys on for this system. */
  identity: Type.String(),
  operations: Type.Array(endpoint),
  /** The kind's options and the common ones (concurrency, ratePerSecond, timeoutMs, retry). */
  options: Type.Record(Type.String(), Type.Unknown()),
  /** As configured; its fields are checked where the configuration is read (src/systems/). */
  price: Type.Union([Type.Unsafe<Price>({ type: 'object' }), Type.Null()]),
  /** Why this system's calls stopped early in the last invocation (key rejected, outage, budget), else null. */
  stop_reason: StopReasonFormat,
  stop_message: nullableString,
  counts: Type.Object({ planned: count, recorded: count, succeeded: count, failed: count }),
  /** What `docbench plan` would have said when the run started (first invocation); absent in older runs. */
  estimate: Type.Optional(ManifestEstimateFormat),
  /** USD recorded over every line of results.jsonl (every repeat, superseded attempts too); null without a price. */
  spent_usd: Type.Optional(nullableNonNegative),
  /** `maxCostUsd` in force in the last invocation; null: none. */
  max_cost_usd: Type.Optional(nullableNonNegative),
  /**
   * What the system reported itself to be over the run's final records: per name (`model`,
   * `system_fingerprint`, `apiVersion`, …) each distinct value with the number of calls that reported it
   * (docs/run-directory.md, "Reported identity"). More than one value of a name: it changed within the run.
   */
  reported: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), count))),
});

/**
 * Milliseconds per phase: `calls` over every invocation, from its start (dataset validation included) to its
 * last call; `scoring`, `statistics` and `reports` of the last time they ran (null: not yet).
 */
export const RunPhasesFormat = Type.Object({
  calls_ms: nonNegative,
  scoring_ms: nullableNonNegative,
  statistics_ms: nullableNonNegative,
  reports_ms: nullableNonNegative,
});

export const RunManifestFormat = Type.Object({
  schema_version: Type.Literal(MANIFEST_SCHEMA_VERSION),
  run_id: Type.String({ minLength: 1 }),
  docbench_version: Type.String(),
  /** Commit of the docbench checkout that ran, when it runs from one. */
  docbench_commit: nullableString,
  node_version: Type.String(),
  platform: Type.String(),
  created_at: Type.String(),
  /**
   * Set at every end (completion, interrupt, stop); the duration covers every invocation's calls and the last
   * scoring, statistics and reports (`phases` breaks it down).
   */
  ended_at: nullableString,
  duration_ms: nonNegative,
  /** Where the time went (docs/run-directory.md). Absent in runs written before it. */
  phases: Type.Optional(RunPhasesFormat),
  /** `partial`: every system that stopped early stopped at its budget (docs/systems.md, "Budgets"). */
  status: oneOf(['running', 'completed', 'interrupted', 'stopped', 'partial'] as const),
  stop_reason: StopReasonFormat,
  stop_message: nullableString,
  dataset: Type.Object({
    name: Type.String(),
    version: nullableString,
    /** As given on the command line (relative paths stay relative, so runs are portable). */
    path: Type.String(),
    content_hash: Type.String(),
    documents_total: count,
    documents_selected: count,
  }),
  service: Type.Object({
    /** Null for the embedded local reference service. */
    base_url: nullableString,
    local: Type.Boolean(),
    /** What the cache keys on. */
    identity: Type.String(),
  }),
  options: Type.Object({
    modes: Type.Array(mode),
    endpoints: Type.Array(endpoint),
    repeat: Type.Integer({ minimum: 1 }),
    cache: Type.Boolean(),
    selection: SelectionFormat,
  }),
  /** The resolved configuration without secrets (`apiKeySet` says whether a key was used). */
  config: Type.Record(Type.String(), Type.Unknown()),
  counts: Type.Object({
    planned: count,
    /** Final records: calls that have a result (successful or failed). */
    recorded: count,
    succeeded: count,
    failed: count,
    from_cache: count,
    not_started: Type.Integer(),
  }),
  /** The systems of the run, in the order given. Absent in runs made before systems existed: read those with `runSystems`. */
  systems: Type.Optional(Type.Array(ManifestSystemFormat, { minItems: 1 })),
  /** The system the others are compared with; null when the run has no such choice. */
  reference: Type.Optional(nullableString),
  /** Run ids of the shard runs this run was merged from (`docbench merge`). */
  merged_from: Type.Optional(Type.Array(Type.String())),
  /**
   * One entry per invocation: the first run and each --resume. The pacing settings (which --resume may
   * change) are recorded since --resume may change them; run.json files written before that lack them.
   */
  invocations: Type.Array(
    Type.Object({
      started_at: Type.String(),
      ended_at: nullableString,
      recorded: count,
      stop_reason: StopReasonFormat,
      concurrency: Type.Optional(count),
      rate_per_second: Type.Optional(nullableNonNegative),
      timeout_ms: Type.Optional(nonNegative),
      retry_attempts: Type.Optional(count),
      /** `--max-cost` of this invocation (a resume without it keeps the last one); null: none. */
      max_cost_usd: Type.Optional(nullableNonNegative),
    }),
  ),
});

export const checkManifestV1 = defineFileCheck<Static<typeof RunManifestFormat>>('run-manifest-v1', RunManifestFormat);
