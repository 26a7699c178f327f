/** `docbench diff <baseline-run> <candidate-run>`: compare two scored runs; exit 1 on a regression. */
import path from 'node:path';
import { ExitCode } from '../errors.js';
import { diffRunDirectories, formatDiffVerdict } from '../gate/index.js';
import { runDirPath } from '../run-dir/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { diffOptions, resolveThresholds } from './gate-options.js';
import { loadConfig } from './shared-options.js';

export const diffCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.diff,
  builder: (yargs) =>
    yargs
      .positional('baseline-run', { type: 'string', demandOption: true, describe: 'The run to compare against' })
      .positional('candidate-run', { type: 'string', demandOption: true, describe: 'The new run' })
      .option('out', { type: 'string', describe: 'Directory for diff.* (default <candidate-run>/diff)' })
      .option('config', {
        type: 'string',
        describe: 'Config file (its gate.diff section sets tolerance, alpha, resamples, seed)',
      })
      .option('allow-dataset-change', {
        type: 'boolean',
        default: false,
        describe: 'Compare runs of different datasets, pairing documents by id',
      })
      .option('system', {
        type: 'string',
        describe: "The system to compare in both runs (default: each run's primary system, e.g. local or service)",
      })
      .options(diffOptions),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const config = loadConfig(context, argv.config !== undefined ? { configPath: argv.config } : {});
    const settings = resolveThresholds(config.sections.gate, {
      tolerance: argv.tolerance,
      alpha: argv.alpha,
      primary: argv.primary,
    }).diff;
    const baselineDir = path.resolve(context.cwd, argv.baselineRun);
    const candidateDir = path.resolve(context.cwd, argv.candidateRun);
    const outDir = path.resolve(context.cwd, argv.out ?? runDirPath(argv.candidateRun, 'diffDir'));
    const { result, written } = await diffRunDirectories(baselineDir, candidateDir, {
      settings,
      allowDatasetChange: argv['allow-dataset-change'],
      outDir,
      logger,
      ...(argv.system ? { system: argv.system } : {}),
    });
    logger.info(formatDiffVerdict(result));
    logger.info(`wrote ${written.map((file) => path.relative(context.cwd, file) || file).join(', ')}`);
    context.setExitCode(result.verdict === 'regression' ? ExitCode.GATE_FAILED : ExitCode.OK);
  },
}));
