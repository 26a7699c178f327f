/**
 * The content hash is what runs record to prove they scored the same files: its value must not move when the
 * code that computes it gets faster. The reference here follows the documented byte stream in the plainest
 * way (read each file whole, one after the other), independent of content-hash.ts.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeContentHash, validateDataset } from '../../src/dataset/index.js';
import { MINIMAL_PDF, validFiles, writeDataset } from './fixture.js';

const created: string[] = [];
afterEach(async () => {
  for (const root of created.splice(0)) await rm(root, { recursive: true, force: true });
});

/** sha256 over path NUL length NUL bytes, for `files` in code-unit order, as the module comment documents. */
async function hashByTheBook(root: string, files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const relative of [...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const bytes = await readFile(path.join(root, relative));
    hash.update(Buffer.from(`${relative}\0${bytes.length}\0`, 'utf8'));
    hash.update(bytes);
  }
  return `sha256:${hash.digest('hex')}`;
}

describe('content hash', () => {
  it('is sha256 over the sorted files as documented: nested folders, empty, large, non-ASCII names, links inside counted, README.md and links out not', async () => {
    // A large file spans several of the hash's read chunks; its bytes vary so a chunk hashed twice or out of order shows.
    const large = Buffer.alloc(3 * 1024 * 1024 + 12345);
    for (let i = 0; i < large.length; i++) large[i] = (i * 31 + (i >> 11)) & 0xff;
    const root = await writeDataset({
      ...validFiles(),
      'documents/claim-2.pdf': Buffer.concat([MINIMAL_PDF, large]),
      'documents/Zeta.pdf': MINIMAL_PDF,
      'documents/é-accent.pdf': MINIMAL_PDF,
      'notes/empty.txt': '',
      // Code-unit order puts the surrogate pair of 😀 (U+D83D…) before Ａ (U+FF21); code-point order would not.
      'notes/😀.txt': 'smile',
      'notes/Ａ.txt': 'fullwidth',
      'notes/deep/er/README.md': 'only the top-level README.md is left out',
      'README.md': 'not hashed',
    });
    created.push(root);
    const outside = await writeDataset({ 'secret.txt': 'outside the dataset' });
    created.push(outside);
    await mkdir(path.join(root, 'links'));
    await symlink(path.join(root, 'notes', 'deep', 'er', 'README.md'), path.join(root, 'links', 'inside.md'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'links', 'outside.txt'));
    await writeFile(path.join(root, 'truth', 'claim-2.md'), '# Claim 2\n');

    const counted = [
      ...Object.keys(validFiles()).filter((file) => file !== 'README.md'),
      'documents/claim-2.pdf',
      'documents/Zeta.pdf',
      'documents/é-accent.pdf',
      'notes/empty.txt',
      'notes/😀.txt',
      'notes/Ａ.txt',
      'notes/deep/er/README.md',
      'links/inside.md',
      'truth/claim-2.md',
    ];
    const expected = await hashByTheBook(root, counted);
    expect(await computeContentHash(root)).toBe(expected);
    expect((await validateDataset(root)).contentHash).toBe(expected);
  });

  it('is the same when the files are read on worker threads (thousands of files)', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 4200 }, (_, i) => [
        `documents/d-${i}.pdf`,
        Buffer.concat([MINIMAL_PDF, Buffer.from(String(i).repeat(i % 50))]),
      ]),
    );
    const root = await writeDataset({
      'schema.json': '{}',
      ...many,
      'documents/large.pdf': Buffer.concat([MINIMAL_PDF, Buffer.alloc(2 * 1024 * 1024 + 1, 7)]),
    });
    created.push(root);
    const expected = await hashByTheBook(root, ['schema.json', 'documents/large.pdf', ...Object.keys(many)]);
    expect(await computeContentHash(root)).toBe(expected);
  });

  it('pins the value for a fixed two-file dataset', async () => {
    const root = await writeDataset({ 'schema.json': '{}', 'documents/a.pdf': '%PDF-1.4\n%%EOF\n' });
    created.push(root);
    // sha256("documents/a.pdf\0" "15\0" "%PDF-1.4\n%%EOF\n" "schema.json\0" "2\0" "{}"), computed once outside Node with
    // printf … | sha256sum; a change here means every recorded run's hash would stop matching.
    expect(await computeContentHash(root)).toBe(await hashByTheBook(root, ['schema.json', 'documents/a.pdf']));
    expect(await computeContentHash(root)).toBe(
      'sha256:702fc6b67fd497d65d9b38c356be838a9ae7ff892bbe9e64096940d0b0ccfedd',
    );
  });
});
