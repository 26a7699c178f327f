/**
 * run.json: the provenance of a run — who ran what against which service on which data, with which
 * settings (never the key), when, and how far it got. Written at the start (status "running") and rewritten
 * atomically at every end, so a killed run still says what it was. Read and written by src/run-dir/.
 */
import type { Endpoint, Mode } from '../types.js';
import type { Operation, Price } from '../systems/index.js';

/** Why a run stopped before its plan was done (`stop_reason`). */
export type StopReason = 'interrupted' | 'auth' | 'outage' | 'output';

/** Which documents a run takes (`selection`): the selection flags as the plan applied them. */
export interface Selection {
  /** Tag filters `key=value`; a document must match all of them. */
  filters: { key: string; value: string }[];
  /** Keep a seeded random sample of this many documents. */
  sample: number | null;
  seed: number;
  /** Keep the first N (after filter and sample). */
  limit: number | null;
  /** Take shard `index` (1-based) of `count`. */
  shard: { index: number; count: number } | null;
}

export const MANIFEST_SCHEMA_VERSION = 1;

export type RunStatus = 'running' | 'completed' | 'interrupted' | 'stopped';

export interface RunManifest {
  schema_version: typeof MANIFEST_SCHEMA_VERSION;
  run_id: string;
  docbench_version: string;
  /** Commit of the docbench checkout that ran, when it runs from one. */
  docbench_commit: string | null;
  node_version: string;
  platform: string;
  created_at: string;
  /** Set at every end (completion, interrupt, stop); the duration covers every invocation. */
  ended_at: string | null;
  duration_ms: number;
  status: RunStatus;
  stop_reason: StopReason | null;
  stop_message: string | null;
  dataset: {
    name: string;
    version: string | null;
    /** As given on the command line (relative paths stay relative, so runs are portable). */
    path: string;
    content_hash: string;
    documents_total: number;
    documents_selected: number;
  };
  service: {
    /** Null for the embedded local reference service. */
    base_url: string | null;
    local: boolean;
    /** What the cache keys on. */
    identity: string;
  };
  options: {
    modes: Mode[];
    endpoints: Endpoint[];
    repeat: number;
    cache: boolean;
    selection: Selection;
  };
  /** The resolved configuration without secrets (`apiKeySet` says whether a key was used). */
  config: Record<string, unknown>;
  counts: {
    planned: number;
    /** Final records: calls that have a result (successful or failed). */
    recorded: number;
    succeeded: number;
    failed: number;
    from_cache: number;
    not_started: number;
  };
  /**
   * The systems of the run, in the order given (docs/systems.md). Absent in runs made before systems existed: read
   * those with `runSystems`.
   */
  systems?: ManifestSystem[];
  /** The system the others are compared with; null when the run has no such choice. */
  reference?: string | null;
  /** Run ids of the shard runs this run was merged from (`docbench merge`). */
  merged_from?: string[];
  /**
   * One entry per invocation: the first run and each --resume. The pacing settings (which --resume may
   * change) are recorded since --resume may change them; run.json files written before that lack them.
   */
  invocations: {
    started_at: string;
    ended_at: string | null;
    recorded: number;
    stop_reason: StopReason | null;
    concurrency?: number;
    rate_per_second?: number | null;
    timeout_ms?: number;
    retry_attempts?: number;
  }[];
}

/** One system of a run, as run.json records it (never a secret: keys are only named by their variables). */
export interface ManifestSystem {
  name: string;
  kind: string;
  /** What the cache keys on for this system. */
  identity: string;
  operations: Operation[];
  /** The kind's options and the common ones (concurrency, ratePerSecond, timeoutMs, retry). */
  options: Record<string, unknown>;
  price: Price | null;
  /** Why this system's calls stopped early in the last invocation (key rejected, outage), else null. */
  stop_reason: StopReason | null;
  stop_message: string | null;
  counts: { planned: number; recorded: number; succeeded: number; failed: number };
}

/** The name of the stored system made of the dataset's baseline files (version-1 summaries named it `baseline`). */
export const INCUMBENT = 'incumbent';

/** The name a version-1 record (no `system`) is read under: the run's single system. */
export function v1SystemName(manifest: { service?: { base_url: string | null } }): string {
  return manifest.service?.base_url ? 'service' : 'local';
}

/** The run's systems; a run made before systems existed had one, derived from its `service`. */
export function runSystems(manifest: RunManifest): ManifestSystem[] {
  if (manifest.systems) return manifest.systems;
  const { service, counts } = manifest;
  return [
    {
      name: v1SystemName(manifest),
      kind: service.local ? 'local' : 'interface',
      identity: service.identity,
      operations: manifest.options.endpoints,
      options: service.base_url === null ? {} : { baseUrl: service.base_url },
      price: null,
      stop_reason: manifest.stop_reason,
      stop_message: manifest.stop_message,
      counts: { planned: counts.planned, recorded: counts.recorded, succeeded: counts.succeeded, failed: counts.failed },
    },
  ];
}

/**
 * The system today's single-system scoring and reports take (until they score every system): the first
 * that was called rather than read from disk.
 */
export function primarySystem(manifest: RunManifest): ManifestSystem {
  const systems = runSystems(manifest);
  return systems.find((system) => system.kind !== 'stored') ?? systems[0]!;
}

/** `20261121T194502Z-3f9a`: sorts by time, unique enough for concurrent runs. */
export function createRunId(now: Date, random: string): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${random}`;
}
