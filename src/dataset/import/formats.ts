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
  /** With `--predictions`: the stored system written and how many files it got. */
  predictions?: { system: string; files: number; unmatched: number };
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
  sroie: {
    describe: "ICDAR 2019 SROIE receipts: img/, box/, key/ (or the challenge's .jpg/.txt pairs)",
    flags: ['split', 'predictions'],
    load: async () => (await import('./sroie.js')).sroieImporter,
  },
  cord: {
    describe: 'CORD v2 receipts: json/ (gt_parse, valid_line) and image/, in train/ dev/ test/',
    flags: ['split', 'predictions'],
    load: async () => (await import('./cord.js')).cordImporter,
  },
  funsd: {
    describe: 'FUNSD forms: annotations/ (form entities) and images/, in training_data/ testing_data/',
    flags: ['split', 'predictions'],
    load: async () => (await import('./funsd.js')).funsdImporter,
  },
  xfund: {
    describe: 'XFUND forms: <lang>.<split>.json (documents[]) and their images',
    flags: ['split', 'images', 'predictions'],
    load: async () => (await import('./funsd.js')).xfundImporter,
  },
  docile: {
    describe: 'DocILE business documents: annotations/ (KILE fields, LIR line items) and pdfs/',
    flags: ['split', 'predictions'],
    load: async () => (await import('./docile.js')).docileImporter,
  },
  'olmocr-bench': {
    describe: "olmOCR-bench's bench_data: pdfs/, <category>.jsonl checks, one folder of markdown per tool",
    flags: [],
    load: async () => (await import('./olmocr-bench.js')).importer,
  },
  omnidocbench: {
    describe: "OmniDocBench's OmniDocBench.json and page images; --predictions: a parser's <image stem>.md per page",
    flags: ['images', 'predictions'],
    load: async () => (await import('./omnidocbench.js')).omnidocbenchImporter,
  },
};

export function importFormatNames(): string[] {
  return Object.keys(IMPORT_FORMATS);
}
