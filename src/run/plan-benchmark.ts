/**
 * `docbench plan`, as a library function: what `docbench run` with the same options would do and cost, with
 * nothing created, called or written (docs/systems.md, "Estimates"). Systems are described from their specs:
 * their operations and, for stored systems, the outputs on disk; the cache is looked up under the identity
 * each kind can tell without being created.
 */
import path from 'node:path';
import { findSystemKind, storedAnswers, type SystemSpec } from '../systems/index.js';
import type { Endpoint, Mode } from '../types.js';
import { resolveBudgetLimits } from './budget.js';
import { totalEstimate, type SystemEstimate } from './estimate.js';
import { estimatePlannedCalls } from './estimate-systems.js';
import { readFinalRecords, v1SystemName } from '../run-dir/index.js';
import { planCalls, type PlanSystem } from './plan.js';
import { resolveRunInputs, type RunInputOptions } from './run-inputs.js';

export interface PlanBenchmarkOptions extends RunInputOptions {
  /** The environment snapshot (kinds read region-like settings from it; never a secret). */
  env?: Readonly<Record<string, string | undefined>>;
  /** `--max-cost`, checked as `docbench run` checks it. */
  maxCostUsd?: number | null;
}

export interface PlanResult {
  dataset: { name: string; path: string; documentsSelected: number; documentsTotal: number };
  modes: Mode[];
  endpoints: Endpoint[];
  repeat: number;
  /** The run directory a `--resume` plan continues. */
  resumeDir: string | null;
  estimates: SystemEstimate[];
  /** USD over the priced systems; null when none has a price. */
  totalUsd: number | null;
  budgets: { run: number | null; systems: Record<string, number> };
}

export async function planBenchmark(options: PlanBenchmarkOptions): Promise<PlanResult> {
  const inputs = await resolveRunInputs(options);
  const { previous, dataset, documents, specs, repeat, config } = { ...inputs, config: options.config };
  const maxCost =
    options.maxCostUsd !== undefined ? options.maxCostUsd : (previous?.invocations.at(-1)?.max_cost_usd ?? null);
  const limits = resolveBudgetLimits(specs, maxCost);
  const systems = specs.map((spec) => planSystem(spec, dataset));
  const calls = planCalls(documents, { modes: inputs.modes, endpoints: inputs.endpoints, repeat, systems });
  const done = new Set<string>();
  const resumeDir = options.resumeDir ? path.resolve(options.cwd, options.resumeDir) : null;
  if (previous && resumeDir) {
    for (const record of await readFinalRecords(resumeDir, v1SystemName(previous)))
      if (record.status === 'ok') done.add(record.key);
  }
  const identities = new Map<string, string>();
  if (inputs.useCache) {
    for (const spec of specs) {
      const identify = findSystemKind(spec.kind)?.identity;
      if (identify)
        identities.set(
          spec.name,
          await identify(spec.options, { name: spec.name, env: options.env ?? {}, baseDir: inputs.baseDir }),
        );
    }
  }
  const { estimates } = await estimatePlannedCalls(calls, done, {
    dataset,
    documents,
    specs,
    identities,
    repeat,
    config,
  });
  return {
    dataset: {
      name: dataset.name,
      path: inputs.datasetDir,
      documentsSelected: documents.length,
      documentsTotal: dataset.documents.length,
    },
    modes: inputs.modes,
    endpoints: inputs.endpoints,
    repeat,
    resumeDir,
    estimates,
    totalUsd: totalEstimate(estimates),
    budgets: { run: limits.run, systems: Object.fromEntries(limits.systems) },
  };
}

/** What the plan needs of a system, from its spec: its kind's operations, and a stored system's outputs. */
function planSystem(spec: SystemSpec, dataset: Parameters<typeof storedAnswers>[1]): PlanSystem {
  const kind = findSystemKind(spec.kind)!;
  return {
    name: spec.name,
    operations: new Set(kind.operations(spec.options)),
    ...(spec.kind === 'stored' ? { answers: storedAnswers(spec.name, dataset) } : {}),
  };
}
