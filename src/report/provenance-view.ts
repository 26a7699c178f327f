/**
 * The report's systems section (docs/run-directory.md, "Reported identity"): what each system said it was in
 * its answers — run.json's tally per system of model snapshots, fingerprints, API and model versions, with their
 * counts — and how many of its answers were cut short at the token limit (summary.json's `truncated`). A name
 * with more than one value changed within the run, and is warned about. Formats; computes nothing.
 */
import { changedReports, runSystems, type RunManifest, type RunSummary } from '../run-dir/index.js';
import { formatCount } from '../render/index.js';
import type { ProvenanceView } from './view-types.js';

/** Null when no system reported anything and no answer was cut short: nothing to show. */
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
    return { system: system.name, kind: system.kind, reported, truncated };
  });
  if (rows.every((row) => row.reported.length === 0 && row.truncated === 0)) return null;
  return { rows, warnings };
}
