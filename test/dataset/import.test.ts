import { mkdtemp, readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importDataset } from '../../src/dataset/index.js';
import { stageDataset } from '../../src/dataset/import/dataset-writer.js';
import { drawDocuments } from '../../src/dataset/import/draw.js';
import { silentLogger } from '../../src/logger.js';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'docbench-import-'));
}

describe('dataset import: the shared command', () => {
  it('names the formats it knows when asked for another', async () => {
    const dir = await tempDir();
    await expect(
      importDataset('no-such-format', dir, { out: path.join(dir, 'out'), force: false, seed: 1, logger: silentLogger }),
    ).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('"no-such-format" is not a format') });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('dataset import: the staging writer', () => {
  it('moves the dataset into place only on commit, and leaves nothing on abandon', async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'imported');
    const source = path.join(dir, 'page.png');
    await writeFile(source, 'not really a png');

    const abandoned = await stageDataset(out, { force: false });
    await abandoned.writer.addDocument('a', source);
    await abandoned.abandon();
    expect(await readdir(dir)).toEqual(['page.png']);

    const staged = await stageDataset(out, { force: false });
    await staged.writer.addDocument('a', source);
    await staged.writer.writeTruthJson('a', { total: '1.00' });
    await staged.commit();
    expect((await readdir(out)).sort()).toEqual(['documents', 'truth']);
    expect(JSON.parse(await readFile(path.join(out, 'truth', 'a.json'), 'utf8'))).toEqual({ total: '1.00' });
  });

  it('refuses a non-empty destination unless forced, and then replaces it whole', async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'imported');
    await mkdir(out);
    await writeFile(path.join(out, 'old.txt'), 'old');
    await expect(stageDataset(out, { force: false })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('not empty'),
    });
    const staged = await stageDataset(out, { force: true });
    await staged.writer.writeText('checks.jsonl', '');
    await staged.commit();
    expect(await readdir(out)).toEqual(['checks.jsonl']);
  });

  it('refuses a document of a format docbench does not read', async () => {
    const dir = await tempDir();
    const source = path.join(dir, 'page.gif');
    await writeFile(source, 'GIF89a');
    const staged = await stageDataset(path.join(dir, 'out'), { force: false });
    await expect(staged.writer.addDocument('a', source)).rejects.toMatchObject({
      message: expect.stringContaining('".gif" is not a document format'),
    });
    await staged.abandon();
  });
});

describe('dataset import: --limit and --seed', () => {
  const ids = Array.from({ length: 50 }, (_, index) => `doc-${index}`);

  it('draws the same documents for the same seed, in the source order', () => {
    const first = drawDocuments(ids, 10, 7);
    expect(first).toHaveLength(10);
    expect(new Set(first).size).toBe(10);
    expect(drawDocuments(ids, 10, 7)).toEqual(first);
    expect([...first].sort((a, b) => ids.indexOf(a) - ids.indexOf(b))).toEqual(first);
    expect(drawDocuments(ids, 10, 8)).not.toEqual(first);
  });

  it('keeps everything without a limit or with one above the count', () => {
    expect(drawDocuments(ids, undefined, 1)).toEqual(ids);
    expect(drawDocuments(ids, 80, 1)).toEqual(ids);
  });
});
