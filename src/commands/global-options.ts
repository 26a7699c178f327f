/**
 * The flags every command takes, apart from the other shared flags: cli.ts registers these before any command
 * module loads, so this file imports nothing but yargs' types (shared-options.ts pulls in config and gate).
 */
import type { InferredOptionTypes, Options } from 'yargs';

/** Log level, on every command (registered as global options in cli.ts). */
export const globalOptions = {
  quiet: { type: 'boolean', describe: 'Print nothing but errors', global: true },
  verbose: { type: 'boolean', describe: 'Print debugging detail to stderr', global: true },
} as const satisfies Record<string, Options>;

export type GlobalArgs = InferredOptionTypes<typeof globalOptions>;
