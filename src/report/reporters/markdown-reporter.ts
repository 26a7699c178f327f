/**
 * summary.md: the leaderboard and each system against the reference, the primary system's headline table, the gate,
 * each system's figures per tag with their intervals, the worst fields and the documents to look at, with dashboard
 * links: for CI job summaries and pull-request comments, where GitHub renders HTML inside markdown, so every
 * piece of dataset or service text is escaped.
 */
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { writeFileAtomic } from '../../fs-utils.js';
import { escapeMarkdown, formatCount, formatPercent } from '../../render/index.js';
import type { DocumentRow, ReportView, TagCellView } from '../view-types.js';
import { formatPhases } from '../build-view.js';
import type { Reporter } from './reporter.js';
import { checkLines } from './markdown-checks.js';
import { readingLines } from './markdown-reading.js';

const WORST_FIELDS = 10;
const LISTED_DOCUMENTS = 15;

/** A markdown link for an http(s) href (already checked by toSafeHref); parentheses percent-encoded. */
function link(label: string, href: string): string {
  return `[${escapeMarkdown(label)}](${href.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/ /g, '%20')})`;
}

function dashboardCell(row: DocumentRow): string {
  const cell = row.systems.find((c) => c.dashboard_url !== null);
  if (cell?.dashboard_href) return link('dashboard', cell.dashboard_href);
  return cell?.dashboard_url ? `${escapeMarkdown(cell.dashboard_url)} (not a web link)` : '—';
}

/** The leaderboard of the headline metric and the comparisons with the reference. */
function leaderboardLines(view: ReportView): string[] {
  const lead = view.leaderboard.metrics[0];
  if (!lead) return [];
  const lines = [
    `## Leaderboard: ${escapeMarkdown(lead.label)}`,
    '',
    `${escapeMarkdown(lead.basis[0]!.toUpperCase() + lead.basis.slice(1))}.`,
    '',
    '| Rank | System | Value | 95% interval | Documents | All its documents | p50 latency | Cost / document |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of lead.rows) {
    const coverage = row.coverage ? ` ⚠️ ${escapeMarkdown(row.coverage)}` : '';
    lines.push(
      `| ${row.rank} | ${escapeMarkdown(row.system)}${row.role ? ` (${row.role})` : ''}${coverage} | ${row.value_text} | ${row.ci_text} | ${row.documents} | ${row.own_text} | ${row.p50} | ${row.cost_per_document} |`,
    );
  }
  lines.push('');
  if (view.comparisons.length > 0) {
    lines.push(
      `### Against ${escapeMarkdown(view.reference ?? '')}`,
      '',
      `Significant: the decision p ≤ ${view.decision_alpha}, two-sided — each system's primary metric on its own p, its other metrics Holm-adjusted among themselves (the rule \`docbench diff\` uses).`,
      '',
      '| System | Metric | Δ | 95% interval | W / L / T | p decision | Verdict |',
      '|---|---|---:|---:|---:|---:|---|',
    );
    for (const c of view.comparisons)
      lines.push(
        `| ${escapeMarkdown(c.system)} | ${escapeMarkdown(c.metric)}${c.family ? ` (${c.family})` : ''} | ${c.delta_text} | ${c.ci_text} | ${c.wins_losses_ties} | ${c.p_holm} | ${escapeMarkdown(c.verdict)} |`,
      );
    lines.push('');
  }
  return lines;
}

/** What each system said it was and its answers cut short, with a warning for each value that changed. */
function provenanceLines(view: ReportView): string[] {
  const provenance = view.provenance;
  if (!provenance) return [];
  const lines = [...provenance.warnings.map((warning) => `> ⚠️ ${escapeMarkdown(warning)}`)];
  if (lines.length > 0) lines.push('');
  lines.push('## Systems', '', '| System | Kind | Reported | Cut short | Repeats |', '|---|---|---|---:|---|');
  for (const row of provenance.rows) {
    const reported = row.reported
      .map((r) => `${escapeMarkdown(r.name)} ${escapeMarkdown(r.values)}${r.changed ? ' ⚠️ changed' : ''}`)
      .join('<br>');
    lines.push(
      `| ${escapeMarkdown(row.system)} | ${escapeMarkdown(row.kind)} | ${reported || '—'} | ${formatCount(row.truncated)} | ${escapeMarkdown(row.repeats) || '—'} |`,
    );
  }
  lines.push('');
  return lines;
}

