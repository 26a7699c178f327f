/**
 * The report's cost section: per priced system, what the estimate said when the run started (run.json's
 * `estimate`, docs/systems.md "Estimates") against what its calls were recorded to cost (`spent_usd`), and
 * its budget, and the run's (`--max-cost`). Formats run.json's figures; computes nothing but their difference.
 */
import type { RunManifest } from '../run-dir/index.js';
import { formatUsd } from '../render/index.js';
import type { CostView } from './view-types.js';

export function buildCostView(manifest: RunManifest): CostView {
  // Runs made before systems (no `systems`) had no prices, so nothing to show.
  const rows = (manifest.systems ?? []).flatMap((system) => {
    const estimate = system.estimate?.cost_usd ?? null;
    const spent = system.spent_usd ?? null;
    if (estimate === null && spent === null) return [];
    // A system that stopped early spent on part of the calls the estimate covers: no difference to speak of.
    const { planned, recorded } = system.counts;
    const finished = recorded >= planned;
    const difference =
      finished && estimate !== null && spent !== null && estimate > 0 ? (spent - estimate) / estimate : null;
    const stopped =
      system.stop_reason === 'budget'
        ? 'stopped at its budget'
        : system.stop_reason
          ? `stopped (${system.stop_reason})`
          : 'stopped';
    return [
      {
        system: system.name,
        estimate: formatUsd(estimate),
        basis: system.estimate
          ? `${system.estimate.calls} calls${system.estimate.cached ? ` (${system.estimate.cached} cached)` : ''}, ${system.estimate.basis}`
          : 'no estimate recorded',
        spent: formatUsd(spent),
        difference: difference === null ? '—' : `${difference >= 0 ? '+' : ''}${(difference * 100).toFixed(1)}%`,
        budget: formatUsd(system.max_cost_usd),
        note: finished ? '' : `${stopped} after ${recorded} of ${planned} calls: the spend covers those`,
      },
    ];
  });
  const runBudget = manifest.invocations?.at(-1)?.max_cost_usd ?? null;
  return { rows, run_budget: runBudget === null ? null : formatUsd(runBudget) };
}
