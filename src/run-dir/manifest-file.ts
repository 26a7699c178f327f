/** run.json: read (validated) and written (atomically) here only. The format: RunManifest in manifest.ts. */
import { UsageError } from '../errors.js';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import { MODES, ENDPOINTS } from '../types.js';
import { MANIFEST_SCHEMA_VERSION, type RunManifest } from './manifest.js';
import { checkShape, defineFileCheck, readJsonFile, type FileRole } from './check-file.js';
import { count, nullableString } from './schema-parts.js';
import { runDirPath } from './layout.js';

const stopReason = { enum: ['interrupted', 'auth', 'outage', 'output', null] };

/** The fields run.json's readers use; further keys are allowed (written by later minor versions). */
const MANIFEST_V1 = {
  type: 'object',
  required: ['schema_version', 'run_id', 'docbench_version', 'created_at', 'ended_at', 'duration_ms', 'status', 'stop_reason', 'dataset', 'service', 'options', 'config', 'counts', 'invocations'],
  properties: {
    schema_version: { const: MANIFEST_SCHEMA_VERSION },
    run_id: { type: 'string', minLength: 1 },
    docbench_version: { type: 'string' },
    docbench_commit: nullableString,
    created_at: { type: 'string' },
    ended_at: nullableString,
    duration_ms: { type: 'number', minimum: 0 },
    status: { enum: ['running', 'completed', 'interrupted', 'stopped'] },
    stop_reason: stopReason,
    stop_message: nullableString,
    dataset: {
      type: 'object',
      required: ['name', 'version', 'path', 'content_hash', 'documents_total', 'documents_selected'],
      properties: { name: { type: 'string' }, version: nullableString, path: { type: 'string' }, content_hash: { type: 'string' }, documents_total: count, documents_selected: count },
    },
    service: { type: 'object', required: ['base_url', 'local', 'identity'], properties: { base_url: nullableString, local: { type: 'boolean' }, identity: { type: 'string' } } },
    options: {
      type: 'object',
      required: ['modes', 'endpoints', 'repeat', 'cache', 'selection'],
      properties: {
        modes: { type: 'array', items: { enum: [...MODES] } },
        endpoints: { type: 'array', items: { enum: [...ENDPOINTS] } },
        repeat: { type: 'integer', minimum: 1 },
        cache: { type: 'boolean' },
        selection: {
          type: 'object',
          required: ['filters', 'sample', 'seed', 'limit', 'shard'],
          properties: {
            filters: { type: 'array', items: { type: 'object', required: ['key', 'value'], properties: { key: { type: 'string' }, value: { type: 'string' } } } },
            sample: { type: ['integer', 'null'], minimum: 1 },
            seed: { type: 'integer' },
            limit: { type: ['integer', 'null'], minimum: 0 },
            shard: { oneOf: [{ type: 'null' }, { type: 'object', required: ['index', 'count'], properties: { index: { type: 'integer', minimum: 1 }, count: { type: 'integer', minimum: 1 } } }] },
          },
        },
      },
    },
    config: { type: 'object' },
    counts: {
      type: 'object',
      required: ['planned', 'recorded', 'succeeded', 'failed', 'from_cache', 'not_started'],
      properties: { planned: count, recorded: count, succeeded: count, failed: count, from_cache: count, not_started: { type: 'integer' } },
    },
    merged_from: { type: 'array', items: { type: 'string' } },
    // Written since runs hold several systems (docs/systems.md); absent in older runs, read as their one system.
    systems: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'kind', 'identity', 'operations', 'options', 'price', 'stop_reason', 'stop_message', 'counts'],
        properties: {
          name: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,39}$' },
          kind: { type: 'string', minLength: 1 },
          identity: { type: 'string' },
          operations: { type: 'array', items: { enum: [...ENDPOINTS] } },
          options: { type: 'object' },
          price: { type: ['object', 'null'] },
          stop_reason: stopReason,
          stop_message: nullableString,
          counts: { type: 'object', required: ['planned', 'recorded', 'succeeded', 'failed'], properties: { planned: count, recorded: count, succeeded: count, failed: count } },
        },
      },
    },
    reference: nullableString,
    invocations: {
      type: 'array',
      items: { type: 'object', required: ['started_at', 'ended_at', 'recorded', 'stop_reason'], properties: { started_at: { type: 'string' }, ended_at: nullableString, recorded: count, stop_reason: stopReason } },
    },
  },
} as const;

const checkManifestV1 = defineFileCheck<RunManifest>('run-manifest-v1', MANIFEST_V1);

function manifestRole(runDir: string): FileRole {
  return { file: runDirPath(runDir, 'manifest'), hint: 'run.json is written by docbench run and cannot be re-created: restore it from a copy, or start a new run' };
}

/** run.json of `runDir`. @throws UsageError (exit 2) when it is missing, damaged or of another schema version. */
export async function readManifest(runDir: string): Promise<RunManifest> {
  const role = manifestRole(runDir);
  const read = await readJsonFile(role);
  if (!read.found) throw new UsageError(`${role.file} not found: ${runDir} is not a docbench run directory`, { code: 'INPUT_INVALID', subject: runDir, hint: 'pass a directory written by docbench run (reports/<run-id>)' });
  return checkShape(read.value, checkManifestV1, role);
}

export async function writeManifest(runDir: string, manifest: RunManifest): Promise<void> {
  await writeFileAtomic(runDirPath(runDir, 'manifest'), toJson(manifest));
}
