/**
 * Documents scored during a run's calls (src/evaluate/early-scoring.ts) against the same run scored after it:
 * documents.jsonl and summary.json must be the same bytes. The records are written as a run writes them (its
 * results writer, in completion order), handed over by the run's own tracker, and the run
 * has two called systems, the incumbent from baseline files as the reference, extraction and markdown.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/dataset/index.js';
import { evaluateRun } from '../../src/evaluate/evaluate-run.js';
import { startEarlyScoring, type EarlyScoring } from '../../src/evaluate/early-scoring.js';
import { silentLogger } from '../../src/logger.js';
import { planCalls, type PlannedCall } from '../../src/run/plan.js';
import { trackRecordedDocuments } from '../../src/run/recorded-documents.js';
import type { CallRecord } from '../../src/run-dir/record.js';
import { ResultsWriter } from '../../src/run-dir/results-writer.js';
import type { Dataset } from '../../src/types.js';
import { comparePages, extractResult, plannedCallBase } from '../helpers/compare-records.js';
import { makeRunManifest } from '../helpers/run-manifest.js';
import { tinyDocuments, writeTinyDataset, type TinyDocument } from '../helpers/tiny-dataset.js';

let tmp: string;
let documents: TinyDocument[];
let dataset: Dataset;
let calls: PlannedCall[];

/** alpha reads every document as it is; beta drops the codes, fails every fourth extraction, and reads
 * markdown with its digits doubled. */
function recordOf(call: PlannedCall, i: number): CallRecord {
  const doc = documents[i]!;
  const base = plannedCallBase(call, i);
  const beta = call.system === 'beta';
  if (call.endpoint === 'compare') {
    const content = beta ? doc.markdown.replace(/\d/g, '$&$&') : doc.markdown;
    return { ...base, status: 'ok', result: comparePages(content) } as CallRecord;
  }
  if (beta && i % 4 === 1) {
    const error = { code: 'SERVICE_HTTP', message: 'POST /extract: 503', status: 503, retryable: true };
    return { ...base, status: 'failed', error } as CallRecord;
  }
  const data = beta ? { name: doc.data.name, total: doc.data.total } : doc.data;
  return { ...base, status: 'ok', result: extractResult(data) } as CallRecord;
}

/** A new run directory holding only run.json. */
async function newRunDir(name: string): Promise<string> {
  const dir = path.join(tmp, name);
  await mkdir(dir, { recursive: true });
  const manifest = makeRunManifest({
    runId: 'run',
    contentHash: dataset.contentHash,
    documents: documents.length,
    modes: ['slow'],
    endpoints: ['extract', 'compare'],
    systems: [
      { name: 'alpha', kind: 'command' },
      { name: 'beta', kind: 'command' },
    ],
    reference: 'incumbent',
  });
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(manifest));
  return dir;
}

/**
 * The calls in the order they end: by document, except the first extraction of document 5, which ends last or,
 * in a run stopped before it, never (documents 6–12 are then recorded but wait behind document 5).
 */
function completionOrder(lateCall: 'last' | 'never'): PlannedCall[] {
  const byDocument = [...calls].sort(
    (a, b) => documents.findIndex((d) => d.id === a.document.id) - documents.findIndex((d) => d.id === b.document.id),
  );
  const late = byDocument.findIndex((call) => call.document.id === documents[4]!.id);
  const ordered = [...byDocument.slice(0, late), ...byDocument.slice(late + 1)];
  return lateCall === 'last' ? [...ordered, byDocument[late]!] : ordered;
}

const record = (call: PlannedCall) =>
  recordOf(
    call,
    documents.findIndex((d) => d.id === call.document.id),
  );

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-early-'));
  documents = tinyDocuments(12);
  dataset = await loadDataset(await writeTinyDataset(path.join(tmp, 'dataset'), documents), {});
  calls = planCalls(dataset.documents, {
    modes: ['slow'],
    endpoints: ['extract', 'compare'],
    repeat: 1,
    systems: ['alpha', 'beta'].map((name) => ({ name, operations: new Set(['extract', 'compare'] as const) })),
  });
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('scoring during the calls', () => {
  it.each([
    ['every call ends', 'last', 12],
    ['a stopped run (a call of document 5 never made)', 'never', 4],
  ] as const)(
    '%s: the same documents.jsonl and summary.json as scoring after the calls',
    async (_, lateCall, scoredEarly) => {
      const early = await newRunDir(`early-${lateCall}`);
      const writer = ResultsWriter.open(path.join(early, 'results.jsonl'), (text) => text, { index: true });
      const index = writer.writtenIndex()!;
      const scoring = await startEarlyScoring(early, { dataset });
      let scoredDuringCalls = -1;
      const spy: EarlyScoring = {
        systems: scoring.systems,
        documentRecorded: (id, entries) => scoring.documentRecorded(id, entries),
        get scored() {
          return scoring.scored;
        },
        handOver: async (run) => {
          const scorer = await scoring.handOver(run);
          scoredDuringCalls = scorer?.next ?? -1;
          return scorer;
        },
      };
      const recorded = trackRecordedDocuments(dataset.documents, calls, index, spy.documentRecorded);
      for (const call of completionOrder(lateCall)) {
        const written = record(call);
        writer.append(written);
        recorded(written);
        // The run's calls end one at a time, with the event loop turning in between.
        await new Promise((resolve) => setImmediate(resolve));
      }
      writer.close();
      // The calls' last quiet moment: what is ready is scored (only while no call ends) before the hand-over.
      while (scoring.scored < scoredEarly) await setTimeout(5);
      await evaluateRun(early, { dataset, logger: silentLogger, recordIndex: { index, issues: [] }, scoredEarly: spy });

      // The same results.jsonl, scored afterwards from the file alone.
      const after = path.join(tmp, `after-${lateCall}`);
      await cp(early, after, { recursive: true });
      await rm(path.join(after, 'documents.jsonl'));
      await rm(path.join(after, 'summary.json'));
      await evaluateRun(after, { dataset, logger: silentLogger });

      expect(scoredDuringCalls).toBe(scoredEarly);
      for (const file of ['documents.jsonl', 'summary.json']) {
        const [a, b] = await Promise.all([
          readFile(path.join(early, file), 'utf8'),
          readFile(path.join(after, file), 'utf8'),
        ]);
        expect(a.length).toBeGreaterThan(0);
        expect(a).toBe(b);
      }
    },
  );
});
