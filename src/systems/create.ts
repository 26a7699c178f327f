/** Turns the selected system specs into live systems, and collects every secret they use for redaction. */
import type { Logger } from '../logger.js';
import type { Dataset } from '../types.js';
import { createRedactor, type Redactor } from '../service/index.js';
import type { SystemSpec } from './config.js';
import { findSystemKind } from './registry.js';
import type { ReaderPool, System, SystemKind } from './types.js';
import { shareReader, truthReader, withSharedCompare, type SharedReader } from './readers.js';
import type { PipelineOptions } from './kinds/pipeline-settings.js';

export interface CreateSystemsOptions {
  dataset: Dataset;
  /** The environment snapshot of the CLI: each system reads only the variables its options name. */
  env: Readonly<Record<string, string | undefined>>;
  redact: Redactor;
  cacheDir: string;
  baseDir: string;
  logger: Logger;
}

function kindOf(spec: SystemSpec): SystemKind<unknown> {
  const kind = findSystemKind(spec.kind);
  // Specs come from parseSystemsSection or selectSystems, which only name registered kinds.
  if (!kind) throw new Error(`system ${spec.name}: kind ${spec.kind} is not registered`);
  return kind;
}

/** The operations of each spec, by its kind. */
export function operationsOf(spec: SystemSpec): readonly string[] {
  return kindOf(spec).operations(spec.options);
}

/** The specs and, for pipelines, the systems they read with (which may not be systems of the run). */
function withReaders(specs: readonly SystemSpec[]): SystemSpec[] {
  const all: SystemSpec[] = [];
  const add = (spec: SystemSpec) => {
    if (all.some((known) => known.name === spec.name)) return;
    all.push(spec);
    if (spec.kind === 'pipeline') {
      const reader = (spec.options as PipelineOptions).reader;
      if (reader) add(reader);
    }
  };
  for (const spec of specs) add(spec);
  return all;
}

/** A redactor for every secret of every system (and any extra secret, e.g. the run-wide key). */
export function createSystemsRedactor(
  specs: readonly SystemSpec[],
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly (string | null)[] = [],
): Redactor {
  const secrets = withReaders(specs).flatMap((spec) =>
    kindOf(spec)
      .secretEnvNames(spec.options)
      .map((name) => env[name]),
  );
  return createRedactor([...extra, ...secrets]);
}

/**
 * Creates the systems in order; if one fails (a stored folder missing, a program not found), the ones
 * already created are closed before the error goes on, so nothing is left running. A pipeline's reader is
 * created before it and shared (systems/readers.ts): when the reader is a system of the run, its own compare
 * calls and the pipeline's reads are one call per document; otherwise the pipeline's reader is created for it
 * alone and closed with the pipeline.
 */
export async function createSystems(specs: readonly SystemSpec[], options: CreateSystemsOptions): Promise<System[]> {
  const created = new Map<string, System>();
  const alone: System[] = [];
  const shared = new Map<string, SharedReader>();
  const readers: ReaderPool = {
    async reader(spec) {
      if (spec === null) return truthReader(options.dataset.contentHash);
      let reader = shared.get(spec.name);
      if (!reader) {
        const inRun = created.get(spec.name);
        const system = inRun ?? (await createOne(spec));
        if (!inRun) alone.push(system);
        reader = shareReader(system, spec.common.price, !inRun);
        shared.set(spec.name, reader);
      }
      return reader;
    },
  };
  const createOne = (spec: SystemSpec) =>
    kindOf(spec).create(spec.options, { name: spec.name, common: spec.common, ...options, readers });
  try {
    for (const spec of readersFirst(specs)) created.set(spec.name, await createOne(spec));
  } catch (error) {
    await closeSystems([...created.values(), ...alone]);
    throw error;
  }
  return specs.map((spec) => {
    const system = created.get(spec.name)!;
    const reader = shared.get(spec.name);
    return reader ? withSharedCompare(system, reader) : system;
  });
}

/** The specs with every pipeline after the system it reads with (config.ts refused cycles). */
function readersFirst(specs: readonly SystemSpec[]): SystemSpec[] {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const ordered: SystemSpec[] = [];
  const visit = (spec: SystemSpec) => {
    if (ordered.includes(spec)) return;
    const read = spec.kind === 'pipeline' ? (spec.options as PipelineOptions).reader : null;
    const reader = read ? byName.get(read.name) : undefined;
    if (reader) visit(reader);
    ordered.push(spec);
  };
  for (const spec of specs) visit(spec);
  return ordered;
}

/** Closes every system, even when one fails to close; the first failure is rethrown after the rest closed. */
export async function closeSystems(systems: readonly System[]): Promise<void> {
  const results = await Promise.allSettled(systems.map((system) => system.close()));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
