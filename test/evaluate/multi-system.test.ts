/**
 * Scoring a run that holds several systems (summary.json schema 2): every system by the same scorers, the
 * leaderboard, the comparisons with the reference, cost, field leaders and disagreements — against figures
 * worked out by hand from hand-made records. And a version-1 run (no `system` on its records, the incumbent as
 * baseline files) scored the same as the same responses recorded as a two-system run.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/dataset/index.js';
import { evaluateRun } from '../../src/evaluate/evaluate-run.js';
import type { DocumentEvaluation, RunSummary } from '../../src/run-dir/evaluation-types.js';
import { silentLogger } from '../../src/logger.js';
import type { RunManifest } from '../../src/run-dir/manifest.js';
import type { CallRecord } from '../../src/run-dir/record.js';
import { aggregateExtraction, scoreExtraction } from '../../src/score/extraction/index.js';
import { compareSystems, createMicroF1Delta } from '../../src/score/stats/index.js';
import type { Dataset, JsonObject } from '../../src/types.js';
import { makeRunManifest } from '../helpers/run-manifest.js';
import { tinyDocuments, writeTinyDataset, type TinyDocument } from '../helpers/tiny-dataset.js';

let tmp: string;
let documents: TinyDocument[];
let dataset: Dataset;

/** What each system answers for document i (0-based). */
const ANSWERS: Record<string, (doc: TinyDocument, i: number) => JsonObject | null> = {
  // Reads the document right: wrong only where the truth differs from the document (every third).
  alpha: (doc) => doc.data as JsonObject,
  // Only the name; its call for the first document failed.
  beta: (doc, i) => (i === 0 ? null : { name: doc.data.name as string }),
  // The incumbent gets every code's units wrong.
  incumbent: (doc) => ({ ...(doc.data as JsonObject), codes: [{ cpt: '99213', units: 42 }] }),
};

function manifest(runId: string, systems: string[] | null): RunManifest {
  return makeRunManifest({
    runId,
    contentHash: dataset.contentHash,
    documents: documents.length,
    modes: ['slow'],
    endpoints: ['extract'],
    ...(systems
      ? {
          systems: systems.map((name) => ({ name, kind: name === 'incumbent' ? 'stored' : 'command' })),
          reference: 'incumbent',
        }
      : {}),
  });
}

function record(
  system: string | null,
  doc: TinyDocument,
  data: JsonObject | null,
  extra: Partial<CallRecord> = {},
): CallRecord {
  const base = {
    v: system ? 2 : 1,
    ...(system ? { system } : {}),
    key: `${system ? `${system}|` : ''}${doc.id}|extract|slow|0`,
    document_id: doc.id,
    repeat: 0,
    attempts: system === 'incumbent' ? 0 : 1,
    latency_ms: system === 'incumbent' ? 0 : 100,
    last_attempt_ms: system === 'incumbent' ? 0 : 100,
    started_at: new Date(0).toISOString(),
    from_cache: false,
    endpoint: 'extract' as const,
    mode: 'slow' as const,
  };
  return (
    data === null
      ? {
          ...base,
          status: 'failed',
          error: { code: 'SERVICE_HTTP', message: 'POST /extract: 503', status: 503, retryable: true },
          ...extra,
        }
      : {
          ...base,
          status: 'ok',
          result: {
            data,
            responseForm: 'object',
            method: null,
            pagesProcessed: null,
            confidence: null,
            confidenceScale: null,
          },
          ...extra,
        }
  ) as CallRecord;
}

