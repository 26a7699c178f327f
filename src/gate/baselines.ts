/**
 * Pinned baselines: `<reportsDir>/baselines.json` maps a dataset name to the run directory the team agreed
 * to compare against, with the dataset's content hash at the time (so a changed dataset is noticed). Paths
 * are stored relative to the reports directory, with forward slashes, so the file can be committed and used
 * on another machine or in CI.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import { openStoredRun } from '../run-dir/index.js';

export const BASELINES_FILE = 'baselines.json';
export const BASELINES_SCHEMA_VERSION = 1;

/** One pinned baseline. */
export interface BaselineEntry {
  /** The run directory, relative to the reports directory (forward slashes). */
  run: string;
  run_id: string;
  dataset_version: string | null;
  /** The dataset's content hash in that run: diffs against a run of other contents are refused. */
  content_hash: string;
  /** When it was pinned (ISO). */
  set_at: string;
}

/** baselines.json. */
export interface BaselineStore {
  schema_version: typeof BASELINES_SCHEMA_VERSION;
  /** Dataset name → baseline. Read into a Map: dataset names are user text (`__proto__` included). */
  baselines: Map<string, BaselineEntry>;
}

export function baselinesFile(reportsDir: string): string {
  return path.join(reportsDir, BASELINES_FILE);
}

/** The store, or an empty one when the file does not exist. @throws UsageError when it is damaged. */
export async function readBaselineStore(reportsDir: string): Promise<BaselineStore> {
  const file = baselinesFile(reportsDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { schema_version: BASELINES_SCHEMA_VERSION, baselines: new Map() };
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, {
      code: 'INPUT_INVALID',
      subject: file,
      hint: 'check its permissions',
    });
  }
  const damaged = (problem: string) =>
    new UsageError(`${file} ${problem}`, {
      code: 'INPUT_INVALID',
      subject: file,
      hint: 'fix or delete it, then pin again with: docbench baseline set <run-dir>',
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw damaged(`is not valid JSON (${(error as Error).message})`);
  }
  const raw = parsed as { schema_version?: unknown; baselines?: unknown };
  if (
    typeof raw !== 'object' ||
    raw === null ||
    raw.schema_version !== BASELINES_SCHEMA_VERSION ||
    typeof raw.baselines !== 'object' ||
    raw.baselines === null
  ) {
    throw damaged(`is not a baselines file of schema_version ${BASELINES_SCHEMA_VERSION}`);
  }
  const baselines = new Map<string, BaselineEntry>();
  for (const [name, entry] of Object.entries(raw.baselines as Record<string, unknown>)) {
    const e = entry as Partial<BaselineEntry> | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e.run !== 'string' ||
      typeof e.run_id !== 'string' ||
      typeof e.content_hash !== 'string'
    ) {
      throw damaged(
        `has a damaged entry for dataset ${JSON.stringify(name)} (run, run_id and content_hash are required)`,
      );
    }
    baselines.set(name, {
      run: e.run,
      run_id: e.run_id,
      content_hash: e.content_hash,
      dataset_version: e.dataset_version ?? null,
      set_at: e.set_at ?? '',
    });
  }
  return { schema_version: BASELINES_SCHEMA_VERSION, baselines };
}

async function writeBaselineStore(reportsDir: string, store: BaselineStore): Promise<void> {
  const sorted = [...store.baselines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Object.fromEntries defines own properties, so a dataset named "__proto__" stays an ordinary key.
  await writeFileAtomic(
    baselinesFile(reportsDir),
    toJson({ schema_version: store.schema_version, baselines: Object.fromEntries(sorted) }),
  );
}

/**
 * Pins `runDir` as the baseline of its dataset. The run must be scored and completed: a baseline with calls
 * missing would make every later diff look like an improvement.
 */
export async function setBaseline(
  reportsDir: string,
  runDir: string,
  now: Date = new Date(),
): Promise<{ dataset: string; entry: BaselineEntry; replaced: BaselineEntry | null }> {
  const { manifest } = await openStoredRun(runDir);
  if (manifest.status !== 'completed') {
    throw new UsageError(`run ${manifest.run_id} is ${manifest.status}, not completed: it cannot be a baseline`, {
      code: 'INPUT_INVALID',
      subject: runDir,
      hint: `finish it first with: docbench run --resume ${runDir}`,
    });
  }
  const store = await readBaselineStore(reportsDir);
  const relative = path.relative(path.resolve(reportsDir), path.resolve(runDir)).split(path.sep).join('/');
  const entry: BaselineEntry = {
    run: relative === '' ? '.' : relative,
    run_id: manifest.run_id,
    dataset_version: manifest.dataset.version,
    content_hash: manifest.dataset.content_hash,
    set_at: now.toISOString(),
  };
  const replaced = store.baselines.get(manifest.dataset.name) ?? null;
  store.baselines.set(manifest.dataset.name, entry);
  await writeBaselineStore(reportsDir, store);
  return { dataset: manifest.dataset.name, entry, replaced };
}

/** Unpins the baseline of `dataset`; false when there was none. */
export async function unsetBaseline(reportsDir: string, dataset: string): Promise<boolean> {
  const store = await readBaselineStore(reportsDir);
  if (!store.baselines.delete(dataset)) return false;
  await writeBaselineStore(reportsDir, store);
  return true;
}

/** The pinned run directory (absolute) of `dataset`, or null when none is pinned. */
export async function resolveBaseline(
  reportsDir: string,
  dataset: string,
): Promise<{ dir: string; entry: BaselineEntry } | null> {
  const store = await readBaselineStore(reportsDir);
  const entry = store.baselines.get(dataset);
  if (!entry) return null;
  return { dir: path.resolve(reportsDir, ...entry.run.split('/')), entry };
}
