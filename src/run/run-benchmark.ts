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
import type { Dataset } from '../types.js';
import { describeConfig } from '../config.js';
import {
  closeSystems,
  createSystems,
  createSystemsRedactor,
  localEngineDataDir,
  type System,
  type SystemSpec,
} from '../systems/index.js';
import { DOCBENCH_VERSION } from '../version.js';
import { unwritable } from '../fs-utils.js';
import { createDiskCache } from './cache.js';
import { planCalls, type PlannedCall } from './plan.js';
import {
  indexFinalRecords,
  readFinalRecords,
  readResults,
  runDirPath,
  writeManifest,
  ResultsWriter,
  createRunId,
  runSystems,
  v1SystemName,
  tallyReported,
  changedReports,
  type ManifestSystem,
  type RunManifest,
  type RunStatus,
  type CallRecord,
  type ReadRecordIndex,
} from '../run-dir/index.js';
import { executeCalls, type ExecuteResult } from './runner.js';
import {
  createBudgetLedger,
  resolveBudgetLimits,
  sumRecordedCost,
  type BudgetLedger,
  type BudgetLimits,
  type RecordedSpend,
} from './budget.js';
import type { SystemEstimate } from './estimate.js';
import { estimatePlannedCalls } from './estimate-systems.js';
import { resolveRunInputs, type RunInputOptions, type RunInputs } from './run-inputs.js';
import { findDocbenchCommit } from '../git-commit.js';
import { exportComparisonPages } from './comparison-pages.js';
import type { RunEvent, StopReason } from './events.js';
import { trackRecordedDocuments, type DocumentRecordedListener } from './recorded-documents.js';

export interface RunBenchmarkOptions extends RunInputOptions {
  /** Where to write; default `<reportsDir>/<run-id>`. Must not hold a run already. */
  outDir?: string;
  /** The environment snapshot systems read their keys from (each only the variables its options name). */
  env?: Readonly<Record<string, string | undefined>>;
  /** `--max-cost`: USD the whole run may spend; undefined: a resumed run keeps its last, a new run has none. */
  maxCostUsd?: number | null;
  /** First interrupt: stop starting calls. */
  stopSignal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Told each system's estimate before the first call (the lines `docbench plan` prints). */
  onEstimate?: (estimates: readonly SystemEstimate[]) => void;
  /**
   * Called once the calls have started: what comes after them may load while they wait on the network
   * (docs/performance.md, "Runner"). It may return a listener, told of each document as soon as every call
   * planned for it is recorded (src/run/recorded-documents.ts), so that its scoring need not wait for the last
   * call (docs/performance.md, "The tail"); a resumed run whose results.jsonl already held records tells it
   * nothing.
   */
  whileCalling?: (calls: { runDir: string; dataset: Dataset }) => DocumentRecordedListener | undefined;
  /**
   * Scores and reports the stored run (the scoring and report modules); called after every invocation, with
   * results.jsonl's index as the run has just read it (scoring need not read the file a second time).
   */
  finalize: (runDir: string, dataset: Dataset, recordIndex: ReadRecordIndex) => Promise<void>;
}

export interface RunBenchmarkResult {
  runDir: string;
  manifest: RunManifest;
  status: RunStatus;
  stopReason: StopReason | null;
  stopMessage: string | null;
}

export async function runBenchmark(options: RunBenchmarkOptions): Promise<RunBenchmarkResult> {
  // The calls in a function of their own: an async function waiting for scoring keeps every local it has, and
  // the plan and the final records of every call would stay in memory through scoring and reports.
  const { runDir, manifest, dataset, stopReason, stopMessage, recordIndex } = await executeCalledRun(options);
  await finishRun(runDir, manifest, dataset, recordIndex, options);
  return { runDir, manifest, status: manifest.status, stopReason, stopMessage };
}

