/**
 * Which documents a run takes and which calls it makes for each: pure functions of the dataset and the
 * selection flags, so the same flags always give the same plan (and shards of it partition it exactly).
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';
import type { Dataset, DatasetDocument, Endpoint, Mode } from '../types.js';
import type { System } from '../systems/index.js';
import { callKey, type Selection } from '../run-dir/index.js';

/** Recorded in run.json, so its format is run-dir's. */
export type { Selection };

export interface PlannedCall {
  key: string;
  /** The system's name. */
  system: string;
  document: DatasetDocument;
  endpoint: Endpoint;
  mode: Mode | null;
  repeat: number;
}

/** What the plan needs of a system: its name, its operations, and which documents it has answers for. */
export type PlanSystem = Pick<System, 'name' | 'operations' | 'answers'>;

export interface PlanOptions {
  modes: Mode[];
  endpoints: Endpoint[];
  repeat: number;
  systems: readonly PlanSystem[];
}

/** Parses `--shard i/n`. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard ${JSON.stringify(text)} is not a shard i/n with 1 ≤ i ≤ n`, {
      subject: '--shard',
      hint: 'e.g. --shard 1/4 … --shard 4/4',
    });
  }
  return { index, count };
}

/** Parses `--filter key=value`. */
export function parseFilter(text: string): { key: string; value: string } {
  const at = text.indexOf('=');
  if (at <= 0)
    throw new UsageError(`--filter ${JSON.stringify(text)} is not key=value`, {
      subject: '--filter',
      hint: 'e.g. --filter tier=fax',
    });
  return { key: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}

export function selectDocuments(documents: readonly DatasetDocument[], selection: Selection): DatasetDocument[] {
  let selected = [...documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (selection.filters.length > 0) {
    selected = selected.filter((doc) => selection.filters.every((f) => doc.tags[f.key] === f.value));
  }
  if (selection.sample !== null && selection.sample < selected.length) {
    // A seeded order by hash(seed, id): the same seed picks the same documents whatever the dataset order.
    const rank = (id: string) => createHash('sha256').update(`${selection.seed}:${id}`).digest('hex');
    const picked = new Set(
      selected
        .map((doc) => ({ id: doc.id, rank: rank(doc.id) }))
        .sort((a, b) => (a.rank < b.rank ? -1 : 1))
        .slice(0, selection.sample)
        .map((d) => d.id),
    );
    selected = selected.filter((doc) => picked.has(doc.id));
  }
  if (selection.limit !== null) selected = selected.slice(0, selection.limit);
  if (selection.shard) {
    const { index, count } = selection.shard;
    // Round robin over ids in sorted order: shards differ in size by at most one, and together they are
    // exactly the unsharded selection.
    selected = selected.filter((_, i) => i % count === index - 1);
  }
  return selected;
}

/**
 * Every call of the run: system × document × operation × mode × repeat. Each system's calls are in document
 * order, so early documents finish first; a system is asked only for the operations it supports and the
 * documents it has answers for.
 */
export function planCalls(documents: readonly DatasetDocument[], options: PlanOptions): PlannedCall[] {
  const calls: PlannedCall[] = [];
  for (const { name: system, operations, answers } of options.systems) {
    for (const document of documents) {
      const endpoints = (document.endpoints ?? options.endpoints).filter(
        (endpoint) => operations.has(endpoint) && (answers === undefined || answers(document, endpoint)),
      );
      const modes = document.modes ?? options.modes;
      for (let repeat = 0; repeat < options.repeat; repeat++) {
        for (const endpoint of endpoints) {
          if (endpoint === 'extract') {
            for (const mode of modes)
              calls.push({
                key: callKey(system, document.id, endpoint, mode, repeat),
                system,
                document,
                endpoint,
                mode,
                repeat,
              });
          } else {
            calls.push({
              key: callKey(system, document.id, endpoint, null, repeat),
              system,
              document,
              endpoint,
              mode: null,
              repeat,
            });
          }
        }
      }
    }
  }
  return calls;
}

/** The documents of a dataset a stored run covered, by id. */
export function documentsById(dataset: Dataset): Map<string, DatasetDocument> {
  return new Map(dataset.documents.map((d) => [d.id, d]));
}
