/** `docbench run`: drive a dataset through the service into a run directory, then score and report. */
import { resolveConfig } from '../config.js';
import { ExitCode, UsageError } from '../errors.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { createProgress } from '../run/progress.js';
import { parseFilter, parseShard } from '../run/plan.js';
import { finalizeRun } from '../finalize.js';
import type { CommandFactory } from './context.js';
import { parseEndpoints, parseModes, serviceOptions, wholeNumber } from './shared-options.js';

interface RunArgs {
  dataset?: string;
  'base-url'?: string;
  config?: string;
  timeout?: number;
  retries?: number;
  out?: string;
  modes?: string;
  endpoints?: string;
  concurrency?: number;
  rate?: number;
  limit?: number;
  sample?: number;
  seed: number;
  filter?: string[];
  shard?: string;
  resume?: string;
  repeat: number;
  cache: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

export const runCommand: CommandFactory = (context) => ({
  command: 'run',
  describe: 'Run a dataset through the service (or the local reference service), then score and report',
  builder: (yargs) =>
    yargs
      .option('dataset', { type: 'string', describe: 'Dataset directory (see datasets/README.md)' })
      .options(serviceOptions)
      .option('out', { type: 'string', describe: 'Run directory to write (default reports/<run-id>)' })
      .option('modes', { type: 'string', describe: '/extract modes: fast, slow or fast,slow (default slow)' })
      .option('endpoints', { type: 'string', describe: 'extract, compare, split, process (default extract,compare)' })
      .option('concurrency', { type: 'number', describe: 'Calls in flight at once (default 4)' })
      .option('rate', { type: 'number', describe: 'At most this many call starts per second' })
      .option('limit', { type: 'number', describe: 'Only the first N documents (by id, after --filter/--sample)' })
      .option('sample', { type: 'number', describe: 'A seeded random sample of N documents' })
      .option('seed', { type: 'number', default: 1, describe: 'Seed of --sample' })
      .option('filter', { type: 'string', array: true, describe: 'Only documents with tag key=value (repeatable, all must match)' })
      .option('shard', { type: 'string', describe: 'Take shard i of n (i/n) of the documents, for CI job matrices' })
      .option('resume', { type: 'string', describe: 'Continue an interrupted run directory: redo failed and missing calls only' })
      .option('repeat', { type: 'number', default: 1, describe: 'Call each N times past the cache, to measure nondeterminism' })
      .option('cache', { type: 'boolean', default: true, describe: 'Reuse cached responses (--no-cache to call again)' })
      .check((argv) => {
        if (!argv.dataset && !argv.resume) throw new Error('Missing --dataset <dir> (or --resume <run-dir>)');
        return true;
      }),
  handler: async (raw) => {
    const argv = raw as unknown as RunArgs;
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    if (argv.resume && argv.dataset) throw new UsageError('--resume continues a run with its own dataset and options; do not pass --dataset with it', { subject: '--resume', hint: `run: docbench run --resume ${argv.resume}` });
    const config = resolveConfig({
      cwd: context.cwd,
      env: context.env,
      flags: {
        ...(argv['base-url'] !== undefined ? { baseUrl: argv['base-url'] } : {}),
        ...(argv.config !== undefined ? { configPath: argv.config } : {}),
        ...(argv.timeout !== undefined ? { timeoutMs: argv.timeout } : {}),
        ...(argv.retries !== undefined ? { retryAttempts: wholeNumber(argv.retries, '--retries', 1) } : {}),
        ...(argv.concurrency !== undefined ? { concurrency: wholeNumber(argv.concurrency, '--concurrency', 1) } : {}),
        ...(argv.rate !== undefined ? { ratePerSecond: argv.rate } : {}),
      },
    });
    const modes = parseModes(argv.modes);
    const endpoints = parseEndpoints(argv.endpoints);
    const repeat = wholeNumber(argv.repeat, '--repeat', 1)!;
    const selection = {
      filters: (argv.filter ?? []).map(parseFilter),
      sample: wholeNumber(argv.sample, '--sample', 1) ?? null,
      seed: argv.seed,
      limit: wholeNumber(argv.limit, '--limit', 1) ?? null,
      shard: argv.shard !== undefined ? parseShard(argv.shard) : null,
    };

    const stop = new AbortController();
    let interrupts = 0;
    const removeInterrupt = context.onInterrupt(() => {
      interrupts++;
      if (interrupts === 1) {
        context.stderr.write('\nInterrupted: finishing the calls in flight and writing outputs. Press Ctrl-C again to quit at once.\n');
        stop.abort();
      } else {
        context.stderr.write('Quitting at once; resume later with --resume.\n');
        process.exit(ExitCode.INTERRUPTED);
      }
    });
    const progress = createProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) });
    try {
      const result = await runBenchmark({
        ...(argv.dataset !== undefined ? { datasetDir: argv.dataset } : {}),
        ...(argv.resume !== undefined ? { resumeDir: argv.resume } : {}),
        ...(argv.out !== undefined ? { outDir: argv.out } : {}),
        config,
        selection,
        ...(modes ? { modes } : {}),
        ...(endpoints ? { endpoints } : {}),
        repeat,
        cache: argv.cache,
        cwd: context.cwd,
        logger,
        stopSignal: stop.signal,
        onEvent: progress,
        finalize: (runDir, dataset) => finalizeRun(runDir, { dataset, logger, print: true }),
      });
      if (result.status === 'completed') {
        context.setExitCode(ExitCode.OK);
      } else {
        const fix =
          result.stopReason === 'auth'
            ? `check the key in ${config.apiKeyEnv}, then resume`
            : result.stopReason === 'outage'
              ? 'when the service is back, resume'
              : result.stopReason === 'output'
                ? 'make the run directory writable (or free disk space), then resume'
                : 'resume';
        logger.error(`run ${result.status}: ${result.stopMessage ?? ''}\n  hint: ${fix} with: docbench run --resume ${result.runDir}`);
        context.setExitCode(ExitCode.INCOMPLETE);
      }
    } finally {
      progress.stop();
      removeInterrupt();
    }
  },
});
