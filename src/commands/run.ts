/** `docbench run`: drive a dataset through the service into a run directory, then score, gate, report and diff. */
import path from 'node:path';
import { resolveConfig } from '../config.js';
import { ExitCode, UsageError } from '../errors.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { createProgress } from '../run/progress.js';
import { parseFilter, parseShard } from '../run/plan.js';
import { finalizeRun } from '../finalize.js';
import type { GateResult } from '../evaluate/types.js';
import { createEmptyThresholds, diffRunDirectories, formatDiffVerdict, readBaselineStore, resolveBaseline } from '../gate/index.js';
import { DIFF_FILES, openStoredRun, runDirPath } from '../run-dir/index.js';
import type { CommandFactory } from './context.js';
import { diffOptions, gateOptions, resolveThresholds, type GateArgs } from './gate.js';
import { parseEndpoints, parseModes, serviceOptions, wholeNumber } from './shared-options.js';

interface RunArgs extends GateArgs {
  'compare-to'?: string;
  'allow-dataset-change': boolean;
  /** --no-gate: skip the thresholds of the config file (shards: gate the merged run instead). */
  gate: boolean;
  dataset?: string;
  'base-url'?: string;
  config?: string;
  timeout?: number;
  retries?: number;
  out?: string;
  modes?: string;
  endpoints?: string;
  concurrency?: number;
  rate?: number;
  limit?: number;
  sample?: number;
  seed: number;
  filter?: string[];
  shard?: string;
  resume?: string;
  repeat: number;
  cache: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

export const runCommand: CommandFactory = (context) => ({
  command: 'run',
  describe: 'Run a dataset through the service (or the local reference service), then score and report',
  builder: (yargs) =>
    yargs
      .option('dataset', { type: 'string', describe: 'Dataset directory (see datasets/README.md)' })
      .options(serviceOptions)
      .option('out', { type: 'string', describe: 'Run directory to write (default reports/<run-id>)' })
      .option('modes', { type: 'string', describe: '/extract modes: fast, slow or fast,slow (default slow)' })
      .option('endpoints', { type: 'string', describe: 'extract, compare, split, process (default extract,compare)' })
      .option('concurrency', { type: 'number', describe: 'Calls in flight at once (default 4)' })
      .option('rate', { type: 'number', describe: 'At most this many call starts per second' })
      .option('limit', { type: 'number', describe: 'Only the first N documents (by id, after --filter/--sample)' })
      .option('sample', { type: 'number', describe: 'A seeded random sample of N documents' })
      .option('seed', { type: 'number', default: 1, describe: 'Seed of --sample' })
      .option('filter', { type: 'string', array: true, describe: 'Only documents with tag key=value (repeatable, all must match)' })
      .option('shard', { type: 'string', describe: 'Take shard i of n (i/n) of the documents, for CI job matrices' })
      .option('resume', { type: 'string', describe: 'Continue an interrupted run directory: redo failed and missing calls only' })
      .option('repeat', { type: 'number', default: 1, describe: 'Call each N times past the cache, to measure nondeterminism' })
      .option('cache', { type: 'boolean', default: true, describe: 'Reuse cached responses (--no-cache to call again)' })
      .options(gateOptions)
      .option('gate', { type: 'boolean', default: true, describe: 'Apply the quality gate of the config file and flags (--no-gate for shard runs; gate the merged run)' })
      .option('compare-to', { type: 'string', describe: 'After the run, diff against "baseline" (the pinned run of the dataset) or a run directory; exit 1 on regression' })
      .option('allow-dataset-change', { type: 'boolean', default: false, describe: 'With --compare-to: compare even when the datasets differ' })
      .options(diffOptions)
      .check((argv) => {
        if (!argv.dataset && !argv.resume) throw new Error('Missing --dataset <dir> (or --resume <run-dir>)');
        return true;
      }),
  handler: async (raw) => {
    const argv = raw as unknown as RunArgs;
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    if (argv.resume && argv.dataset) throw new UsageError('--resume continues a run with its own dataset and options; do not pass --dataset with it', { subject: '--resume', hint: `run: docbench run --resume ${argv.resume}` });
    const config = resolveConfig({
      cwd: context.cwd,
      env: context.env,
      flags: {
        ...(argv['base-url'] !== undefined ? { baseUrl: argv['base-url'] } : {}),
        ...(argv.config !== undefined ? { configPath: argv.config } : {}),
        ...(argv.timeout !== undefined ? { timeoutMs: argv.timeout } : {}),
        ...(argv.retries !== undefined ? { retryAttempts: wholeNumber(argv.retries, '--retries', 1) } : {}),
        ...(argv.concurrency !== undefined ? { concurrency: wholeNumber(argv.concurrency, '--concurrency', 1) } : {}),
        ...(argv.rate !== undefined ? { ratePerSecond: argv.rate } : {}),
      },
    });
    const modes = parseModes(argv.modes);
    const endpoints = parseEndpoints(argv.endpoints);
    const repeat = wholeNumber(argv.repeat, '--repeat', 1)!;
    const selection = {
      filters: (argv.filter ?? []).map(parseFilter),
      sample: wholeNumber(argv.sample, '--sample', 1) ?? null,
      seed: argv.seed,
      limit: wholeNumber(argv.limit, '--limit', 1) ?? null,
      shard: argv.shard !== undefined ? parseShard(argv.shard) : null,
    };

    // Thresholds and the comparison target are checked before any call: a typo must not cost a whole run.
    const resolved = resolveThresholds(config.gate, argv);
    const thresholds = argv.gate ? resolved : { ...createEmptyThresholds(), diff: resolved.diff };
    const compareTo = argv['compare-to'];
    if (compareTo === 'baseline') {
      // The dataset's name is known only once it is loaded; an empty store is certain to fail already.
      if ((await readBaselineStore(config.reportsDir)).baselines.size === 0) {
        throw new UsageError(`--compare-to baseline: no baseline is pinned in ${config.reportsDir}`, { subject: '--compare-to', hint: 'pin one first with: docbench baseline set <run-dir>, or pass a run directory to --compare-to' });
      }
    } else if (compareTo !== undefined) await openStoredRun(path.resolve(context.cwd, compareTo));

    const stop = new AbortController();
    let interrupts = 0;
    const removeInterrupt = context.onInterrupt(() => {
      interrupts++;
      if (interrupts === 1) {
        context.stderr.write('\nInterrupted: finishing the calls in flight and writing outputs. Press Ctrl-C again to quit at once.\n');
        stop.abort();
      } else {
        context.stderr.write('Quitting at once; resume later with --resume.\n');
        process.exit(ExitCode.INTERRUPTED);
      }
    });
    const progress = createProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) });
    let gate: GateResult | null = null;
    try {
      const result = await runBenchmark({
        ...(argv.dataset !== undefined ? { datasetDir: argv.dataset } : {}),
        ...(argv.resume !== undefined ? { resumeDir: argv.resume } : {}),
        ...(argv.out !== undefined ? { outDir: argv.out } : {}),
        config,
        selection,
        ...(modes ? { modes } : {}),
        ...(endpoints ? { endpoints } : {}),
        repeat,
        cache: argv.cache,
        cwd: context.cwd,
        logger,
        stopSignal: stop.signal,
        onEvent: progress,
        finalize: async (runDir, dataset) => {
          gate = (await finalizeRun(runDir, { dataset, logger, print: true, gate: thresholds })).gate;
        },
      });
      if (result.status === 'completed') {
        let regression = false;
        if (compareTo !== undefined) {
          const target = compareTo === 'baseline' ? await resolveBaseline(config.reportsDir, result.manifest.dataset.name) : { dir: path.resolve(context.cwd, compareTo) };
          if (target === null) {
            logger.error(`no baseline is pinned for dataset "${result.manifest.dataset.name}" in ${config.reportsDir}\n  hint: pin one with: docbench baseline set <run-dir> (this run: ${result.runDir})`);
            context.setExitCode(ExitCode.USAGE);
            return;
          }
          const { result: diff, written } = await diffRunDirectories(target.dir, result.runDir, {
            settings: thresholds.diff,
            allowDatasetChange: argv['allow-dataset-change'],
            outDir: runDirPath(result.runDir, 'diffDir'),
            logger,
          });
          logger.info(`\n${formatDiffVerdict(diff)}\ndiff: ${written.find((file) => file.endsWith(DIFF_FILES.html)) ?? ''}`);
          regression = diff.verdict === 'regression';
        }
        // The cast: TypeScript does not see the assignment inside the finalize callback and narrows gate to null.
        const gateFailed = (gate as GateResult | null)?.passed === false;
        context.setExitCode(gateFailed || regression ? ExitCode.GATE_FAILED : ExitCode.OK);
      } else {
        const fix =
          result.stopReason === 'auth'
            ? `check the key in ${config.apiKeyEnv}, then resume`
            : result.stopReason === 'outage'
              ? 'when the service is back, resume'
              : result.stopReason === 'output'
                ? 'make the run directory writable (or free disk space), then resume'
                : 'resume';
        logger.error(`run ${result.status}: ${result.stopMessage ?? ''}\n  hint: ${fix} with: docbench run --resume ${result.runDir}`);
        context.setExitCode(ExitCode.INCOMPLETE);
      }
    } finally {
      progress.stop();
      removeInterrupt();
    }
  },
});
