/** `docbench dataset import <format> <source>`: a public dataset's layout → a docbench dataset (src/dataset/import). */
import path from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { importDataset, importFormatNames } from '../dataset/index.js';
import type { CliContext } from './context.js';
import type { GlobalArgs } from './global-options.js';

interface ImportArgs extends GlobalArgs {
  format: string;
  source: string;
  out: string;
  limit: number | undefined;
  seed: number;
  split: string | undefined;
  images: string | undefined;
  predictions: string | undefined;
  as: string | undefined;
  force: boolean;
}

function describeImport(): string {
  return `Turn a public dataset's published layout into a docbench dataset (formats: ${importFormatNames().join(', ') || 'none yet'})`;
}

function importOptions(inner: Argv<GlobalArgs>) {
  return inner
    .positional('format', { type: 'string', demandOption: true, describe: 'The source layout' })
    .positional('source', {
      type: 'string',
      demandOption: true,
      describe: 'The downloaded dataset (folder or file)',
    })
    .option('out', {
      type: 'string',
      demandOption: true,
      describe: 'The dataset folder to write (new or empty)',
    })
    .option('limit', { type: 'number', describe: 'At most this many documents, drawn with --seed' })
    .option('seed', {
      type: 'number',
      default: 1,
      describe: 'Seed of the --limit draw (same seed, same documents)',
    })
    .option('split', { type: 'string', describe: 'train or test, for sources that ship both' })
    .option('images', {
      type: 'string',
      describe: 'Folder of the page images, for sources that keep them apart',
    })
    .option('predictions', {
      type: 'string',
      describe: "A folder of a system's outputs, one file per document",
    })
    .option('as', { type: 'string', describe: 'The stored system the --predictions become' })
    .option('force', { type: 'boolean', default: false, describe: 'Replace a non-empty --out folder' });
}

async function runImport(context: CliContext, argv: ImportArgs): Promise<void> {
  const logger = context.logger(argv);
  const at = (file: string | undefined) => (file === undefined ? undefined : path.resolve(context.cwd, file));
  const summary = await importDataset(argv.format, path.resolve(context.cwd, argv.source), {
    out: path.resolve(context.cwd, argv.out),
    force: argv.force,
    limit: argv.limit,
    seed: argv.seed,
    split: argv.split,
    images: at(argv.images),
    predictions: at(argv.predictions),
    predictionsAs: argv.as,
    logger,
  });
  const skipped = summary.skipped.length;
  const predictions = summary.predictions;
  logger.info(
    `imported ${summary.documents} document${summary.documents === 1 ? '' : 's'} into ${argv.out}` +
      (skipped > 0
        ? `; skipped ${skipped} (${summary.skipped
            .slice(0, 3)
            .map((s) => `${s.id}: ${s.reason}`)
            .join('; ')}${skipped > 3 ? ' …' : ''})`
        : '') +
      (predictions
        ? `; stored system ${predictions.system}: ${predictions.files} file${predictions.files === 1 ? '' : 's'}` +
          (predictions.unmatched > 0 ? ` (${predictions.unmatched} naming no imported document, left out)` : '')
        : ''),
  );
}

export function importCommand(context: CliContext): CommandModule<GlobalArgs, ImportArgs> {
  return {
    command: 'import <format> <source>',
    describe: describeImport(),
    builder: (inner) => importOptions(inner) as unknown as Argv<ImportArgs>,
    handler: (argv) => runImport(context, argv),
  };
}