/** The title, the gate's one-line verdict, the run's facts and time, and what went wrong with it. */
function headerLines(view: ReportView, reportsMs: number | undefined): string[] {
  const h = view.header;
  const lines = [
    `# docbench: ${escapeMarkdown(h.dataset.name)}${h.dataset.version ? ` v${escapeMarkdown(h.dataset.version)}` : ''}`,
    '',
  ];
  if (view.gate) {
    const failed = view.gate.checks.filter((c) => !c.passed).length;
    lines.push(
      view.gate.passed
        ? `**✅ Quality gate passed** (${view.gate.checks.length} checks)`
        : `**❌ Quality gate FAILED**: ${failed} of ${view.gate.checks.length} checks failed`,
      '',
    );
  }
  const c = view.documents.counts;
  lines.push(
    `Run \`${h.run_id.replace(/`/g, '')}\` · ${escapeMarkdown(h.service.description)} · ${escapeMarkdown(h.date)} · ${escapeMarkdown(h.duration)} · ${formatCount(c.total)} documents (${formatCount(c.ok)} ok, ${formatCount(c.partial)} partial, ${formatCount(c.failed)} failed)`,
    '',
  );
  if (h.phases)
    lines.push(
      `Time: ${formatPhases(reportsMs === undefined ? h.phases : { ...h.phases, reports_ms: reportsMs })}`,
      '',
    );
  if (h.incomplete_message) lines.push(`> ⚠️ ${escapeMarkdown(h.incomplete_message)}`, '');
  if (view.failures)
    lines.push(
      `> ❌ **Failures:** ${escapeMarkdown(view.failures.message)} ${view.failures.codes.map((e) => `${escapeMarkdown(e.code)} ×${e.count}${e.hint ? ` (${escapeMarkdown(e.hint)})` : ''}`).join(', ')}`,
      '',
    );
  return lines;
}

/** The primary system's headline table per mode, markdown similarity, fast vs slow and auto-accept. */
function detailLines(view: ReportView): string[] {
  const lines = [`## ${escapeMarkdown(view.primary)} in detail`, ''];
  const modes = view.headline.modes;
  if (modes.length > 0) {
    lines.push(`| Metric | ${modes.map((m) => m.mode).join(' | ')} |`, `|---|${modes.map(() => '---:').join('|')}|`);
    const metric = (label: string, pick: (m: (typeof modes)[number]) => string) =>
      lines.push(`| ${label} | ${modes.map(pick).join(' | ')} |`);
    metric('Field F1 (normalised)', (m) => m.text.f1);
    metric('Field F1 (strict)', (m) => m.text.strict_f1);
    metric('Exact-match rate', (m) => m.text.exact_match_rate);
    metric('Latency p50', (m) => m.text.p50);
    metric('Latency p95', (m) => m.text.p95);
    metric('Mean confidence', (m) => m.text.confidence_mean);
    metric('ECE', (m) => m.text.ece);
    lines.push('');
  }
  const md = view.headline.markdown;
  if (md) {
    lines.push(
      md.baseline !== null && md.reference
        ? `**Markdown similarity:** ${escapeMarkdown(md.system)} ${md.text.service} vs ${escapeMarkdown(md.reference)} ${md.text.baseline}, Δ ${md.text.delta} (95% interval ${md.text.ci95}): ${escapeMarkdown(md.verdict)}.`
        : `**Markdown similarity:** ${escapeMarkdown(md.system)} ${md.text.service} (${escapeMarkdown(md.verdict)}).`,
      '',
    );
  }
  if (view.fast_slow?.summary) lines.push(`**Fast vs slow:** ${escapeMarkdown(view.fast_slow.summary)}`, '');
  for (const cal of view.calibration)
    lines.push(`**Auto-accept (${cal.mode}):** ${escapeMarkdown(cal.auto_accept)}.`, '');
  return lines;
}

/** The gate's checks, one row each, and how many documents fell below the per-document thresholds. */
function gateLines(view: ReportView): string[] {
  if (!view.gate) return [];
  const lines = ['## Quality gate', '', '| Check | Scope | Required | Actual | Result |', '|---|---|---:|---:|---|'];
  for (const check of view.gate.checks) {
    lines.push(
      `| ${escapeMarkdown(check.metric)} | ${check.scope ? escapeMarkdown(check.scope) : 'all'} | ${escapeMarkdown(check.threshold_text)} | ${escapeMarkdown(check.actual_text)} | ${check.passed ? '✅ pass' : '❌ FAIL'} |`,
    );
  }
  if (view.gate.document_failures > 0)
    lines.push(
      '',
      `${formatCount(view.gate.document_failures)} documents are below the per-document thresholds (see junit.xml).`,
    );
  lines.push('');
  return lines;
}

/** A tag's figure as report.html's By tag shows it: with its interval and the documents it is over, when it has one. */
function tagCellText(cell: TagCellView): string {
  return cell.ci ? `${cell.value} (${cell.ci}, ${cell.documents})` : cell.value;
}