async function writeRun(name: string, run: RunManifest, records: CallRecord[]): Promise<string> {
  const dir = path.join(tmp, name);
  await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(run));
  await writeFile(path.join(dir, 'results.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return dir;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-multi-'));
  documents = tinyDocuments(6).map((d) => ({ ...d, baselineMarkdown: undefined }) as TinyDocument);
  const root = await writeTinyDataset(path.join(tmp, 'dataset'), documents);
  // The incumbent's answers as baseline files, for the version-1 run.
  for (const [i, doc] of documents.entries())
    await writeFile(path.join(root, 'baseline', `${doc.id}.json`), JSON.stringify(ANSWERS.incumbent!(doc, i)));
  dataset = await loadDataset(root, {});
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a run of three systems', () => {
  let summary: RunSummary;
  let lines: DocumentEvaluation[];
  beforeAll(async () => {
    const records = ['alpha', 'beta', 'incumbent'].flatMap((system) =>
      documents.map((doc, i) =>
        record(system, doc, ANSWERS[system]!(doc, i), system === 'alpha' ? { cost_usd: 0.01 } : {}),
      ),
    );
    const dir = await writeRun('three', manifest('three', ['alpha', 'beta', 'incumbent']), records);
    summary = await evaluateRun(dir, { dataset, logger: silentLogger });
    lines = (await readFile(path.join(dir, 'documents.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DocumentEvaluation);
  });

  it('scores every system with the same scorers: micro F1 from hand-counted TP/FP/FN', () => {
    // 4 leaf fields per document; documents 3 and 6 have a truth total the documents do not show.
    // alpha: 4 × 4 TP + 2 × (3 TP, 1 FP, 1 FN) → 2·22 / (2·22 + 4).
    expect(summary.systems.alpha!.extraction.slow).toMatchObject({ tp: 22, fp: 2, fn: 2, documents: 6, failed: 0 });
    expect(summary.systems.alpha!.extraction.slow!.f1).toBeCloseTo(44 / 48, 12);
    // beta: the name on 5 documents, nothing on the failed one (scored as empty output, never dropped).
    expect(summary.systems.beta!.extraction.slow).toMatchObject({ tp: 5, fp: 0, fn: 19, documents: 6, failed: 1 });
    expect(summary.systems.beta!.extraction.slow!.f1).toBeCloseTo(10 / 29, 12);
    expect(summary.systems.beta!.documents).toEqual({ total: 6, succeeded: 5, failed: 1 });
    // incumbent: units wrong everywhere (3 TP, 1 FP, 1 FN), and the total too where the truth differs.
    expect(summary.systems.incumbent!.extraction.slow).toMatchObject({ tp: 16, fp: 8, fn: 8 });
    expect(summary.systems.incumbent!.extraction.slow!.f1).toBeCloseTo(32 / 48, 12);
    expect(summary.schema_version).toBe(2);
    expect(summary.system_names).toEqual(['alpha', 'beta', 'incumbent']);
    expect(summary.reference).toBe('incumbent');
    expect(summary.primary).toBe('alpha');
  });

  it('ranks the systems per headline metric with bootstrap intervals around each value', () => {
    const board = summary.leaderboard.find((b) => b.metric === 'extraction.slow.f1')!;
    expect(board.rows.map((r) => [r.rank, r.system])).toEqual([
      [1, 'alpha'],
      [2, 'incumbent'],
      [3, 'beta'],
    ]);
    for (const row of board.rows) {
      expect(row.value).toBeCloseTo(summary.systems[row.system]!.extraction.slow!.f1, 12);
      expect(row.ci95![0]).toBeLessThanOrEqual(row.value);
      expect(row.ci95![1]).toBeGreaterThanOrEqual(row.value);
    }
    const exact = summary.leaderboard.find((b) => b.metric === 'extraction.slow.exact_match_rate')!;
    // alpha is exact on the 4 documents whose truth it can read; nobody else on any: a tie at 0 shares rank 2.
    expect(exact.rows.map((r) => [r.rank, r.system, r.value])).toEqual([
      [1, 'alpha', 4 / 6],
      [2, 'beta', 0],
      [2, 'incumbent', 0],
    ]);
  });

  it('compares each system with the reference: paired Δ, wins/losses/ties, tests, Holm across systems × metrics', () => {
    const alpha = summary.comparisons.find((c) => c.system === 'alpha' && c.metric === 'extraction.slow.f1')!;
    expect(alpha.reference).toBe('incumbent');
    expect(alpha.delta).toBeCloseTo(44 / 48 - 32 / 48, 12);
    // Per document alpha beats the incumbent everywhere (1 vs 0.75, or 0.75 vs 0.5).
    expect([alpha.wins, alpha.losses, alpha.ties]).toEqual([6, 0, 0]);
    expect(alpha.p_sign).toBeCloseTo(2 / 64, 12);
    const beta = summary.comparisons.find((c) => c.system === 'beta' && c.metric === 'extraction.slow.f1')!;
    expect([beta.wins, beta.losses, beta.ties]).toEqual([0, 6, 0]);
    // The interval is the one compareSystems gives on the same pairs, counts and seed.
    const score = (system: string) =>
      documents.map((doc, i) =>
        scoreExtraction((doc.truth ?? doc.data) as JsonObject, ANSWERS[system]!(doc, i) ?? {}, {
          schema: dataset.schema,
          comparators: dataset.comparators,
          locale: dataset.locale,
          parseFailure: ANSWERS[system]!(doc, i) === null,
        }),
      );
    const a = score('alpha');
    const b = score('incumbent');
    const direct = compareSystems(
      a.map((s) => s.f1),
      b.map((s) => s.f1),
      { seed: 1, statistic: createMicroF1Delta(a, b) },
    );
    expect(alpha.ci95).toEqual(direct.ci95);
    expect(summary.comparisons).toHaveLength(4);
    // Holm over the 4 comparisons: never below the raw p, significant only where the interval excludes 0.
    for (const c of summary.comparisons) {
      expect(c.p_holm).not.toBeNull();
      if (c.significant) expect(c.ci95[0] > 0 || c.ci95[1] < 0).toBe(true);
    }
  });

  it('reports cost per call, page, document and correct field for a priced system only', () => {
    expect(summary.systems.alpha!.cost).toMatchObject({ priced_calls: 6, calls: 6, per_page_usd: null });
    expect(summary.systems.alpha!.cost!.total_usd).toBeCloseTo(0.06, 12);
    expect(summary.systems.alpha!.cost!.per_document_usd).toBeCloseTo(0.01, 12);
    expect(summary.systems.alpha!.cost!.per_correct_field_usd).toBeCloseTo(0.06 / 22, 12);
    expect(summary.systems.beta!.cost).toBeUndefined();
    expect(lines[0]!.systems.alpha!.cost_usd).toBeCloseTo(0.01, 12);
  });

  it('names the best system per field path and whether its lead is significant', () => {
    const units = summary.field_leaders.find((f) => f.path === 'codes[].units')!;
    expect(units).toMatchObject({ best: 'alpha', f1: 1, runner_up: 'beta', runner_up_f1: 0 });
    const total = summary.field_leaders.find((f) => f.path === 'total')!;
    // alpha and the incumbent read the total alike: a tie, never significant.
    expect(total).toMatchObject({ best: 'alpha', runner_up: 'incumbent', delta: 0, significant: false });
    expect(total.f1).toBeCloseTo(8 / 12, 12);
  });

  it('lists the documents where the systems disagree most, and writes every system on each documents.jsonl line', () => {
    expect(summary.disagreements[0]).toMatchObject({
      document_id: 'doc-001',
      metric: 'extraction.slow.f1',
      spread: 1,
      values: { alpha: 1, beta: 0, incumbent: 0.75 },
    });
    expect(lines).toHaveLength(6);
    expect(Object.keys(lines[0]!.systems)).toEqual(['alpha', 'beta', 'incumbent']);
    expect(lines[0]!.systems.beta!.status).toBe('failed');
    expect(lines[0]!.systems.beta!.errors[0]).toMatchObject({ code: 'SERVICE_HTTP', status: 503 });
  });
});

describe('a version-1 run and the same responses recorded as two systems', () => {
  it('give the same figures for local and the incumbent, which equal the scorers applied directly', async () => {
    const local = (doc: TinyDocument, i: number) => ANSWERS.alpha!(doc, i);
    const v1 = await writeRun(
      'v1',
      manifest('same', null),
      documents.map((doc, i) => record(null, doc, local(doc, i))),
    );
    const v2 = await writeRun('v2', manifest('same', ['local', 'incumbent']), [
      ...documents.map((doc, i) => record('local', doc, local(doc, i))),
      ...documents.map((doc, i) => record('incumbent', doc, ANSWERS.incumbent!(doc, i))),
    ]);
    const fromV1 = await evaluateRun(v1, { dataset, logger: silentLogger });
    const fromV2 = await evaluateRun(v2, { dataset, logger: silentLogger });
    expect(fromV1.system_names).toEqual(['local', 'incumbent']);
    expect(fromV1.systems.incumbent!.kind).toBe('stored');
    const strip = (s: RunSummary) => ({
      ...s,
      systems: Object.fromEntries(
        Object.entries(s.systems).map(([name, block]) => [name, { ...block, kind: undefined }]),
      ),
    });
    expect(strip(fromV1)).toEqual(strip(fromV2));
    expect(await readFile(path.join(v1, 'documents.jsonl'), 'utf8')).toBe(
      await readFile(path.join(v2, 'documents.jsonl'), 'utf8'),
    );
    // What a single-system run reported: the service's extraction block and the baseline files' scored the same way.
    const options = { schema: dataset.schema, comparators: dataset.comparators, locale: dataset.locale };
    const direct = (answer: typeof local) =>
      aggregateExtraction(
        documents.map((doc, i) =>
          scoreExtraction((doc.truth ?? doc.data) as JsonObject, answer(doc, i) ?? {}, options),
        ),
      );
    expect(fromV1.systems.local!.extraction.slow!.f1).toBe(direct(local).micro.f1);
    expect(fromV1.systems.incumbent!.extraction.slow!.f1).toBe(direct((doc, i) => ANSWERS.incumbent!(doc, i)).micro.f1);
    expect(fromV1.systems.incumbent!.extraction.slow!.exact_match_rate).toBe(
      direct((doc, i) => ANSWERS.incumbent!(doc, i)).exactMatchRate,
    );
  });
});
