/**
 * Builds the one view model every report format is written from. Formats, never re-scores: every figure
 * comes from summary.json, documents.jsonl or gate.json as the scoring step wrote it.
 */
import { buildChecksSection } from './checks-view.js';
import type {
  DocumentEvaluation,
  GateResult,
  LatencyBlock,
  RunSummary,
  SystemSummary,
  TagBreakdown,
} from '../run-dir/index.js';
import { MODES, type Mode } from '../types.js';
import { DOCBENCH_VERSION } from '../version.js';
import { buildAccuracyLatencyChart } from './charts/accuracy-latency-chart.js';
import { buildReliabilityChart, buildRiskCoverageChart, toUnitConfidence } from './charts/calibration-charts.js';
import { buildLatencyChart } from './charts/latency-chart.js';
import { buildDocumentColumns, toDocumentRow } from './document-row.js';
import {
  buildComparisonRows,
  buildDisagreements,
  buildFieldLeaders,
  buildLeaderboard,
  buildSystemViews,
} from './leaderboard-view.js';
import {
  formatCount,
  formatDate,
  formatDecimal,
  formatDuration,
  formatMs,
  formatPercent,
  formatPercentInterval,
  describeServiceUrl,
} from '../render/index.js';
import { buildHeadline, describeAutoAccept, extractKey } from './headline.js';
import { buildCostView } from './cost-view.js';
import { buildProvenanceView } from './provenance-view.js';
import { buildReadingView } from './reading-view.js';
import type { RunPhases, StoredRun } from '../run-dir/index.js';
import type {
  CalibrationView,
  DocumentRow,
  FailureView,
  FastSlowView,
  FieldRowView,
  GateView,
  HeadlineView,
  LatencyRowView,
  LatencyView,
  ReportView,
  RunHeaderView,
  SystemView,
  TagCellView,
  TagFiguresRow,
  TagTableView,
  Tone,
} from './view-types.js';

/** The modes of the run, in the canonical order (fast before slow): run.json's and any the summary scored. */
export function selectModes(inputs: {
  manifest: Pick<StoredRun['manifest'], 'options'>;
  summary: { systems: Readonly<Record<string, { extraction: Partial<Record<Mode, unknown>> }>> };
}): Mode[] {
  return MODES.filter(
    (mode) =>
      inputs.manifest.options.modes.includes(mode) ||
      Object.values(inputs.summary.systems).some((s) => s.extraction[mode] !== undefined),
  );
}

