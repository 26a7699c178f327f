/** `docbench systems`: the systems a run would take (name, kind, operations, reference) and the kinds there are. */
import path from 'node:path';
import { loadDataset } from '../dataset/index.js';
import { INCUMBENT, operationsOf, selectSystems, SYSTEM_KINDS, type SystemSpec } from '../systems/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { configOption, loadConfig, parseSystemChoice } from './shared-options.js';

export const systemsCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.systems,
  builder: (yargs) =>
    yargs
      .option('dataset', {
        type: 'string',
        describe: 'With a dataset: also the stored incumbent when it has baseline files (nothing configured)',
      })
      .options(configOption)
      .option('base-url', { type: 'string', describe: 'As for docbench run: one interface system named service' })
      .option('systems', { type: 'string', describe: 'As for docbench run: only these configured systems' })
      .option('reference', { type: 'string', describe: 'As for docbench run: the reference system' }),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const config = loadConfig(context, {
      ...(argv['base-url'] !== undefined ? { baseUrl: argv['base-url'] } : {}),
      ...(argv.config !== undefined ? { configPath: argv.config } : {}),
    });
    const choice = parseSystemChoice(argv.systems, argv.reference);
    const dataset =
      argv.dataset === undefined ? null : await loadDataset(path.resolve(context.cwd, argv.dataset), { logger });
    const common = {
      concurrency: config.concurrency,
      ratePerSecond: config.ratePerSecond,
      timeoutMs: config.timeoutMs,
      retry: config.retry,
      price: null,
    };
    const settings = {
      baseUrl: config.baseUrl,
      apiKeyEnv: config.apiKeyEnv,
      auth: config.auth,
      maxResponseBytes: config.maxResponseBytes,
      common,
    };
    // Without a dataset there are no baseline files to find: an empty dataset stands in for "unknown".
    const { systems, reference } = selectSystems(
      { systems: config.systems, reference: config.reference },
      settings,
      dataset ?? {
        root: context.cwd,
        name: '',
        locale: 'US',
        schema: {},
        defaults: {},
        comparators: {},
        documents: [],
        contentHash: '',
      },
      choice,
    );
    const lines = [
      `systems${config.configFile ? ` (${path.relative(context.cwd, config.configFile) || config.configFile})` : ' (nothing configured)'}:`,
    ];
    for (const spec of systems) lines.push(`  ${describeSpec(spec, spec.name === reference)}`);
    if (reference === INCUMBENT && !systems.some((spec) => spec.name === INCUMBENT))
      lines.push(`  ${INCUMBENT.padEnd(16)} stored     scored from the dataset's baseline files  ← reference`);
    if (!dataset && config.systems === null)
      lines.push('  (+ incumbent, stored, when the dataset has baseline files: pass --dataset to check)');
    lines.push('', 'kinds:');
    for (const kind of SYSTEM_KINDS.values()) lines.push(`  ${kind.kind.padEnd(10)} ${kind.description}`);
    context.stdout.write(`${lines.join('\n')}\n`);
  },
}));

function describeSpec(spec: SystemSpec, isReference: boolean): string {
  const { concurrency, price, maxCostUsd } = spec.common;
  const priced = price
    ? `, price ${Object.entries(price)
        .map(([k, v]) => `${k} ${v}`)
        .join(' ')}`
    : '';
  const budget = maxCostUsd != null ? `, budget ${maxCostUsd} USD` : '';
  return `${spec.name.padEnd(16)} ${spec.kind.padEnd(10)} ${operationsOf(spec).join(',')} (concurrency ${concurrency}${priced}${budget})${isReference ? '  ← reference' : ''}`;
}
