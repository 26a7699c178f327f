/**
 * The quality gate: thresholds against a scored run's summary.json and per-document scores → GateResult
 * (gate.json). Pure: no I/O, no clock. summary.md, junit.xml, report.html and the exit code are all derived
 * from the one GateResult this returns, so they cannot disagree.
 */
import type {
  DocumentEvaluation,
  GateCheck,
  GateResult,
  RunSummary,
  SystemDocument,
  SystemSummary,
} from '../run-dir/index.js';
import { MODES, type Mode } from '../types.js';
import { checkPassRateChecks } from './check-thresholds.js';
import { hasGateChecks, type GateThresholds, type ModeThresholds, type SystemThresholds } from './thresholds.js';
import { blockChecks } from './block-checks.js';

/**
 * Slack for float comparisons: micro F1 = 0.9 recomputed from counts may come out as 0.8999999999999999,
 * and a threshold of 0.9 must accept it.
 */
const EPSILON = 1e-9;

/** What the gate needs of each document (a DocumentEvaluation has it). */
export type GateDocument = Pick<DocumentEvaluation, 'document_id'> & {
  systems: Record<string, Pick<SystemDocument, 'status' | 'extraction'>>;
};

export interface GateEvaluation {
  result: GateResult;
  /** Thresholds that did not apply to this run (e.g. a mode it did not run), for the log. */
  notes: string[];
}

/**
 * Evaluates every configured threshold: the top level of `gate` against the run's primary system, each
 * `gate.systems.<name>` against that system. A metric the run could not compute (no markdown, an unknown
 * field path, a tag no document has, a system not in the run) is a failed check with `actual: null`: a gate
 * never passes by omission. Once any threshold of a system is set, its `max_failed_documents` defaults to 0,
 * because junit.xml lists every document whose calls failed as a failed testcase and the two must agree.
 */
export function evaluateGate(
  summary: RunSummary,
  documents: readonly GateDocument[],
  thresholds: GateThresholds,
): GateEvaluation {
  const checks: GateCheck[] = [];
  const notes: string[] = [];
  const document_failures: GateResult['document_failures'] = [];
  const scopes: [string, SystemThresholds][] = [
    [summary.primary, thresholds],
    ...Object.entries(thresholds.systems ?? {}),
  ];
  for (const [name, set] of scopes) {
    if (set !== thresholds && !hasGateChecks(set)) continue;
    const system = summary.systems[name];
    if (!system) {
      checks.push({
        ...check(
          'system',
          '>=',
          1,
          null,
          undefined,
          `gate.systems.${name}: this run has no system named ${name} (it has ${summary.system_names.join(', ')})`,
        ),
        system: name,
      });
      continue;
    }
    const own = documents.flatMap((d) =>
      d.systems?.[name] ? [{ document_id: d.document_id, ...d.systems[name]! }] : [],
    );
    const result = evaluateSystem(
      system,
      own,
      set,
      name === summary.primary && set === thresholds ? '' : `gate.systems.${name}.`,
    );
    checks.push(...result.checks.map((c) => ({ ...c, system: name })));
    notes.push(...result.notes);
    document_failures.push(...result.failures.map((f) => ({ ...f, system: name })));
  }
  document_failures.sort((a, b) =>
    a.document_id < b.document_id
      ? -1
      : a.document_id > b.document_id
        ? 1
        : (a.system ?? '') < (b.system ?? '')
          ? -1
          : (a.system ?? '') > (b.system ?? '')
            ? 1
            : 0,
  );
  return {
    result: { passed: checks.every((c) => c.passed) && document_failures.length === 0, checks, document_failures },
    notes,
  };
}

/** One system's document as the per-document thresholds see it. */
type SystemGateDocument = { document_id: string } & Pick<SystemDocument, 'status' | 'extraction'>;

/** Per-document reasons for failing the gate, keyed by document id, in the order first found. */
type FailureReasons = Map<string, string[]>;
/** A system's thresholds for one mode: the mode's own over the system's top-level ones. */
type EffectiveThresholds = (mode: Mode) => ModeThresholds;

