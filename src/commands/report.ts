/** `docbench report <run-dir>`: rebuild every report of a stored run from its files; no service calls. */
import path from 'node:path';
import { ExitCode, UsageError } from '../errors.js';
import { formatTerminalSummary, renderReports, REPORT_FORMATS, type ReportFormat } from '../report/index.js';
import { runDirPath } from '../run-dir/index.js';
import { createPhaseProgress } from '../run/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';

/** `--formats html,junit` → the formats, naming the flag and the bad value otherwise. */
export function parseFormats(text: string | undefined): ReportFormat[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((item) => !(REPORT_FORMATS as readonly string[]).includes(item));
  if (items.length === 0 || bad.length > 0) {
    throw new UsageError(
      `--formats ${JSON.stringify(text)}: ${bad.length ? `unknown ${bad.map((b) => JSON.stringify(b)).join(', ')}` : 'empty'}`,
      { subject: '--formats', hint: `use a comma-separated list of ${REPORT_FORMATS.join(', ')}` },
    );
  }
  return [...new Set(items)] as ReportFormat[];
}

export const reportCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.report,
  builder: (yargs) =>
    yargs
      .positional('run-dir', { type: 'string', describe: 'A run directory written by docbench run' })
      .option('formats', {
        type: 'string',
        describe: `Only these outputs: ${REPORT_FORMATS.join(', ')} (default all)`,
      }),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const formats = parseFormats(argv.formats);
    if (!argv.runDir)
      throw new UsageError('Missing <run-dir>: name a run directory written by docbench run', {
        subject: '<run-dir>',
        hint: 'e.g. docbench report reports/20261121T194502Z-3f9a',
      });
    const runDir = path.resolve(context.cwd, argv.runDir);
    const outcome = await renderReports(runDir, {
      logger,
      onPhase: createPhaseProgress({ stream: context.stderr, quiet: Boolean(argv.quiet) }),
      ...(formats ? { formats } : {}),
    });
    const reportPath = outcome.written.find((file) => file === runDirPath(runDir, 'reportHtml'));
    logger.info(formatTerminalSummary(outcome.view, reportPath ? { reportPath } : {}));
    const show = (file: string) => {
      const relative = path.relative(context.cwd, file);
      return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
    };
    logger.info(`\nwrote ${outcome.written.map(show).join(', ') || 'nothing'}`);
    if (outcome.failed.length > 0) {
      for (const failure of outcome.failed) logger.error(`${failure.file}: ${failure.error}`);
      context.setExitCode(ExitCode.INCOMPLETE);
    } else {
      context.setExitCode(ExitCode.OK);
    }
  },
}));