/** Validates the dataset, plans and makes the calls, and records their outcome in the manifest (not yet written). */
async function executeCalledRun(
  options: RunBenchmarkOptions,
): Promise<Omit<RunBenchmarkResult, 'status'> & { dataset: Dataset; recordIndex: ReadRecordIndex }> {
  const { config, logger } = options;
  const started = new Date();
  // git runs while the dataset is validated (it never rejects: outside a checkout the commit is null).
  const commitLookup = findDocbenchCommit();
  const inputs = await resolveRunInputs(options);
  const { previous, dataset, documents, repeat, useCache, specs } = inputs;
  const maxCost =
    options.maxCostUsd !== undefined ? options.maxCostUsd : (previous?.invocations.at(-1)?.max_cost_usd ?? null);
  const limits = resolveBudgetLimits(specs, maxCost);
  const { systems, redact } = await openSystems(options, inputs);

  let writer: ResultsWriter | null = null;
  let execution: Awaited<ReturnType<typeof executeCalls>>;
  let runDir: string;
  let manifest: RunManifest;
  let calls: PlannedCall[];
  let budget: BudgetLedger;
  try {
    if (previous) checkSameSystems(previous, systems);
    calls = planCalls(documents, { modes: inputs.modes, endpoints: inputs.endpoints, repeat, systems });
    runDir = previous ? path.resolve(options.cwd, options.resumeDir!) : await createRunDir(options, started);
    const { done, spentBefore } = await readResumeState(runDir, previous);
    const { estimates, estimateCall } = await estimatePlannedCalls(calls, done, {
      dataset,
      documents,
      specs,
      identities: cacheIdentities(systems, useCache),
      repeat,
      config,
    });
    options.onEstimate?.(estimates);
    budget = createBudgetLedger(limits, specs, spentBefore, estimateCall);
    const commit = previous ? previous.docbench_commit : await commitLookup;
    manifest = previous ?? newManifest({ runDir, commit, started, inputs, config, systems, calls, estimates });
    startInvocation(manifest, started, config, limits.run);
    await writeManifest(runDir, manifest);

    await Promise.all(systems.map((system) => system.prepare?.()));
    writer = ResultsWriter.open(runDirPath(runDir, 'results'), redact, { index: true });
    let recorded: ((record: CallRecord) => void) | null = null;
    const calling = executeCalls({
      dataset,
      calls,
      done,
      systems: systems.map((system, i) => ({ system, common: specs[i]!.common })),
      cache: useCache ? createDiskCache(config.cacheDir, redact) : null,
      writer,
      endpointConcurrency: config.endpointConcurrency,
      outageThreshold: config.outageThreshold,
      budget,
      ...(options.stopSignal ? { stopSignal: options.stopSignal } : {}),
      onEvent: (event) => {
        options.onEvent?.(event);
        if (event.type === 'call-done') recorded?.(event.record);
      },
      logger,
    });
    // No call has ended yet (each awaits its document and the network first): the listener is in place before
    // the first record.
    const listener = options.whileCalling?.({ runDir, dataset });
    const index = writer.writtenIndex();
    if (listener && index) recorded = trackRecordedDocuments(documents, calls, index, listener);
    execution = await calling;
  } finally {
    writer?.close();
    await closeSystems(systems);
  }

  // Without their responses: a large run's texts are never all in memory. A new run's writer indexed what it
  // wrote; a resumed run's file also holds the earlier invocations' lines, so it is read.
  const issues: ReadRecordIndex['issues'] = [];
  const recordIndex: ReadRecordIndex = {
    index: writer?.writtenIndex() ?? (await indexFinalRecords(runDir, v1SystemName(manifest), issues)),
    issues,
  };
  const final = [...recordIndex.index.values()].map((entry) => entry.record);
  recordExecution(manifest, execution, { started, calls, final, specs, limits, budget });
  reportSystems(manifest.systems!, final, logger);
  endInvocation(manifest, execution);
  return {
    runDir,
    manifest,
    dataset,
    stopReason: execution.stopReason,
    stopMessage: execution.stopMessage,
    recordIndex,
  };
}

/** Every system of the run, ready to call, and the redactor of their secrets. */
async function openSystems(
  options: RunBenchmarkOptions,
  { specs, dataset, baseDir }: RunInputs,
): Promise<{ systems: System[]; redact: ReturnType<typeof createSystemsRedactor> }> {
  const { config, logger } = options;
  // The key resolved by the config is the `service` system's, also for library callers that pass no env.
  const env = { ...options.env, ...(config.apiKey ? { [config.apiKeyEnv]: config.apiKey } : {}) };
  const redact = createSystemsRedactor(specs, env, [config.apiKey]);
  const systems = await createSystems(specs, {
    dataset,
    env,
    redact,
    cacheDir: config.cacheDir,
    baseDir,
    logger,
  });
  return { systems, redact };
}

/** The cache identity of each system whose responses may be cached (none without the cache). */
function cacheIdentities(systems: readonly System[], useCache: boolean): Map<string, string> {
  return new Map(
    useCache
      ? systems.filter((system) => system.cacheable !== false).map((system) => [system.name, system.identity])
      : [],
  );
}

/** What a resumed run already did: the calls that succeeded (not made again) and what it spent. */
async function readResumeState(
  runDir: string,
  previous: RunManifest | null,
): Promise<{ done: Set<string>; spentBefore: RecordedSpend }> {
  const done = new Set<string>();
  let spentBefore: RecordedSpend = { systems: new Map(), run: 0 };
  if (previous) {
    const records = [];
    for await (const record of readResults(runDir, v1SystemName(previous))) records.push(record);
    spentBefore = sumRecordedCost(records);
    for (const record of await readFinalRecords(runDir, v1SystemName(previous)))
      if (record.status === 'ok') done.add(record.key);
  }
  return { done, spentBefore };
}

