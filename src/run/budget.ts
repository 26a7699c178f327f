/**
 * Spending limits of a run (docs/systems.md, "Budgets"): `--max-cost` over every system, `maxCostUsd` per
 * system. Before a call starts, what was recorded (in every invocation of the run) plus the estimates of
 * the calls in flight plus this call's estimate must stay within each limit that applies; otherwise the
 * call does not start and that system starts no more. A call estimated to cost nothing always starts: it
 * cannot take anyone past a budget. A reader's answer shared by pipelines is in each one's cost, and in the
 * run's once: the records of all but the first to record it mark it shared (`shared_cost_usd`).
 */
import { UsageError } from '../errors.js';
import type { SystemSpec } from '../systems/index.js';
import { formatUsd } from './estimate.js';
import type { PlannedCall } from './plan.js';
import type { CallRecord } from '../run-dir/index.js';

export interface BudgetLimits {
  /** `--max-cost`: USD over every system of the run; null: none. */
  run: number | null;
  /** `systems.<name>.maxCostUsd`, by system. */
  systems: ReadonlyMap<string, number>;
}

interface Account {
  limit: number | null;
  /** Recorded cost: earlier invocations and the calls of this one that finished. */
  spent: number;
  /** Estimates of the calls in flight. */
  reserved: number;
}

/** USD recorded per system, and over the run (where a shared reader's answer counts once). */
export interface RecordedSpend {
  systems: ReadonlyMap<string, number>;
  run: number;
}

export type Admission = { ok: true; reserved: number } | { ok: false; message: string };

export interface BudgetLedger {
  /** Reserves the call's estimate, or says which budget it would cross. */
  admit(call: PlannedCall): Admission;
  /** The call ended: its reservation becomes what it cost (null: cancelled, not recorded). */
  settle(call: PlannedCall, reserved: number, record: CallRecord | null): void;
  /** Recorded spend per priced system, every invocation included. */
  spent(): Map<string, number>;
}

/**
 * @param systems the run's systems; `spent()` reports the priced ones.
 * @param spentBefore USD recorded by earlier invocations of the run (every line of results.jsonl).
 * @param estimate a planned call's expected cost (src/run/estimate.ts).
 */
export function createBudgetLedger(
  limits: BudgetLimits,
  systems: readonly Pick<SystemSpec, 'name' | 'common'>[],
  spentBefore: RecordedSpend,
  estimate: (call: PlannedCall) => number,
): BudgetLedger {
  const accounts = new Map<string, Account>(
    systems.map(({ name }) => [
      name,
      { limit: limits.systems.get(name) ?? null, spent: spentBefore.systems.get(name) ?? 0, reserved: 0 },
    ]),
  );
  const priced = systems
    .filter((system) => system.common.price !== null || spentBefore.systems.has(system.name))
    .map((system) => system.name);
  const run: Account = { limit: limits.run, spent: spentBefore.run, reserved: 0 };
  // Sums of decimal prices carry binary rounding (0.01 × 8 is 0.08000000000000002): a nano-dollar of slack
  // keeps a budget of exactly N calls from refusing the N-th.
  const crosses = (account: Account, cost: number) =>
    account.limit !== null && account.spent + account.reserved + cost > account.limit + 1e-9;
  return {
    admit(call) {
      const cost = estimate(call);
      const own = accounts.get(call.system)!;
      if (cost > 0) {
        const [account, what] = crosses(own, cost)
          ? [own, `systems.${call.system}.maxCostUsd`]
          : crosses(run, cost)
            ? [run, "--max-cost, the run's"]
            : [null, ''];
        if (account !== null) {
          return {
            ok: false,
            message: `${call.system}: budget reached: ${formatUsd(account.spent)} recorded + ${formatUsd(account.reserved)} in flight, and its next call (~${formatUsd(cost)}) would pass ${formatUsd(account.limit!)} (${what}): starting no new calls of it`,
          };
        }
      }
      own.reserved += cost;
      run.reserved += cost;
      return { ok: true, reserved: cost };
    },
    settle(call, reserved, record) {
      const own = accounts.get(call.system)!;
      own.reserved -= reserved;
      run.reserved -= reserved;
      if (record === null) return;
      // A cached answer is free; an answer whose cost is unknown (no usage reported) counts as estimated;
      // a failure without a cost was not charged.
      const cost = record.cost_usd ?? (record.from_cache || record.status === 'failed' ? 0 : reserved);
      own.spent += cost;
      run.spent += cost - (record.shared_cost_usd ?? 0);
    },
    spent: () => new Map(priced.map((name) => [name, accounts.get(name)!.spent])),
  };
}

/** USD recorded in `records`, per system and over the run (every line: superseded attempts were paid for too). */
export function sumRecordedCost(
  records: Iterable<Pick<CallRecord, 'system' | 'cost_usd' | 'shared_cost_usd'>>,
): RecordedSpend {
  const systems = new Map<string, number>();
  let run = 0;
  for (const record of records) {
    if (record.cost_usd === undefined) continue;
    systems.set(record.system, (systems.get(record.system) ?? 0) + record.cost_usd);
    run += record.cost_usd - (record.shared_cost_usd ?? 0);
  }
  return { systems, run };
}

/**
 * The limits of a run: `--max-cost` (a resume without it keeps the run's last) and each system's
 * `maxCostUsd`. @throws UsageError when `--max-cost` is given and no system of the run has a price.
 */
export function resolveBudgetLimits(
  specs: readonly Pick<SystemSpec, 'name' | 'common'>[],
  maxCost: number | null,
): BudgetLimits {
  if (maxCost !== null && !specs.some((spec) => spec.common.price !== null)) {
    throw new UsageError(
      `--max-cost: no system of this run has a price (${specs.map((spec) => spec.name).join(', ')}), so no spending can be counted`,
      {
        subject: '--max-cost',
        hint: 'give the systems that cost money a price in the config file (systems.<name>.price), or drop --max-cost',
      },
    );
  }
  const systems = new Map<string, number>();
  for (const spec of specs)
    if (spec.common.maxCostUsd !== undefined && spec.common.maxCostUsd !== null)
      systems.set(spec.name, spec.common.maxCostUsd);
  return { run: maxCost, systems };
}
