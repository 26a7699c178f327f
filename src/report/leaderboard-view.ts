/**
 * The systems side by side, as the report leads with them: the leaderboard per headline metric, the charts
 * of accuracy against cost and latency, each system against the reference, the best system per field path and
 * the documents where the systems disagree most. Formats summary.json's figures; never re-scores.
 */
import type { LeaderboardBlock, LeaderboardRow, RunSummary } from '../run-dir/index.js';
import { deltaIsBetter, significanceReason } from './headline.js';
import { buildSystemChart, type SystemPoint } from './charts/system-charts.js';
import {
  SERIES_CLASSES,
  formatDecimal,
  formatMs,
  formatPercent,
  formatPercentInterval,
  formatPoints,
  formatUsd,
} from '../render/index.js';
import type {
  ComparisonRowView,
  DisagreementView,
  FieldLeaderView,
  LeaderboardView,
  SystemView,
} from './view-types.js';

/** What the systems' views are made of: summary.json's, or (for drill-downs rendered during the calls) the same
 * fields as the run's systems give them before there is a summary. */
export type SystemsOutline = Pick<RunSummary, 'system_names' | 'reference' | 'primary'> & {
  systems: Readonly<Record<string, { kind: string } | undefined>>;
};

export function buildSystemViews(summary: SystemsOutline): SystemView[] {
  return summary.system_names.map((name, index) => ({
    name,
    kind: summary.systems[name]?.kind ?? 'unknown',
    role: name === summary.reference ? 'reference' : name === summary.primary ? 'primary' : '',
    cls: SERIES_CLASSES[index % SERIES_CLASSES.length]!,
  }));
}

/** The latency key of a leaderboard metric: `extraction.slow.f1` → `extract:slow`, markdown → `compare`. */
function latencyKeyOf(metric: string): string {
  const mode = /^extraction\.([a-z]+)\./.exec(metric)?.[1];
  return mode ? `extract:${mode}` : metric.startsWith('markdown') ? 'compare' : 'split';
}

/** The headline metric: field F1 of the last mode run (slow when both ran), else markdown similarity. */
function pickHeadline(summary: RunSummary): string | null {
  const f1 = summary.leaderboard.filter((b) => b.metric.endsWith('.f1'));
  return f1[f1.length - 1]?.metric ?? summary.leaderboard[0]?.metric ?? null;
}

/** The figure a leaderboard row is ranked by: on the shared documents when the summary has them. */
function rankedFigure(row: LeaderboardRow): { value: number; ci95: [number, number] | null; documents: number } {
  return row.shared ?? { value: row.value, ci95: row.ci95, documents: row.documents };
}

/** What a block's ranking compares, in words. */
function describeBasis(block: LeaderboardBlock): string {
  if (block.shared_documents === undefined) return 'each system on the documents it was scored on';
  if (block.shared_documents === 0)
    return 'no document was scored by every system: each is ranked on its own documents';
  const most = Math.max(...block.rows.map((r) => r.documents));
  return block.shared_documents === most
    ? `ranked on the ${block.shared_documents} documents every system was scored on`
    : `ranked on the ${block.shared_documents} documents every system was scored on (of ${most}); each system's own figure on all its documents beside it`;
}

