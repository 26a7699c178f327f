/** `docbench merge`: combine shard runs into one run directory, then score and report it. */
import path from 'node:path';
import { loadRunDataset } from '../evaluate/index.js';
import { finalizeRun } from '../finalize.js';
import { mergeRuns } from '../run/index.js';
import { readManifest } from '../run-dir/index.js';
import { createPhaseProgress } from '../run/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';

export const mergeCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.merge,
  builder: (yargs) =>
    yargs
      .positional('runs', { type: 'string', array: true, demandOption: true, describe: 'The shard run directories' })
      .option('out', { type: 'string', demandOption: true, describe: 'The merged run directory to write' })
      .option('dataset', {
        type: 'string',
        describe: "The dataset's directory, if it moved since the runs (default: the path in run.json)",
      }),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const shards = argv.runs.map((dir) => path.resolve(context.cwd, dir));
    // The dataset first: the shards share it (mergeRuns checks), and a missing one must stop the merge before
    // anything is written.
    const dataset = await loadRunDataset(await readManifest(shards[0]!), context.cwd, {
      override: argv.dataset,
      logger,
    });
    const { runDir, manifest } = await mergeRuns(shards, path.resolve(context.cwd, argv.out));
    await finalizeRun(runDir, {
      dataset,
      logger,
      print: true,
      onPhase: createPhaseProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) }),
    });
    logger.info(`merged ${manifest.merged_from?.length ?? 0} runs into ${runDir} (${manifest.counts.recorded} calls)`);
  },
}));
