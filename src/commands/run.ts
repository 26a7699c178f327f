/** `docbench run`: drive a dataset through the service into a run directory, then score, gate, report and diff. */
import path from 'node:path';
import type { Options } from 'yargs';
import { ExitCode, UsageError } from '../errors.js';
import { runBenchmark, createProgress, parseFilter, parseShard } from '../run/index.js';
import { finalizeRun } from '../finalize.js';
import { type GateResult, DIFF_FILES, openStoredRun, runDirPath } from '../run-dir/index.js';
import { createEmptyThresholds, diffRunDirectories, formatDiffVerdict, readBaselineStore, resolveBaseline } from '../gate/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { diffOptions, gateOptions, resolveThresholds } from './gate.js';
import { loadConfig, parseEndpoints, parseModes, parseSystemChoice, readServiceFlags, serviceOptions, wholeNumber } from './shared-options.js';

const runOptions = {
  dataset: { type: 'string', describe: 'Dataset directory (see datasets/README.md)' },
  ...serviceOptions,
  systems: { type: 'string', describe: 'Run only these configured systems: a,b (default all; see docs/systems.md)' },
  reference: { type: 'string', describe: 'The system the others are compared with (default incumbent, else the first)' },
  out: { type: 'string', describe: 'Run directory to write (default reports/<run-id>)' },
  modes: { type: 'string', describe: '/extract modes: fast, slow or fast,slow (default slow)' },
  endpoints: { type: 'string', describe: 'extract, compare, split, process (default extract,compare)' },
  limit: { type: 'number', describe: 'Only the first N documents (by id, after --filter/--sample)' },
  sample: { type: 'number', describe: 'A seeded random sample of N documents' },
  seed: { type: 'number', describe: 'Seed of --sample (default 1)' },
  filter: { type: 'string', array: true, describe: 'Only documents with tag key=value (repeatable, all must match)' },
  shard: { type: 'string', describe: 'Take shard i of n (i/n) of the documents, for CI job matrices' },
  resume: { type: 'string', describe: 'Continue an interrupted run directory with its own options: redo failed and missing calls only' },
  repeat: { type: 'number', describe: 'Call each N times past the cache, to measure nondeterminism (default 1)' },
  cache: { type: 'boolean', describe: 'Reuse cached responses (default; --no-cache to call again)' },
  ...gateOptions,
  gate: { type: 'boolean', default: true, describe: 'Apply the quality gate of the config file and flags (--no-gate for shard runs; gate the merged run)' },
  'compare-to': { type: 'string', describe: 'After the run, diff against "baseline" (the pinned run of the dataset) or a run directory; exit 1 on regression' },
  'allow-dataset-change': { type: 'boolean', default: false, describe: 'With --compare-to: compare even when the datasets differ' },
  ...diffOptions,
} as const satisfies Record<string, Options>;

/**
 * Flags that decide what a run calls or where it writes. A resumed run keeps the ones it started with
 * (run.json), so giving one with --resume would be silently ignored: it is refused instead. (seed, repeat and
 * cache have no yargs default for this reason: a default is indistinguishable from a flag given.) Flags that
 * only pace the calls — --concurrency, --rate, --timeout, --retries — are allowed and recorded per invocation.
 */
const RUN_SHAPING_FLAGS = ['dataset', 'systems', 'reference', 'out', 'modes', 'endpoints', 'limit', 'sample', 'seed', 'filter', 'shard', 'repeat', 'cache'] as const;

export const runCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.run,
  builder: (yargs) =>
    yargs.options(runOptions).check((argv) => {
      if (!argv.dataset && !argv.resume) throw new Error('Missing --dataset <dir> (or --resume <run-dir>)');
      return true;
    }),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    if (argv.resume !== undefined) {
      const given = RUN_SHAPING_FLAGS.filter((flag) => argv[flag] !== undefined).map((flag) => `--${flag}`);
      if (given.length > 0) {
        throw new UsageError(`--resume continues run ${argv.resume} with the options it started with; ${given.join(', ')} would change what it runs`, {
          subject: given.join(', '),
          hint: `drop ${given.length === 1 ? 'it' : 'them'} (docbench run --resume ${argv.resume}), or start a new run; --concurrency, --rate, --timeout and --retries may be given`,
        });
      }
    }
    const config = loadConfig(context, readServiceFlags(argv));
    const systems = parseSystemChoice(argv.systems, argv.reference);
    const modes = parseModes(argv.modes);
    const endpoints = parseEndpoints(argv.endpoints);
    const repeat = wholeNumber(argv.repeat ?? 1, '--repeat', 1)!;
    const selection = {
      filters: (argv.filter ?? []).map(parseFilter),
      sample: wholeNumber(argv.sample, '--sample', 1) ?? null,
      seed: wholeNumber(argv.seed, '--seed', 0) ?? 1,
      limit: wholeNumber(argv.limit, '--limit', 1) ?? null,
      shard: argv.shard !== undefined ? parseShard(argv.shard) : null,
    };

    // Thresholds and the comparison target are checked before any call: a typo must not cost a whole run.
    const resolved = resolveThresholds(config.sections.gate, argv);
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
        env: context.env,
        systems,
        selection,
        ...(modes ? { modes } : {}),
        ...(endpoints ? { endpoints } : {}),
        repeat,
        cache: argv.cache ?? true,
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
            ? config.systems === null
              ? `check the key in ${config.apiKeyEnv}, then resume`
              : 'check the key of the system named above (in the variable its apiKeyEnv names), then resume'
            : result.stopReason === 'outage'
              ? `when the ${config.systems === null ? 'service' : 'system'} is back, resume`
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
}));
