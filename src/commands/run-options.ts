/**
 * The flags that say what a run is — dataset, systems, selection, modes, endpoints, repeats, cache, budget —
 * declared once for `docbench run` and `docbench plan`, so a plan is read exactly as the run would be.
 */
import type { InferredOptionTypes, Options } from 'yargs';
import { UsageError } from '../errors.js';
import { parseFilter, parseShard, type Selection } from '../run/index.js';
import { readBudget } from '../run-settings.js';
import { SettingsReader } from '../settings-reader.js';
import type { CliContext } from './context.js';
import {
  loadConfig,
  parseEndpoints,
  parseModes,
  parseSystemChoice,
  readServiceFlags,
  serviceOptions,
  wholeNumber,
} from './shared-options.js';

export const runShapeOptions = {
  dataset: { type: 'string', describe: 'Dataset directory (see datasets/README.md)' },
  ...serviceOptions,
  systems: { type: 'string', describe: 'Run only these configured systems: a,b (default all; see docs/systems.md)' },
  reference: {
    type: 'string',
    describe: 'The system the others are compared with (default incumbent, else the first)',
  },
  out: { type: 'string', describe: 'Run directory to write (default reports/<run-id>)' },
  modes: { type: 'string', describe: '/extract modes: fast, slow or fast,slow (default slow)' },
  endpoints: { type: 'string', describe: 'extract, compare, split, process (default extract,compare)' },
  limit: { type: 'number', describe: 'Only the first N documents (by id, after --filter/--sample)' },
  sample: { type: 'number', describe: 'A seeded random sample of N documents' },
  seed: { type: 'number', describe: 'Seed of --sample (default 1)' },
  filter: { type: 'string', array: true, describe: 'Only documents with tag key=value (repeatable, all must match)' },
  shard: { type: 'string', describe: 'Take shard i of n (i/n) of the documents, for CI job matrices' },
  resume: {
    type: 'string',
    describe: 'Continue an interrupted run directory with its own options: redo failed and missing calls only',
  },
  repeat: { type: 'number', describe: 'Call each N times past the cache, to measure nondeterminism (default 1)' },
  cache: { type: 'boolean', describe: 'Reuse cached responses (default; --no-cache to call again)' },
  'max-cost': {
    // Read as text and converted by readMaxCost: yargs' number type turns an empty value into 0 (no budget
    // at all would be spent), where an amount is what is missing.
    type: 'string',
    describe:
      'Budget in USD over every priced system: a system whose next call could pass it starts no more (exit 3; resume with a higher --max-cost)',
  },
} as const satisfies Record<string, Options>;

export type RunShapeArgs = InferredOptionTypes<typeof runShapeOptions>;

/**
 * Flags that decide what a run calls or where it writes. A resumed run keeps the ones it started with
 * (run.json), so giving one with --resume would be silently ignored: it is refused instead. (seed, repeat and
 * cache have no yargs default for this reason: a default is indistinguishable from a flag given.) Flags that
 * only pace the calls — --concurrency, --rate, --timeout, --retries — and --max-cost are allowed and recorded
 * per invocation.
 */
const RUN_SHAPING_FLAGS = [
  'dataset',
  'systems',
  'reference',
  'out',
  'modes',
  'endpoints',
  'limit',
  'sample',
  'seed',
  'filter',
  'shard',
  'repeat',
  'cache',
] as const;

/** Refuses flags that would change a resumed run. */
export function checkResumeFlags(argv: RunShapeArgs): void {
  if (argv.resume === undefined) return;
  const given = RUN_SHAPING_FLAGS.filter((flag) => argv[flag] !== undefined).map((flag) => `--${flag}`);
  if (given.length > 0) {
    throw new UsageError(
      `--resume continues run ${argv.resume} with the options it started with; ${given.join(', ')} would change what it runs`,
      {
        subject: given.join(', '),
        hint: `drop ${given.length === 1 ? 'it' : 'them'} (docbench run --resume ${argv.resume}), or start a new run; --concurrency, --rate, --timeout, --retries and --max-cost may be given`,
      },
    );
  }
}

/** `--max-cost`: an amount in USD ≥ 0, checked by the reader `maxCostUsd` uses; undefined when not given. */
export function readMaxCost(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // Not a number (`abc`, an empty value) is NaN, which the reader refuses naming the flag and what it expected.
  const amount = value.trim() === '' ? Number.NaN : Number(value);
  return readBudget(amount, '--max-cost', new SettingsReader(null, 'e.g. --max-cost 25 (USD)'));
}

/** Everything the run-shaping flags say, checked, with the configuration they resolve. */
export function readRunShape(context: CliContext, argv: RunShapeArgs) {
  checkResumeFlags(argv);
  const maxCostUsd = readMaxCost(argv['max-cost']);
  const config = loadConfig(context, readServiceFlags(argv));
  const selection: Selection = {
    filters: (argv.filter ?? []).map(parseFilter),
    sample: wholeNumber(argv.sample, '--sample', 1) ?? null,
    seed: wholeNumber(argv.seed, '--seed', 0) ?? 1,
    limit: wholeNumber(argv.limit, '--limit', 1) ?? null,
    shard: argv.shard !== undefined ? parseShard(argv.shard) : null,
  };
  const modes = parseModes(argv.modes);
  const endpoints = parseEndpoints(argv.endpoints);
  return {
    config,
    ...(argv.dataset !== undefined ? { datasetDir: argv.dataset } : {}),
    ...(argv.resume !== undefined ? { resumeDir: argv.resume } : {}),
    systems: parseSystemChoice(argv.systems, argv.reference),
    selection,
    ...(modes ? { modes } : {}),
    ...(endpoints ? { endpoints } : {}),
    repeat: wholeNumber(argv.repeat ?? 1, '--repeat', 1)!,
    cache: argv.cache ?? true,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    cwd: context.cwd,
    env: context.env,
  };
}

/** The check both commands put on their flags: a dataset to run, or a run to resume. */
export function requireDatasetOrResume(argv: { dataset?: string; resume?: string }): true {
  if (!argv.dataset && !argv.resume) throw new Error('Missing --dataset <dir> (or --resume <run-dir>)');
  return true;
}
