/**
 * The report's systems section (docs/run-directory.md, "Reported identity"): what each system said it was in
 * its answers — run.json's tally per system of model snapshots, fingerprints, API and model versions, with their
 * counts — how many of its answers were cut short at the token limit (summary.json's `truncated`), and with
 * --repeat whether its repetitions agreed (summary.json's `repeat.agreement`). A name with more than one value
 * changed within the run, and is warned about. Formats; computes nothing.
 */
import { changedReports, runSystems, type RunManifest, type RunSummary } from '../run-dir/index.js';
import { formatCount, formatDecimal, formatPercent } from '../render/index.js';
import type { ProvenanceView } from './view-types.js';

/** Null when no system reported anything, no answer was cut short and no call was repeated: nothing to show. */
export function buildProvenanceView(manifest: RunManifest, summary: RunSummary): ProvenanceView | null {
  const warnings: string[] = [];
  const rows = runSystems(manifest).map((system) => {
    const changed = new Set(changedReports(system.reported).map((change) => change.name));
    const reported = Object.entries(system.reported ?? {}).map(([name, values]) => ({
      name,
      values: Object.entries(values)
        .map(([value, count]) => `${value} (${formatCount(count)})`)
        .join(', '),
      changed: changed.has(name),
    }));
    for (const entry of reported.filter((r) => r.changed))
      warnings.push(`${system.name} reported more than one ${entry.name} within the run: ${entry.values}.`);
    const truncated = Object.values(summary.systems[system.name]?.calls ?? {}).reduce(
      (sum, calls) => sum + (calls.truncated ?? 0),
      0,
    );
    if (truncated > 0)
      warnings.push(
        `${system.name}: ${formatCount(truncated)} answers were cut short at the token limit and count as failed calls; raise systems.${system.name}.maxTokens.`,
      );
    return {
      system: system.name,
      kind: system.kind,
      reported,
      truncated,
      repeats: describeRepeats(summary, system.name),
    };
  });
  if (rows.every((row) => row.reported.length === 0 && row.truncated === 0 && row.repeats === '')) return null;
  return { rows, warnings };
}

/**
 * With --repeat: how many documents gave different outputs, each mode's exact-match rate of the first
 * repetition beside pass^N and majority, the fields that differ most, and markdown's similarity spread.
 */
function describeRepeats(summary: RunSummary, system: string): string {
  const repeat = summary.systems[system]?.repeat;
  const agreement = repeat?.agreement;
  if (!repeat || !agreement) return '';
  const parts = [
    `${repeat.runs} repeats: ${formatCount(agreement.flaky_documents)} of ${formatCount(agreement.documents)} documents differ (${formatPercent(agreement.flaky_share)})`,
  ];
  for (const [mode, block] of Object.entries(agreement.extraction)) {
    const fields = block.flakiest_fields.map((f) => `${f.path} (${formatCount(f.documents)})`).join(', ');
    parts.push(
      `${mode} exact match: first ${formatPercent(block.exact_first)}, pass^${repeat.runs} ${formatPercent(block.exact_all)}, majority ${formatPercent(block.exact_majority)}${fields ? `; flakiest fields ${fields}` : ''}`,
    );
  }
  if (agreement.markdown)
    parts.push(
      `markdown: ${formatCount(agreement.markdown.flaky_documents)} texts differ, similarity spread mean ${formatDecimal(agreement.markdown.similarity_spread_mean)}, max ${formatDecimal(agreement.markdown.similarity_spread_max)}`,
    );
  return parts.join('; ');
}
