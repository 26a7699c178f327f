/**
 * diff.html: one self-contained page (inline CSS and SVG, no script) in the report's style, from the
 * DiffResult alone. The view model carries ready text; the template only loops and escapes.
 */
import { type ChartView, createFrame, linearScale, px, formatMs, formatDecimal } from '../render/index.js';
import { blockVerdict } from './block-diff.js';
import { DOCBENCH_VERSION } from '../version.js';
import type { DiffResult, FieldDiff, LatencyDiff, MetricDiff } from './diff-types.js';
import { formatP, formatSigned } from './compare-runs.js';
import { loadGateTemplates } from './page-templates.js';
import { describeLostField, describeResult, lostFields } from './diff-wording.js';

const LISTED_IDS = 60;

function signedMs(value: number | null): string {
  if (value === null) return '—';
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${formatMs(Math.abs(value))}`;
}

function deltaClass(delta: number, tolerance: number): string {
  return delta < -tolerance ? 'delta-bad' : delta > tolerance ? 'delta-good' : '';
}

/** Δ with its interval per headline metric, with the ±tolerance band dashed: a forest plot. */
export function buildDeltaChart(headline: readonly MetricDiff[], tolerance: number): ChartView | null {
  if (headline.length === 0) return null;
  const extent =
    Math.max(tolerance * 2, ...headline.flatMap((m) => [Math.abs(m.ci95[0]), Math.abs(m.ci95[1]), Math.abs(m.delta)])) *
    1.1;
  const margins = { top: 30, right: 30, bottom: 44, left: 250 };
  const row = 30;
  const width = 760;
  const height = margins.top + margins.bottom + headline.length * row;
  const ticks = [-extent, -extent / 2, 0, extent / 2, extent].map((value) => ({
    value,
    label: formatSigned(value, 3),
  }));
  const x = linearScale([-extent, extent], [margins.left, width - margins.right], ticks);
  const y = Object.assign((v: number) => v, { ticks: [] as { value: number; label: string }[] });
  const chart = createFrame({
    label: 'Change per headline metric: candidate − baseline, with 95% interval',
    width,
    height,
    margins,
    x,
    y,
    xTitle: 'Δ candidate − baseline (dashed: ± tolerance)',
    yTitle: '',
  });
  const bottom = height - margins.bottom;
  chart.paths.push({
    d: `M${x(-tolerance)} ${margins.top} L${x(-tolerance)} ${bottom} M${x(tolerance)} ${margins.top} L${x(tolerance)} ${bottom}`,
    cls: 'target',
  });
  chart.paths.push({ d: `M${x(0)} ${margins.top} L${x(0)} ${bottom}`, cls: 'axis' });
  headline.forEach((m, index) => {
    const mid = px(margins.top + index * row + row / 2);
    const cls = m.regression ? 's4' : m.improvement ? 's2' : 's0';
    chart.texts.push({ x: margins.left - 8, y: px(mid + 4), text: m.label, anchor: 'end', cls: 'label' });
    chart.paths.push({
      d: `M${x(m.ci95[0])} ${mid} L${x(m.ci95[1])} ${mid} M${x(m.ci95[0])} ${px(mid - 5)} L${x(m.ci95[0])} ${px(mid + 5)} M${x(m.ci95[1])} ${px(mid - 5)} L${x(m.ci95[1])} ${px(mid + 5)}`,
      cls: `whisker ${cls}`,
    });
    chart.circles.push({
      cx: x(m.delta),
      cy: mid,
      r: 4.5,
      cls: `point ${cls}`,
      title: `${m.label}: Δ ${formatSigned(m.delta)} (95% interval ${formatSigned(m.ci95[0])} to ${formatSigned(m.ci95[1])}), p ${formatP(m.p_adjusted)} (${m.family}): ${describeResult(m).result}`,
    });
  });
  chart.legend.push(
    { cls: 's4', label: 'regression' },
    { cls: 's2', label: 'improvement' },
    { cls: 's0', label: 'neither' },
    { cls: 'target', label: '± tolerance' },
  );
  return chart;
}

/** The view model of diff.html: ready text for every part of the page. */
export function buildDiffView(diff: DiffResult): unknown {
  const tol = diff.settings.tolerance;
  const c = diff.candidate;
  const regressed = diff.fields.filter((f) => f.regression);
  const improved = diff.fields.filter((f) => f.improvement);
  return {
    title: `docbench diff: ${c.dataset.name}`,
    dataset: `${c.dataset.name}${c.dataset.version ? ` v${c.dataset.version}` : ''}`,
    version: DOCBENCH_VERSION,
    verdict: diff.verdict === 'regression' ? 'Regression' : 'No regression',
    tone: diff.verdict === 'regression' ? 'bad' : 'good',
    reasons: [
      ...diff.reasons,
      ...(lostFields(diff).length > 0
        ? [`Field paths that lost: ${lostFields(diff).map(describeLostField).join('; ')}`]
        : []),
      ...(diff.power_note ? [diff.power_note] : []),
    ],
    warnings: diff.warnings,
    provenance: diff.provenance,
    method: `Documents paired by id (${diff.documents.paired} paired). ${diff.settings.test}. ${diff.settings.correction}. Regression: Δ < −${tol} and p ≤ ${diff.settings.alpha} (two-sided; the primary metric ${diff.settings.primary ?? '—'} on its own p, the others after Holm among themselves). ${diff.settings.resamples} resamples, seed ${diff.settings.seed}.`,
    facts: describeRuns(diff),
    chart: buildDeltaChart(diff.headline, tol),
    headline: diff.headline.map((m) => headlineRow(m, tol)),
    fields_summary: `${regressed.length} regressed and ${improved.length} improved of ${diff.fields.length} field paths compared (F1 change beyond ${tol} with Holm-adjusted p ≤ ${diff.settings.alpha} across the field paths). Regressions first, then by Δ.`,
    fields: diff.fields.map((f) => fieldRow(f, tol)),
    flips: flipLists(diff),
    latency: diff.latency.map(latencyRow),
    blocks: (diff.blocks ?? []).map((row) => ({
      label: row.label,
      better: `${row.better} is better`,
      baseline: formatDecimal(row.baseline),
      candidate: formatDecimal(row.candidate),
      delta: row.delta === null ? '—' : `${row.delta > 0 ? '+' : ''}${formatDecimal(row.delta)}`,
      paired: row.paired
        ? `${row.paired.delta > 0 ? '+' : ''}${formatDecimal(row.paired.delta)} (${formatDecimal(row.paired.ci95[0])} to ${formatDecimal(row.paired.ci95[1])}) on ${row.paired.documents}`
        : '—',
      p: row.paired ? formatDecimal(row.paired.p_adjusted) : '—',
      verdict: row.paired ? blockVerdict(row.paired) : 'not tested',
    })),
  };
}

/** The facts above the verdict: the two runs, the pairing, the dataset, the decision's settings. */
function describeRuns(diff: DiffResult) {
  const b = diff.baseline;
  const c = diff.candidate;
  return [
    { label: 'Baseline', value: b.run_id, detail: `${b.service} · ${b.created_at} · ${b.status}` },
    { label: 'Candidate', value: c.run_id, detail: `${c.service} · ${c.created_at} · ${c.status}` },
    {
      label: 'Documents paired',
      value: String(diff.documents.paired),
      detail: `${diff.documents.only_in_baseline.length} only in baseline, ${diff.documents.only_in_candidate.length} only in candidate`,
    },
    {
      label: 'Dataset',
      value: c.dataset.content_hash.replace(/^sha256:/, '').slice(0, 12),
      detail: diff.dataset_changed
        ? `changed: baseline ${b.dataset.content_hash.replace(/^sha256:/, '').slice(0, 12)}`
        : 'same content in both runs',
    },
    { label: 'Tolerance / α', value: `${diff.settings.tolerance} / ${diff.settings.alpha}` },
  ];
}

function headlineRow(m: MetricDiff, tol: number) {
  return {
    label: m.label,
    metric: m.metric,
    family: m.family,
    aggregate: m.aggregate,
    documents: m.documents,
    baseline: m.baseline.toFixed(4),
    candidate: m.candidate.toFixed(4),
    delta: formatSigned(m.delta),
    delta_class: deltaClass(m.delta, tol),
    ci95: `${formatSigned(m.ci95[0])} to ${formatSigned(m.ci95[1])}`,
    p_bootstrap: formatP(m.p_bootstrap),
    p_adjusted: formatP(m.p_adjusted),
    p_sign: formatP(m.p_sign),
    p_wilcoxon: formatP(m.p_wilcoxon),
    wlt: `${m.wins} / ${m.losses} / ${m.ties}`,
    ...describeResult(m),
  };
}

function fieldRow(f: FieldDiff, tol: number) {
  return {
    path: f.path,
    mode: f.mode,
    documents: f.documents,
    baseline: f.baseline.f1.toFixed(4),
    candidate: f.candidate.f1.toFixed(4),
    delta: formatSigned(f.delta),
    delta_class: deltaClass(f.delta, tol),
    ci95: `${formatSigned(f.ci95[0])} to ${formatSigned(f.ci95[1])}`,
    p_adjusted: formatP(f.p_adjusted),
    baseline_counts: `${f.baseline.tp} / ${f.baseline.fp} / ${f.baseline.fn}`,
    candidate_counts: `${f.candidate.tp} / ${f.candidate.fp} / ${f.candidate.fn}`,
    ...describeResult(f),
  };
}

/** The first LISTED_IDS ids of a list, and how many more there are. */
function idList(ids: string[]) {
  return { ids: ids.slice(0, LISTED_IDS), more: Math.max(0, ids.length - LISTED_IDS) };
}

/** The documents that flipped: exact match lost or won per mode, then calls that failed or recovered. */
function flipLists(diff: DiffResult) {
  return [
    ...diff.flips.flatMap((f) => [
      {
        title: `${f.mode}: exact → wrong`,
        count: f.to_wrong.length,
        tone: f.to_wrong.length ? 'bad' : 'neutral',
        ...idList(f.to_wrong),
      },
      {
        title: `${f.mode}: wrong → exact`,
        count: f.to_correct.length,
        tone: f.to_correct.length ? 'good' : 'neutral',
        ...idList(f.to_correct),
      },
    ]),
    {
      title: 'calls ok → failed',
      count: diff.status_flips.to_failed.length,
      tone: diff.status_flips.to_failed.length ? 'bad' : 'neutral',
      ...idList(diff.status_flips.to_failed),
    },
    {
      title: 'calls failed → ok',
      count: diff.status_flips.to_ok.length,
      tone: diff.status_flips.to_ok.length ? 'good' : 'neutral',
      ...idList(diff.status_flips.to_ok),
    },
  ];
}

/** A latency row; its p95 change is marked when it moves by more than a tenth of the baseline's p95. */
function latencyRow(l: LatencyDiff) {
  return {
    key: l.key,
    documents: l.documents,
    baseline: `${formatMs(l.baseline.p50)} / ${formatMs(l.baseline.p95)}`,
    candidate: `${formatMs(l.candidate.p50)} / ${formatMs(l.candidate.p95)}`,
    delta_p50: signedMs(l.delta_p50),
    delta_p95: signedMs(l.delta_p95),
    delta_class:
      l.delta_p95 !== null && l.baseline.p95
        ? l.delta_p95 > 0.1 * l.baseline.p95
          ? 'delta-bad'
          : l.delta_p95 < -0.1 * l.baseline.p95
            ? 'delta-good'
            : ''
        : '',
    mean_delta: `${signedMs(l.mean_delta)} (${signedMs(l.ci95[0])} to ${signedMs(l.ci95[1])})`,
    faster_slower: `${l.faster} / ${l.slower}`,
    p_wilcoxon: formatP(l.p_wilcoxon),
  };
}

export async function renderDiffHtml(diff: DiffResult): Promise<string> {
  const templates = await loadGateTemplates();
  return templates.diff({ view: buildDiffView(diff) });
}
