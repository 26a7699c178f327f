/** `docbench run`: drive a dataset through the service into a run directory, then score, gate, report and diff. */
import path from 'node:path';
import type { Options } from 'yargs';
import { ExitCode, UsageError } from '../errors.js';
import { runBenchmark, createPhaseProgress, createProgress, formatEstimateLine } from '../run/index.js';
import { finalizeRun } from '../finalize.js';
import { type GateResult, DIFF_FILES, openStoredRun, runDirPath } from '../run-dir/index.js';
import {
  createEmptyThresholds,
  diffRunDirectories,
  formatDiffVerdict,
  readBaselineStore,
  resolveBaseline,
} from '../gate/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { diffOptions, gateOptions, resolveThresholds } from './gate.js';
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
    if (compareTo === 'baseline') {
      // The dataset's name is known only once it is loaded; an empty store is certain to fail already.
      if ((await readBaselineStore(config.reportsDir)).baselines.size === 0) {
        throw new UsageError(`--compare-to baseline: no baseline is pinned in ${config.reportsDir}`, {
          subject: '--compare-to',
          hint: 'pin one first with: docbench baseline set <run-dir>, or pass a run directory to --compare-to',
        });
      }
    } else if (compareTo !== undefined) await openStoredRun(path.resolve(context.cwd, compareTo));

    const stop = new AbortController();
    let interrupts = 0;
    const removeInterrupt = context.onInterrupt(() => {
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
    const progress = createProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) });
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
        finalize: async (runDir, dataset) => {
          gate = (
            await finalizeRun(runDir, {
              dataset,
              logger,
              print: true,
              gate: thresholds,
              onPhase: createPhaseProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) }),
            })
          ).gate;
        },
      });
      if (result.status === 'completed') {
        let regression = false;
        if (compareTo !== undefined) {
          const target =
            compareTo === 'baseline'
              ? await resolveBaseline(config.reportsDir, result.manifest.dataset.name)
              : { dir: path.resolve(context.cwd, compareTo) };
          if (target === null) {
            logger.error(
              `no baseline is pinned for dataset "${result.manifest.dataset.name}" in ${config.reportsDir}\n  hint: pin one with: docbench baseline set <run-dir> (this run: ${result.runDir})`,
            );
            context.setExitCode(ExitCode.USAGE);
            return;
          }
          const { result: diff, written } = await diffRunDirectories(target.dir, result.runDir, {
            settings: thresholds.diff,
            allowDatasetChange: argv['allow-dataset-change'],
            outDir: runDirPath(result.runDir, 'diffDir'),
            logger,
          });
          logger.info(
            `\n${formatDiffVerdict(diff)}\ndiff: ${written.find((file) => file.endsWith(DIFF_FILES.html)) ?? ''}`,
          );
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
                : result.stopReason === 'budget'
                  ? "raise the budget (--max-cost, or the system's maxCostUsd in the config file), then resume"
                  : 'resume';
        const more = result.stopReason === 'budget' ? ' --max-cost <more USD>' : '';
        logger.error(
          `run ${result.status}: ${result.stopMessage ?? ''}\n  hint: ${fix} with: docbench run --resume ${result.runDir}${more}`,
        );
        context.setExitCode(ExitCode.INCOMPLETE);
      }
    } finally {
      progress.stop();
      removeInterrupt();
    }
  },
}));