/** run.json of a new run, before its first call. */
function newManifest({
  runDir,
  commit,
  started,
  inputs,
  config,
  systems,
  calls,
  estimates,
}: {
  runDir: string;
  commit: string | null;
  started: Date;
  inputs: RunInputs;
  config: RunBenchmarkOptions['config'];
  systems: readonly System[];
  calls: readonly PlannedCall[];
  estimates: readonly SystemEstimate[];
}): RunManifest {
  const { dataset, documents, specs } = inputs;
  const primary = systems.find((system) => system.kind !== 'stored') ?? systems[0]!;
  return {
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
      path: inputs.datasetDir,
      content_hash: dataset.contentHash,
      documents_total: dataset.documents.length,
      documents_selected: documents.length,
    },
    service: { base_url: config.baseUrl, local: primary.kind === 'local', identity: primary.identity },
    options: {
      modes: inputs.modes,
      endpoints: inputs.endpoints,
      repeat: inputs.repeat,
      cache: inputs.useCache,
      selection: inputs.selection,
    },
    config: describeConfig(config),
    counts: { planned: calls.length, recorded: 0, succeeded: 0, failed: 0, from_cache: 0, not_started: calls.length },
    systems: systems.map((system, i) => describeSystem(system, specs[i]!, calls, estimates[i]!)),
    reference: inputs.reference,
    invocations: [],
  };
}

/** Marks the run running and opens this invocation's entry. */
function startInvocation(
  manifest: RunManifest,
  started: Date,
  config: RunBenchmarkOptions['config'],
  maxCostUsd: number | null,
): void {
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
    max_cost_usd: maxCostUsd,
  });
}

/** Writes the calls' outcome into run.json: status, times, and the counts, stops and spending of each system. */
function recordExecution(
  manifest: RunManifest,
  execution: ExecuteResult,
  {
    started,
    calls,
    final,
    specs,
    limits,
    budget,
  }: {
    started: Date;
    calls: readonly PlannedCall[];
    final: readonly CallRecord[];
    specs: readonly SystemSpec[];
    limits: BudgetLimits;
    budget: BudgetLedger;
  },
): void {
  const ended = new Date();
  manifest.status = runStatus(execution);
  manifest.stop_reason = execution.stopReason;
  manifest.stop_message = execution.stopMessage;
  manifest.ended_at = ended.toISOString();
  // Scoring and reports (finalize) add theirs; the calls of every invocation add up.
  const callsMs = (manifest.phases?.calls_ms ?? manifest.duration_ms) + (ended.getTime() - started.getTime());
  manifest.phases = { calls_ms: callsMs, scoring_ms: null, statistics_ms: null, reports_ms: null };
  manifest.duration_ms = callsMs;
  manifest.counts = {
    planned: calls.length,
    recorded: final.length,
    succeeded: final.filter((r) => r.status === 'ok').length,
    failed: final.filter((r) => r.status === 'failed').length,
    from_cache: final.filter((r) => r.from_cache).length,
    not_started: calls.length - final.length,
  };
  manifest.systems ??= runSystems(manifest);
  const spent = budget.spent();
  for (const entry of manifest.systems) {
    const own = final.filter((record) => record.system === entry.name);
    const stop = execution.systemStops.get(entry.name) ?? null;
    entry.stop_reason = stop?.reason ?? null;
    entry.stop_message = stop?.message ?? null;
    entry.counts = {
      planned: calls.filter((call) => call.system === entry.name).length,
      recorded: own.length,
      succeeded: own.filter((r) => r.status === 'ok').length,
      failed: own.filter((r) => r.status === 'failed').length,
    };
    const reported = tallyReported(own);
    if (Object.keys(reported).length > 0) entry.reported = reported;
    const spec = specs.find((s) => s.name === entry.name);
    if (spec) {
      entry.spent_usd = spec.common.price === null && !spent.has(entry.name) ? null : (spent.get(entry.name) ?? 0);
      entry.max_cost_usd = limits.systems.get(entry.name) ?? null;
    }
  }
}

/** Closes this invocation's entry with its end, its records and why it stopped. */
function endInvocation(manifest: RunManifest, execution: ExecuteResult): void {
  const invocation = manifest.invocations.at(-1)!;
  invocation.ended_at = manifest.ended_at;
  invocation.recorded = execution.counts.recorded;
  invocation.stop_reason = execution.stopReason;
}