function evaluateSystem(
  summary: SystemSummary,
  documents: readonly SystemGateDocument[],
  thresholds: SystemThresholds,
  at: string,
): { checks: GateCheck[]; notes: string[]; failures: { document_id: string; reasons: string[] }[] } {
  const failures: FailureReasons = new Map();
  const runModes = MODES.filter((mode) => summary.extraction[mode] !== undefined);
  const notes = (Object.keys(thresholds.modes) as Mode[])
    .filter((mode) => !runModes.includes(mode))
    .map(
      (mode) =>
        `${at || 'gate.'}modes.${mode}: this run has no ${mode}-mode extraction scores; its thresholds were not applied`,
    );
  const effective: EffectiveThresholds = (mode) => ({ ...pickModeThresholds(thresholds), ...thresholds.modes[mode] });

  const checks = [
    ...(runModes.length === 0 ? noExtractionChecks(thresholds) : []),
    ...runModes.flatMap((mode) => extractionChecks(summary, documents, mode, effective(mode), failures)),
    ...latencyChecks(summary, thresholds, runModes, effective),
    ...similarityChecks(summary, thresholds),
    ...regionReadingOrderChecks(summary, thresholds),
    ...checkPassRateChecks(summary, thresholds, (metric, threshold, actual, detail) =>
      check(metric, '>=', threshold, actual, undefined, detail),
    ),
    ...blockChecks(summary, thresholds, check),
    ...fieldChecks(summary, thresholds, runModes),
    ...tagChecks(summary, thresholds, runModes),
    ...flakyDocumentsChecks(summary, thresholds),
  ];
  checks.push(...failedDocumentsChecks(summary, thresholds, checks.length > 0));
  return { checks, notes, failures: [...failures].map(([document_id, reasons]) => ({ document_id, reasons })) };
}

/** Extraction thresholds with no extraction scores at all: fail rather than pass by omission. */
function noExtractionChecks(thresholds: SystemThresholds): GateCheck[] {
  const checks: GateCheck[] = [];
  for (const [key, metric] of [
    ['min_f1', 'extraction.f1'],
    ['min_strict_f1', 'extraction.strict_f1'],
    ['min_exact_match', 'extraction.exact_match_rate'],
    ['min_document_f1', 'documents.extraction.f1'],
  ] as const) {
    const threshold = thresholds[key];
    if (threshold !== undefined)
      checks.push(
        check(
          metric,
          '>=',
          threshold,
          null,
          undefined,
          'this run has no extraction scores (no /extract calls, or no truth JSON)',
        ),
      );
  }
  return checks;
}

/** One mode's run-level extraction and calibration thresholds, then its per-document field F1 floor. */
function extractionChecks(
  summary: SystemSummary,
  documents: readonly SystemGateDocument[],
  mode: Mode,
  t: ModeThresholds,
  failures: FailureReasons,
): GateCheck[] {
  const checks: GateCheck[] = [];
  const block = summary.extraction[mode]!;
  if (t.min_f1 !== undefined) checks.push(check(`extraction.${mode}.f1`, '>=', t.min_f1, block.f1));
  if (t.min_strict_f1 !== undefined)
    checks.push(check(`extraction.${mode}.strict_f1`, '>=', t.min_strict_f1, block.strict_f1));
  if (t.min_exact_match !== undefined)
    checks.push(check(`extraction.${mode}.exact_match_rate`, '>=', t.min_exact_match, block.exact_match_rate));
  if (t.max_ece !== undefined) {
    const ece = summary.confidence[mode]?.ece ?? null;
    checks.push(
      check(
        `confidence.${mode}.ece`,
        '<=',
        t.max_ece,
        ece,
        undefined,
        ece === null ? 'no confidence scores to calibrate in this mode' : undefined,
      ),
    );
  }
  if (t.min_document_f1 !== undefined) checks.push(documentF1Check(documents, mode, t.min_document_f1, failures));
  return checks;
}

/** The lowest document field F1 against `threshold`; each document below it gets a reason in `failures`. */
function documentF1Check(
  documents: readonly SystemGateDocument[],
  mode: Mode,
  threshold: number,
  failures: FailureReasons,
): GateCheck {
  let lowest: number | null = null;
  let below = 0;
  for (const doc of documents) {
    const f1 = doc.extraction?.[mode]?.f1;
    if (typeof f1 !== 'number') continue;
    lowest = lowest === null ? f1 : Math.min(lowest, f1);
    if (f1 < threshold - EPSILON) {
      below++;
      const reasons = failures.get(doc.document_id) ?? [];
      reasons.push(`field F1 (${mode}) ${f1.toFixed(3)} < ${threshold}`);
      failures.set(doc.document_id, reasons);
    }
  }
  const detail =
    lowest === null
      ? 'no document has extraction scores in this mode'
      : below > 0
        ? `${below} document${below === 1 ? '' : 's'} below field F1 ${threshold} (${mode})`
        : undefined;
  return check(
    `documents.extraction.${mode}.f1`,
    '>=',
    threshold,
    lowest,
    undefined,
    detail,
    'lowest document field F1',
  );
}

