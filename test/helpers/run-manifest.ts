/** A complete run.json for hand-made run directories (tests that write results.jsonl themselves). */
import type { RunManifest } from '../../src/run-dir/manifest.js';
import type { Endpoint, Mode } from '../../src/types.js';

export interface ManifestSpec {
  runId: string;
  contentHash: string;
  documents: number;
  modes: Mode[];
  endpoints: Endpoint[];
  /** run.json `systems` (names, kinds, operations) and `reference`; absent: a run written before systems. */
  systems?: { name: string; kind: string }[];
  reference?: string;
}

export function makeRunManifest(spec: ManifestSpec): RunManifest {
  return {
    schema_version: 1,
    run_id: spec.runId,
    docbench_version: '0.0.0',
    docbench_commit: null,
    node_version: process.version,
    platform: process.platform,
    created_at: new Date(0).toISOString(),
    ended_at: new Date(0).toISOString(),
    duration_ms: 1000,
    status: 'completed',
    stop_reason: null,
    stop_message: null,
    dataset: {
      name: 'tiny',
      version: '1',
      path: 'tiny',
      content_hash: spec.contentHash,
      documents_total: spec.documents,
      documents_selected: spec.documents,
    },
    service: { base_url: null, local: true, identity: 'local' },
    options: {
      modes: spec.modes,
      endpoints: spec.endpoints,
      repeat: 1,
      cache: false,
      selection: { filters: [], sample: null, seed: 1, limit: null, shard: null },
    },
    config: {},
    counts: { planned: 0, recorded: 0, succeeded: 0, failed: 0, from_cache: 0, not_started: 0 },
    invocations: [],
    ...(spec.systems
      ? {
          systems: spec.systems.map((s) => ({
            identity: `${s.kind}:${s.name}`,
            options: {},
            price: null,
            stop_reason: null,
            stop_message: null,
            counts: { planned: 0, recorded: 0, succeeded: 0, failed: 0 },
            ...s,
            operations: spec.endpoints,
          })),
          reference: spec.reference ?? null,
        }
      : {}),
  } as unknown as RunManifest;
}