/** Per tag key, a table of each tag value's figures per system (report.html's By tag). */
function tagLines(view: ReportView): string[] {
  if (view.by_tag.length === 0) return [];
  const lines = [
    '## By tag',
    '',
    'Each figure over the documents with that tag, with its bootstrap 95% interval and the documents it is over: a tag on few documents is read with its uncertainty.',
    '',
  ];
  for (const table of view.by_tag) {
    const header = [table.key, 'Documents', 'Failed', ...table.columns].map(escapeMarkdown);
    lines.push(
      `### ${escapeMarkdown(table.key)}`,
      '',
      `| ${header.join(' | ')} |`,
      `|---|${header
        .slice(1)
        .map(() => '---:')
        .join('|')}|`,
    );
    for (const row of table.rows) {
      const cells = [escapeMarkdown(row.value), formatCount(row.documents), formatCount(row.failed)];
      lines.push(`| ${[...cells, ...row.cells.map(tagCellText)].join(' | ')} |`);
    }
    lines.push('');
  }
  return lines;
}

/** The WORST_FIELDS worst field paths, as the view orders them. */
function worstFieldLines(view: ReportView): string[] {
  if (view.fields.length === 0) return [];
  const lines = [
    `## Worst fields`,
    '',
    '| Field | Mode | F1 | Precision | Recall | Missing | Hallucinated | Wrong value | Format only |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const f of view.fields.slice(0, WORST_FIELDS)) {
    lines.push(
      `| ${escapeMarkdown(f.path)} | ${escapeMarkdown(f.mode)} | ${f.text.f1} | ${f.text.precision} | ${f.text.recall} | ${f.missing} | ${f.hallucinated} | ${f.wrong_value} | ${f.format_only} |`,
    );
  }
  if (view.fields.length > WORST_FIELDS) lines.push('', `${view.fields.length - WORST_FIELDS} more in fields.csv.`);
  lines.push('');
  return lines;
}

/**
 * Up to LISTED_DOCUMENTS documents: first those that failed or fell below the gate, then the worst by the
 * primary system's field F1 in the last mode.
 */
function documentsToLookAtLines(view: ReportView): string[] {
  const attention = view.documents.rows.filter((r) => r.status !== 'ok' || r.gate_reasons.length > 0);
  const lastMode = view.modes[view.modes.length - 1];
  // "Worst" by the primary system's field F1: the one the detail sections describe.
  const f1 = (row: DocumentRow) =>
    lastMode ? (row.systems.find((c) => c.system === view.primary)?.f1[lastMode] ?? null) : null;
  const worst = lastMode
    ? view.documents.rows
        .filter((r) => r.status === 'ok' && r.gate_reasons.length === 0 && typeof f1(r) === 'number' && f1(r)! < 1)
        .sort((a, b) => f1(a)! - f1(b)! || a.id.localeCompare(b.id))
    : [];
  const listed = [...attention, ...worst].slice(0, LISTED_DOCUMENTS);
  if (listed.length === 0) return [];
  const lines = [
    '## Documents to look at',
    '',
    `| Document | Status | ${lastMode ? `F1 (${lastMode}, ${escapeMarkdown(view.primary)}) | ` : ''}Problem | Dashboard |`,
    `|---|---|${lastMode ? '---:|' : ''}---|---|`,
  ];
  for (const row of listed) {
    const problem =
      [...row.errors, ...row.gate_reasons.map((r) => `below gate: ${r}`)].join('; ') || 'field F1 below 100%';
    lines.push(
      `| ${escapeMarkdown(row.id)} | ${row.status === 'ok' ? 'ok' : `**${row.status.toUpperCase()}**`} | ${lastMode ? `${formatPercent(f1(row))} | ` : ''}${escapeMarkdown(problem.slice(0, 300))} | ${dashboardCell(row)} |`,
    );
  }
  const more = attention.length + worst.length - listed.length;
  if (more > 0) lines.push('', `${formatCount(more)} more in documents.csv.`);
  lines.push('');
  return lines;
}

/**
 * @param reportsMs the reports' time so far, when summary.md is written as their last file (run.json then
 *   holds the previous rendering's); otherwise run.json's.
 */
export function toSummaryMarkdown(view: ReportView, reportsMs?: number): string {
  return [
    ...headerLines(view, reportsMs),
    ...provenanceLines(view),
    ...leaderboardLines(view),
    ...detailLines(view),
    ...readingLines(view),
    ...gateLines(view),
    ...tagLines(view),
    ...checkLines(view),
    ...worstFieldLines(view),
    ...documentsToLookAtLines(view),
    `Full report: \`report.html\` in the run directory (drill-downs in \`drilldown/\`). Written by docbench ${escapeMarkdown(view.report_version)}.`,
    '',
  ].join('\n');
}

export const markdownReporter: Reporter = {
  format: 'markdown',
  output: RUN_DIR_FILES.summaryMarkdown,
  async write({ runDir, view, startedAt }) {
    const file = runDirPath(runDir, 'summaryMarkdown');
    await writeFileAtomic(
      file,
      toSummaryMarkdown(view, startedAt === undefined ? undefined : performance.now() - startedAt),
    );
    return [file];
  },
};
