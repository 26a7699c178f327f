/**
 * The kept review queues: built once per run while nothing changes, sliced into pages, the view's own edits
 * applied in place, and no more than a few runs kept at once. buildReviewQueue and editTruth are replaced by
 * counters here; test/browser/view.test.ts runs the real ones over a real run.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueItem, ReviewQueue, ReviewRun } from '../../src/view/review-source.js';

const builds: string[] = [];
vi.mock('../../src/view/review-source.js', () => ({
  buildReviewQueue: async (run: ReviewRun): Promise<ReviewQueue> => {
    builds.push(run.runName);
    const subjects: [string, string][] = [
      ['d0', 'total'],
      ['d0', 'name'],
      ['d1', 'total'],
      ['d1', 'name'],
      ['d0', 'date'],
    ];
    const items = subjects.map(
      ([document, field], i) =>
        ({
          id: `field:${document}:${field}`,
          document_id: document,
          kind: 'field',
          path: field,
          page: null,
          truth: i,
          etag: '"a"',
        }) as unknown as QueueItem,
    );
    return { run: run.runName, dataset: 'tiny', items, truth_changed: false, figures: [] };
  },
  editTruth: async () => ({ change: {}, etag: '"b"' }),
}));
const { ReviewQueueStore } = await import('../../src/view/review-queue-store.js');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docbench-queue-store-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
beforeEach(() => {
  builds.length = 0;
});

function run(name: string): ReviewRun {
  return { runDir: path.join(dir, name), runName: name, dataset: { documents: [] } } as unknown as ReviewRun;
}

describe('ReviewQueueStore', () => {
  it("builds a run's queue once, serves it in pages, and builds it anew when documents.jsonl changes", async () => {
    const store = new ReviewQueueStore();
    const first = await store.page(run('r1'), 0, 2);
    const rest = await store.page(run('r1'), 2, 10);
    expect(builds).toEqual(['r1']);
    expect([first.items.length, first.total, rest.items.length, rest.offset]).toEqual([2, 5, 3, 2]);
    expect(rest.version).toBe(first.version);
    // The run's documents.jsonl appears (a re-score): another fingerprint, another build, another version.
    await mkdir(path.join(dir, 'r1'), { recursive: true });
    await writeFile(path.join(dir, 'r1', 'documents.jsonl'), '{}\n');
    const again = await store.page(run('r1'), 0, 2);
    expect(builds).toEqual(['r1', 'r1']);
    expect(again.version).not.toBe(first.version);
  });

  it("applies the view's own edit in place: same version, new truth on the item, new ETag on the file's items", async () => {
    const store = new ReviewQueueStore();
    const before = await store.page(run('r2'), 0, 10);
    await store.edit(run('r2'), {
      document: 'd0',
      kind: 'field',
      path: 'total',
      page: null,
      value: 42,
      source: 'edit',
      note: '',
      run: 'r2',
      ifMatch: '"a"',
    });
    const after = await store.page(run('r2'), 0, 10);
    expect(builds).toEqual(['r2']);
    expect(after.version).toBe(before.version);
    expect(after.truth_changed).toBe(true);
    expect(after.items.map((i) => [i.id, i.truth, i.etag])).toEqual([
      ['field:d0:total', 42, '"b"'],
      ['field:d0:name', 1, '"b"'],
      ['field:d1:total', 2, '"a"'],
      ['field:d1:name', 3, '"a"'],
      ['field:d0:date', 4, '"b"'],
    ]);
  });

  it('keeps the four runs reviewed most recently', async () => {
    const store = new ReviewQueueStore();
    for (const name of ['a', 'b', 'c', 'd']) await store.page(run(name), 0, 1);
    await store.page(run('a'), 0, 1); // a is now the most recent
    await store.page(run('e'), 0, 1); // evicts b, the least recent
    await store.page(run('a'), 0, 1);
    expect(builds).toEqual(['a', 'b', 'c', 'd', 'e']);
    await store.page(run('b'), 0, 1);
    expect(builds).toEqual(['a', 'b', 'c', 'd', 'e', 'b']);
  });
});
