/** The short plain-text table `docbench run` and `docbench report` print at the end. No colour, no HTML. */
import type { GateResult, RunSummary } from '../run-dir/index.js';
import { MODES } from '../types.js';
import { formatCount } from '../render/index.js';
import { buildHeadline } from './headline.js';
import { buildComparisonRows, buildLeaderboard, buildSystemViews } from './leaderboard-view.js';
import type { ComparisonRowView, HeadlineView, LeaderboardView, ReportView } from './view-types.js';

export interface TerminalSummaryOptions {
  /** Path of report.html, printed last. */
  reportPath?: string;
  /** With a RunSummary input: the gate result, when there is one. */
  gate?: GateResult | null;
}

function isReportView(input: ReportView | RunSummary): input is ReportView {
  return 'headline' in input && 'documents' in input && 'rows' in (input as ReportView).documents;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((r) => (r[column] ?? '').length)));
  return rows.map((r) =>
    r
      .map((c, column) => (column === 0 ? c.padEnd(widths[column]!) : c.padStart(widths[column]!)))
      .join('   ')
      .trimEnd(),
  );
}

/** What the summary prints, read from a report view or from summary.json (and gate.json). */
interface SummaryFigures {
  title: string;
  counts: { total: number; ok: number; failed: number; partial: number };
  leaderboard: LeaderboardView['metrics'][number] | undefined;
  comparisons: ComparisonRowView[];
  headline: HeadlineView;
  gate: { passed: boolean; failed: number; checks: number } | null;
}

function gateFigures(gate: { passed: boolean; checks: readonly { passed: boolean }[] }): SummaryFigures['gate'] {
  return { passed: gate.passed, failed: gate.checks.filter((c) => !c.passed).length, checks: gate.checks.length };
}

function figuresOfView(view: ReportView): SummaryFigures {
  return {
    title: `${view.header.dataset.name} · run ${view.header.run_id}`,
    counts: view.documents.counts,
    leaderboard: view.leaderboard.metrics[0],
    comparisons: view.comparisons,
    headline: view.headline,
    gate: view.gate ? gateFigures(view.gate) : null,
  };
}

function figuresOfSummary(summary: RunSummary, gate: GateResult | null | undefined): SummaryFigures {
  const primary = summary.systems[summary.primary]!;
  return {
    title: `${summary.dataset.name} · run ${summary.run_id}`,
    counts: {
      total: primary.documents.total,
      ok: primary.documents.succeeded,
      failed: primary.documents.failed,
      partial: 0,
    },
    leaderboard: buildLeaderboard(summary, buildSystemViews(summary)).metrics[0],
    comparisons: buildComparisonRows(summary),
    headline: buildHeadline(
      summary,
      MODES.filter((m) => primary.extraction[m] !== undefined),
    ),
    gate: gate ? gateFigures(gate) : null,
  };
}

/** The compact leaderboard and each system against the reference on its metric; nothing for a single system. */
function leaderboardLines(
  leaderboard: SummaryFigures['leaderboard'],
  comparisons: readonly ComparisonRowView[],
): string[] {
  if (!leaderboard || leaderboard.rows.length <= 1) return [];
  const rows = leaderboard.rows.map((r) => [
    `  ${r.rank}  ${r.system}${r.role === 'reference' ? ' (reference)' : ''}`,
    r.value_text,
    r.ci_text === 'not computed' ? '' : `95% ${r.ci_text}`,
    `all its documents: ${r.own_text}`,
    r.coverage ? `(${r.coverage})` : '',
    r.p50 === '—' ? '' : `p50 ${r.p50}`,
    r.cost_per_document === '—' ? '' : `${r.cost_per_document}/doc`,
  ]);
  const lines = ['', `leaderboard: ${leaderboard.label}, ${leaderboard.basis}`, ...table(rows)];
  const metric = leaderboard.label;
  for (const c of comparisons.filter((c) => c.metric === metric))
    lines.push(`  ${c.system} vs ${c.reference}: Δ ${c.delta_text} (95% interval ${c.ci_text}); ${c.verdict}`);
  return lines;
}

/** The primary system's figures per mode, then its markdown similarity (against the reference when there is one). */
function headlineLines(headline: HeadlineView): string[] {
  const lines: string[] = [];
  if (headline.modes.length > 0) {
    lines.push('', `${headline.system}:`);
    const rows: string[][] = [['', ...headline.modes.map((m) => m.mode)]];
    rows.push(['field F1', ...headline.modes.map((m) => m.text.f1)]);
    rows.push(['field F1 strict', ...headline.modes.map((m) => m.text.strict_f1)]);
    rows.push(['exact match', ...headline.modes.map((m) => m.text.exact_match_rate)]);
    rows.push(['latency p50', ...headline.modes.map((m) => m.text.p50)]);
    rows.push(['latency p95', ...headline.modes.map((m) => m.text.p95)]);
    lines.push('', ...table(rows));
  }
  const md = headline.markdown;
  if (md) {
    lines.push(
      '',
      md.baseline !== null && md.reference
        ? `markdown similarity: ${md.system} ${md.text.service} vs ${md.reference} ${md.text.baseline} (Δ ${md.text.delta}, 95% interval ${md.text.ci95})`
        : `markdown similarity: ${md.system} ${md.text.service}`,
    );
    lines.push(`  ${md.verdict}`);
  }
  return lines;
}

/** Documents ok/failed, the compact leaderboard, the primary system's F1 per mode, similarity vs the reference with Δ, p50/p95 latency, gate, report path. */
export function formatTerminalSummary(input: ReportView | RunSummary, options: TerminalSummaryOptions = {}): string {
  const { title, counts, leaderboard, comparisons, headline, gate } = isReportView(input)
    ? figuresOfView(input)
    : figuresOfSummary(input, options.gate);
  const failedText =
    counts.partial > 0
      ? `${formatCount(counts.failed)} failed, ${formatCount(counts.partial)} partly failed`
      : `${formatCount(counts.failed)} failed`;
  const lines = [
    title,
    `documents: ${formatCount(counts.total)} (${formatCount(counts.ok)} ok, ${failedText})`,
    ...leaderboardLines(leaderboard, comparisons),
    ...headlineLines(headline),
  ];
  if (gate)
    lines.push(
      '',
      gate.passed
        ? `quality gate: passed (${gate.checks} checks)`
        : `quality gate: FAILED (${gate.failed} of ${gate.checks} checks)`,
    );
  if (options.reportPath) lines.push('', `report: ${options.reportPath}`);
  return lines.join('\n');
}