function similarityChecks(summary: SystemSummary, thresholds: SystemThresholds): GateCheck[] {
  if (thresholds.min_similarity === undefined) return [];
  const similarity = summary.markdown?.similarity ?? null;
  return [
    check(
      'markdown.similarity',
      '>=',
      thresholds.min_similarity,
      similarity,
      undefined,
      similarity === null ? 'this run has no markdown scores (no /compare calls, or no truth markdown)' : undefined,
    ),
  ];
}

/**
 * `min_region_reading_order`: the regions' normalised ARD (docs/metrics/regions.md "Reading order"), higher is
 * better, so a minimum. Not computed — no regions, no page with a region found, or a summary scored before the
 * figure existed — fails.
 */
function regionReadingOrderChecks(summary: SystemSummary, thresholds: SystemThresholds): GateCheck[] {
  if (thresholds.min_region_reading_order === undefined) return [];
  const regions = summary.regions;
  const order = regions?.reading_order ?? null;
  const missing = !regions
    ? 'this run has no region scores (no /split calls, or no truth regions)'
    : regions.reading_order === undefined
      ? 'this summary.json was scored before docbench computed region reading order; rescore it with docbench score'
      : 'no page of this run has a region matched at IoU ≥ 0.5, so there is no order to compare';
  return [
    check(
      'regions.reading_order',
      '>=',
      thresholds.min_region_reading_order,
      order,
      undefined,
      order === null ? missing : undefined,
      'region reading order (normalised ARD, higher is better)',
    ),
  ];
}

/** `gate.fields.<path>`: each field path's F1, precision and recall in every mode of the run. */
function fieldChecks(summary: SystemSummary, thresholds: SystemThresholds, runModes: readonly Mode[]): GateCheck[] {
  const checks: GateCheck[] = [];
  for (const [fieldPath, t] of Object.entries(thresholds.fields)) {
    if (runModes.length === 0) {
      checks.push(
        check(
          `fields.${fieldPath}.f1`,
          '>=',
          t.min_f1 ?? t.min_precision ?? t.min_recall ?? 0,
          null,
          undefined,
          'this run has no extraction scores',
        ),
      );
      continue;
    }
    for (const mode of runModes) {
      const row = summary.fields.find((f) => f.path === fieldPath && f.mode === mode);
      const missing = row
        ? undefined
        : `field path ${fieldPath} has no scores in ${mode} mode (paths collapse indices, e.g. codes[].cpt; see fields.csv)`;
      if (t.min_f1 !== undefined)
        checks.push(check(`fields.${mode}.${fieldPath}.f1`, '>=', t.min_f1, row?.f1 ?? null, undefined, missing));
      if (t.min_precision !== undefined)
        checks.push(
          check(
            `fields.${mode}.${fieldPath}.precision`,
            '>=',
            t.min_precision,
            row?.precision ?? null,
            undefined,
            missing,
          ),
        );
      if (t.min_recall !== undefined)
        checks.push(
          check(`fields.${mode}.${fieldPath}.recall`, '>=', t.min_recall, row?.recall ?? null, undefined, missing),
        );
    }
  }
  return checks;
}

/** `gate.tags.<key=value>`: the documents with that tag, through the summary's by_tag breakdown. */
function tagChecks(summary: SystemSummary, thresholds: SystemThresholds, runModes: readonly Mode[]): GateCheck[] {
  const checks: GateCheck[] = [];
  for (const [scope, t] of Object.entries(thresholds.tags)) {
    const [key, ...rest] = scope.split('=');
    const value = rest.join('=');
    const breakdown = summary.by_tag?.[key!.trim()]?.[value.trim()];
    const missing = breakdown ? undefined : `no document of this run has the tag ${scope}`;
    const modes = breakdown ? runModes : runModes.length > 0 ? runModes : (['slow'] as Mode[]);
    for (const mode of modes) {
      if (t.min_f1 !== undefined)
        checks.push(
          check(`extraction.${mode}.f1`, '>=', t.min_f1, breakdown?.extraction_f1[mode] ?? null, scope, missing),
        );
      if (t.min_exact_match !== undefined)
        checks.push(
          check(
            `extraction.${mode}.exact_match_rate`,
            '>=',
            t.min_exact_match,
            breakdown?.exact_match_rate[mode] ?? null,
            scope,
            missing,
          ),
        );
    }
    if (t.min_similarity !== undefined) {
      const similarity = breakdown?.similarity ?? null;
      checks.push(
        check(
          'markdown.similarity',
          '>=',
          t.min_similarity,
          similarity,
          scope,
          missing ?? (similarity === null ? `no markdown scores for documents tagged ${scope}` : undefined),
        ),
      );
    }
  }
  return checks;
}

