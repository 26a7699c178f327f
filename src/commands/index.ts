/** Every CLI command, in the order `docbench --help` lists them. */
import type { CommandFactory } from './context.js';
import { runCommand } from './run.js';
import { scoreCommand } from './score.js';
import { reportCommand } from './report.js';
import { mergeCommand } from './merge.js';
import { serveCommand } from './serve.js';
import { datasetCommand } from './dataset.js';
import { gateCommand } from './gate.js';
import { diffCommand } from './diff.js';
import { baselineCommand } from './baseline.js';
import { historyCommand } from './history.js';

export const commandFactories: CommandFactory[] = [runCommand, scoreCommand, reportCommand, mergeCommand, serveCommand, datasetCommand, gateCommand, diffCommand, baselineCommand, historyCommand];
