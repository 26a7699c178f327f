/**
 * The report's cost section: per priced system, what the estimate said when the run started (run.json's
 * `estimate`, docs/systems.md "Estimates") against what its calls were recorded to cost (`spent_usd`), and
 * its budget. Formats run.json's figures; computes nothing but their difference.
 */
import type { RunManifest } from '../run-dir/index.js';
import { formatUsd } from '../render/index.js';
import type { CostRowView } from './view-types.js';

export function buildCostRows(manifest: RunManifest): CostRowView[] {
  // Runs made before systems (no `systems`) had no prices, so nothing to show.
  return (manifest.systems ?? []).flatMap((system) => {
    const estimate = system.estimate?.cost_usd ?? null;
    const spent = system.spent_usd ?? null;
    if (estimate === null && spent === null) return [];
    const difference = estimate !== null && spent !== null && estimate > 0 ? (spent - estimate) / estimate : null;
    return [
      {
        system: system.name,
        estimate: formatUsd(estimate),
        basis: system.estimate ? `${system.estimate.calls} calls${system.estimate.cached ? ` (${system.estimate.cached} cached)` : ''}, ${system.estimate.basis}` : 'no estimate recorded',
        spent: formatUsd(spent),
        difference: difference === null ? '—' : `${difference >= 0 ? '+' : ''}${(difference * 100).toFixed(1)}%`,
        budget: formatUsd(system.max_cost_usd),
        note: system.stop_reason === 'budget' ? 'stopped at its budget: the spend covers the calls made' : system.stop_reason ? `stopped (${system.stop_reason})` : '',
      },
    ];
  });
}
