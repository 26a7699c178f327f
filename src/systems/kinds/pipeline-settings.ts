/**
 * What reading a `pipeline` system's config needs (docs/systems.md, "pipeline"): `read:` (another system of the
 * config, or `truth`) and `extract:` (an extractor that takes text: `command`, `openai` or `local`, with that
 * kind's options). Which system `read:` names is checked with the whole `systems:` section, in config.ts.
 */
import type { CommonSystemOptions, Operation, SystemKindSettings } from '../types.js';
import type { OptionReader } from '../option-reader.js';
import { EXTRACTOR_PLACEHOLDERS, parseCommandOptions, type CommandOptions } from './command.js';
import { openaiSettings, type OpenAiOptions } from './openai-settings.js';

/** `read: truth`: the dataset's truth markdown, the ceiling of every extractor. */
export const TRUTH_READER = 'truth';

/** The extractor of a pipeline, with its kind's options. */
export type ExtractorSpec =
  | { kind: 'command'; options: CommandOptions }
  | { kind: 'openai'; options: OpenAiOptions }
  | { kind: 'local'; options: Record<string, never> };

export const EXTRACTOR_KINDS = ['command', 'openai', 'local'] as const;

/** The system a pipeline reads with, as configured (config.ts's `SystemSpec`). */
export interface ReaderSpec {
  name: string;
  kind: string;
  options: unknown;
  common: CommonSystemOptions;
}

export interface PipelineOptions {
  /** A system's name, or `truth`. */
  read: string;
  /** The system `read` names, resolved once the whole `systems:` section is read; null for `truth`. */
  reader: ReaderSpec | null;
  extract: ExtractorSpec;
}

export const pipelineSettings: SystemKindSettings<PipelineOptions> = {
  kind: 'pipeline',
  description: "a reader's markdown given to an extractor (command, openai or local) instead of the document",
  docs: 'docs/systems.md',
  optionNames: ['read', 'extract'],
  parseOptions(read) {
    const name = read.value('read');
    if (typeof name !== 'string' || name === '')
      return read.fail('read', 'expected the name of a system of this config, or truth', 'e.g. read: incumbent');
    return { read: name, reader: null, extract: parseExtractor(read) };
  },
  operations: (): readonly Operation[] => ['extract', 'compare'],
  secretEnvNames: (options) =>
    options.extract.kind === 'command'
      ? options.extract.options.passEnv
      : options.extract.kind === 'openai'
        ? openaiSettings.secretEnvNames(options.extract.options)
        : [],
};

/** `extract: { kind, …options }`: a kind that can take text, and its own options (nothing else). */
function parseExtractor(read: OptionReader): ExtractorSpec {
  const value = read.value('extract');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return read.fail(
      'extract',
      'expected an object with a kind: command, openai or local',
      'e.g. extract: { kind: local }',
    );
  const raw = value as Record<string, unknown>;
  const kind = raw.kind;
  if (!(EXTRACTOR_KINDS as readonly unknown[]).includes(kind))
    return read.fail(
      'extract.kind',
      typeof kind === 'string'
        ? `"${kind}" cannot take text: an extractor is given the reader's markdown instead of the document`
        : 'is missing',
      `one of ${EXTRACTOR_KINDS.join(', ')}`,
    );
  const own = read.nested('extract', raw, ['kind']);
  switch (kind as ExtractorSpec['kind']) {
    case 'command': {
      const options = parseCommandOptions(own(['command', 'env', 'passEnv']), EXTRACTOR_PLACEHOLDERS);
      return { kind: 'command', options: { ...options, operations: ['extract'] } };
    }
    case 'openai':
      return { kind: 'openai', options: openaiSettings.parseOptions(own(openaiSettings.optionNames)) };
    case 'local':
      own([]);
      return { kind: 'local', options: {} };
  }
}
