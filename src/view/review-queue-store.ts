/**
 * Each run's ranked review queue, kept between requests and served a page at a time. Ranking a markdown page
 * item costs an edit distance per system (~5 ms a document on the sample), so rebuilding the whole queue for
 * every page would take seconds on a run of thousands of documents, and sending it whole would be tens of
 * megabytes. The queue is rebuilt when documents.jsonl or a truth file changes outside the view (their
 * modification times and sizes are its key); the view's own edits update it in place, so the order a
 * reviewer walks through stays put while they work.
 */
import { stat } from 'node:fs/promises';
import { runDirPath } from '../run-dir/index.js';
import { buildReviewQueue, editTruth, type QueueItem, type ReviewQueue, type ReviewRun } from './review-source.js';
import type { TruthChange, TruthEdit } from './truth-files.js';

/** One page of the queue: `items` are positions `offset` … `offset + items.length − 1` of `total`. */
export interface ReviewPage extends ReviewQueue {
  offset: number;
  total: number;
  /** Changes when the queue is rebuilt (a re-score, or truth edited outside the view): the order may differ. */
  version: string;
}

export const DEFAULT_PAGE_SIZE = 200;
export const MAX_PAGE_SIZE = 1000;
/** Queues kept at once (the runs reviewed most recently): a long-lived view server must not grow without end. */
const KEPT_RUNS = 4;

interface Entry {
  key: string;
  version: number;
  queue: Promise<ReviewQueue>;
}

export class ReviewQueueStore {
  private readonly entries = new Map<string, Entry>();
  private builds = 0;

  async page(run: ReviewRun, offset: number, limit: number): Promise<ReviewPage> {
    const entry = await this.current(run);
    const queue = await entry.queue;
    return {
      ...queue,
      items: queue.items.slice(offset, offset + limit),
      offset,
      total: queue.items.length,
      version: String(entry.version),
    };
  }

  /** Writes the edit, then updates the kept queue: the new truth on the item, the file's new ETag on all its items. */
  async edit(run: ReviewRun, edit: TruthEdit): Promise<{ change: TruthChange; etag: string }> {
    const result = await editTruth(run, edit);
    const entry = this.entries.get(run.runName);
    if (entry) {
      const queue = await entry.queue.catch(() => null);
      if (queue) {
        for (const item of queue.items) {
          if (item.document_id !== edit.document || item.kind !== edit.kind) continue;
          item.etag = result.etag;
          if (sameSubject(item, edit)) item.truth = edit.value;
        }
        queue.truth_changed = true;
        entry.key = await fingerprint(run);
      }
    }
    return result;
  }

  private async current(run: ReviewRun): Promise<Entry> {
    const key = await fingerprint(run);
    const kept = this.entries.get(run.runName);
    // Re-inserted on every use, so the Map's first entry is the run reviewed longest ago.
    this.entries.delete(run.runName);
    if (kept && kept.key === key) {
      this.entries.set(run.runName, kept);
      return kept;
    }
    const entry: Entry = { key, version: ++this.builds, queue: buildReviewQueue(run) };
    this.entries.set(run.runName, entry);
    if (this.entries.size > KEPT_RUNS) this.entries.delete(this.entries.keys().next().value!);
    entry.queue.catch(() => {
      if (this.entries.get(run.runName) === entry) this.entries.delete(run.runName);
    });
    return entry;
  }
}

function sameSubject(item: QueueItem, edit: TruthEdit): boolean {
  return edit.kind === 'field' ? item.path === edit.path : item.page === edit.page;
}

/** documents.jsonl's and every truth file's modification time and size: what the queue was built from. */
async function fingerprint(run: ReviewRun): Promise<string> {
  const files = [
    runDirPath(run.runDir, 'documents'),
    ...run.dataset.documents.flatMap((d) =>
      [d.truth.json, d.truth.markdown].filter((f): f is string => f !== undefined),
    ),
  ];
  const parts = await Promise.all(
    files.map(async (file) => {
      const info = await stat(file).catch(() => null);
      return info ? `${info.mtimeMs}:${info.size}` : '-';
    }),
  );
  return parts.join(',');
}
