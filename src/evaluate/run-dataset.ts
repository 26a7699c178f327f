/** The dataset a stored run was made on, for the commands that score it again (`score`, `merge`). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadDataset } from '../dataset/index.js';
import { UsageError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RunManifest } from '../run-dir/index.js';
import type { Dataset } from '../types.js';

/**
 * `override` (a `--dataset` flag) or else the path run.json recorded, resolved from `cwd`. A recorded path is
 * relative to where the run was made: from elsewhere it is missing, and the error says so, rather than that
 * the dataset is invalid.
 */
export async function loadRunDataset(
  manifest: RunManifest,
  cwd: string,
  options: { override?: string; logger: Logger },
): Promise<Dataset> {
  const dir = path.resolve(cwd, options.override ?? manifest.dataset.path);
  if (options.override === undefined && !existsSync(dir)) {
    throw new UsageError(
      `run ${manifest.run_id} was made on the dataset at ${manifest.dataset.path}, which is not found from ${cwd}`,
      {
        subject: manifest.dataset.path,
        hint: 'run the command from the directory the run was made in, or pass --dataset <dir>',
      },
    );
  }
  return loadDataset(dir, { logger: options.logger });
}
