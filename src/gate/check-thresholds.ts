/**
 * The gate's rule-check thresholds (docs/gate.md, "Rule checks"): `min_check_pass_rate` on a system's macro pass
 * rate (olmOCR-bench's headline), and `check_categories.<category>.min_pass_rate` /
 * `check_types.<type>.min_pass_rate` on one category's or type's pass rate.
 */
import type { GateCheck, SystemSummary } from '../run-dir/index.js';

export interface CheckPassThresholds {
  min_pass_rate?: number;
}

/** The part of a system's thresholds these checks read. */
export interface CheckThresholds {
  min_check_pass_rate?: number;
  check_categories?: Record<string, CheckPassThresholds>;
  check_types?: Record<string, CheckPassThresholds>;
}

type MakeCheck = (metric: string, threshold: number, actual: number | null, detail?: string) => GateCheck;

export function checkPassRateChecks(summary: SystemSummary, thresholds: CheckThresholds, make: MakeCheck): GateCheck[] {
  const block = summary.checks;
  const missing = 'this run has no rule checks (no checks.jsonl, or no /compare calls)';
  const checks: GateCheck[] = [];
  if (thresholds.min_check_pass_rate !== undefined)
    checks.push(
      make(
        'checks.macro_pass_rate',
        thresholds.min_check_pass_rate,
        block?.macro_pass_rate ?? null,
        block ? undefined : missing,
      ),
    );
  const scoped = (kind: 'by_category' | 'by_type', sets: Record<string, CheckPassThresholds> | undefined) => {
    for (const [name, set] of Object.entries(sets ?? {})) {
      if (set.min_pass_rate === undefined) continue;
      const count = block?.[kind][name];
      checks.push(
        make(
          `checks.${kind}.${name}.pass_rate`,
          set.min_pass_rate,
          count?.pass_rate ?? null,
          block ? (count ? undefined : `no check of ${kind === 'by_type' ? 'type' : 'category'} "${name}"`) : missing,
        ),
      );
    }
  };
  scoped('by_category', thresholds.check_categories);
  scoped('by_type', thresholds.check_types);
  return checks;
}
