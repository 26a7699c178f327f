/**
 * `docbench run`, as a library function: validate the dataset, start the local service if no base URL was
 * given, execute the plan into the run directory (or resume one), then score and report from what was
 * stored. Returns the outcome; the CLI only maps it to an exit code.
 */
import { mkdir, readdir, rmdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DocbenchError, UsageError, isDocbenchError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Dataset, Endpoint, Mode } from '../types.js';
import type { ResolvedConfig } from '../config.js';
import { describeConfig } from '../config.js';
import { loadDataset } from '../dataset/index.js';
import { startLocalService } from '../local/index.js';
import { createClient, createRedactor } from '../service/index.js';
import { DOCBENCH_VERSION } from '../version.js';
import { unwritable } from '../fs-utils.js';
import { createDiskCache } from './cache.js';
import { planCalls, selectDocuments, type Selection } from './plan.js';
import { readFinalRecords, readManifest, runDirPath, writeManifest } from '../run-dir/index.js';
import { ResultsWriter } from './results-file.js';
import { createRunId, type RunManifest, type RunStatus } from './manifest.js';
import { executeCalls } from './runner.js';
import { findDocbenchCommit } from './git-commit.js';
import { exportComparisonPages } from './comparison-pages.js';
import type { RunEvent, StopReason } from './events.js';

export interface RunBenchmarkOptions {
  /** The dataset directory, as the user gave it. Ignored with `resumeDir` (the run's own is used). */
  datasetDir?: string;
  config: ResolvedConfig;
  /** Where to write; default `<reportsDir>/<run-id>`. Must not hold a run already. */
  outDir?: string;
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
  /** First interrupt: stop starting calls. */
  stopSignal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Scores and reports the stored run (the scoring and report modules); called after every invocation. */
  finalize: (runDir: string, dataset: Dataset) => Promise<void>;
}

export interface RunBenchmarkResult {
  runDir: string;
  manifest: RunManifest;
  status: RunStatus;
  stopReason: StopReason | null;
  stopMessage: string | null;
}

