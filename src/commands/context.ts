/** What every command receives from the CLI entry point: its environment, streams and logger. */
import type { CommandModule } from 'yargs';
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

// yargs' CommandModule with loosely typed argv: each command narrows its own options in its builder.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandFactory = (context: CliContext) => CommandModule<any, any>;
