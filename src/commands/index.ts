/** Every CLI command, in the order `docbench --help` lists them. One line a command. */
import type { CommandFactory } from './context.js';

export const commandFactories: CommandFactory[] = [];