/** Writes run.json, exports the local engine's comparison pages, then scores and reports the stored run. */
async function finishRun(
  runDir: string,
  manifest: RunManifest,
  dataset: Dataset,
  recordIndex: ReadRecordIndex,
  { config, logger, finalize }: RunBenchmarkOptions,
): Promise<void> {
  try {
    await writeManifest(runDir, manifest);
    const localSystems = new Set(
      runSystems(manifest)
        .filter((system) => system.kind === 'local')
        .map((system) => system.name),
    );
    if (localSystems.size > 0) {
      // The local engine's runs are small (it reads every page): their responses are read whole here.
      const full = await readFinalRecords(runDir, v1SystemName(manifest));
      const ids = full.flatMap((r) =>
        localSystems.has(r.system) && r.endpoint === 'compare' && r.status === 'ok' && r.result.comparisonId
          ? [r.result.comparisonId]
          : [],
      );
      await exportComparisonPages(runDir, localEngineDataDir(config.cacheDir), ids, logger);
    }
    await finalize(runDir, dataset, recordIndex);
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
}

/**
 * One line per system when there are several, and a warning for a system whose every call failed or that
 * was stopped, so it is never mistaken for one that answered badly.
 */
function reportSystems(systems: readonly ManifestSystem[], records: readonly CallRecord[], logger: Logger): void {
  if (systems.length > 1) {
    const parts = systems.map(
      ({ name, counts }) =>
        `${name} ${counts.succeeded}/${counts.planned} ok${counts.failed ? `, ${counts.failed} failed` : ''}`,
    );
    logger.info(`systems: ${parts.join(' · ')}`);
  }
  for (const { name, reported } of systems) {
    for (const change of changedReports(reported))
      logger.warn(`system ${name} reported more than one ${change.name} within the run: ${change.values.join(', ')}`);
  }
  for (const { name, counts, stop_message: stopped } of systems) {
    if (stopped) logger.warn(`system ${name} stopped: ${stopped}`);
    else if (counts.recorded > 0 && counts.succeeded === 0) {
      const first = records.find((record) => record.system === name && record.status === 'failed');
      const firstError = first?.status === 'failed' ? first.error : undefined;
      logger.warn(
        `system ${name} failed: every one of its ${counts.recorded} calls failed${firstError ? ` (first: ${firstError.message})` : ''}`,
      );
    }
  }
}

/** A resumed run must call the same systems it started with: same kind, same identity. */
function checkSameSystems(previous: RunManifest, systems: readonly System[]): void {
  for (const before of runSystems(previous)) {
    const now = systems.find((system) => system.name === before.name);
    if (now && now.kind === before.kind && now.identity === before.identity) continue;
    throw new UsageError(
      `run ${previous.run_id} was made with system "${before.name}" = ${before.kind} ${before.identity}, not ${now ? `${now.kind} ${now.identity}` : 'nothing (it is not configured now)'}`,
      {
        subject: '--resume',
        hint: 'a system’s identity also follows its environment (e.g. AWS_REGION for textract): resume with the environment the run started with, or start a new run',
      },
    );
  }
}

/** run.json's entry for a system: what it is and its settings, never a secret. */
function describeSystem(
  system: System,
  spec: SystemSpec,
  calls: readonly PlannedCall[],
  estimate: SystemEstimate,
): ManifestSystem {
  const { price, maxCostUsd, ...common } = spec.common;
  return {
    name: system.name,
    kind: system.kind,
    identity: system.identity,
    operations: [...system.operations],
    options: { ...(spec.options as Record<string, unknown>), ...common },
    price,
    stop_reason: null,
    stop_message: null,
    counts: {
      planned: calls.filter((call) => call.system === system.name).length,
      recorded: 0,
      succeeded: 0,
      failed: 0,
    },
    estimate: {
      calls: estimate.total,
      cached: estimate.cached,
      pages: estimate.pages,
      cost_usd: estimate.costUsd,
      basis: estimate.basis,
    },
    spent_usd: price === null ? null : 0,
    max_cost_usd: maxCostUsd ?? null,
  };
}

/** `partial` when every system that stopped early stopped at its budget; interrupts and failures say so. */
function runStatus(execution: ExecuteResult): RunStatus {
  if (execution.stopReason === null) return 'completed';
  if (execution.stopReason === 'interrupted') return 'interrupted';
  return [...execution.systemStops.values()].every((stop) => stop.reason === 'budget') &&
    execution.stopReason === 'budget'
    ? 'partial'
    : 'stopped';
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
        hint: existsSync(runDirPath(runDir, 'manifest'))
          ? `continue it with --resume ${runDir}, or choose another --out`
          : 'choose an empty or new directory for --out',
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
