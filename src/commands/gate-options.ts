/**
 * The gate's threshold flags and the diff's settings, shared by `run`, `gate` and `diff`: a module of their own,
 * so that `run` reads them without loading the gate command (and the reporters it imports) before its calls.
 */
import type { InferredOptionTypes, Options } from 'yargs';
import { applyGateFlags, type GateFlags, type GateThresholds } from '../gate/index.js';

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
