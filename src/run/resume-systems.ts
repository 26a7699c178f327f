/**
 * The systems of a resumed run, from its run.json (docs/run-directory.md, "Resuming"): a run directory is
 * enough to resume, whatever config file is or is not beside it. Each system is rebuilt from the kind and
 * options run.json recorded (keys are read again from the variables its options name); a configuration that
 * also defines a system of the same name may change how it is paced and budgeted, never what it is.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { UsageError } from '../errors.js';
import type { RetryPolicy } from '../service/index.js';
import type { CommonSystemOptions, SystemSpec, TokensPerPage } from '../systems/index.js';
import { runSystems, type ManifestSystem, type RunManifest } from '../run-dir/index.js';

/** The common options run.json keeps beside a kind's own in a system's `options` (all but price and budget). */
const COMMON_KEYS = ['concurrency', 'ratePerSecond', 'timeoutMs', 'retry', 'estimate'] as const;

/** The run-wide pacing this invocation resolved (flags, then config file, then defaults). */
type RunPacing = Pick<CommonSystemOptions, 'concurrency' | 'ratePerSecond' | 'timeoutMs' | 'retry'>;

/**
 * The run's systems, in its order. `configured` are the systems today's configuration defines (or its
 * defaults): one of the same name is taken as configured when its kind and options are the run's, and refused
 * (exit 2, naming each option that changed) otherwise.
 */
export function resumedSystemSpecs(
  previous: RunManifest,
  configured: readonly SystemSpec[],
  pacing: RunPacing,
): SystemSpec[] {
  return runSystems(previous).map((entry) => {
    const recorded = recordedSpec(entry, previous, pacing);
    const now = configured.find((spec) => spec.name === entry.name);
    if (!now) return recorded;
    // A run made before run.json recorded its systems names one by its base URL alone: today's configuration of
    // it is taken, and the identity check after the systems are created compares what matters.
    if (!previous.systems) return now;
    const changes = describeChanges(recorded, now);
    if (changes.length > 0) {
      throw new UsageError(
        `run ${previous.run_id} was made with system "${entry.name}" as run.json records it; the configuration changes ${changes.join('; ')}`,
        {
          subject: '--resume',
          hint: `resume without that configuration (docbench run --resume <run-dir> takes the systems from run.json), or start a new run with it`,
        },
      );
    }
    return now;
  });
}

/**
 * Where a resumed run's systems resolve relative paths (a command's working directory, a stored folder): the
 * folder of the config file the run started with, else the working directory of this invocation.
 */
export function resumedBaseDir(previous: RunManifest, cwd: string): string {
  const file = previous.config.configFile;
  return typeof file === 'string' && file !== '' ? path.dirname(file) : cwd;
}

/**
 * A system as run.json recorded it. A common setting equal to the run-wide one it started with was taken
 * from the run, so it follows this invocation's run-wide setting (--concurrency, --rate, --timeout and
 * --retries may pace a resume).
 */
function recordedSpec(entry: ManifestSystem, previous: RunManifest, pacing: RunPacing): SystemSpec {
  const own = Object.fromEntries(
    Object.entries(entry.options).filter(([key]) => !(COMMON_KEYS as readonly string[]).includes(key)),
  );
  const inherited = <K extends keyof RunPacing>(key: K): RunPacing[K] => {
    const value = entry.options[key];
    return value === undefined || isDeepStrictEqual(value, previous.config[key])
      ? pacing[key]
      : (value as RunPacing[K]);
  };
  return {
    name: entry.name,
    kind: entry.kind,
    options: own,
    common: {
      concurrency: inherited('concurrency'),
      ratePerSecond: inherited('ratePerSecond'),
      timeoutMs: inherited('timeoutMs'),
      retry: inherited('retry') as RetryPolicy,
      price: entry.price,
      maxCostUsd: entry.max_cost_usd ?? null,
      estimate: (entry.options.estimate as Partial<TokensPerPage> | null | undefined) ?? null,
    },
  };
}

/** `systems.<name>.<key>: <was> → <now>` for the kind and each of the kind's own options that differ. */
function describeChanges(recorded: SystemSpec, now: SystemSpec): string[] {
  const at = `systems.${recorded.name}`;
  if (recorded.kind !== now.kind) return [`${at}.kind: ${recorded.kind} → ${now.kind}`];
  // Through JSON, as run.json holds them: an option left undefined is one never written.
  const before = recorded.options as Record<string, unknown>;
  const after = JSON.parse(JSON.stringify(now.options ?? {})) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((key) => !isDeepStrictEqual(before[key], after[key]))
    .map((key) => `${at}.${key}: ${show(before[key])} → ${show(after[key])}`);
}

function show(value: unknown): string {
  const text = value === undefined ? '(not set)' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
