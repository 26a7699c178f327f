/**
 * The embedded engine's comparison views, kept with the run (docs/view.md, Comparison views): the in-process service stops when
 * the run ends, so its /evals links would point at a port nothing listens on. Each comparison the run made
 * is rendered into `<run-dir>/comparisons/<id>.html`, and the reports link there with relative links, so
 * the view opens from file:// and from a shared copy of the run directory.
 */
import path from 'node:path';
import { writeFileAtomic } from '../fs-utils.js';
import type { Logger } from '../logger.js';
import { comparisonPagePath } from '../run-dir/index.js';

/**
 * Renders the comparisons `ids` from the local service's store in `dataDir` into the run directory, each
 * page linking its siblings. A comparison missing from the store is skipped with a warning: the report then
 * links a page that does not exist, which is what the service's own dead link did before.
 */
export async function exportComparisonPages(
  runDir: string,
  dataDir: string,
  ids: readonly string[],
  logger: Logger,
): Promise<string[]> {
  // The local service loads only with a run that used it.
  const { createEvalsStore, renderEvalsPage } = await import('@docbench/local-engine');
  const store = createEvalsStore(dataDir);
  const records = [];
  for (const id of new Set(ids)) {
    try {
      records.push(await store.load(id));
    } catch (error) {
      logger.warn(
        `comparison ${id} is not in ${store.dir} (${error instanceof Error ? error.message : String(error)}): its page is not written`,
      );
    }
  }
  records.sort((a, b) => a.filename.localeCompare(b.filename) || a.id.localeCompare(b.id));
  const entries = records.map((r) => ({ id: r.id, filename: r.filename, created_at: r.created_at }));
  const written: string[] = [];
  for (const record of records) {
    const file = path.join(runDir, comparisonPagePath(record.id)!);
    await writeFileAtomic(
      file,
      renderEvalsPage(record, entries, (id) => `${id}.html`),
    );
    written.push(file);
  }
  return written;
}
