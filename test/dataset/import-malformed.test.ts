/**
 * A malformed source file stops `docbench dataset import` with exit 2, naming the file and the field, and leaves
 * nothing behind (docs/datasets-import.md), whatever the format.
 */
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES } from './import-round-trip.js';

/** Copies the fixture, edits one JSON file of it, imports it and returns the error output. */
async function importBroken(format: string, fixture: string, file: string, edit: (value: any) => void) {
  const work = await mkdtemp(path.join(tmpdir(), `docbench-import-broken-${format}-`));
  const source = path.join(work, 'source');
  await cp(path.join(FIXTURES, fixture), source, { recursive: true });
  const target = path.join(source, file);
  const value = JSON.parse(await readFile(target, 'utf8'));
  edit(value);
  await writeFile(target, JSON.stringify(value));
  const result = await runCli(['dataset', 'import', format, source, '--out', path.join(work, 'out')], work);
  expect(result.code).toBe(2);
  expect(await readdir(work)).toEqual(['source']);
  return { stderr: result.stderr, target };
}

describe('dataset import: malformed sources', () => {
  it('cord: a word without its quad corner', async () => {
    const { stderr, target } = await importBroken('cord', 'cord', 'train/json/receipt_00000.json', (value) => {
      delete value.valid_line[2].words[0].quad.y3;
    });
    expect(stderr).toContain(`${target}: valid_line[2].words[0].quad.y3: must be a number`);
  });

  it('funsd: an entity whose box is not four numbers', async () => {
    const { stderr, target } = await importBroken(
      'funsd',
      'funsd',
      'training_data/annotations/0000971160.json',
      (value) => {
        value.form[3].box = [1, 2, 3];
      },
    );
    expect(stderr).toContain(`${target}: form[3].box: must be [x0, y0, x1, y1]`);
  });

  it('xfund: a document without its image name', async () => {
    const { stderr, target } = await importBroken('xfund', 'xfund', 'de.val.json', (value) => {
      delete value.documents[1].img.fname;
    });
    expect(stderr).toContain(`${target}: documents[1].img.fname: must be a string`);
  });

  it('docile: a field on a page the PDF does not have', async () => {
    const { stderr, target } = await importBroken(
      'docile',
      'docile',
      'annotations/1b2c3d4e5f60718293a4b5c6.json',
      (value) => {
        value.line_item_extractions[0].page = 3;
      },
    );
    expect(stderr).toContain(`${target}: line_item_extractions[0].page: 3, but the PDF has 1 page(s), counted from 0`);
  });

  it('sroie: a key that is not a string', async () => {
    const { stderr, target } = await importBroken('sroie', 'sroie', 'train/key/X51000000002.json', (value) => {
      value.total = 33.5;
    });
    expect(stderr).toContain(`${target}: total: must be a string`);
  });
});
