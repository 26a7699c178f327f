/** Turns the selected system specs into live systems, and collects every secret they use for redaction. */
import type { Logger } from '../logger.js';
import type { Dataset } from '../types.js';
import { createRedactor, type Redactor } from '../service/index.js';
import type { SystemSpec } from './config.js';
import { findSystemKind } from './registry.js';
import type { System, SystemKind } from './types.js';

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

/** A redactor for every secret of every system (and any extra secret, e.g. the run-wide key). */
export function createSystemsRedactor(
  specs: readonly SystemSpec[],
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly (string | null)[] = [],
): Redactor {
  const secrets = specs.flatMap((spec) =>
    kindOf(spec)
      .secretEnvNames(spec.options)
      .map((name) => env[name]),
  );
  return createRedactor([...extra, ...secrets]);
}

/**
 * Creates the systems in order; if one fails (a stored folder missing, a program not found), the ones
 * already created are closed before the error goes on, so nothing is left running.
 */
export async function createSystems(specs: readonly SystemSpec[], options: CreateSystemsOptions): Promise<System[]> {
  const systems: System[] = [];
  try {
    for (const spec of specs) {
      systems.push(await kindOf(spec).create(spec.options, { name: spec.name, common: spec.common, ...options }));
    }
  } catch (error) {
    await closeSystems(systems);
    throw error;
  }
  return systems;
}

/** Closes every system, even when one fails to close; the first failure is rethrown after the rest closed. */
export async function closeSystems(systems: readonly System[]): Promise<void> {
  const results = await Promise.allSettled(systems.map((system) => system.close()));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
