/** `docbench gate <run-dir>`: apply the quality gate to a stored run, rebuild its reports, exit 1 on failure. */
import path from 'node:path';
import type { InferredOptionTypes, Options } from 'yargs';
import { ExitCode, UsageError } from '../errors.js';
import { renderReports } from '../report/index.js';
import {
  applyGate,
  applyGateFlags,
  formatGateVerdict,
  hasGateChecks,
  type GateFlags,
  type GateThresholds,
} from '../gate/index.js';
import { runDirPath } from '../run-dir/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { configOption, loadConfig } from './shared-options.js';

/** Threshold flags shared by `run` and `gate`; they override the config file's top-level `gate` values. */
export const gateOptions = {
  'min-f1': { type: 'number', describe: 'Gate: minimum micro field F1 (normalised), every mode, e.g. 0.9' },
  'min-strict-f1': { type: 'number', describe: 'Gate: minimum micro field F1, strict pass' },
  'min-exact-match': { type: 'number', describe: 'Gate: minimum document exact-match rate' },
  'min-similarity': { type: 'number', describe: 'Gate: minimum markdown similarity of the service, e.g. 0.85' },
  'max-p95-ms': { type: 'number', describe: 'Gate: maximum p95 client latency of every call type, ms' },
  'max-ece': { type: 'number', describe: 'Gate: maximum expected calibration error of the confidence score' },
  'min-document-f1': { type: 'number', describe: 'Gate: documents below this field F1 fail (junit.xml testcases)' },
  'max-failed-documents': {
    type: 'number',
    describe: 'Gate: documents with failed calls allowed (default 0 once any threshold is set)',
  },
} as const satisfies Record<string, Options>;

/** Diff settings shared by `diff` and `run --compare-to`. */
export const diffOptions = {
  tolerance: {
    type: 'number',
    describe: 'Diff: a headline metric must drop by more than this to regress (default 0.01)',
  },
  alpha: {
    type: 'number',
    describe:
      'Diff: significance level, two-sided (default 0.05): the primary metric alone, the other headline metrics after Holm',
  },
  primary: {
    type: 'string',
    describe:
      'Diff: the primary metric, tested alone at --alpha (default: field F1 of the first mode, else markdown similarity)',
  },
} as const satisfies Record<string, Options>;

/** The gate and diff flags as parsed (any may be absent). */
export type GateArgs = Partial<InferredOptionTypes<typeof gateOptions & typeof diffOptions>>;

/** The flags given, as GateFlags. */
export function readGateFlags(argv: GateArgs): GateFlags {
  const pairs: [keyof GateFlags, number | undefined][] = [
    ['minF1', argv['min-f1']],
    ['minStrictF1', argv['min-strict-f1']],
    ['minExactMatch', argv['min-exact-match']],
    ['minSimilarity', argv['min-similarity']],
    ['maxP95Ms', argv['max-p95-ms']],
    ['maxEce', argv['max-ece']],
    ['minDocumentF1', argv['min-document-f1']],
    ['maxFailedDocuments', argv['max-failed-documents']],
    ['tolerance', argv.tolerance],
    ['alpha', argv.alpha],
  ];
  const flags = Object.fromEntries(pairs.filter(([, value]) => value !== undefined)) as GateFlags;
  return argv.primary === undefined ? flags : { ...flags, primary: argv.primary };
}

/** Config file thresholds with the flags on top. */
export function resolveThresholds(fileGate: GateThresholds, argv: GateArgs): GateThresholds {
  return applyGateFlags(fileGate, readGateFlags(argv));
}

export const gateCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.gate,
  builder: (yargs) =>
    yargs
      .positional('run-dir', { type: 'string', describe: 'A run directory written by docbench run' })
      .options(configOption)
      .options(gateOptions),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    if (!argv.runDir)
      throw new UsageError('Missing <run-dir>: name a run directory written by docbench run', { subject: '<run-dir>' });
    const config = loadConfig(context, argv.config !== undefined ? { configPath: argv.config } : {});
    const thresholds = resolveThresholds(config.sections.gate, argv);
    if (!hasGateChecks(thresholds)) {
      throw new UsageError('no gate thresholds: nothing to check', {
        subject: 'gate',
        hint: 'pass e.g. --min-f1 0.9, or add a "gate" section to docbench.config.json (see docs/gate.md)',
      });
    }
    const runDir = path.resolve(context.cwd, argv.runDir);
    const result = await applyGate(runDir, thresholds, { logger });
    const outcome = await renderReports(runDir, { logger });
    for (const failure of outcome.failed) logger.error(`${failure.file}: ${failure.error}`);
    logger.info(formatGateVerdict(result));
    logger.info(
      `wrote ${[runDirPath(runDir, 'gate'), ...outcome.written].map((file) => path.relative(context.cwd, file) || file).join(', ')}`,
    );
    // A report that could not be rewritten would disagree with gate.json: that is an incomplete outcome.
    context.setExitCode(
      outcome.failed.length > 0 ? ExitCode.INCOMPLETE : result.passed ? ExitCode.OK : ExitCode.GATE_FAILED,
    );
  },
}));
