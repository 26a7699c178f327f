import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSmallFiles, type ReadFile, type ReadSmallFilesOptions } from '../../src/dataset/read-pool.js';

const created: string[] = [];
afterEach(async () => {
  for (const dir of created.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** `count` files of varied sizes (empty, over `maxBytes`, a third of 60 KB so that batches are cut short by size); their paths. */
async function writeFiles(count: number, maxBytes: number): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-read-pool-'));
  created.push(dir);
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `f${i}.bin`);
    const size = i % 97 === 0 ? maxBytes + 1 + i : i % 10 === 0 ? 0 : i % 3 === 0 ? 60_000 : 1 + ((i * 7919) % 5000);
    const bytes = Buffer.alloc(size);
    for (let b = 0; b < size; b++) bytes[b] = (i + b * 31) & 0xff;
    await writeFile(file, bytes);
    files.push(file);
  }
  return files;
}

/** Small lists go to the workers too, so that the tests need not write thousands of files. */
const workersFrom = 500;

async function collect(
  files: string[],
  maxBytes: number,
  options: ReadSmallFilesOptions = { workersFrom },
): Promise<ReadFile[]> {
  const read: ReadFile[] = [];
  for await (const file of readSmallFiles(files, maxBytes, options)) read.push(file);
  return read;
}

async function expectRead(files: string[], read: ReadFile[], maxBytes: number): Promise<void> {
  expect(read).toHaveLength(files.length);
  for (const [index, file] of files.entries()) {
    const bytes = await readFile(file);
    expect(read[index]!.size, file).toBe(bytes.length);
    if (bytes.length > maxBytes) expect(read[index]!.bytes, file).toBeUndefined();
    else expect(read[index]!.bytes?.equals(bytes), file).toBe(true);
  }
}

describe('readSmallFiles', () => {
  const maxBytes = 64 * 1024;

  it('reads a few files in order on the calling thread', async () => {
    const files = await writeFiles(40, maxBytes);
    await expectRead(files, await collect(files, maxBytes, {}), maxBytes);
  });

  it('reads many files in order on the workers, batches cut short by size included, and leaves large ones to the caller', async () => {
    const files = await writeFiles(1500, maxBytes);
    await expectRead(files, await collect(files, maxBytes), maxBytes);
  });

  it('rejects with the fs error of the first unreadable file after yielding the files before it', async () => {
    const files = await writeFiles(1200, maxBytes);
    const missing = path.join(path.dirname(files[0]!), 'gone.bin');
    files.splice(700, 0, missing);
    const read: ReadFile[] = [];
    const reading = (async () => {
      for await (const file of readSmallFiles(files, maxBytes, { workersFrom })) read.push(file);
    })();
    await expect(reading).rejects.toMatchObject({
      code: 'ENOENT',
      path: missing,
      message: expect.stringContaining(missing),
    });
    expect(read).toHaveLength(700);
  });

  it('stops its workers when the consumer stops early', async () => {
    const files = await writeFiles(1000, maxBytes);
    let count = 0;
    for await (const file of readSmallFiles(files, maxBytes, { workersFrom })) {
      expect(file.size).toBeGreaterThanOrEqual(0);
      if (++count === 10) break;
    }
    expect(count).toBe(10);
  });
});
