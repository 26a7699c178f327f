import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  readBaselineJson,
  readMarkdownPages,
  readRegionPages,
  readTruthJson,
  splitMarkdownPages,
} from '../../src/dataset/index.js';
import { PAGE_BREAK } from '../../src/types.js';
import { FIXTURE_REGIONS, FIXTURE_TRUTH } from './fixture.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-read-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('splitMarkdownPages', () => {
  it('splits on the page-break line, trims blank edges, keeps inner text', () => {
    expect(splitMarkdownPages(`# One\n\ntext\n\n${PAGE_BREAK}\n\n| a | b |\n`)).toEqual(['# One\n\ntext', '| a | b |']);
  });
  it('accepts CRLF and spaces around the marker, and ignores the marker inside a line', () => {
    expect(splitMarkdownPages(`a\r\n  ${PAGE_BREAK} \r\nb ${PAGE_BREAK}\r\n`)).toEqual(['a', `b ${PAGE_BREAK}`]);
  });
  it('gives one page when there is no marker, and an empty page for an empty file', () => {
    expect(splitMarkdownPages('only')).toEqual(['only']);
    expect(splitMarkdownPages('')).toEqual(['']);
  });
});

describe('file readers', () => {
  it('readMarkdownPages rejects non-UTF-8 with a UsageError naming the file', async () => {
    const file = path.join(dir, 'latin1.md');
    await writeFile(file, Buffer.from([0x43, 0x61, 0x66, 0xe9]));
    const error = await readMarkdownPages(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(file);
    expect((error as UsageError).code).toBe('DATASET_INVALID');
  });

  it('readRegionPages returns valid regions and rejects boxes with no size', async () => {
    const good = path.join(dir, 'good.regions.json');
    await writeFile(good, JSON.stringify(FIXTURE_REGIONS));
    expect(await readRegionPages(good)).toEqual(FIXTURE_REGIONS);
    const bad = path.join(dir, 'bad.regions.json');
    await writeFile(
      bad,
      JSON.stringify([
        {
          page: 1,
          width: 612,
          height: 792,
          bounding_boxes: [{ bounding_box: { min_x: 2, min_y: 1, max_x: 2, max_y: 2 }, content: '' }],
        },
      ]),
    );
    await expect(readRegionPages(bad)).rejects.toThrow(/positive size/);
  });

  it('readTruthJson and readBaselineJson read what the document points to, undefined when absent', async () => {
    const file = path.join(dir, 'truth.json');
    await writeFile(file, JSON.stringify(FIXTURE_TRUTH));
    const document = { id: 'x', tags: {}, truth: { json: file }, baseline: {} };
    expect(await readTruthJson(document)).toEqual(FIXTURE_TRUTH);
    expect(await readBaselineJson(document)).toBeUndefined();
  });
});
