/** `docbench history [reports-dir]`: index.html with every run and trend charts, and history.csv. */
import path from 'node:path';
import { ExitCode } from '../errors.js';
import { buildHistory } from '../gate/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { configOption, loadConfig, reportsDirOption } from './shared-options.js';

export const historyCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.history,
  builder: (yargs) =>
    yargs
      .positional('reports-dir', reportsDirOption['reports-dir'])
      .option('out', {
        type: 'string',
        describe: 'Where index.html and history.csv go (default: the reports directory)',
      })
      .options(configOption),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const config = loadConfig(context, {
      ...(argv.config !== undefined ? { configPath: argv.config } : {}),
      ...(argv.reportsDir !== undefined ? { reportsDir: argv.reportsDir } : {}),
    });
    const outcome = await buildHistory(config.reportsDir, {
      logger,
      ...(argv.out !== undefined ? { outDir: path.resolve(context.cwd, argv.out) } : {}),
    });
    const datasets = new Set(outcome.rows.map((r) => r.dataset)).size;
    logger.info(
      `${outcome.rows.length} runs of ${datasets} datasets${outcome.skipped.length ? ` (${outcome.skipped.length} directories skipped)` : ''}`,
    );
    logger.info(`wrote ${outcome.written.map((file) => path.relative(context.cwd, file) || file).join(', ')}`);
    context.setExitCode(ExitCode.OK);
  },
}));