export async function runBenchmark(options: RunBenchmarkOptions): Promise<RunBenchmarkResult> {
  const { config, logger } = options;
  const started = new Date();
  const previous = options.resumeDir ? await readManifest(path.resolve(options.cwd, options.resumeDir)) : null;
  const datasetDir = previous ? previous.dataset.path : options.datasetDir;
  if (!datasetDir) throw new UsageError('no dataset given', { subject: '--dataset', hint: 'pass --dataset <dir> (e.g. datasets/sample-claims)' });
  const dataset = await loadDataset(path.resolve(options.cwd, datasetDir), { logger });
  if (previous && previous.dataset.content_hash !== dataset.contentHash) {
    throw new UsageError(`the dataset ${datasetDir} changed since run ${previous.run_id} started (content hash differs)`, {
      code: 'INPUT_INVALID',
      subject: '--resume',
      hint: 'resume only with the same dataset; start a new run for the changed one',
    });
  }
  if (previous && previous.service.base_url !== config.baseUrl) {
    throw new UsageError(`run ${previous.run_id} was made against ${previous.service.base_url ?? 'the local reference service'}, not ${config.baseUrl ?? 'the local reference service'}`, {
      subject: '--resume',
      hint: 'resume against the same service (same --base-url), or start a new run',
    });
  }

  const modes = previous?.options.modes ?? options.modes ?? dataset.defaults.modes ?? config.modes;
  const endpoints = previous?.options.endpoints ?? options.endpoints ?? dataset.defaults.endpoints ?? config.endpoints;
  const repeat = previous?.options.repeat ?? options.repeat;
  const useCache = previous?.options.cache ?? options.cache;
  const selection = previous?.options.selection ?? options.selection;
  const documents = selectDocuments(dataset.documents, selection);
  if (documents.length === 0) {
    throw new UsageError(`no document of ${datasetDir} matches the selection`, { subject: '--filter', hint: 'loosen --filter/--shard/--limit, or check the dataset tags' });
  }
  const calls = planCalls(documents, { modes, endpoints, repeat });

  const runDir = previous ? path.resolve(options.cwd, options.resumeDir!) : await createRunDir(options, started);
  const done = new Set<string>();
  if (previous) {
    for (const record of await readFinalRecords(runDir)) if (record.status === 'ok') done.add(record.key);
  }

  const local = config.baseUrl === null;
  const commit = previous ? previous.docbench_commit : await findDocbenchCommit();
  // The local engine answers as its code does: from a checkout, the commit is part of its identity, so
  // cached answers of an older engine are never reused after a code change.
  const identity = previous?.service.identity ?? (local ? `local:${DOCBENCH_VERSION}${commit ? `+${commit.slice(0, 12)}` : ''}` : config.baseUrl!);
  const manifest: RunManifest = previous ?? {
    schema_version: 1,
    run_id: path.basename(runDir),
    docbench_version: DOCBENCH_VERSION,
    docbench_commit: commit,
    node_version: process.version,
    platform: `${process.platform}-${process.arch}`,
    created_at: started.toISOString(),
    ended_at: null,
    duration_ms: 0,
    status: 'running',
    stop_reason: null,
    stop_message: null,
    dataset: {
      name: dataset.name,
      version: dataset.version ?? null,
      path: datasetDir,
      content_hash: dataset.contentHash,
      documents_total: dataset.documents.length,
      documents_selected: documents.length,
    },
    service: { base_url: config.baseUrl, local, identity },
    options: { modes, endpoints, repeat, cache: useCache, selection },
    config: describeConfig(config),
    counts: { planned: calls.length, recorded: 0, succeeded: 0, failed: 0, from_cache: 0, not_started: calls.length },
    invocations: [],
  };
  manifest.status = 'running';
  manifest.invocations.push({
    started_at: started.toISOString(),
    ended_at: null,
    recorded: 0,
    stop_reason: null,
    // What --resume may change: how fast and how patiently the calls go (the run's shape stays in `options`).
    concurrency: config.concurrency,
    rate_per_second: config.ratePerSecond,
    timeout_ms: config.timeoutMs,
    retry_attempts: config.retry.maxAttempts,
  });
  await writeManifest(runDir, manifest);

  const service = local ? await startLocalService({ dataDir: localDataDir(config), logger }) : null;
  if (service) logger.info(`No --base-url: using the local reference service at ${service.baseUrl} (docbench's own engine, not the real service).`);
  const client = createClient({
    baseUrl: service?.baseUrl ?? config.baseUrl!,
    apiKey: local ? null : config.apiKey,
    timeoutMs: config.timeoutMs,
    retry: config.retry,
    auth: config.auth,
    maxResponseBytes: config.maxResponseBytes,
    connections: config.concurrency,
    onAttempt: (event) => {
      if (event.error) logger.debug(`${event.endpoint} attempt ${event.attempt}: ${event.error}${event.retryInMs !== undefined ? `, retrying in ${event.retryInMs} ms` : ''}`);
    },
  });

  let writer: ResultsWriter | null = null;
  let execution: Awaited<ReturnType<typeof executeCalls>>;
  try {
    const redact = createRedactor([config.apiKey]);
    writer = ResultsWriter.open(runDirPath(runDir, 'results'), redact);
    execution = await executeCalls({
      dataset,
      calls,
      done,
      client,
      serviceIdentity: identity,
      cache: useCache ? createDiskCache(config.cacheDir, redact) : null,
      writer,
      concurrency: config.concurrency,
      endpointConcurrency: config.endpointConcurrency,
      ratePerSecond: config.ratePerSecond,
      outageThreshold: config.outageThreshold,
      ...(options.stopSignal ? { stopSignal: options.stopSignal } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      logger,
    });
  } finally {
    writer?.close();
    await client.close();
    await service?.close();
  }

  const final = await readFinalRecords(runDir);
  const ended = new Date();
  manifest.status = execution.stopReason === null ? 'completed' : execution.stopReason === 'interrupted' ? 'interrupted' : 'stopped';
  manifest.stop_reason = execution.stopReason;
  manifest.stop_message = execution.stopMessage;
  manifest.ended_at = ended.toISOString();
  manifest.duration_ms += ended.getTime() - started.getTime();
  manifest.counts = {
    planned: calls.length,
    recorded: final.length,
    succeeded: final.filter((r) => r.status === 'ok').length,
    failed: final.filter((r) => r.status === 'failed').length,
    from_cache: final.filter((r) => r.from_cache).length,
    not_started: calls.length - final.length,
  };
  const invocation = manifest.invocations.at(-1)!;
  invocation.ended_at = manifest.ended_at;
  invocation.recorded = execution.counts.recorded;
  invocation.stop_reason = execution.stopReason;
  try {
    await writeManifest(runDir, manifest);
    if (local) {
      const ids = final.flatMap((r) => (r.endpoint === 'compare' && r.result?.comparisonId ? [r.result.comparisonId] : []));
      await exportComparisonPages(runDir, localDataDir(config), ids, logger);
    }
    await options.finalize(runDir, dataset);
  } catch (error) {
    // Every call that finished is in results.jsonl; only the bookkeeping and reports are missing, and a
    // resume (which redoes nothing that succeeded) writes them. Say so instead of a bare write error.
    if (isDocbenchError(error) && error.code === 'OUTPUT_UNWRITABLE') {
      const full = (error.cause as { code?: string } | undefined)?.code === 'ENOSPC';
      throw new DocbenchError('OUTPUT_UNWRITABLE', `${error.message} (the results recorded so far are kept)`, {
        hint: `${full ? 'free some space' : `make ${runDir} writable`}, then finish the run with: docbench run --resume ${runDir}`,
        cause: error,
      });
    }
    throw error;
  }
  return { runDir, manifest, status: manifest.status, stopReason: execution.stopReason, stopMessage: execution.stopMessage };
}

/** Where the embedded engine keeps its /compare store across runs. */
function localDataDir(config: ResolvedConfig): string {
  return path.join(config.cacheDir, 'local-service');
}

async function createRunDir(options: RunBenchmarkOptions, now: Date): Promise<string> {
  const runDir = options.outDir
    ? path.resolve(options.cwd, options.outDir)
    : path.join(options.config.reportsDir, createRunId(now, randomBytes(2).toString('hex')));
  if (existsSync(runDir)) {
    const entries = await readdir(runDir).catch(() => []);
    if (entries.length > 0) {
      throw new UsageError(`${runDir} already holds files`, {
        subject: '--out',
        hint: existsSync(runDirPath(runDir, 'manifest')) ? `continue it with --resume ${runDir}, or choose another --out` : 'choose an empty or new directory for --out',
      });
    }
  }
  try {
    await mkdir(runDir, { recursive: true });
  } catch (error) {
    throw unwritable(runDir, await explainMkdirFailure(runDir, error));
  }
  return runDir;
}

/**
 * A recursive mkdir reports some failures with the wrong cause: on a read-only file system Node says ENOENT
 * for the missing directory. Creating the first missing directory alone gives the real one (EROFS, EACCES,
 * ENOTDIR, ENOSPC), which is what the user needs to read.
 */
async function explainMkdirFailure(dir: string, error: unknown): Promise<unknown> {
  let missing = dir;
  while (path.dirname(missing) !== missing && !existsSync(path.dirname(missing))) missing = path.dirname(missing);
  try {
    await mkdir(missing);
    await rmdir(missing);
  } catch (real) {
    return real;
  }
  return error;
}
