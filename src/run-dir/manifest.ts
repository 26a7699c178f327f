/**
 * run.json: the provenance of a run — who ran what against which service on which data, with which
 * settings (never the key), when, and how far it got. Written at the start (status "running") and rewritten
 * atomically at every end, so a killed run still says what it was. Read and written by src/run-dir/.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ManifestEstimateFormat,
  ManifestSystemFormat,
  RunManifestFormat,
  RunPhasesFormat,
  SelectionFormat,
  StopReasonFormat,
} from './formats/manifest.js';

export const MANIFEST_SCHEMA_VERSION = 1;

/** Why a run stopped before its plan was done (`stop_reason`). */
export type StopReason = NonNullable<Static<typeof StopReasonFormat>>;

/** Which documents a run takes (`selection`): the selection flags as the plan applied them. */
export type Selection = Static<typeof SelectionFormat>;

/** The format, with each field's documentation: formats/manifest.ts. */
export type RunManifest = Static<typeof RunManifestFormat>;
export type RunStatus = RunManifest['status'];

/** Milliseconds per phase: formats/manifest.ts. */
export type RunPhases = Static<typeof RunPhasesFormat>;

/** One system of a run, as run.json records it (never a secret: keys are only named by their variables). */
export type ManifestSystem = Static<typeof ManifestSystemFormat>;

/** A system's estimate as run.json keeps it. */
export type ManifestEstimate = Static<typeof ManifestEstimateFormat>;

/** What a system reported itself to be over a run: per name, each distinct value with its number of calls. */
export type ReportedTally = NonNullable<ManifestSystem['reported']>;

/** The tally of what the records said their system was (each record counted once per name it reports). */
export function tallyReported(records: Iterable<{ reported?: Readonly<Record<string, string>> }>): ReportedTally {
  const tally: ReportedTally = {};
  for (const record of records) {
    for (const [name, value] of Object.entries(record.reported ?? {})) {
      const values = tally[name] ?? {};
      values[value] = (values[value] ?? 0) + 1;
      tally[name] = values;
    }
  }
  return tally;
}

/** The names whose value changed within the run (more than one distinct value), with the values by count. */
export function changedReports(tally: ReportedTally | undefined): { name: string; values: string[] }[] {
  return Object.entries(tally ?? {})
    .filter(([, values]) => Object.keys(values).length > 1)
    .map(([name, values]) => ({ name, values: Object.entries(values).map(([value, n]) => `${value} (${n})`) }));
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
      counts: {
        planned: counts.planned,
        recorded: counts.recorded,
        succeeded: counts.succeeded,
        failed: counts.failed,
      },
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
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${random}`;
}
