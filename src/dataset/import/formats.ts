/**
 * The registry of `docbench dataset import` formats: one row per public layout, each implemented in its own
 * module and loaded only when it is asked for (docs/datasets-import.md). Adding a format adds a row here and
 * its module; the command, the staging writer and the validation are shared.
 */
import type { Logger } from '../../logger.js';
import type { DatasetWriter } from './dataset-writer.js';

/** The flags a format may read besides `--out`, `--force`, `--limit` and `--seed`, which every format takes. */
export type ImportFlag = 'split' | 'predictions' | 'images';

export interface ImportOptions {
  /** At most this many documents, drawn with `seed` (every document when absent). */
  limit?: number | undefined;
  seed: number;
  /** `train` or `test`, for sources that ship both. */
  split?: string | undefined;
  /** A folder of a system's outputs, one file per document, imported as the stored system `predictionsAs`. */
  predictions?: string | undefined;
  predictionsAs?: string | undefined;
  /** The page images, for sources whose annotation file is apart from them. */
  images?: string | undefined;
  logger: Logger;
}

/** What an import did, for the command's summary line and the dataset's README. */
export interface ImportSummary {
  documents: number;
  /** Documents the source lists but that could not be imported (no annotation, no image …), with why. */
  skipped: { id: string; reason: string }[];
}

export interface DatasetImporter {
  /** Reads `source` and writes the dataset through `writer`; throws a UsageError naming file and field on bad input. */
  importInto(source: string, writer: DatasetWriter, options: ImportOptions): Promise<ImportSummary>;
}

export interface ImportFormat {
  describe: string;
  /** Flags this format reads; any other flag given is refused, so that nothing is silently ignored. */
  flags: readonly ImportFlag[];
  load(): Promise<DatasetImporter>;
}

export const IMPORT_FORMATS: Readonly<Record<string, ImportFormat>> = {
  omnidocbench: {
    describe: "OmniDocBench's OmniDocBench.json and page images; --predictions: a parser's <image stem>.md per page",
    flags: ['images', 'predictions'],
    load: async () => (await import('./omnidocbench.js')).omnidocbenchImporter,
  },
};

export function importFormatNames(): string[] {
  return Object.keys(IMPORT_FORMATS);
}
