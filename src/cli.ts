/**
 * The docbench command line. `docbench --version` and `docbench --help` are answered here, before yargs or
 * any command loads: yargs' own modules would be most of the CLI's start-up, and both are asked for often
 * (bench case startup, docs/performance.md). Everything else goes to the yargs program in commands/parser.ts.
 */
import { measureHelpWidth } from './commands/program.js';
import { isTopLevelHelp, renderTopLevelHelp } from './commands/help.js';
import type { MainOptions } from './commands/parser.js';
import { ExitCode } from './errors.js';

export type { MainOptions };

/** Runs the CLI with `argv` (without node and script); resolves to the exit code and sets process.exitCode. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const width = measureHelpWidth(stdout);
  let exitCode: number = ExitCode.OK;
  if (argv.length === 1 && argv[0] === '--version') {
    // Imported here, not above, so that --help does not load it: it reads package.json with node:fs, and
    // creating node:fs' ES module wrapper is the costliest step of either path (a few ms).
    const { DOCBENCH_VERSION } = await import('./version.js');
    stdout.write(`${DOCBENCH_VERSION}\n`);
  } else if (isTopLevelHelp(argv, width, process.env)) {
    // The process environment, not options.env: it is what yargs reads the locale from.
    stdout.write(renderTopLevelHelp(width));
  } else {
    const { parseAndRun } = await import('./commands/parser.js');
    exitCode = await parseAndRun(argv, options);
  }
  process.exitCode = exitCode;
  return exitCode;
}
