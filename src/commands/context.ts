/** What every command receives from the CLI entry point: its environment, streams and logger. */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from './global-options.js';
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
 * A yargs command whose handler's argument is inferred from its builder (yargs' `InferredOptionTypes`), so a
 * flag read in the handler is a flag the builder declared, with the type it declared.
 */
export type DocbenchCommand<A> = CommandModule<GlobalArgs, A> & { command: string; describe: string };

export type CommandFactory<A> = (context: CliContext) => DocbenchCommand<A>;

/** Declares a command; the identity function that lets TypeScript infer `A` from the builder. */
export function defineCommand<A>(factory: CommandFactory<A>): CommandFactory<A> {
  return factory;
}
