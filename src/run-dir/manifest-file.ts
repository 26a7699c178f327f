/** run.json: read (validated) and written (atomically) here only. The format: formats/manifest.ts. */
import { UsageError } from '../errors.js';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import type { RunManifest } from './manifest.js';
import { checkShape, readJsonFile, type FileRole } from './check-file.js';
import { runDirPath } from './layout.js';

function manifestRole(runDir: string): FileRole {
  return {
    file: runDirPath(runDir, 'manifest'),
    hint: 'run.json is written by docbench run and cannot be re-created: restore it from a copy, or start a new run',
  };
}

/** run.json of `runDir`. @throws UsageError (exit 2) when it is missing, damaged or of another schema version. */
export async function readManifest(runDir: string): Promise<RunManifest> {
  const role = manifestRole(runDir);
  const read = await readJsonFile(role);
  if (!read.found)
    throw new UsageError(`${role.file} not found: ${runDir} is not a docbench run directory`, {
      code: 'INPUT_INVALID',
      subject: runDir,
      hint: 'pass a directory written by docbench run (reports/<run-id>)',
    });
  const { checkManifestV1 } = await import('./formats/manifest.js');
  return checkShape(read.value, checkManifestV1, role);
}

export async function writeManifest(runDir: string, manifest: RunManifest): Promise<void> {
  await writeFileAtomic(runDirPath(runDir, 'manifest'), toJson(manifest));
}
