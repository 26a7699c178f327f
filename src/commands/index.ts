/** Every CLI command, in the order `docbench --help` lists them. */
import type { Argv } from 'yargs';
import type { CliContext } from './context.js';
import type { GlobalArgs } from './shared-options.js';
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

/** Adds every command to `parser`. One call each, so each handler keeps the argument type its builder infers. */
export function registerCommands(parser: Argv<GlobalArgs>, context: CliContext): Argv<GlobalArgs> {
  return parser
    .command(runCommand(context))
    .command(scoreCommand(context))
    .command(reportCommand(context))
    .command(mergeCommand(context))
    .command(serveCommand(context))
    .command(datasetCommand(context))
    .command(gateCommand(context))
    .command(diffCommand(context))
    .command(baselineCommand(context))
    .command(historyCommand(context));
}
