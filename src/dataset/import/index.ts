/**
 * `docbench dataset import <format> <source>`: turns a public dataset's published layout into an ordinary
 * docbench dataset, validated before it is moved into place (docs/datasets-import.md).
 */
import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { validateDataset } from '../validate.js';
import { stageDataset } from './dataset-writer.js';
import { importPredictions } from './predictions.js';
import {
  IMPORT_FORMATS,
  importFormatNames,
  type ImportFlag,
  type ImportOptions,
  type ImportSummary,
} from './formats.js';

export { importFormatNames, type ImportFlag, type ImportOptions, type ImportSummary } from './formats.js';
export type { DatasetWriter } from './dataset-writer.js';
export { checkDocumentId } from './dataset-writer.js';
export { drawDocuments } from './draw.js';

export interface ImportDatasetOptions extends ImportOptions {
  out: string;
  force: boolean;
}

const FLAG_NAMES: Record<ImportFlag, string> = { split: '--split', predictions: '--predictions', images: '--images' };

function flagsGiven(options: ImportDatasetOptions): ImportFlag[] {
  const given: ImportFlag[] = [];
  if (options.split !== undefined) given.push('split');
  if (options.predictions !== undefined) given.push('predictions');
  if (options.images !== undefined) given.push('images');
  return given;
}

export async function importDataset(
  formatName: string,
  source: string,
  options: ImportDatasetOptions,
): Promise<ImportSummary> {
  const format = IMPORT_FORMATS[formatName];
  if (format === undefined) {
    throw new UsageError(`<format>: "${formatName}" is not a format docbench imports`, {
      hint: `one of: ${importFormatNames().join(', ')}`,
    });
  }
  for (const flag of flagsGiven(options)) {
    if (!format.flags.includes(flag)) {
      throw new UsageError(`${FLAG_NAMES[flag]}: the ${formatName} format does not read it`, {
        hint:
          format.flags.length > 0 ? `it reads ${format.flags.map((f) => FLAG_NAMES[f]).join(', ')}` : 'leave it out',
      });
    }
  }
  if ((options.predictions === undefined) !== (options.predictionsAs === undefined)) {
    throw new UsageError('--predictions and --as go together', { hint: 'name the folder and the system it becomes' });
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
    throw new UsageError(`--limit ${options.limit}: must be a whole number of at least 1`);
  }
  if (!existsSync(source)) {
    throw new UsageError(`<source> ${source}: no such file or folder`, { hint: 'name the downloaded dataset' });
  }
  const importer = await format.load();
  const staged = await stageDataset(options.out, { force: options.force });
  try {
    const summary = await importer.importInto(source, staged.writer, options);
    if (summary.documents === 0) {
      const skipped =
        summary.skipped.length > 0
          ? ` (${summary.skipped.length} skipped, e.g. ${summary.skipped[0]!.id}: ${summary.skipped[0]!.reason})`
          : '';
      throw new UsageError(`<source> ${source}: no ${formatName} document to import${skipped}`, {
        hint: `point at the downloaded dataset in its published layout (docs/datasets-import.md, "${formatName}")`,
      });
    }
    if (options.predictions !== undefined && options.predictionsAs !== undefined) {
      summary.predictions = await importPredictions(
        options.predictions,
        options.predictionsAs,
        staged.writer,
        formatName,
      );
    }
    const validation = await validateDataset(staged.writer.root);
    const errors = validation.problems.filter((problem) => problem.severity === 'error');
    if (errors.length > 0) {
      throw new UsageError(
        `${formatName} import of ${source} does not validate: ${errors
          .slice(0, 5)
          .map((problem) => `${problem.file}: ${problem.message}`)
          .join('; ')}`,
        { hint: 'the source departs from the published layout; nothing was written', code: 'DATASET_INVALID' },
      );
    }
    await staged.commit();
    return summary;
  } catch (error) {
    await staged.abandon();
    throw error;
  }
}
