/**
 * diff.md: the verdict, the headline table, field regressions and improvements, flips and latency — for a
 * pull-request comment or a CI job summary. Dataset and service text is escaped like summary.md's.
 */
import { escapeMarkdown, formatMs } from '../render/index.js';
import type { DiffResult } from './diff-types.js';
import { blockDiffMarkdown } from './block-diff.js';
import { formatP, formatSigned } from './compare-runs.js';
import { describeLostField, describeResult, lostFields } from './diff-wording.js';

const LISTED = 20;

function rate(value: number): string {
  return value.toFixed(4);
}

function resultMark(row: { regression: boolean; improvement: boolean }): string {
  return row.regression ? '❌ ' : row.improvement ? '✅ ' : '';
}

function ids(list: string[]): string {
  if (list.length === 0) return '—';
  return `${list.slice(0, LISTED).map(escapeMarkdown).join(', ')}${list.length > LISTED ? `, … (${list.length - LISTED} more in diff.json)` : ''}`;
}

/** The table of what differs between the runs besides their figures; nothing when nothing does. */
function provenanceLines(diff: DiffResult): string[] {
  if (diff.provenance.length === 0) return [];
  return [
    '## What changed besides the figures',
    '',
    '| What | Baseline | Candidate |',
    '|---|---|---|',
    ...diff.provenance.map(
      (change) =>
        `| ${escapeMarkdown(change.what)} | ${escapeMarkdown(change.baseline)} | ${escapeMarkdown(change.candidate)} |`,
    ),
    '',
  ];
}

export function toDiffMarkdown(diff: DiffResult): string {
  const lines: string[] = [];
  const b = diff.baseline;
  const c = diff.candidate;
  lines.push(`# docbench diff: ${escapeMarkdown(c.dataset.name)}`, '');
  // Before any figure: figures are read against what changed under them (docs/gate.md, "What changed").
  lines.push(...provenanceLines(diff));
  lines.push(diff.verdict === 'regression' ? '**❌ Regression**' : '**✅ No regression**', '');
  for (const reason of diff.reasons) lines.push(`- ${escapeMarkdown(reason)}`);
  const lost = lostFields(diff);
  if (lost.length > 0)
    lines.push(`- Field paths that lost: ${lost.map((f) => escapeMarkdown(describeLostField(f))).join('; ')}`);
  if (diff.power_note) lines.push(`- ${escapeMarkdown(diff.power_note)}`);
  lines.push('');
  lines.push(
    `Baseline \`${b.run_id.replace(/`/g, '')}\` (${escapeMarkdown(b.service)}, ${escapeMarkdown(b.created_at)}) → candidate \`${c.run_id.replace(/`/g, '')}\` (${escapeMarkdown(c.service)}, ${escapeMarkdown(c.created_at)}). ${diff.documents.paired} documents paired by id.`,
    '',
  );
  for (const warning of diff.warnings) lines.push(`> ⚠️ ${escapeMarkdown(warning)}`, '');
  lines.push(
    `Tolerance ${diff.settings.tolerance}, α ${diff.settings.alpha}, ${diff.settings.resamples} bootstrap resamples (seed ${diff.settings.seed}); ${escapeMarkdown(diff.settings.correction)}.`,
    '',
  );

  lines.push('## Headline metrics', '');
  if (diff.headline.length === 0) lines.push('No headline metric is present in both runs.', '');
  else {
    lines.push(
      '| Metric | Baseline | Candidate | Δ | 95% interval | p (bootstrap) | p (decision) | p (sign) | p (Wilcoxon) | Better / worse / tie | Result |',
      '|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|',
    );
    for (const m of diff.headline) {
      const result = `${resultMark(m)}${describeResult(m).result}`;
      lines.push(
        `| ${escapeMarkdown(m.label)}${m.family === 'primary' ? ' (primary)' : ''} | ${rate(m.baseline)} | ${rate(m.candidate)} | ${formatSigned(m.delta)} | ${formatSigned(m.ci95[0])} to ${formatSigned(m.ci95[1])} | ${formatP(m.p_bootstrap)} | ${formatP(m.p_adjusted)} | ${formatP(m.p_sign)} | ${formatP(m.p_wilcoxon)} | ${m.wins} / ${m.losses} / ${m.ties} | ${result} |`,
      );
    }
    lines.push('');
  }

  const regressed = diff.fields.filter((f) => f.regression);
  const improved = diff.fields.filter((f) => f.improvement);
  lines.push('## Field paths', '');
  lines.push(
    `${regressed.length} regressed, ${improved.length} improved (F1 change beyond the tolerance with Holm-adjusted p ≤ ${diff.settings.alpha}), of ${diff.fields.length} compared.`,
    '',
  );
  if (regressed.length + improved.length > 0) {
    lines.push(
      '| Field | Mode | Baseline F1 | Candidate F1 | Δ | 95% interval | p (Holm) | Documents | Result |',
      '|---|---|---:|---:|---:|---|---:|---:|---|',
    );
    for (const f of [...regressed, ...improved]) {
      lines.push(
        `| ${escapeMarkdown(f.path)} | ${f.mode} | ${rate(f.baseline.f1)} | ${rate(f.candidate.f1)} | ${formatSigned(f.delta)} | ${formatSigned(f.ci95[0])} to ${formatSigned(f.ci95[1])} | ${formatP(f.p_adjusted)} | ${f.documents} | ${resultMark(f)}${describeResult(f).result} |`,
      );
    }
    lines.push('');
  }

  lines.push('## Documents that flipped', '');
  for (const flip of diff.flips) {
    lines.push(`- **${flip.mode}**, exact → wrong (${flip.to_wrong.length}): ${ids(flip.to_wrong)}`);
    lines.push(`- **${flip.mode}**, wrong → exact (${flip.to_correct.length}): ${ids(flip.to_correct)}`);
  }
  lines.push(`- calls ok → failed (${diff.status_flips.to_failed.length}): ${ids(diff.status_flips.to_failed)}`);
  lines.push(`- calls failed → ok (${diff.status_flips.to_ok.length}): ${ids(diff.status_flips.to_ok)}`, '');

  if (diff.latency.length > 0) {
    lines.push(
      '## Latency (client wall time, paired documents)',
      '',
      '| Call | Baseline p50 / p95 | Candidate p50 / p95 | Δ p95 | Mean Δ (95% interval) | Faster / slower | p (Wilcoxon) |',
      '|---|---:|---:|---:|---|---|---:|',
    );
    for (const l of diff.latency) {
      const signedMs = (v: number | null) =>
        v === null ? '—' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${formatMs(Math.abs(v))}`;
      lines.push(
        `| ${escapeMarkdown(l.key)} | ${formatMs(l.baseline.p50)} / ${formatMs(l.baseline.p95)} | ${formatMs(l.candidate.p50)} / ${formatMs(l.candidate.p95)} | ${signedMs(l.delta_p95)} | ${signedMs(l.mean_delta)} (${signedMs(l.ci95[0])} to ${signedMs(l.ci95[1])}) | ${l.faster} / ${l.slower} | ${formatP(l.p_wilcoxon)} |`,
      );
    }
    lines.push('');
  }
  lines.push(...blockDiffMarkdown(diff.blocks ?? []));
  lines.push('Full comparison: `diff.html` and `diff.json`.', '');
  return lines.join('\n');
}
