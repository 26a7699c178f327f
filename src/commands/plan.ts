/** `docbench plan`: what `docbench run` with the same flags would call and cost; nothing called, nothing written. */
import type { Options } from 'yargs';
import { formatEstimateLine, formatUsd, planBenchmark, type PlanResult } from '../run/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { readRunShape, requireDatasetOrResume, runShapeOptions } from './run-options.js';

const planOptions = {
  ...runShapeOptions,
  json: { type: 'boolean', default: false, describe: 'Print the plan as JSON (the same figures)' },
} as const satisfies Record<string, Options>;

export const planCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.plan,
  builder: (yargs) => yargs.options(planOptions).check(requireDatasetOrResume),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const plan = await planBenchmark({ ...readRunShape(context, argv), logger });
    context.stdout.write(argv.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
  },
}));

/** The plan for people: the run's shape, one line per system, the total and the budgets. */
function formatPlan(plan: PlanResult): string {
  const { dataset } = plan;
  const lines = [
    `plan: ${dataset.name} (${dataset.path}): ${dataset.documentsSelected} of ${dataset.documentsTotal} documents; modes ${plan.modes.join(',')}; endpoints ${plan.endpoints.join(',')}; repeat ${plan.repeat}${plan.resumeDir ? `; resuming ${plan.resumeDir}` : ''}`,
    ...plan.estimates.map((estimate) => `  ${formatEstimateLine(estimate)}`),
    `total: ${plan.totalUsd === null ? 'no system has a price' : `${formatUsd(plan.totalUsd)} (${plan.estimates.every((e) => e.costUsd === null || e.exact) ? 'exact' : 'estimate'})`}`,
  ];
  // A budget below its estimate is worth saying before the run: it will stop early (exit 3, resumable).
  const short = (usd: number, estimate: number | null | undefined) =>
    estimate != null && estimate > usd ? ' (below the estimate: the run would stop early)' : '';
  const estimateOf = (name: string) => plan.estimates.find((e) => e.system === name)?.costUsd;
  const budgets = [
    ...(plan.budgets.run !== null
      ? [`run ${formatUsd(plan.budgets.run)}${short(plan.budgets.run, plan.totalUsd)}`]
      : []),
    ...Object.entries(plan.budgets.systems).map(
      ([name, usd]) => `${name} ${formatUsd(usd)}${short(usd, estimateOf(name))}`,
    ),
  ];
  if (budgets.length > 0) lines.push(`budgets: ${budgets.join(', ')}`);
  lines.push('nothing was called or written; `docbench run` with the same flags makes these calls');
  return `${lines.join('\n')}\n`;
}
