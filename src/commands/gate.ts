/** `docbench gate <run-dir>`: apply the quality gate to a stored run, rebuild its reports, exit 1 on failure. */
import path from 'node:path';
import { ExitCode, UsageError } from '../errors.js';
import { renderReports } from '../report/index.js';
import { applyGate, formatGateVerdict, hasGateChecks } from '../gate/index.js';
import { runDirPath } from '../run-dir/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { configOption, loadConfig } from './shared-options.js';
import { gateOptions, resolveThresholds } from './gate-options.js';

export const gateCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.gate,
  builder: (yargs) =>
    yargs
      .positional('run-dir', { type: 'string', describe: 'A run directory written by docbench run' })
      .options(configOption)
      .options(gateOptions),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    if (!argv.runDir)
      throw new UsageError('Missing <run-dir>: name a run directory written by docbench run', { subject: '<run-dir>' });
    const config = loadConfig(context, argv.config !== undefined ? { configPath: argv.config } : {});
    const thresholds = resolveThresholds(config.sections.gate, argv);
    if (!hasGateChecks(thresholds)) {
      throw new UsageError('no gate thresholds: nothing to check', {
        subject: 'gate',
        hint: 'pass e.g. --min-f1 0.9, or add a "gate" section to docbench.config.json (see docs/gate.md)',
      });
    }
    const runDir = path.resolve(context.cwd, argv.runDir);
    const result = await applyGate(runDir, thresholds, { logger });
    const outcome = await renderReports(runDir, { logger });
    for (const failure of outcome.failed) logger.error(`${failure.file}: ${failure.error}`);
    logger.info(formatGateVerdict(result));
    logger.info(
      `wrote ${[runDirPath(runDir, 'gate'), ...outcome.written].map((file) => path.relative(context.cwd, file) || file).join(', ')}`,
    );
    // A report that could not be rewritten would disagree with gate.json: that is an incomplete outcome.
    context.setExitCode(
      outcome.failed.length > 0 ? ExitCode.INCOMPLETE : result.passed ? ExitCode.OK : ExitCode.GATE_FAILED,
    );
  },
}));
