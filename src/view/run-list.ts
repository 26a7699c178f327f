/**
 * The runs of a reports directory as the view lists them, read afresh on every request so new runs appear
 * without a restart. A run in progress (no summary yet, or status "running") shows how many of its planned
 * calls results.jsonl holds so far.
 */
import { createReadStream, existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { isDocbenchError } from '../errors.js';
import { readManifest, readSummary, runDirPath, type RunManifest, type RunSummary } from '../run-dir/index.js';
import { isRunName } from './security.js';

export interface ListedRun {
  name: string;
  manifest: RunManifest;
  /** Null until the run is scored. */
  summary: RunSummary | null;
  /** Calls in results.jsonl now, and calls planned (run.json). */
  progress: { recorded: number; planned: number };
  in_progress: boolean;
  has_report: boolean;
}

/** Lines of results.jsonl: one per finished call (a resumed run's retried calls count once more, a close estimate). */
async function countRecords(file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  let count = 0;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== '') count++;
  return count;
}

export async function listRuns(
  reportsDir: string,
): Promise<{ runs: ListedRun[]; skipped: { name: string; reason: string }[] }> {
  const runs: ListedRun[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const names = await readdir(reportsDir).catch(() => []);
  for (const name of names.sort()) {
    const dir = path.join(reportsDir, name);
    if (
      !isRunName(name) ||
      !(await stat(dir).catch(() => null))?.isDirectory() ||
      !existsSync(runDirPath(dir, 'manifest'))
    )
      continue;
    try {
      const manifest = await readManifest(dir);
      const summary = await readSummary(dir);
      const inProgress = manifest.status === 'running' || summary === null;
      const recorded = inProgress ? await countRecords(runDirPath(dir, 'results')) : manifest.counts.recorded;
      runs.push({
        name,
        manifest,
        summary,
        progress: { recorded, planned: manifest.counts.planned },
        in_progress: inProgress,
        has_report: existsSync(runDirPath(dir, 'reportHtml')),
      });
    } catch (error) {
      skipped.push({ name, reason: isDocbenchError(error) ? error.message : String(error) });
    }
  }
  runs.sort(
    (a, b) => Date.parse(b.manifest.created_at) - Date.parse(a.manifest.created_at) || (a.name < b.name ? -1 : 1),
  );
  return { runs, skipped };
}

/** The scored run of the same dataset made just before `run`, to diff against; null for the first. */
export function findPreviousRun(runs: readonly ListedRun[], run: ListedRun): ListedRun | null {
  const earlier = runs.filter(
    (r) =>
      r !== run &&
      r.summary !== null &&
      !r.in_progress &&
      r.manifest.dataset.name === run.manifest.dataset.name &&
      Date.parse(r.manifest.created_at) < Date.parse(run.manifest.created_at),
  );
  return earlier.sort((a, b) => Date.parse(b.manifest.created_at) - Date.parse(a.manifest.created_at))[0] ?? null;
}
