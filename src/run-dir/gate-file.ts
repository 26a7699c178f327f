/**
 * gate.json: the gate's verdict, read (validated) and written here only. The format: formats/gate.ts.
 */
import { rm } from 'node:fs/promises';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import { GATE_SCHEMA_VERSION, type GateResult } from './evaluation-types.js';
import { checkShape, readJsonFile, type FileRole } from './check-file.js';
import { runDirPath } from './layout.js';

export { GATE_SCHEMA_VERSION };

function gateRole(runDir: string): FileRole {
  return {
    file: runDirPath(runDir, 'gate'),
    hint: `re-create it with: docbench gate ${runDir} (or delete it to report without a gate)`,
  };
}

/** gate.json of `runDir`, or null when no gate was applied. @throws UsageError (exit 2) when damaged. */
export async function readGate(runDir: string): Promise<GateResult | null> {
  const role = gateRole(runDir);
  const read = await readJsonFile(role);
  if (!read.found) return null;
  const { checkGateV1 } = await import('./formats/gate.js');
  const { passed, checks, document_failures } = checkShape(read.value, checkGateV1, role);
  return { passed, checks, document_failures };
}

export async function writeGate(runDir: string, result: GateResult): Promise<void> {
  await writeFileAtomic(runDirPath(runDir, 'gate'), toJson({ schema_version: GATE_SCHEMA_VERSION, ...result }));
}

/** Removes a gate.json left by an earlier invocation, so reports never show a verdict the current config did not give. */
export async function clearGate(runDir: string): Promise<void> {
  await rm(runDirPath(runDir, 'gate'), { force: true });
}
