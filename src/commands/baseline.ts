/** `docbench baseline set|show|unset`: pin the run each dataset's diffs compare against (<reportsDir>/baselines.json). */
import path from 'node:path';
import { ExitCode, UsageError } from '../errors.js';
import { baselinesFile, readBaselineStore, setBaseline, unsetBaseline } from '../gate/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { configOption, loadConfig, reportsDirOption } from './shared-options.js';

const ACTIONS = ['set', 'show', 'unset'] as const;

export const baselineCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.baseline,
  builder: (yargs) =>
    yargs
      .positional('action', { type: 'string', choices: ACTIONS, describe: 'set, show or unset' })
      .positional('target', { type: 'string', describe: 'set: a run directory; unset: a dataset name' })
      .options(reportsDirOption)
      .options(configOption),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const config = loadConfig(context, {
      ...(argv.config !== undefined ? { configPath: argv.config } : {}),
      ...(argv['reports-dir'] !== undefined ? { reportsDir: argv['reports-dir'] } : {}),
    });
    const reportsDir = config.reportsDir;
    const show = (file: string) => path.relative(context.cwd, file) || file;
    switch (argv.action) {
      case 'set': {
        if (!argv.target)
          throw new UsageError('baseline set needs a run directory', {
            subject: '<target>',
            hint: 'e.g. docbench baseline set reports/20261121T194502Z-3f9a',
          });
        const { dataset, entry, replaced } = await setBaseline(reportsDir, path.resolve(context.cwd, argv.target));
        logger.info(
          `baseline for dataset "${dataset}": ${entry.run} (run ${entry.run_id})${replaced ? `, replacing ${replaced.run}` : ''}\nwrote ${show(baselinesFile(reportsDir))}`,
        );
        break;
      }
      case 'unset': {
        if (!argv.target)
          throw new UsageError('baseline unset needs a dataset name', {
            subject: '<target>',
            hint: 'see the names with: docbench baseline show',
          });
        const removed = await unsetBaseline(reportsDir, argv.target);
        if (!removed)
          throw new UsageError(`no baseline is pinned for dataset "${argv.target}"`, {
            subject: '<target>',
            code: 'INPUT_INVALID',
            hint: 'see the names with: docbench baseline show',
          });
        logger.info(`removed the baseline of dataset "${argv.target}" from ${show(baselinesFile(reportsDir))}`);
        break;
      }
      default: {
        const store = await readBaselineStore(reportsDir);
        if (store.baselines.size === 0) logger.info(`no baselines pinned (${show(baselinesFile(reportsDir))})`);
        for (const [dataset, entry] of store.baselines) {
          logger.info(
            `${dataset}: ${entry.run} (run ${entry.run_id}, dataset ${entry.content_hash.replace(/^sha256:/, '').slice(0, 12)}${entry.dataset_version ? ` v${entry.dataset_version}` : ''}, pinned ${entry.set_at})`,
          );
        }
      }
    }
    context.setExitCode(ExitCode.OK);
  },
}));
