/**
 * summary.json: read (validated, by schema version) and written here only. The format: RunSummary in
 * formats/summary.ts. Each readable schema version is one row of SUMMARY_READERS: its own shape check, then
 * the step to the current in-memory form, so files written by an older docbench stay readable. A version 2
 * is one more row; version 1's row then converts what it checked into the version 2 form.
 */
import { UsageError } from '../errors.js';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import { SUMMARY_SCHEMA_VERSION, type RunSummary } from './evaluation-types.js';
import { upgradeSummaryV1 } from './upgrade-v1.js';
import { checkShape, damagedFile, readJsonFile, type FileRole } from './check-file.js';
import { runDirPath } from './layout.js';

/** How to read one schema version: check its shape, then bring it to the current RunSummary. */
interface SummaryReader {
  version: number;
  read: (value: unknown, role: FileRole) => Promise<RunSummary>;
}

/** Readable schema versions; the current one (SUMMARY_SCHEMA_VERSION) is the one written. */
const SUMMARY_READERS: readonly SummaryReader[] = [
  // Schema 1 (one service, the incumbent as baseline files): read as that system and the stored incumbent.
  {
    version: 1,
    read: async (value, role) =>
      upgradeSummaryV1(checkShape(value, (await import('./formats/summary.js')).checkSummaryV1, role)),
  },
  {
    version: 2,
    read: async (value, role) => checkShape(value, (await import('./formats/summary.js')).checkSummaryV2, role),
  },
];

function summaryRole(runDir: string): FileRole {
  return { file: runDirPath(runDir, 'summary'), hint: `re-create it with: docbench score ${runDir}` };
}

/** summary.json of `runDir`, or null when the run has not been scored. @throws UsageError (exit 2) when damaged. */
export async function readSummary(runDir: string): Promise<RunSummary | null> {
  const role = summaryRole(runDir);
  const read = await readJsonFile(role);
  if (!read.found) return null;
  const version = (read.value as { schema_version?: unknown } | null)?.schema_version;
  const reader = SUMMARY_READERS.find((r) => r.version === version);
  if (!reader) {
    const readable = SUMMARY_READERS.map((r) => r.version).join(', ');
    if (typeof version === 'number' && version > SUMMARY_SCHEMA_VERSION) {
      throw new UsageError(`${role.file} has schema_version ${version}; this docbench reads ${readable}`, {
        code: 'INPUT_INVALID',
        subject: role.file,
        hint: `use a newer docbench, or re-create it with: docbench score ${runDir}`,
      });
    }
    throw damagedFile(
      role,
      '$.schema_version',
      `expected one of ${readable}, found ${JSON.stringify(version) ?? 'none'}`,
    );
  }
  return await reader.read(read.value, role);
}

/** summary.json of a run that must be scored. @throws UsageError (exit 2) when missing or damaged. */
export async function readScoredSummary(runDir: string): Promise<RunSummary> {
  const summary = await readSummary(runDir);
  if (summary === null) {
    throw new UsageError(`${runDirPath(runDir, 'summary')} not found: the run has not been scored`, {
      code: 'INPUT_INVALID',
      subject: runDir,
      hint: `score it with: docbench score ${runDir} (or finish it with: docbench run --resume ${runDir})`,
    });
  }
  return summary;
}

export async function writeSummary(runDir: string, summary: RunSummary): Promise<void> {
  await writeFileAtomic(runDirPath(runDir, 'summary'), toJson(summary));
}