export function buildLeaderboard(summary: RunSummary, systems: readonly SystemView[]): LeaderboardView {
  const headline = pickHeadline(summary);
  const cls = new Map(systems.map((s) => [s.name, s]));
  const metrics = summary.leaderboard.map((block) => {
    const key = latencyKeyOf(block.metric);
    const most = Math.max(...block.rows.map((r) => r.documents));
    return {
      metric: block.metric,
      label: block.label,
      basis: describeBasis(block),
      rows: block.rows.map((row) => {
        const system = summary.systems[row.system];
        const p50 = system?.latency_ms[key]?.p50 ?? null;
        const ranked = rankedFigure(row);
        const coversFewer = row.covers_fewer ?? row.documents < most;
        return {
          rank: row.rank,
          system: row.system,
          cls: cls.get(row.system)?.cls ?? 's0',
          role: cls.get(row.system)?.role ?? '',
          value: ranked.value,
          value_text: formatPercent(ranked.value),
          ci_text: ranked.ci95 ? formatPercentInterval(ranked.ci95) : 'not computed',
          documents: ranked.documents,
          own_text: `${formatPercent(row.value)} on ${row.documents}`,
          covers_fewer: coversFewer,
          coverage: coversFewer ? `scored on ${row.documents} of ${most} documents` : '',
          cost_per_document: formatUsd(system?.cost?.per_document_usd),
          p50: p50 ? formatMs(p50) : '—',
        };
      }),
    };
  });
  const lead = summary.leaderboard.find((b) => b.metric === headline);
  const notes: string[] = [];
  let costChart = null;
  let latencyChart = null;
  if (lead) {
    const points = (x: (name: string) => number | null): SystemPoint[] =>
      systems.flatMap((s, index) => {
        const row = lead.rows.find((r) => r.system === s.name);
        const ranked = row ? rankedFigure(row) : null;
        return ranked ? [{ system: s.name, index, accuracy: ranked.value, ci95: ranked.ci95, x: x(s.name) }] : [];
      });
    costChart = buildSystemChart(
      points((name) => summary.systems[name]?.cost?.per_document_usd ?? null),
      'cost',
      lead.label,
    );
    latencyChart = buildSystemChart(
      points((name) => summary.systems[name]?.latency_ms[latencyKeyOf(lead.metric)]?.p50 ?? null),
      'latency',
      lead.label,
    );
    if (!costChart)
      notes.push('No accuracy-vs-cost chart: no system of this run has a price (set systems.<name>.price).');
    if (!latencyChart) notes.push('No accuracy-vs-latency chart: no system measured latency.');
  }
  return {
    headline_metric: lead?.metric ?? '',
    headline_label: lead?.label ?? '',
    metrics: headline
      ? [...metrics.filter((m) => m.metric === headline), ...metrics.filter((m) => m.metric !== headline)]
      : metrics,
    cost_chart: costChart,
    latency_chart: latencyChart,
    notes,
  };
}

export function buildComparisonRows(summary: RunSummary): ComparisonRowView[] {
  const labels = new Map(summary.leaderboard.map((b) => [b.metric, b.label]));
  return summary.comparisons.map((c) => {
    const significant = c.significant;
    return {
      system: c.system,
      reference: c.reference,
      metric: labels.get(c.metric) ?? c.metric,
      delta: c.delta,
      delta_text: formatPoints(c.delta),
      ci_text: `${formatPoints(c.ci95[0])} to ${formatPoints(c.ci95[1])}`,
      wins_losses_ties: `${c.wins} / ${c.losses} / ${c.ties}`,
      p_sign: formatDecimal(c.p_sign),
      p_wilcoxon: formatDecimal(c.p_wilcoxon),
      p_holm: formatDecimal(c.p_holm),
      family: c.family ?? '',
      // The interval is the comparison's own; significance is the decision p's (docs/metrics/comparison.md), so
      // an interval that excludes zero can still be "not significant": say which condition decided.
      verdict: !significant
        ? significanceReason(c, summary.decision, 'short')
        : deltaIsBetter(c)
          ? 'better, significant'
          : 'worse, significant',
      tone: !significant ? 'neutral' : deltaIsBetter(c) ? 'good' : 'bad',
      documents: c.documents,
    };
  });
}

export function buildFieldLeaders(summary: RunSummary): FieldLeaderView[] {
  return summary.field_leaders.map((f) => ({
    path: f.path,
    mode: f.mode,
    best: f.best,
    f1: formatPercent(f.f1),
    runner_up: f.runner_up ?? '—',
    runner_up_f1: formatPercent(f.runner_up_f1),
    delta: formatPoints(f.delta),
    ci_text: f.ci95 ? `${formatPoints(f.ci95[0])} to ${formatPoints(f.ci95[1])}` : '—',
    significant: f.significant,
    verdict:
      f.runner_up === null
        ? 'only system'
        : f.delta === 0
          ? 'tie'
          : f.significant
            ? 'significant lead'
            : 'not significant',
    tone: f.significant ? 'good' : 'neutral',
  }));
}

/** @param drilldowns each document's drill-down link (its place depends on the order of documents.jsonl). */
export function buildDisagreements(
  summary: RunSummary,
  systems: readonly SystemView[],
  drilldowns: ReadonlyMap<string, string>,
): DisagreementView[] {
  const labels = new Map(summary.leaderboard.map((b) => [b.metric, b.label]));
  return summary.disagreements.map((d) => ({
    id: d.document_id,
    drilldown: drilldowns.get(d.document_id) ?? null,
    metric: labels.get(d.metric) ?? d.metric,
    spread: formatPoints(d.spread),
    values: systems.map((s) => formatPercent(d.values[s.name])),
  }));
}
