/**
 * The fixed schema checks precompiled by `npm run build` (dist/precompiled-checks/, src/schema-check.ts):
 * the build's code and the schema compiled at run time give the same verdict and the same ajv errors (hence
 * the same messages) on the files of a real run, on damaged copies of them and on other files' values; a
 * precompiled check whose schema, options or ajv version changed since the build is not used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { ROOT, runCli } from '../helpers/cli.js';
import '../../src/run-dir/formats/index.js';
import '../../src/dataset/manifest.js';
import '../../src/dataset/schema-subset.js';
import { compileCheck, listDefinedChecks, loadPrecompiledCheck, type CheckDefinition } from '../../src/schema-check.js';

const BUILD = new URL(`file://${path.join(ROOT, 'dist', 'precompiled-checks')}/`);

let root: string;
let service: FakeService;
/** Values read from a real run's files and the sample dataset, by where they came from. */
const samples = new Map<string, unknown>();

beforeAll(async () => {
  service = await startFakeService();
  root = await mkdtemp(path.join(tmpdir(), 'docbench-precompiled-checks-'));
  const dataset = await writeTinyDataset(path.join(root, 'data'), tinyDocuments(3));
  const runDir = path.join(root, 'run');
  const { code, stderr } = await runCli(
    ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--out', runDir, '--no-cache', '--quiet'],
    root,
  );
  expect(code, stderr).toBe(0);
  for (const file of ['run.json', 'summary.json'])
    samples.set(file, JSON.parse(await readFile(path.join(runDir, file), 'utf8')));
  for (const file of ['documents.jsonl', 'results.jsonl']) {
    const lines = (await readFile(path.join(runDir, file), 'utf8')).split('\n').filter(Boolean);
    for (const [index, line] of lines.entries()) samples.set(`${file}:${index + 1}`, JSON.parse(line));
  }
  samples.set('gate.json', { schema_version: 1, passed: true, checks: [], document_failures: [] });
  for (const file of ['dataset.json', 'schema.json'])
    samples.set(file, JSON.parse(await readFile(path.join(ROOT, 'datasets', 'sample-claims', file), 'utf8')));
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Damaged copies of `value`: each key (to depth 2) dropped, or replaced by a string, null or -1. */
function damage(value: unknown, depth = 2): unknown[] {
  if (depth === 0 || typeof value !== 'object' || value === null) return [];
  const entries = Object.entries(value);
  const copies: unknown[] = [];
  for (const [key, inner] of entries) {
    const replace = (next: unknown): unknown =>
      Array.isArray(value) ? Object.assign([...value], { [key]: next }) : { ...value, [key]: next };
    if (!Array.isArray(value)) copies.push(Object.fromEntries(entries.filter(([other]) => other !== key)));
    copies.push(replace('x'), replace(null), replace(-1));
    for (const inside of damage(inner, depth - 1)) copies.push(replace(inside));
  }
  return copies;
}

/** What a check says about `value`: the verdict and ajv's errors. */
function verdict(check: (value: unknown) => boolean, value: unknown): unknown {
  const valid = check(value);
  return { valid, errors: (check as unknown as { errors?: unknown }).errors ?? null };
}

describe('precompiled schema checks', () => {
  const checks = [...listDefinedChecks()];

  it('covers every check the run-directory readers and dataset.json define', () => {
    expect(checks.map(([name]) => name).sort()).toEqual([
      'call-record',
      'dataset-manifest',
      'document-line',
      'document-line-v1',
      'gate-v1',
      'json-schema-draft-07',
      'run-manifest-v1',
      'summary-v1',
      'summary-v2',
    ]);
  });

  it.each(checks)(
    "%s: the build's code and the run-time compile agree on valid, damaged and foreign values",
    (name, definition) => {
      const precompiled = loadPrecompiledCheck(name, definition, BUILD);
      expect(precompiled, `dist/precompiled-checks/${name}.cjs is missing or stale: run npm run build`).toBeDefined();
      const compiled = compileCheck(definition);
      let valid = 0;
      let invalid = 0;
      for (const [source, value] of samples) {
        for (const candidate of [value, ...damage(value)]) {
          const expected = verdict(compiled, candidate);
          expect(verdict(precompiled!, candidate), `${name} on ${source}`).toEqual(expected);
          if ((expected as { valid: boolean }).valid) valid += 1;
          else invalid += 1;
        }
      }
      expect(invalid).toBeGreaterThan(0);
      // Each check of a file a run writes passes that file; the checks of the old versions (v1) pass none.
      if (name !== 'summary-v1' && name !== 'document-line-v1') expect(valid).toBeGreaterThan(0);
    },
  );

  it('does not use a precompiled check whose schema or options changed since the build', () => {
    const [name, definition] = checks.find(([candidate]) => candidate === 'summary-v2')!;
    expect(loadPrecompiledCheck(name, definition, BUILD)).toBeDefined();
    const changedSchema: CheckDefinition = {
      ...definition,
      schema: { ...definition.schema, required: ['schema_version'] },
    };
    expect(loadPrecompiledCheck(name, changedSchema, BUILD)).toBeUndefined();
    const changedOptions: CheckDefinition = { ...definition, options: { ...definition.options, allErrors: true } };
    expect(loadPrecompiledCheck(name, changedOptions, BUILD)).toBeUndefined();
  });

  it('compiles at run time where there is no build', () => {
    const [name, definition] = checks[0]!;
    expect(loadPrecompiledCheck(name, definition, new URL(`file://${root}/no-build/`))).toBeUndefined();
  });
});
