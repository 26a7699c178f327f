/** `docbench merge`: combine shard runs into one run directory, then score and report it. */
import { mergeRuns } from '../run/merge.js';
import { loadDataset } from '../dataset/index.js';
import { finalizeRun } from '../finalize.js';
import path from 'node:path';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';


export const mergeCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.merge,
  builder: (yargs) =>
    yargs
      .positional('runs', { type: 'string', array: true, demandOption: true, describe: 'The shard run directories' })
      .option('out', { type: 'string', demandOption: true, describe: 'The merged run directory to write' }),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const { runDir, manifest } = await mergeRuns(
      argv.runs.map((dir) => path.resolve(context.cwd, dir)),
      path.resolve(context.cwd, argv.out),
    );
    const dataset = await loadDataset(path.resolve(context.cwd, manifest.dataset.path), { logger });
    await finalizeRun(runDir, { dataset, logger, print: true });
    logger.info(`merged ${manifest.merged_from?.length ?? 0} runs into ${runDir} (${manifest.counts.recorded} calls)`);
  },
}));
