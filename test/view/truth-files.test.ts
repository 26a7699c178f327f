import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetDocument } from '../../src/types.js';
import {
  applyTruthEdit,
  etagOf,
  StaleTruthError,
  TRUTH_CHANGES_FILE,
  type TruthEdit,
} from '../../src/view/truth-files.js';

let dir: string;
let doc: DatasetDocument;
const edit = (over: Partial<TruthEdit>): TruthEdit => ({
  document: 'd1',
  kind: 'field',
  path: 'patient.name',
  page: null,
  value: 'B',
  source: 'local (slow)',
  note: 'n',
  run: 'r1',
  ifMatch: '',
  ...over,
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-truth-'));
  await mkdir(path.join(dir, 'truth'));
  await writeFile(path.join(dir, 'truth', 'd1.json'), '{\n    "patient": {\n        "name": "A"\n    }\n}\n');
  await writeFile(path.join(dir, 'truth', 'd1.md'), '# One\n\n<!-- page-break -->\n\n# Two\n');
  doc = {
    id: 'd1',
    tags: {},
    truth: { json: path.join(dir, 'truth', 'd1.json'), markdown: path.join(dir, 'truth', 'd1.md') },
    baseline: {},
  } as DatasetDocument;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('applyTruthEdit', () => {
  it('replaces the value keeping the file style, logs the change and returns the new ETag', async () => {
    const file = path.join(dir, 'truth', 'd1.json');
    const { change, etag } = await applyTruthEdit(dir, doc, edit({ ifMatch: etagOf(await readFile(file)) }));
    const text = await readFile(file, 'utf8');
    expect(text).toBe('{\n    "patient": {\n        "name": "B"\n    }\n}\n');
    expect(etag).toBe(etagOf(text));
    expect(change).toMatchObject({
      document: 'd1',
      field_path: 'patient.name',
      page: null,
      old: 'A',
      new: 'B',
      source: 'local (slow)',
      note: 'n',
      run: 'r1',
    });
    const lines = (await readFile(path.join(dir, TRUTH_CHANGES_FILE), 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([change]);
  });

  it('replaces one markdown page', async () => {
    const file = path.join(dir, 'truth', 'd1.md');
    await applyTruthEdit(
      dir,
      doc,
      edit({ kind: 'page', path: null, page: 2, value: '# 2', ifMatch: etagOf(await readFile(file)) }),
    );
    expect(await readFile(file, 'utf8')).toBe('# One\n\n<!-- page-break -->\n\n# 2\n');
  });

  it('refuses a stale ETag and writes nothing', async () => {
    const file = path.join(dir, 'truth', 'd1.json');
    const before = await readFile(file, 'utf8');
    await expect(applyTruthEdit(dir, doc, edit({ ifMatch: '"old"' }))).rejects.toBeInstanceOf(StaleTruthError);
    expect(await readFile(file, 'utf8')).toBe(before);
    await expect(lstat(path.join(dir, TRUTH_CHANGES_FILE))).rejects.toThrow();
  });

  it('lets one of two writes with the same ETag through', async () => {
    const ifMatch = etagOf(await readFile(path.join(dir, 'truth', 'd1.json')));
    const results = await Promise.allSettled([
      applyTruthEdit(dir, doc, edit({ ifMatch, value: 'X' })),
      applyTruthEdit(dir, doc, edit({ ifMatch, value: 'Y' })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses a truth file that is a symbolic link out of the dataset', async () => {
    const outside = path.join(dir, '..', `${path.basename(dir)}-outside.json`);
    await writeFile(outside, '{"patient":{"name":"A"}}');
    const link = path.join(dir, 'truth', 'd2.json');
    await symlink(outside, link);
    const linked = { ...doc, id: 'd2', truth: { json: link } } as DatasetDocument;
    await expect(
      applyTruthEdit(dir, linked, edit({ document: 'd2', ifMatch: etagOf(await readFile(outside)) })),
    ).rejects.toThrow(/not a regular truth file/);
    expect(await readFile(outside, 'utf8')).toBe('{"patient":{"name":"A"}}');
    await rm(outside);
  });
});
