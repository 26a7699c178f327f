/** `docbench score <run-dir>`: re-score the stored responses (after a scorer or comparator change) and rewrite the reports. */
import path from 'node:path';
import { loadRunDataset } from '../evaluate/index.js';
import { readManifest } from '../run-dir/index.js';
import { finalizeRun } from '../finalize.js';
import { createPhaseProgress } from '../run/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';

export const scoreCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.score,
  builder: (yargs) =>
    yargs
      .positional('run-dir', {
        type: 'string',
        demandOption: true,
        describe: 'A run directory written by docbench run',
      })
      .option('dataset', {
        type: 'string',
        describe: "The dataset's directory, if it moved since the run (default: the path in run.json)",
      }),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const runDir = path.resolve(context.cwd, argv.runDir);
    const manifest = await readManifest(runDir);
    const dataset = await loadRunDataset(manifest, context.cwd, { override: argv.dataset, logger });
    await finalizeRun(runDir, {
      dataset,
      logger,
      print: true,
      onPhase: createPhaseProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) }),
    });
  },
}));
