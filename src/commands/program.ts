/**
 * docbench's own lines of the top-level `--help` and the width it wraps at: the yargs parser (parser.ts) is
 * configured with these, and the fast path (help.ts) renders them, so the two cannot say different things.
 * Imports nothing: `docbench --help` loads this module before anything else.
 */

export const SCRIPT_NAME = 'docbench';

/** yargs' usage message; `$0` stands for the script name. */
export const USAGE = '$0 <command> [options]\n\nBenchmark a document-extraction service against a labelled dataset.';

export const EPILOG =
  'Exit codes: 0 completed, 1 quality gate failed or regression, 2 invalid usage or input, 3 run could not complete (outage, rejected key, budget reached).';

/** The column help text wraps at: the terminal's width up to 110, or 100 when stdout is not a terminal. */
export function measureHelpWidth(stdout: NodeJS.WritableStream): number {
  return Math.min(110, (stdout as NodeJS.WriteStream).columns ?? 100);
}
