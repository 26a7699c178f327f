/** Every CLI command, in the order `docbench --help` lists them. One line a command. */
import type { CommandFactory } from './context.js';
import { datasetCommand } from './dataset.js';

export const commandFactories: CommandFactory[] = [
  datasetCommand,
];
import { serveCommand } from './serve.js'; commandFactories.push(serveCommand);
