/** What every command receives from the CLI entry point: its environment, streams and logger. */
import type { Argv } from 'yargs';
import type { Logger } from '../logger.js';

export interface CliContext {
  /** The environment, read only by config resolution (never below the CLI). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Built from the global --quiet/--verbose flags. */
  logger(options: { quiet?: boolean; verbose?: boolean }): Logger;
  /** Commands set this instead of calling process.exit. */
  setExitCode(code: number): void;
  /** Registers a handler for SIGINT; returns a function that removes it. */
  onInterrupt(handler: () => void): () => void;
}

/**
 * A yargs command module whose handler declares the shape of its own parsed flags. (yargs' CommandModule
 * types the handler's argument from the builder, which the thin commands here do not need.)
 */
export interface DocbenchCommand {
  command: string | readonly string[];
  describe: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command's builder adds its own options
  builder?: (yargs: Argv) => Argv<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the handler narrows argv itself
  handler: (argv: any) => void | Promise<void>;
}

export type CommandFactory = (context: CliContext) => DocbenchCommand;