/** `max_failed_documents`, which defaults to 0 once any other threshold of the system is set (`configured`). */
function failedDocumentsChecks(summary: SystemSummary, thresholds: SystemThresholds, configured: boolean): GateCheck[] {
  const maxFailed = thresholds.max_failed_documents ?? (configured ? 0 : undefined);
  if (maxFailed === undefined) return [];
  const failed = summary.documents.failed;
  return [
    check(
      'documents.failed',
      '<=',
      maxFailed,
      failed,
      undefined,
      failed > maxFailed
        ? `${failed} of ${summary.documents.total} documents had failed calls (scored as empty output; listed in junit.xml)`
        : undefined,
      'documents with failed calls',
    ),
  ];
}

/**
 * `max_flaky_documents`: the share of documents whose outputs differ between repetitions. A run without
 * --repeat has none to count, and fails the check (never passed by omission).
 */
function flakyDocumentsChecks(summary: SystemSummary, thresholds: SystemThresholds): GateCheck[] {
  if (thresholds.max_flaky_documents === undefined) return [];
  const agreement = summary.repeat?.agreement;
  return [
    check(
      'repeat.flaky_share',
      '<=',
      thresholds.max_flaky_documents,
      agreement?.flaky_share ?? null,
      undefined,
      agreement
        ? `${agreement.flaky_documents} of ${agreement.documents} documents gave different outputs between repetitions`
        : 'the run has no repetitions: run with --repeat 2 or more',
      'share of documents whose repetitions differ',
    ),
  ];
}

function pickModeThresholds(t: SystemThresholds): ModeThresholds {
  const { min_f1, min_strict_f1, min_exact_match, max_ece, max_p95_ms, min_document_f1 } = t;
  return Object.fromEntries(
    Object.entries({ min_f1, min_strict_f1, min_exact_match, max_ece, max_p95_ms, min_document_f1 }).filter(
      ([, v]) => v !== undefined,
    ),
  );
}

/** p95 (and per call key p50/p99) latency: `max_p95_ms` at the top applies to every call key of the run. */
function latencyChecks(
  summary: SystemSummary,
  thresholds: SystemThresholds,
  runModes: readonly Mode[],
  effective: EffectiveThresholds,
): GateCheck[] {
  const checks: GateCheck[] = [];
  const keys = new Set(Object.keys(summary.latency_ms ?? {}));
  for (const key of Object.keys(thresholds.latency)) keys.add(key);
  for (const mode of runModes) if (effective(mode).max_p95_ms !== undefined) keys.add(`extract:${mode}`);
  for (const key of [...keys].sort()) {
    const mode = key.startsWith('extract:') ? (key.slice('extract:'.length) as Mode) : null;
    const perKey = thresholds.latency[key] ?? {};
    const p95 = perKey.max_p95_ms ?? (mode ? effective(mode).max_p95_ms : thresholds.max_p95_ms);
    const block = summary.latency_ms?.[key];
    const missing = block ? undefined : `this run made no ${key} calls`;
    if (perKey.max_p50_ms !== undefined)
      checks.push(check(`latency_ms.${key}.p50`, '<=', perKey.max_p50_ms, block?.p50 ?? null, undefined, missing));
    if (p95 !== undefined)
      checks.push(check(`latency_ms.${key}.p95`, '<=', p95, block?.p95 ?? null, undefined, missing));
    if (perKey.max_p99_ms !== undefined)
      checks.push(check(`latency_ms.${key}.p99`, '<=', perKey.max_p99_ms, block?.p99 ?? null, undefined, missing));
  }
  return checks;
}

function check(
  metric: string,
  op: '>=' | '<=',
  threshold: number,
  actual: number | null,
  scope?: string,
  detail?: string,
  label = metric,
): GateCheck {
  const passed =
    actual !== null &&
    Number.isFinite(actual) &&
    (op === '>=' ? actual >= threshold - EPSILON : actual <= threshold + EPSILON);
  const where = scope ? ` for ${scope}` : '';
  const show = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(4).replace(/0+$/, ''));
  let message: string;
  if (actual === null || !Number.isFinite(actual))
    message = `${label}${where}: not computed${detail ? ` — ${detail}` : ''}`;
  else if (passed) message = `${label}${where} ${show(actual)} ${op === '>=' ? '≥' : '≤'} ${show(threshold)}`;
  else
    message = `${label}${where} ${show(actual)} is ${op === '>=' ? 'below the minimum' : 'above the maximum'} ${show(threshold)}${detail ? ` — ${detail}` : ''}`;
  return {
    metric,
    ...(scope ? { scope } : {}),
    op,
    threshold,
    actual: actual !== null && Number.isFinite(actual) ? actual : null,
    passed,
    message,
  };
}
