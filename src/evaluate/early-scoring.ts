/**
 * Scoring a new run's documents while its calls go on (docs/performance.md, "The tail"): `docbench run` hands
 * each document over once every call planned for it is recorded (src/run/recorded-documents.ts), and the
 * documents are scored in the dataset's order as far as every earlier one is recorded, from the same lines of
 * results.jsonl and the same truth files as after the calls. evaluateRun takes the scorer over after the last
 * call and scores the rest. A document's scores depend only on its records, its truth and the run's systems,
 * so the outputs are those of scoring every document afterwards (test/evaluate/early-scoring.test.ts).
 */
import { setImmediate } from 'node:timers/promises';
import type { Dataset } from '../types.js';
import { readManifest, type FinalRecordEntry } from '../run-dir/index.js';
import { selectDocuments } from '../run/index.js';
import { hasBaselineFiles, resolveRunSystems, type RunSystems } from './run-systems.js';
import { openDocumentScorer, scoringOrder, type DocumentRecords, type DocumentScorer } from './document-scorer.js';

export interface EarlyScoring {
  /** The run's systems as run.json names them when the calls start: what the documents are scored against. */
  readonly systems: RunSystems;
  /** A document whose every planned call is recorded, with its records' index entries in the order written. */
  documentRecorded(documentId: string, entries: readonly FinalRecordEntry[]): void;
  /** How many documents are scored so far (the first ones of the dataset's order). */
  readonly scored: number;
  /**
   * Waits for the document being scored and hands the scorer over (its `next`: the first document not scored),
   * set to the run's systems as the stored run has them after the calls. Null, with what was written discarded,
   * when scoring failed (evaluateRun scores every document again and meets the failure itself) or the systems
   * are not those the run started with.
   */
  handOver(run: RunSystems): Promise<DocumentScorer | null>;
}

/**
 * Documents are scored only once no call has ended for this long: calls end in bursts (a round of the
 * concurrency's calls, all sent together), and a document scored inside one delays the calls sent after it,
 * and so every later round (docs/performance.md, "The tail").
 */
const QUIET_MS = 2;

export interface EarlyScoringOptions {
  dataset: Dataset;
  /**
   * Told of each document scored during the calls, before the next is scored: its position in the dataset's
   * order and its documents.jsonl line as written (what comes after scoring may start on it, as the reports'
   * drill-downs do). Its failure stops nothing but itself.
   */
  onScored?: (position: number, line: string) => Promise<void>;
}

export async function startEarlyScoring(
  runDir: string,
  { dataset, onScored }: EarlyScoringOptions,
): Promise<EarlyScoring> {
  const manifest = await readManifest(runDir);
  const selected = selectDocuments(dataset.documents, manifest.options.selection);
  // A new run's run.json lists every system it calls; which one stops at its budget is known only at the end,
  // and matters only for a document missing some of its calls, which is never handed over before the end.
  const started = resolveRunSystems(manifest, [], hasBaselineFiles(selected));
  const scorer = await openDocumentScorer(runDir, manifest, selected, started, dataset);
  const ready = new Map<string, readonly FinalRecordEntry[]>();
  let running = false;
  let failed = false;
  let handedOver = false;
  let idle = Promise.resolve();
  let lastRecorded = 0;
  let waiting: NodeJS.Timeout | null = null;
  const quiet = () => performance.now() - lastRecorded >= QUIET_MS;
  // Stops as soon as a call ends, and goes on once they are quiet again.
  const scoreReady = async (): Promise<void> => {
    running = true;
    try {
      for (let next = selected[scorer.next]; next && ready.has(next.id); next = selected[scorer.next]) {
        if (handedOver || !quiet()) break;
        const entries = ready.get(next.id)!;
        ready.delete(next.id);
        const position = scorer.next;
        const line = await scorer.score(await scorer.read(next, entryRecords(entries)));
        await onScored?.(position, line).catch(() => undefined);
        // A response that came in meanwhile is handled, and the next call sent, before the next document.
        await setImmediate();
      }
    } catch {
      failed = true;
    } finally {
      running = false;
    }
    if (!failed && ready.has(selected[scorer.next]?.id ?? '')) scoreWhenQuiet();
  };
  const scoreWhenQuiet = () => {
    if (handedOver || running || failed || waiting) return;
    waiting = setTimeout(() => {
      waiting = null;
      if (quiet()) idle = scoreReady();
      else scoreWhenQuiet();
    }, QUIET_MS);
  };
  return {
    systems: started,
    get scored() {
      return scorer.next;
    },
    documentRecorded(documentId, entries) {
      ready.set(documentId, entries);
      lastRecorded = performance.now();
      scoreWhenQuiet();
    },
    async handOver(run) {
      handedOver = true;
      if (waiting) clearTimeout(waiting);
      waiting = null;
      await idle;
      // What is still waiting is scored by evaluateRun, which reads ahead (a backlog left by calls that were
      // never quiet, as a run of stored systems' calls can be, is scored as fast as after the calls).
      if (failed || !sameSystems(started, run)) {
        await scorer.abort();
        return null;
      }
      scorer.context.run = run;
      scorer.context.order = scoringOrder(run);
      return scorer;
    },
  };
}

/** A document's records as handed over: its stubs per system, in the order they were written. */
function entryRecords(entries: readonly FinalRecordEntry[]): DocumentRecords {
  const locations = new Map(entries.map((entry) => [entry.record, entry.at]));
  return {
    stubs: (system) => entries.filter((entry) => entry.record.system === system).map((entry) => entry.record),
    locate: (stub) => locations.get(stub)!,
  };
}

/** The same systems, reference and primary, whichever stopped at its budget. */
function sameSystems(a: RunSystems, b: RunSystems): boolean {
  const shape = ({ systems, reference, primary }: RunSystems) =>
    JSON.stringify([systems.map(({ stoppedAtBudget: _stopped, ...system }) => system), reference, primary]);
  return shape(a) === shape(b);
}
