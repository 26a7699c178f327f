/**
 * What a run is made of, resolved from the options (or, resuming, from the run's own run.json) before
 * anything is created or called: the dataset, its selected documents, modes, endpoints, repeats and the
 * systems' specs. `docbench run` and `docbench plan` resolve it alike, so a plan is the run's.
 */
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { ResolvedConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { Dataset, DatasetDocument, Endpoint, Mode } from '../types.js';
import { loadDataset } from '../dataset/index.js';
import { selectSystems, type SystemChoice, type SystemSpec } from '../systems/index.js';
import { selectDocuments, type Selection } from './plan.js';
import { readManifest, type RunManifest } from '../run-dir/index.js';
import { resumedBaseDir, resumedSystemSpecs } from './resume-systems.js';

export interface RunInputOptions {
  /** The dataset directory, as the user gave it. Ignored with `resumeDir` (the run's own is used). */
  datasetDir?: string;
  config: ResolvedConfig;
  /** Continue this run directory instead of starting a new one. */
  resumeDir?: string;
  selection: Selection;
  /** Modes and endpoints when given explicitly (flags or config file); otherwise the dataset's defaults apply. */
  modes?: Mode[];
  endpoints?: Endpoint[];
  repeat: number;
  cache: boolean;
  cwd: string;
  logger: Logger;
  /** `--systems` / `--reference`: which configured systems run, and which is the reference. */
  systems?: SystemChoice;
}

export interface RunInputs {
  /** run.json of the run being resumed; null for a new run. */
  previous: RunManifest | null;
  datasetDir: string;
  dataset: Dataset;
  documents: DatasetDocument[];
  modes: Mode[];
  endpoints: Endpoint[];
  repeat: number;
  useCache: boolean;
  selection: Selection;
  specs: SystemSpec[];
  reference: string | null;
  /** What the systems resolve relative paths against: the config file's folder (the run's, resuming), else the working directory. */
  baseDir: string;
}

export async function resolveRunInputs(options: RunInputOptions): Promise<RunInputs> {
  const { config } = options;
  const previous = options.resumeDir ? await readManifest(path.resolve(options.cwd, options.resumeDir)) : null;
  const datasetDir = previous ? previous.dataset.path : options.datasetDir;
  if (!datasetDir)
    throw new UsageError('no dataset given', {
      subject: '--dataset',
      hint: 'pass --dataset <dir> (e.g. datasets/sample-claims)',
    });
  const dataset = await loadDataset(path.resolve(options.cwd, datasetDir), { logger: options.logger });
  if (previous && previous.dataset.content_hash !== dataset.contentHash) {
    throw new UsageError(
      `the dataset ${datasetDir} changed since run ${previous.run_id} started (content hash differs)`,
      {
        code: 'INPUT_INVALID',
        subject: '--resume',
        hint: 'resume only with the same dataset; start a new run for the changed one',
      },
    );
  }

  const modes = previous?.options.modes ?? options.modes ?? dataset.defaults.modes ?? config.modes;
  const endpoints = previous?.options.endpoints ?? options.endpoints ?? dataset.defaults.endpoints ?? config.endpoints;
  const repeat = previous?.options.repeat ?? options.repeat;
  const useCache = previous?.options.cache ?? options.cache;
  const selection = previous?.options.selection ?? options.selection;
  const documents = selectDocuments(dataset.documents, selection);
  if (documents.length === 0) {
    throw new UsageError(`no document of ${datasetDir} matches the selection`, {
      subject: '--filter',
      hint: 'loosen --filter/--shard/--limit, or check the dataset tags',
    });
  }

  const common = {
    concurrency: config.concurrency,
    ratePerSecond: config.ratePerSecond,
    timeoutMs: config.timeoutMs,
    retry: config.retry,
    price: null,
  };
  const configured = selectSystems(
    { systems: config.systems, reference: config.reference },
    {
      baseUrl: config.baseUrl,
      apiKeyEnv: config.apiKeyEnv,
      auth: config.auth,
      maxResponseBytes: config.maxResponseBytes,
      common,
    },
    dataset,
    // A resumed run takes the systems it started with from its run.json; today's configuration only paces them.
    previous ? {} : (options.systems ?? {}),
  );
  const specs = previous ? resumedSystemSpecs(previous, configured.systems, common) : configured.systems;
  const reference = previous ? (previous.reference ?? null) : configured.reference;
  const baseDir = previous
    ? resumedBaseDir(previous, options.cwd)
    : config.configFile
      ? path.dirname(config.configFile)
      : options.cwd;
  return {
    previous,
    datasetDir,
    dataset,
    documents,
    modes,
    endpoints,
    repeat,
    useCache,
    selection,
    specs,
    reference,
    baseDir,
  };
}
