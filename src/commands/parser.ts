/**
 * The yargs program: every command, the global flags, usage errors and the one top-level catch that turns
 * errors into the exit codes the README documents. cli.ts imports this module only for what it cannot answer
 * itself, so neither it nor yargs loads for `docbench --version` or `docbench --help` (in English; help.ts).
 */
import { lazyRequire } from '../lazy.js';
import { createConsoleLogger } from '../logger.js';
import { ExitCode, exitCodeFor, isDocbenchError, UsageError } from '../errors.js';
import { DOCBENCH_VERSION } from '../version.js';
import type { CliContext } from './context.js';
import { globalOptions } from './global-options.js';
import { registerCommands } from './index.js';
import { EPILOG, measureHelpWidth, SCRIPT_NAME, USAGE } from './program.js';

export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/**
 * Parses `argv` with yargs and runs the command it names; resolves to the exit code. yargs prints its help
 * and version with console.log, whatever `options.stdout` is.
 */
export async function parseAndRun(argv: string[], options: MainOptions = {}): Promise<number> {
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

  const yargs = loadYargs();
  const parser = yargs(argv)
    .scriptName(SCRIPT_NAME)
    .usage(USAGE)
    .version(DOCBENCH_VERSION)
    .options(globalOptions)
    .strict()
    .demandCommand(1, 'Name a command (docbench --help lists them).')
    .recommendCommands()
    .wrap(measureHelpWidth(stdout))
    .epilog(EPILOG)
    // Usage errors (a missing argument, an unknown flag or command): exit 2 through the catch below. Thrown,
    // not just reported: yargs goes on to run the command's handler after fail() returns.
    .fail((message, error) => {
      throw (
        error ?? new UsageError(message, { hint: "run 'docbench --help' (or 'docbench <command> --help') for usage" })
      );
    })
    .exitProcess(false);
  // A flag given twice arrives as a list, which only the flags declared repeatable (--filter) expect. yargs
  // runs this in the command's context, where getOptions() holds that command's flags.
  // (getOptions is yargs' own API, missing from @types/yargs.)
  const declared = parser as unknown as { getOptions(): { array: string[] } };
  parser.middleware((argv) => refuseRepeatedFlags(argv, new Set(declared.getOptions().array)));
  skipHelpPrecomputation(parser);
  registerCommands(parser, context);

  try {
    await parser.parseAsync();
  } catch (error) {
    exitCode = exitCodeFor(error);
    if (isDocbenchError(error)) {
      stderr.write(`error: ${error.describe()}\n`);
    } else {
      stderr.write(
        `unexpected error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
  }
  return exitCode;
}

/**
 * yargs through require(): yargs 17's CommonJS build is a single file and loads in ~40 ms, where its ES module
 * entry (and yargs 18, which ships ES modules only) loads a graph of modules in 65–125 ms, before every command
 * (docs/performance.md, "The whole process, eighth pass").
 */
const loadYargs = lazyRequire<typeof import('yargs/yargs')>('yargs/yargs');

/**
 * yargs renders a command's whole help text as it starts the command's handler, in case the handler asks for it
 * later (showHelp/getHelp after the parse); docbench's handlers never do. For `run`, with its many flags,
 * that rendering (cliui, string-width) was ~0.1–0.2 s of CPU before the first call (docs/performance.md,
 * "Runner"). Help asked for with --help is rendered as before: help() renders when nothing is cached.
 * (getInternalMethods and the usage instance are yargs' own API, missing from @types/yargs; the instance is
 * one object for the whole parse, reset between commands.)
 */
export function skipHelpPrecomputation(parser: object): void {
  const internal = parser as { getInternalMethods(): { getUsageInstance(): { cacheHelpMessage(): void } } };
  internal.getInternalMethods().getUsageInstance().cacheHelpMessage = () => {};
}

/** `--dataset a --dataset b`: which one was meant is the user's to say, not a guess (exit 2). */
function refuseRepeatedFlags(argv: Record<string, unknown>, repeatable: ReadonlySet<string>): void {
  for (const [key, value] of Object.entries(argv)) {
    // yargs keeps each flag under its own spelling and its camelCase alias: judge the spelling given.
    if (key === '_' || key === '$0' || !Array.isArray(value) || repeatable.has(key) || /[A-Z]/.test(key)) continue;
    throw new UsageError(
      `--${key} was given ${value.length} times (${value.map((v) => JSON.stringify(v)).join(', ')})`,
      {
        subject: `--${key}`,
        hint: /^(modes|endpoints|formats|systems)$/.test(key)
          ? `give it once, as a comma-separated list: --${key} ${value.join(',')}`
          : `give --${key} once`,
      },
    );
  }
}