/** Latency keys in a stable order: extract modes first, then the other endpoints, then anything else. */
export function orderLatencyKeys(keys: Iterable<string>): string[] {
  const rank = (key: string) => {
    const known = ['extract:fast', 'extract:slow', 'compare', 'split', 'process'].indexOf(key);
    return known === -1 ? 99 : known;
  };
  return [...new Set(keys)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function toneForScore(value: number | null): Tone {
  if (value === null) return 'neutral';
  return value >= 0.95 ? 'good' : value >= 0.8 ? 'warn' : 'bad';
}

/** The documents table's rows and the failed calls' error codes, one document at a time in documents.jsonl's
 * order. */
export interface DocumentRows {
  rows: DocumentRow[];
  errorCodes: Map<string, number>;
}

export interface DocumentRowsBuilder extends DocumentRows {
  add(doc: DocumentEvaluation): void;
}

/**
 * @param gateReasons per `${system}\u0000${document id}`, as toDocumentRow takes them.
 * @param start rows already made of the first documents (during the calls): `add` goes on after them.
 */
export function createDocumentRows(
  modes: readonly Mode[],
  systems: readonly SystemView[],
  reference: string | null,
  gateReasons: ReadonlyMap<string, string[]>,
  start?: DocumentRows,
): DocumentRowsBuilder {
  const rows = start ? [...start.rows] : [];
  const errorCodes = new Map(start?.errorCodes);
  return {
    rows,
    errorCodes,
    add(doc) {
      rows.push(toDocumentRow(doc, rows.length, systems, reference, modes, gateReasons));
      for (const system of Object.values(doc.systems ?? {}))
        for (const error of system.errors ?? []) errorCodes.set(error.code, (errorCodes.get(error.code) ?? 0) + 1);
    },
  };
}

/**
 * @param documents documents.jsonl's documents; after `start`'s when it is given.
 * @param start the rows of the first documents, made during the calls from the same lines with the same
 *   modes, systems and reference, for a run whose gate has no document failure (src/report/early-reports.ts).
 */
export async function buildReportView(
  inputs: StoredRun,
  documents: AsyncIterable<DocumentEvaluation>,
  start?: DocumentRows,
): Promise<ReportView> {
  const { summary, gate } = inputs;
  const modes = selectModes(inputs);
  const systems = buildSystemViews(summary);
  const primary = summary.systems[summary.primary]!;
  // gate.json written before systems names none: its document failures are the primary system's.
  const gateReasons = new Map(
    (gate?.document_failures ?? []).map((f) => [`${f.system ?? summary.primary}\u0000${f.document_id}`, f.reasons]),
  );
  const builder = createDocumentRows(modes, systems, summary.reference, gateReasons, start);
  for await (const doc of documents) builder.add(doc);
  const { rows, errorCodes } = builder;
  const tagKeys = [
    ...new Set([
      ...Object.values(summary.systems).flatMap((s) => Object.keys(s.by_tag ?? {})),
      ...rows.flatMap((r) => Object.keys(r.tags)),
    ]),
  ].sort();
  const latencyKeys = orderLatencyKeys([
    ...Object.values(summary.systems).flatMap((s) => Object.keys(s.latency_ms ?? {})),
    ...rows.flatMap((r) => r.systems.flatMap((c) => Object.keys(c.latency_ms))),
  ]);
  const counts = {
    total: rows.length,
    ok: rows.filter((r) => r.status === 'ok').length,
    partial: rows.filter((r) => r.status === 'partial').length,
    failed: rows.filter((r) => r.status === 'failed').length,
    below_gate: rows.filter((r) => r.gate_reasons.length > 0).length,
  };
  const headline = buildHeadline(summary, modes);
  const tagTables = buildTagTables(summary, systems, modes);
  return {
    report_version: DOCBENCH_VERSION,
    header: buildHeader(inputs, modes),
    failures: buildFailures(counts, errorCodes),
    provenance: buildProvenanceView(inputs.manifest, summary),
    gate: gate ? buildGate(gate) : null,
    modes,
    systems,
    reference: summary.reference,
    primary: summary.primary,
    // Summaries written before `decision` was recorded were decided at 0.05.
    decision_alpha: String(summary.decision?.alpha ?? 0.05),
    leaderboard: buildLeaderboard(summary, systems),
    cost: buildCostView(inputs.manifest),
    reading: buildReadingView(summary, inputs.manifest),
    comparisons: buildComparisonRows(summary),
    field_leaders: buildFieldLeaders(summary),
    disagreements: buildDisagreements(summary, systems, new Map(rows.map((row) => [row.id, row.drilldown]))),
    headline,
    fast_slow: buildFastSlow(headline, rows, modes, summary.primary),
    fields: buildFields(summary),
    calibration: buildCalibration(primary, modes),
    latency: buildLatency(primary, rows, latencyKeys, summary.primary),
    by_tag: tagTables,
    tag_rows: buildTagRows(summary, tagTables, systems),
    tag_breakdowns: primary.by_tag ?? {},
    documents: {
      rows,
      columns: buildDocumentColumns(summary, systems, modes, latencyKeys),
      tag_keys: tagKeys,
      latency_keys: latencyKeys,
      check_columns: Object.values(summary.systems).some((s) => s.checks !== undefined),
      counts,
    },
    checks: buildChecksSection(summary, rows, (name) => systems.find((s) => s.name === name)?.cls ?? ''),
  };
}

function buildHeader(inputs: StoredRun, modes: Mode[]): RunHeaderView {
  const { manifest, summary } = inputs;
  const dataset = {
    name: manifest.dataset.name,
    version: manifest.dataset.version,
    content_hash: manifest.dataset.content_hash,
    content_hash_short: manifest.dataset.content_hash.replace(/^sha256:/, '').slice(0, 12),
    documents_selected: manifest.dataset.documents_selected,
    documents_total: manifest.dataset.documents_total,
  };
  const service = { description: describeService(manifest), local: manifest.service.local };
  const incomplete =
    manifest.status === 'completed'
      ? null
      : `This run is ${manifest.status}${manifest.stop_message ? `: ${manifest.stop_message}` : ''}. Figures cover the calls recorded so far (${formatCount(manifest.counts.recorded)} of ${formatCount(manifest.counts.planned)}).`;
  return {
    run_id: manifest.run_id,
    title: `docbench report: ${manifest.dataset.name}`,
    dataset,
    service,
    modes,
    endpoints: manifest.options.endpoints,
    docbench_version: manifest.docbench_version,
    docbench_commit: manifest.docbench_commit,
    created_at: manifest.created_at,
    date: formatDate(manifest.created_at),
    duration: formatDuration(manifest.duration_ms),
    phases: manifest.phases ?? null,
    status: manifest.status,
    incomplete_message: incomplete,
    facts: [
      {
        label: 'Dataset',
        value: `${dataset.name}${dataset.version ? ` v${dataset.version}` : ''}`,
        detail: `${formatCount(dataset.documents_selected)} of ${formatCount(dataset.documents_total)} documents`,
      },
      { label: 'Content hash', value: dataset.content_hash_short, detail: dataset.content_hash },
      {
        label: 'Systems',
        value: summary.system_names.join(', '),
        detail: `${summary.reference ? `reference ${summary.reference}; ` : ''}service ${service.description}; modes ${modes.join(', ') || '—'}; endpoints ${manifest.options.endpoints.join(', ')}`,
      },
      {
        label: 'docbench',
        value: manifest.docbench_version,
        detail: manifest.docbench_commit ? `commit ${manifest.docbench_commit.slice(0, 12)}` : 'no git commit recorded',
      },
      { label: 'Date', value: formatDate(manifest.created_at), detail: `run ${manifest.run_id}` },
      {
        label: 'Duration',
        value: formatDuration(manifest.duration_ms),
        detail: `${manifest.phases ? `${formatPhases(manifest.phases)}; ` : ''}${manifest.invocations.length} invocation${manifest.invocations.length === 1 ? '' : 's'}; status ${manifest.status}`,
        tone: manifest.status === 'completed' ? 'neutral' : 'warn',
      },
    ],
  };
}

/**
 * What answered: the service's URL, the local reference service, or — when no service was called — the
 * systems themselves (a run of stored outputs only calls nothing).
 */
function describeService(manifest: StoredRun['manifest']): string {
  const systems = manifest.systems ?? [];
  if (systems.length > 0 && systems.every((system) => system.kind === 'stored'))
    return `stored outputs only (${systems.map((system) => system.name).join(', ')})`;
  if (manifest.service.base_url === null && !manifest.service.local) {
    const primary = systems.find((system) => system.kind !== 'stored');
    if (primary) return `${primary.name} (${primary.kind})`;
  }
  return describeServiceUrl(manifest.service.base_url);
}

/** "calls 2 s · scoring 41 s · statistics 12 s · reports 30 s"; a phase that has not run is left out. */
export function formatPhases(phases: RunPhases): string {
  const parts: [string, number | null][] = [
    ['calls', phases.calls_ms],
    ['scoring', phases.scoring_ms],
    ['statistics', phases.statistics_ms],
    ['reports', phases.reports_ms],
  ];
  return parts.flatMap(([name, ms]) => (ms === null ? [] : [`${name} ${formatDuration(ms)}`])).join(' · ');
}

/** What to do about a failure whose code says more than the failed document's message. */
const ERROR_HINTS: Record<string, string> = {
  SERVICE_OUTPUT_TRUNCATED: "answers cut short at the token limit: raise the system's maxTokens, then resume",
};

function buildFailures(counts: ReportView['documents']['counts'], errorCodes: Map<string, number>): FailureView | null {
  if (counts.failed === 0 && counts.partial === 0) return null;
  const parts = [
    counts.failed > 0 ? `${formatCount(counts.failed)} failed` : '',
    counts.partial > 0 ? `${formatCount(counts.partial)} partly failed` : '',
  ].filter(Boolean);
  return {
    documents_failed: counts.failed,
    documents_partial: counts.partial,
    documents_total: counts.total,
    message: `${parts.join(' and ')} of ${formatCount(counts.total)} documents. Failed calls count as empty output in every metric.`,
    codes: [...errorCodes.entries()]
      .map(([code, count]) => ({ code, count, ...(ERROR_HINTS[code] ? { hint: ERROR_HINTS[code] } : {}) }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}

function formatGateValue(metric: string, value: number | null): string {
  if (value === null) return 'not computed';
  return /latency|_ms\b|\bms\b/.test(metric) ? formatMs(value) : formatDecimal(value);
}

function buildGate(gate: GateResult): GateView {
  return {
    passed: gate.passed,
    verdict: gate.passed ? 'Quality gate passed' : 'Quality gate FAILED',
    tone: gate.passed ? 'good' : 'bad',
    checks: gate.checks.map((check) => ({
      ...check,
      threshold_text: `${check.op} ${formatGateValue(check.metric, check.threshold)}`,
      actual_text: formatGateValue(check.metric, check.actual),
      verdict: check.passed ? 'pass' : 'FAIL',
      tone: check.passed ? 'good' : 'bad',
    })),
    document_failures: gate.document_failures.length,
  };
}

function buildFastSlow(
  headline: HeadlineView,
  rows: DocumentRow[],
  modes: Mode[],
  system: string,
): FastSlowView | null {
  if (modes.length < 2) return null;
  const [first, second] = [headline.modes[0]!, headline.modes[1]!];
  let summary = '';
  if (first.f1 !== null && second.f1 !== null) {
    const diff = (second.f1 - first.f1) * 100;
    const accuracy =
      Math.abs(diff) < 0.05
        ? `${second.mode} and ${first.mode} are equally accurate (field F1)`
        : `${second.mode} is ${Math.abs(diff).toFixed(1)} points ${diff > 0 ? 'more' : 'less'} accurate (field F1) than ${first.mode}`;
    const speed =
      first.p50_ms && second.p50_ms
        ? second.p50_ms >= first.p50_ms
          ? ` and ${(second.p50_ms / first.p50_ms).toFixed(1)}× slower at p50`
          : ` and ${(first.p50_ms / second.p50_ms).toFixed(1)}× faster at p50`
        : '';
    summary = `${accuracy}${speed}.`;
  }
  const series = modes.map((mode, index) => ({
    mode,
    points: rows.flatMap((r) => {
      const cell = r.systems.find((c) => c.system === system);
      const f1 = cell?.f1[mode];
      const latency = cell?.latency_ms[extractKey(mode)];
      return f1 !== null && f1 !== undefined && latency !== null && latency !== undefined
        ? [{ id: r.id, latency, f1 }]
        : [];
    }),
    p50: headline.modes[index]!.p50_ms,
    f1: headline.modes[index]!.f1,
  }));
  return {
    rows: headline.modes.map((m) => ({
      mode: m.mode,
      f1: m.text.f1,
      exact_match_rate: m.text.exact_match_rate,
      p50: m.text.p50,
      p95: m.text.p95,
      confidence_mean: m.text.confidence_mean,
    })),
    summary,
    chart: buildAccuracyLatencyChart(series),
  };
}

/** Every system's field rows, worst F1 first. */
function buildFields(summary: RunSummary): FieldRowView[] {
  return summary.system_names
    .flatMap((system) => (summary.systems[system]?.fields ?? []).map((f) => ({ system, f })))
    .sort(
      (a, b) =>
        a.f.f1 - b.f.f1 ||
        a.f.path.localeCompare(b.f.path) ||
        a.f.mode.localeCompare(b.f.mode) ||
        a.system.localeCompare(b.system),
    )
    .map(({ system, f }) => ({
      system,
      path: f.path,
      mode: f.mode,
      tp: f.tp,
      fp: f.fp,
      fn: f.fn,
      precision: f.precision,
      recall: f.recall,
      f1: f.f1,
      missing: f.missing,
      hallucinated: f.hallucinated,
      wrong_value: f.wrong_value,
      format_only: f.format_only,
      ...(f.not_in_text !== undefined && f.in_text !== undefined
        ? { not_in_text: f.not_in_text, in_text: f.in_text }
        : {}),
      text: { precision: formatPercent(f.precision), recall: formatPercent(f.recall), f1: formatPercent(f.f1) },
      tone: toneForScore(f.f1),
    }));
}

function buildCalibration(summary: SystemSummary, modes: Mode[]): CalibrationView[] {
  return modes.flatMap((mode) => {
    const block = summary.confidence?.[mode];
    if (!block || block.documents === 0) return [];
    return [
      {
        mode,
        documents: block.documents,
        figures: [
          { label: 'Mean confidence', value: formatPercent(toUnitConfidence(block.mean)) },
          { label: 'ECE (10 bins)', value: formatDecimal(block.ece) },
          { label: 'Adaptive ECE', value: formatDecimal(block.adaptive_ece) },
          { label: 'Brier', value: formatDecimal(block.brier) },
          {
            label: 'AUROC',
            value: formatDecimal(block.auroc),
            detail: block.auroc === null ? 'undefined: all correct or all wrong' : 'exact match vs confidence',
          },
        ],
        auto_accept: describeAutoAccept(block),
        reliability: buildReliabilityChart(mode, block),
        risk_coverage: buildRiskCoverageChart(mode, block),
        bins: block.bins.map((bin) => {
          const confidence = toUnitConfidence(bin.confidence);
          return {
            range: `${bin.lo}–${bin.hi}`,
            count: bin.count,
            confidence: formatPercent(confidence),
            accuracy: formatPercent(bin.accuracy),
            gap:
              confidence !== null && bin.accuracy !== null ? formatPercent(Math.abs(bin.accuracy - confidence)) : '—',
          };
        }),
      },
    ];
  });
}

function toLatencyRow(key: string, block: LatencyBlock, perPage: LatencyBlock | undefined): LatencyRowView {
  return {
    key,
    count: block.count,
    failed: block.failed,
    p50: formatMs(block.p50),
    p90: formatMs(block.p90),
    p95: formatMs(block.p95),
    p99: formatMs(block.p99),
    mean: formatMs(block.mean),
    max: formatMs(block.max),
    per_page_p50: formatMs(perPage?.p50),
    per_page_p95: formatMs(perPage?.p95),
  };
}

function buildLatency(summary: SystemSummary, rows: DocumentRow[], latencyKeys: string[], system: string): LatencyView {
  const keys = latencyKeys.filter((key) => summary.latency_ms?.[key] !== undefined);
  const blocks = keys.map((key) => ({
    key,
    block: summary.latency_ms[key]!,
    values: rows
      .map((r) => r.systems.find((c) => c.system === system)?.latency_ms[key])
      .filter((v): v is number => typeof v === 'number' && v > 0),
  }));
  const method = keys.length > 0 ? summary.latency_ms[keys[0]!]!.method : null;
  return {
    rows: keys.map((key) => toLatencyRow(key, summary.latency_ms[key]!, summary.latency_per_page_ms?.[key])),
    method,
    chart: buildLatencyChart(blocks),
    service_processing: summary.service_processing_ms
      ? toLatencyRow('service processing_time_ms', summary.service_processing_ms, undefined)
      : null,
  };
}

/** A tag's figure with its interval; its document count only where the figure exists. */
function tagCell(
  value: number | null | undefined,
  ci95: readonly [number, number] | null | undefined,
  breakdown: TagBreakdown | undefined,
): TagCellView {
  const known = value !== null && value !== undefined;
  return {
    value: formatPercent(value),
    ci: known && ci95 ? formatPercentInterval(ci95) : '',
    documents: known && breakdown ? `${breakdown.documents} document${breakdown.documents === 1 ? '' : 's'}` : '',
  };
}

/** Per tag key and value as the tables list them, then per system: the system's figures as summary.json holds them. */
function buildTagRows(
  summary: RunSummary,
  tables: readonly TagTableView[],
  systems: readonly SystemView[],
): TagFiguresRow[] {
  return tables.flatMap(({ key, rows }) =>
    rows.flatMap(({ value }) =>
      systems.flatMap((s) => {
        const breakdown = summary.systems[s.name]?.by_tag?.[key]?.[value];
        return breakdown ? [{ system: s.name, key, value, breakdown }] : [];
      }),
    ),
  );
}

/** Per tag value: F1 per mode × system, then similarity per system, each with its interval. */
function buildTagTables(summary: RunSummary, systems: readonly SystemView[], modes: Mode[]): TagTableView[] {
  const keys = [...new Set(systems.flatMap((s) => Object.keys(summary.systems[s.name]?.by_tag ?? {})))].sort();
  const withMarkdown = systems.filter((s) => summary.systems[s.name]?.markdown);
  const withExtraction = (mode: Mode) => systems.filter((s) => summary.systems[s.name]?.extraction[mode]);
  const primary = summary.systems[summary.primary];
  return keys.map((key) => {
    const values = [
      ...new Set(systems.flatMap((s) => Object.keys(summary.systems[s.name]?.by_tag?.[key] ?? {}))),
    ].sort();
    return {
      key,
      columns: [
        ...modes.flatMap((mode) => withExtraction(mode).map((s) => `F1 ${mode} · ${s.name}`)),
        ...withMarkdown.map((s) => `Similarity · ${s.name}`),
      ],
      rows: values.map((value) => {
        const of = (name: string) => summary.systems[name]?.by_tag?.[key]?.[value];
        const own = primary?.by_tag?.[key]?.[value];
        const main = modes.length > 0 ? (own?.extraction_f1[modes[modes.length - 1]!] ?? null) : null;
        return {
          value,
          documents: own?.documents ?? Math.max(0, ...systems.map((s) => of(s.name)?.documents ?? 0)),
          failed: own?.failed ?? 0,
          cells: [
            ...modes.flatMap((mode) =>
              withExtraction(mode).map((s) => {
                const breakdown = of(s.name);
                return tagCell(breakdown?.extraction_f1[mode], breakdown?.ci95?.extraction_f1[mode], breakdown);
              }),
            ),
            ...withMarkdown.map((s) => {
              const breakdown = of(s.name);
              return tagCell(breakdown?.similarity, breakdown?.ci95?.similarity, breakdown);
            }),
          ],
          tone: toneForScore(main),
        };
      }),
    };
  });
}
