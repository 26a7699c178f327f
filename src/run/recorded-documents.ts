/**
 * A new run's documents as their calls are recorded: each is handed on once every call planned for it has its
 * final record in results.jsonl, with those records' index entries in the order they were written, so that
 * scoring can go on while later calls still wait on the network (docs/performance.md, "The tail").
 */
import type { DatasetDocument } from '../types.js';
import type { CallRecord, FinalRecordEntry, FinalRecordIndex } from '../run-dir/index.js';
import type { PlannedCall } from './plan.js';

/** Told of a document whose every planned call is recorded; `entries` as the run's index holds them. */
export type DocumentRecordedListener = (documentId: string, entries: readonly FinalRecordEntry[]) => void;

/**
 * Returns what to call with each record once it is written (its entry is then in `index`, the writer's). A
 * document no call was planned for is handed on at once. Only for an invocation whose results.jsonl holds
 * nothing else: a resumed run's documents also have earlier records, known only once the file is read.
 */
export function trackRecordedDocuments(
  documents: readonly DatasetDocument[],
  calls: readonly PlannedCall[],
  index: FinalRecordIndex,
  listener: DocumentRecordedListener,
): (record: CallRecord) => void {
  const waiting = new Map<string, { left: number; entries: FinalRecordEntry[] }>();
  for (const call of calls) {
    const document = waiting.get(call.document.id);
    if (document) document.left++;
    else waiting.set(call.document.id, { left: 1, entries: [] });
  }
  for (const document of documents) if (!waiting.has(document.id)) listener(document.id, []);
  return (record) => {
    const document = waiting.get(record.document_id);
    const entry = index.get(record.key);
    if (!document || !entry) return;
    document.entries.push(entry);
    if (--document.left > 0) return;
    waiting.delete(record.document_id);
    listener(record.document_id, document.entries);
  };
}
