/**
 * What the estimate needs of each configured system, from its spec alone (nothing is created or called):
 * its price, its page cap, and the tokens per page its token prices are estimated with — the config's
 * `estimate`, else its usage recorded by an earlier run of the dataset, else its kind's default, else the
 * generic one (docs/systems.md, "Estimates").
 */
import type { ResolvedConfig } from '../config.js';
import { countDocumentPages } from '../dataset/index.js';
import { findSystemKind, type SystemSpec, type TokensPerPage } from '../systems/index.js';
import type { Dataset, DatasetDocument } from '../types.js';
import { findCachedCalls } from './cached-calls.js';
import {
  createCallEstimator,
  estimateRun,
  GENERIC_TOKENS_PER_PAGE,
  type EstimateSystem,
  type SystemEstimate,
} from './estimate.js';
import type { PlannedCall } from './plan.js';
import { findRecordedTokensPerPage } from './recorded-usage.js';

export interface EstimateInputs {
  dataset: Dataset;
  documents: readonly DatasetDocument[];
  specs: readonly SystemSpec[];
  /** What each system's answers are cached under; systems absent are not looked up in the cache. */
  identities: ReadonlyMap<string, string>;
  repeat: number;
  config: Pick<ResolvedConfig, 'reportsDir' | 'cacheDir'>;
}

/**
 * Each system's estimate for the calls still to make (not in `done`), and the per-call estimator budgets
 * count with: pages counted from the files, cached calls looked up under each system's identity.
 */
export async function estimatePlannedCalls(
  calls: readonly PlannedCall[],
  done: ReadonlySet<string>,
  inputs: EstimateInputs,
): Promise<{ estimates: SystemEstimate[]; estimateCall: (call: PlannedCall) => number }> {
  const pending = calls.filter((call) => !done.has(call.key));
  const [pages, systems, cachedKeys] = await Promise.all([
    countDocumentPages(inputs.documents),
    describeEstimateSystems(inputs.specs, inputs.config.reportsDir, inputs.dataset.name),
    findCachedCalls(pending, inputs.identities, inputs.dataset, inputs.config.cacheDir),
  ]);
  const doneBySystem = new Map<string, number>();
  for (const call of calls)
    if (done.has(call.key)) doneBySystem.set(call.system, (doneBySystem.get(call.system) ?? 0) + 1);
  const estimates = estimateRun({
    systems,
    calls: pending,
    done: doneBySystem,
    pages,
    cachedKeys,
    cacheChecked: new Set(inputs.identities.keys()),
    repeat: inputs.repeat,
  });
  return { estimates, estimateCall: createCallEstimator(systems, pages) };
}

export async function describeEstimateSystems(
  specs: readonly SystemSpec[],
  reportsDir: string,
  datasetName: string,
): Promise<EstimateSystem[]> {
  return Promise.all(specs.map((spec) => describeEstimateSystem(spec, specs, reportsDir, datasetName)));
}

async function describeEstimateSystem(
  spec: SystemSpec,
  specs: readonly SystemSpec[],
  reportsDir: string,
  datasetName: string,
): Promise<EstimateSystem> {
  const price = spec.common.price;
  // A `maxPages` option caps the pages one call sends, whichever kind declares it.
  const cap = (spec.options as { maxPages?: unknown } | null)?.maxPages;
  const system: EstimateSystem = {
    name: spec.name,
    kind: spec.kind,
    price,
    tokens: { ...GENERIC_TOKENS_PER_PAGE, source: 'generic default' },
    ...(typeof cap === 'number' ? { maxPages: cap } : {}),
  };
  const reader = readerOf(spec);
  if (reader !== undefined)
    system.reader = {
      name: reader?.name ?? 'truth',
      system: reader ? await describeEstimateSystem(reader, specs, reportsDir, datasetName) : null,
      shared: reader !== null && specs.some((other) => other.name === reader.name),
    };
  if (price === null || (price.perMillionInputTokens === undefined && price.perMillionOutputTokens === undefined))
    return system;
  const kindDefault: TokensPerPage | undefined = findSystemKind(spec.kind)?.tokensPerPage;
  if (kindDefault) system.tokens = { ...kindDefault, source: 'kind default' };
  const recorded = await findRecordedTokensPerPage(reportsDir, datasetName, spec.name, spec.kind);
  if (recorded)
    system.tokens = {
      inputTokensPerPage: recorded.inputTokensPerPage,
      outputTokensPerPage: recorded.outputTokensPerPage,
      source: 'earlier run',
      detail: `${recorded.runId}, ${recorded.calls} calls`,
    };
  const given = spec.common.estimate;
  if (given && (given.inputTokensPerPage !== undefined || given.outputTokensPerPage !== undefined)) {
    system.tokens = {
      inputTokensPerPage: given.inputTokensPerPage ?? system.tokens.inputTokensPerPage,
      outputTokensPerPage: given.outputTokensPerPage ?? system.tokens.outputTokensPerPage,
      source: 'config',
      detail: `systems.${spec.name}.estimate`,
    };
  }
  return system;
}

/** A pipeline's reader spec (null: truth); undefined for any other kind. */
function readerOf(spec: SystemSpec): SystemSpec | null | undefined {
  return spec.kind === 'pipeline' ? (spec.options as { reader: SystemSpec | null }).reader : undefined;
}
