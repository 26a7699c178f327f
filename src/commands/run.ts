/** `docbench run`: drive a dataset through the service into a run directory, then score, gate, report and diff. */
import path from 'node:path';
import type { Options } from 'yargs';
import type { ResolvedConfig } from '../config.js';
import { ExitCode, UsageError } from '../errors.js';
import { lazy } from '../lazy.js';
import type { Logger } from '../logger.js';
import {
  runBenchmark,
  createPhaseProgress,
  createProgress,
  formatEstimateLine,
  type RunBenchmarkResult,
} from '../run/index.js';
import { type GateResult, DIFF_FILES, openStoredRun, runDirPath } from '../run-dir/index.js';
import {
  type DiffSettings,
  createEmptyThresholds,
  diffRunDirectories,
  formatDiffVerdict,
  readBaselineStore,
  resolveBaseline,
} from '../gate/index.js';
import type { EarlyWork } from '../finalize.js';
import { type CliContext, defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { diffOptions, gateOptions, resolveThresholds } from './gate-options.js';
import { readRunShape, requireDatasetOrResume, runShapeOptions } from './run-options.js';

const runOptions = {
  ...runShapeOptions,
  ...gateOptions,
  gate: {
    type: 'boolean',
    default: true,
    describe: 'Apply the quality gate of the config file and flags (--no-gate for shard runs; gate the merged run)',
  },
  'compare-to': {
    type: 'string',
    describe:
      'After the run, diff against "baseline" (the pinned run of the dataset) or a run directory; exit 1 on regression',
  },
  'allow-dataset-change': {
    type: 'boolean',
    default: false,
    describe: 'With --compare-to: compare even when the datasets differ',
  },
  ...diffOptions,
} as const satisfies Record<string, Options>;

/**
 * Checks `--compare-to` before any call (a typo must not cost a whole run): a run directory must hold a stored
 * run; "baseline" needs a pinned baseline, and since the dataset's name is known only once it is loaded, only an
 * empty store is certain to fail already.
 */
async function checkComparisonTarget(context: CliContext, reportsDir: string, compareTo: string | undefined) {
  if (compareTo === 'baseline') {
    if ((await readBaselineStore(reportsDir)).baselines.size === 0) {
      throw new UsageError(`--compare-to baseline: no baseline is pinned in ${reportsDir}`, {
        subject: '--compare-to',
        hint: 'pin one first with: docbench baseline set <run-dir>, or pass a run directory to --compare-to',
      });
    }
  } else if (compareTo !== undefined) await openStoredRun(path.resolve(context.cwd, compareTo));
}

/**
 * Ctrl-C handling for the run: the first interrupt aborts the returned signal (the calls in flight finish and the
 * outputs are written), the second quits at once. Returns the signal and the function that removes the handler.
 */
function stopOnInterrupt(context: CliContext): { signal: AbortSignal; remove: () => void } {
  const stop = new AbortController();
  let interrupts = 0;
  const remove = context.onInterrupt(() => {
    interrupts++;
    if (interrupts === 1) {
      context.stderr.write(
        '\nInterrupted: finishing the calls in flight and writing outputs. Press Ctrl-C again to quit at once.\n',
      );
      stop.abort();
    } else {
      context.stderr.write('Quitting at once; resume later with --resume.\n');
      process.exit(ExitCode.INTERRUPTED);
    }
  });
  return { signal: stop.signal, remove };
}

interface ComparisonOptions {
  reportsDir: string;
  settings: DiffSettings;
  allowDatasetChange: boolean;
  logger: Logger;
}

/**
 * Diffs the completed run against `--compare-to` (the pinned baseline of its dataset, or a run directory) into
 * the run's diff directory and logs the verdict. Returns whether it is a regression, or null when no baseline is
 * pinned for the dataset (the error is logged).
 */
async function compareWithTarget(
  context: CliContext,
  compareTo: string,
  run: RunBenchmarkResult,
  options: ComparisonOptions,
): Promise<boolean | null> {
  const { reportsDir, logger } = options;
  const target =
    compareTo === 'baseline'
      ? await resolveBaseline(reportsDir, run.manifest.dataset.name)
      : { dir: path.resolve(context.cwd, compareTo) };
  if (target === null) {
    logger.error(
      `no baseline is pinned for dataset "${run.manifest.dataset.name}" in ${reportsDir}\n  hint: pin one with: docbench baseline set <run-dir> (this run: ${run.runDir})`,
    );
    return null;
  }
  const { result: diff, written } = await diffRunDirectories(target.dir, run.runDir, {
    settings: options.settings,
    allowDatasetChange: options.allowDatasetChange,
    outDir: runDirPath(run.runDir, 'diffDir'),
    logger,
  });
  logger.info(
    `\n${await formatDiffVerdict(diff)}\ndiff: ${written.find((file) => file.endsWith(DIFF_FILES.html)) ?? ''}`,
  );
  return diff.verdict === 'regression';
}

/** What to do before resuming a run that stopped early, by why it stopped. */
function fixBeforeResuming(stopReason: RunBenchmarkResult['stopReason'], config: ResolvedConfig): string {
  return stopReason === 'auth'
    ? config.systems === null
      ? `check the key in ${config.apiKeyEnv}, then resume`
      : 'check the key of the system named above (in the variable its apiKeyEnv names), then resume'
    : stopReason === 'outage'
      ? `when the ${config.systems === null ? 'service' : 'system'} is back, resume`
      : stopReason === 'output'
        ? 'make the run directory writable (or free disk space), then resume'
        : stopReason === 'budget'
          ? "raise the budget (--max-cost, or the system's maxCostUsd in the config file), then resume"
          : 'resume';
}

/** Logs why the run stopped early and the command that resumes it. */
function reportIncompleteRun(run: RunBenchmarkResult, config: ResolvedConfig, logger: Logger): void {
  const more = run.stopReason === 'budget' ? ' --max-cost <more USD>' : '';
  logger.error(
    `run ${run.status}: ${run.stopMessage ?? ''}\n  hint: ${fixBeforeResuming(run.stopReason, config)} with: docbench run --resume ${run.runDir}${more}`,
  );
}

export const runCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.run,
  builder: (yargs) => yargs.options(runOptions).check(requireDatasetOrResume),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const shape = readRunShape(context, argv);
    const { config } = shape;

    // Thresholds and the comparison target are checked before any call: a typo must not cost a whole run.
    const resolved = resolveThresholds(config.sections.gate, argv);
    const thresholds = argv.gate ? resolved : { ...createEmptyThresholds(), diff: resolved.diff };
    const compareTo = argv['compare-to'];
    await checkComparisonTarget(context, config.reportsDir, compareTo);

    const stop = stopOnInterrupt(context);
    const progress = createProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) });
    // Scoring and reporting load while the calls wait on the network, not before them; each document is scored
    // as soon as its calls are recorded, and its report row and complete drill-down parts are made as soon as it
    // is scored (docs/performance.md, "The tail"). A failure to load or to do that early surfaces where
    // finalizeRun is called, which then makes everything from the stored run itself.
    const loadFinalize = lazy(() => import('../finalize.js'));
    let early: Promise<EarlyWork> | undefined;
    let gate: GateResult | null = null;
    try {
      const result = await runBenchmark({
        ...shape,
        ...(argv.out !== undefined ? { outDir: argv.out } : {}),
        logger,
        stopSignal: stop.signal,
        onEvent: progress,
        // The plan's lines, before the first call; never a question: the budget flags are the safeguard.
        onEstimate: (estimates) => {
          if (!argv.quiet)
            for (const estimate of estimates) context.stderr.write(`estimate ${formatEstimateLine(estimate)}\n`);
        },
        whileCalling: ({ runDir, dataset }) => {
          const loading = loadFinalize();
          loading.then(({ preloadFinalize }) => preloadFinalize()).catch(() => undefined);
          return (documentId, entries) => {
            early ??= loading.then(({ startEarlyWork }) => startEarlyWork(runDir, { dataset }));
            early.then((work) => work.scoring.documentRecorded(documentId, entries)).catch(() => undefined);
          };
        },
        finalize: async (runDir, dataset, recordIndex) => {
          const { finalizeRun } = await loadFinalize();
          const earlyWork = await early?.catch(() => undefined);
          gate = (
            await finalizeRun(runDir, {
              dataset,
              recordIndex,
              ...(earlyWork ? { early: earlyWork } : {}),
              logger,
              print: true,
              gate: thresholds,
              onPhase: createPhaseProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) }),
            })
          ).gate;
        },
      });
      if (result.status !== 'completed') {
        reportIncompleteRun(result, config, logger);
        context.setExitCode(ExitCode.INCOMPLETE);
        return;
      }
      let regression = false;
      if (compareTo !== undefined) {
        const compared = await compareWithTarget(context, compareTo, result, {
          reportsDir: config.reportsDir,
          settings: thresholds.diff,
          allowDatasetChange: argv['allow-dataset-change'],
          logger,
        });
        if (compared === null) {
          context.setExitCode(ExitCode.USAGE);
          return;
        }
        regression = compared;
      }
      // The cast: TypeScript does not see the assignment inside the finalize callback and narrows gate to null.
      const gateFailed = (gate as GateResult | null)?.passed === false;
      context.setExitCode(gateFailed || regression ? ExitCode.GATE_FAILED : ExitCode.OK);
    } finally {
      progress.stop();
      stop.remove();
    }
  },
}));
