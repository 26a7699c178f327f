/** `docbench dataset validate|init|generate`: thin wrappers over src/dataset. */
import { ExitCode } from '../errors.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  generateSampleDataset,
  initDataset,
  SAMPLE_DEFAULT_COUNT,
  SAMPLE_DEFAULT_SEED,
  validateDataset,
} from '../dataset/index.js';
import { defineCommand, type CliContext } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { importCommand } from './dataset-import.js';
import type { GlobalArgs } from './global-options.js';

async function runValidate(context: CliContext, argv: GlobalArgs & { dir: string; maxFileMb: number }): Promise<void> {
  const logger = context.logger(argv);
  const validation = await validateDataset(argv.dir, { maxFileBytes: Math.round(argv.maxFileMb * 1024 * 1024) });
  const errors = validation.problems.filter((problem) => problem.severity === 'error');
  const warnings = validation.problems.filter((problem) => problem.severity === 'warning');
  for (const problem of errors) logger.error(`${problem.file}: ${problem.message}`);
  for (const problem of warnings) logger.warn(`${problem.file}: ${problem.message}`);
  if (validation.dataset) {
    const documents = validation.dataset.documents;
    const count = (pick: (document: (typeof documents)[number]) => unknown) =>
      documents.filter((document) => pick(document) !== undefined).length;
    logger.info(`dataset ${validation.dataset.name}: ${documents.length} documents`);
    logger.info(
      `  truth json ${count((d) => d.truth.json)}, truth markdown ${count((d) => d.truth.markdown)}, truth regions ${count((d) => d.truth.regions)}, ` +
        `baseline markdown ${count((d) => d.baseline.markdown)}, baseline json ${count((d) => d.baseline.json)} (missing files are skipped when scoring)`,
    );
  }
  if (validation.contentHash) logger.info(`content hash: ${validation.contentHash}`);
  if (errors.length > 0) {
    logger.error(
      `${argv.dir}: ${errors.length} error${errors.length === 1 ? '' : 's'}, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}; nothing was sent`,
    );
    context.setExitCode(ExitCode.USAGE);
  } else {
    logger.info(
      `valid${warnings.length > 0 ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'})` : ''}`,
    );
  }
}

export const datasetCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.dataset,
  builder: (yargs) =>
    yargs
      .command({
        command: 'validate <dir>',
        describe: 'Report everything a run would trip on (exit 2 on any error) and print the content hash',
        builder: (inner) =>
          inner
            .positional('dir', { type: 'string', demandOption: true, describe: 'Dataset directory' })
            .option('max-file-mb', {
              type: 'number',
              default: DEFAULT_MAX_FILE_BYTES / 1024 / 1024,
              describe: 'Largest document accepted, MiB',
            }),
        handler: (argv) => runValidate(context, argv),
      })
      .command({
        command: 'init <dir>',
        describe: 'Scaffold an empty dataset with a README and an example schema',
        builder: (inner) =>
          inner.positional('dir', { type: 'string', demandOption: true, describe: 'New dataset directory' }),
        handler: async (argv) => {
          const { dir } = argv;
          await initDataset(dir);
          context
            .logger(argv)
            .info(
              `created ${dir}: add documents to ${dir}/documents, edit schema.json, then run docbench dataset validate ${dir}`,
            );
        },
      })
      .command({
        command: 'generate <dir>',
        describe: 'Write the synthetic medical-billing sample dataset',
        builder: (inner) =>
          inner
            .positional('dir', {
              type: 'string',
              demandOption: true,
              describe: 'Output directory (new, empty, or a previous output)',
            })
            .option('count', { type: 'number', default: SAMPLE_DEFAULT_COUNT, describe: 'Number of documents' })
            .option('seed', {
              type: 'number',
              default: SAMPLE_DEFAULT_SEED,
              describe: 'PRNG seed (same seed, same files)',
            }),
        handler: async (argv) => {
          await generateSampleDataset(argv.dir, { count: argv.count, seed: argv.seed, logger: context.logger(argv) });
        },
      })
      .command(importCommand(context))
      .demandCommand(1, 'Name an action: validate, init, generate or import.'),
  handler: () => {},
}));
