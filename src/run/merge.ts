/**
 * `docbench merge`: combine the run directories of shards (`--shard i/n` on several CI machines) into one
 * run, as if it had run unsharded. Refuses runs of different datasets, services or options.
 */
import { cp, mkdir, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';
import { unwritable } from '../fs-utils.js';
import {
  readFinalRecords,
  readManifest,
  runDirPath,
  writeManifest,
  createRunId,
  runSystems,
  tallyReported,
  v1SystemName,
  type RunManifest,
  ResultsWriter,
  type CallRecord,
} from '../run-dir/index.js';

export interface MergeResult {
  runDir: string;
  manifest: RunManifest;
}

export async function mergeRuns(runDirs: string[], outDir: string, now: Date = new Date()): Promise<MergeResult> {
  if (runDirs.length < 2)
    throw new UsageError('merge needs at least two run directories', {
      subject: 'merge',
      hint: 'docbench merge reports/shard-1 reports/shard-2 --out reports/merged',
    });
  const manifests = await Promise.all(runDirs.map((dir) => readManifest(dir)));
  checkShardsOfOneRun(runDirs, manifests);
  const target = await createOutDir(outDir);
  const records = await copyRecords(runDirs, manifests, target);
  const manifest = mergedManifest(manifests, records, now);
  await writeManifest(target, manifest);
  await copyComparisonPages(runDirs, target);
  return { runDir: target, manifest };
}

/** Refuses runs of another dataset version, other options or systems, and a shard passed twice. */
function checkShardsOfOneRun(runDirs: readonly string[], manifests: readonly RunManifest[]): void {
  const first = manifests[0]!;
  const comparable = (m: RunManifest) =>
    JSON.stringify({
      dataset: m.dataset.content_hash,
      systems: runSystems(m).map((system) => [system.name, system.identity]),
      modes: m.options.modes,
      endpoints: m.options.endpoints,
      repeat: m.options.repeat,
      selection: { ...m.options.selection, shard: null },
    });
  manifests.forEach((m, i) => {
    if (m.dataset.content_hash !== first.dataset.content_hash) {
      throw new UsageError(
        `${runDirs[i]} ran dataset ${m.dataset.name} (${m.dataset.content_hash.slice(0, 19)}…), not ${first.dataset.name} (${first.dataset.content_hash.slice(0, 19)}…) like ${runDirs[0]}`,
        {
          subject: runDirs[i],
          hint: 'merge only shards of one dataset version',
        },
      );
    }
    if (comparable(m) !== comparable(first)) {
      throw new UsageError(`${runDirs[i]} ran with other options or other systems than ${runDirs[0]}`, {
        subject: runDirs[i],
        hint: 'merge only shards of one run: same systems, modes, endpoints, repeat and selection',
      });
    }
  });
  const shards = manifests.map((m) => m.options.selection.shard);
  const distinct = new Set(shards.map((s) => (s ? `${s.index}/${s.count}` : 'none')));
  if (distinct.size !== manifests.length)
    throw new UsageError('the same shard appears twice among the runs to merge', {
      subject: 'merge',
      hint: 'pass each shard once',
    });
}

/** The merged run's directory, new or empty. */
async function createOutDir(outDir: string): Promise<string> {
  const target = path.resolve(outDir);
  if (existsSync(target) && (await readdir(target)).length > 0)
    throw new UsageError(`${target} already holds files`, {
      subject: '--out',
      hint: 'choose a new directory for the merged run',
    });
  try {
    await mkdir(target, { recursive: true });
  } catch (error) {
    throw unwritable(target, error);
  }
  return target;
}

/** Writes every shard's final records to the merged results.jsonl, refusing a call found in two shards. */
async function copyRecords(
  runDirs: readonly string[],
  manifests: readonly RunManifest[],
  target: string,
): Promise<CallRecord[]> {
  const seen = new Map<string, string>();
  const writer = ResultsWriter.open(runDirPath(target, 'results'));
  const all: CallRecord[] = [];
  try {
    for (const dir of runDirs) {
      for (const record of await readFinalRecords(dir, v1SystemName(manifests[runDirs.indexOf(dir)]!))) {
        const other = seen.get(record.key);
        if (other)
          throw new UsageError(`call ${record.key} is in both ${other} and ${dir}`, {
            subject: dir,
            hint: 'the runs overlap: merge shards of one run only',
          });
        seen.set(record.key, dir);
        writer.append(record);
        all.push(record);
      }
    }
  } finally {
    writer.close();
  }
  return all;
}

/** run.json of the merged run: the first shard's, with times, status and counts over every shard. */
function mergedManifest(manifests: readonly RunManifest[], all: readonly CallRecord[], now: Date): RunManifest {
  const first = manifests[0]!;
  const shards = manifests.map((m) => m.options.selection.shard);
  const total = shards.every((s) => s !== null) ? shards[0]!.count : null;
  const complete = total !== null && manifests.length === total;
  const planned = manifests.reduce((sum, m) => sum + m.counts.planned, 0);
  return {
    ...first,
    run_id: createRunId(now, randomBytes(2).toString('hex')),
    created_at: manifests.map((m) => m.created_at).sort()[0]!,
    ended_at:
      manifests
        .map((m) => m.ended_at ?? '')
        .sort()
        .at(-1) || null,
    duration_ms: Math.max(...manifests.map((m) => m.duration_ms)),
    // The shards' calls ran side by side; scoring and reports are the merged run's own (finalize records them).
    phases: {
      calls_ms: Math.max(...manifests.map((m) => m.phases?.calls_ms ?? m.duration_ms)),
      scoring_ms: null,
      statistics_ms: null,
      reports_ms: null,
    },
    status: complete && manifests.every((m) => m.status === 'completed') ? 'completed' : 'stopped',
    stop_reason: null,
    stop_message: complete ? null : `merged ${manifests.length} of ${total ?? '?'} shards`,
    dataset: {
      ...first.dataset,
      documents_selected: manifests.reduce((sum, m) => sum + m.dataset.documents_selected, 0),
    },
    options: { ...first.options, selection: { ...first.options.selection, shard: null } },
    counts: {
      planned,
      recorded: all.length,
      succeeded: all.filter((r) => r.status === 'ok').length,
      failed: all.filter((r) => r.status === 'failed').length,
      from_cache: all.filter((r) => r.from_cache).length,
      not_started: planned - all.length,
    },
    systems: mergedSystems(manifests, all),
    merged_from: manifests.map((m) => m.run_id),
    invocations: manifests.flatMap((m) => m.invocations),
  };
}

/** The shards ran the same systems (checked before): each system's counts are the sums of its shards'. */
function mergedSystems(manifests: readonly RunManifest[], all: readonly CallRecord[]): RunManifest['systems'] {
  return runSystems(manifests[0]!).map((system) => {
    const shards = manifests.map((m) => runSystems(m).find((s) => s.name === system.name)!);
    const own = all.filter((r) => r.system === system.name);
    const stopped = shards.find((s) => s.stop_reason !== null);
    // What the system reported, over every shard's records (the first shard's tally alone would undercount).
    const { reported: _firstShard, ...described } = system;
    const reported = tallyReported(own);
    return {
      ...described,
      ...(Object.keys(reported).length > 0 ? { reported } : {}),
      stop_reason: stopped?.stop_reason ?? null,
      stop_message: stopped?.stop_message ?? null,
      counts: {
        planned: shards.reduce((sum, s) => sum + s.counts.planned, 0),
        recorded: own.length,
        succeeded: own.filter((r) => r.status === 'ok').length,
        failed: own.filter((r) => r.status === 'failed').length,
      },
    };
  });
}

/** Shards of a run on the embedded engine each carry the comparison pages their reports link to. */
async function copyComparisonPages(runDirs: readonly string[], target: string): Promise<void> {
  for (const dir of runDirs) {
    const pages = runDirPath(dir, 'comparisonsDir');
    if (existsSync(pages))
      await cp(pages, runDirPath(target, 'comparisonsDir'), { recursive: true }).catch((error: unknown) => {
        throw unwritable(runDirPath(target, 'comparisonsDir'), error);
      });
  }
}
