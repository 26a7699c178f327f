/**
 * The docbench command line: thin yargs commands that parse, resolve config, call one library function and
 * set the exit code. One top-level catch turns errors into the exit codes the README documents.
 */
import { createConsoleLogger } from './logger.js';
import { ExitCode, exitCodeFor, isDocbenchError } from './errors.js';
import { registerCommands } from './commands/index.js';
import { globalOptions } from './commands/global-options.js';
import type { CliContext } from './commands/context.js';
import { DOCBENCH_VERSION } from './version.js';

export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code and sets process.exitCode. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  let exitCode: number = ExitCode.OK;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const context: CliContext = {
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    stdout,
    stderr,
    logger: (flags) => createConsoleLogger({ ...flags, stdout, stderr }),
    setExitCode: (code) => {
      exitCode = code;
    },
    onInterrupt: (handler) => {
      process.on('SIGINT', handler);
      return () => void process.off('SIGINT', handler);
    },
  };

  // `docbench --version` alone is answered before yargs loads: yargs' own modules are most of the CLI's
  // start-up, and scripts ask for the version often (bench case startup, docs/performance.md).
  if (argv.length === 1 && argv[0] === '--version') {
    stdout.write(`${DOCBENCH_VERSION}\n`);
    process.exitCode = ExitCode.OK;
    return ExitCode.OK;
  }
  const { default: yargs } = await import('yargs');
  const parser = yargs(argv)
    .scriptName('docbench')
    .usage('$0 <command> [options]\n\nBenchmark a document-extraction service against a labelled dataset.')
    .version(DOCBENCH_VERSION)
    .options(globalOptions)
    .strict()
    .demandCommand(1, 'Name a command: see the list above.')
    .recommendCommands()
    .wrap(Math.min(110, (stdout as NodeJS.WriteStream).columns ?? 100))
    .epilog('Exit codes: 0 completed, 1 quality gate failed or regression, 2 invalid usage or input, 3 run could not complete.')
    // Usage errors: print the message and a pointer to --help, exit 2. yargs calls this for parse errors.
    .fail((message, error) => {
      if (error) throw error;
      stderr.write(`error: ${message}\nRun 'docbench --help' (or 'docbench <command> --help') for usage.\n`);
      exitCode = ExitCode.USAGE;
    })
    .exitProcess(false);
  registerCommands(parser, context);

  try {
    await parser.parseAsync();
  } catch (error) {
    exitCode = exitCodeFor(error);
    if (isDocbenchError(error)) {
      stderr.write(`error: ${error.describe()}\n`);
    } else {
      stderr.write(`unexpected error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
  process.exitCode = exitCode;
  return exitCode;
}
