/**
 * gate.json: the gate's verdict (GateResult in evaluation-types.ts), read (validated) and written here only.
 * Written with `schema_version` 1; files from before docbench recorded it have the same shape and are read
 * as version 1. Checks and document failures name their `system` since runs hold several; files without it
 * belong to the run's primary system.
 */
import { rm } from 'node:fs/promises';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import type { GateResult } from './evaluation-types.js';
import { checkShape, defineFileCheck, readJsonFile, type FileRole } from './check-file.js';
import { runDirPath } from './layout.js';

export const GATE_SCHEMA_VERSION = 1;

const GATE_V1 = {
  type: 'object',
  required: ['passed', 'checks', 'document_failures'],
  properties: {
    schema_version: { const: GATE_SCHEMA_VERSION },
    passed: { type: 'boolean' },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['metric', 'op', 'threshold', 'actual', 'passed', 'message'],
        properties: { metric: { type: 'string' }, system: { type: 'string' }, scope: { type: 'string' }, op: { enum: ['>=', '<='] }, threshold: { type: 'number' }, actual: { type: ['number', 'null'] }, passed: { type: 'boolean' }, message: { type: 'string' } },
      },
    },
    document_failures: {
      type: 'array',
      items: { type: 'object', required: ['document_id', 'reasons'], properties: { document_id: { type: 'string' }, system: { type: 'string' }, reasons: { type: 'array', items: { type: 'string' } } } },
    },
  },
} as const;

const checkGateV1 = defineFileCheck<GateResult & { schema_version?: number }>('gate-v1', GATE_V1);

function gateRole(runDir: string): FileRole {
  return { file: runDirPath(runDir, 'gate'), hint: `re-create it with: docbench gate ${runDir} (or delete it to report without a gate)` };
}

/** gate.json of `runDir`, or null when no gate was applied. @throws UsageError (exit 2) when damaged. */
export async function readGate(runDir: string): Promise<GateResult | null> {
  const role = gateRole(runDir);
  const read = await readJsonFile(role);
  if (!read.found) return null;
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
