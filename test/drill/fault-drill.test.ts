/**
 * Fault drill: 200 digital claim forms through `docbench run` against the local reference service
 * with 30% of requests failing across every fault mode (429 + Retry-After, 500, 503 with HTML, a 200 with
 * torn JSON, a dropped connection). The run completes, every document is recorded, documents whose calls
 * succeeded score exactly as in a fault-free run, and retries and attempts are counted in summary.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FAULT_MODES, startLocalService, type LocalService } from '@docbench/local-engine';
import { writeClaimDataset } from './helpers/claim-forms.js';
import { readJson, readJsonl, runCli } from '../helpers/cli.js';

const DOCUMENTS = 200;
let work: string;
let dataset: string;
const services: LocalService[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-fault-drill-'));
  dataset = await writeClaimDataset(path.join(work, 'claims'), DOCUMENTS);
  // Short backoffs keep the drill quick; the 429 fault's Retry-After (1 s) is still honoured as sent.
  await writeFile(
    path.join(work, 'docbench.config.json'),
    JSON.stringify({ retry: { baseDelayMs: 5, maxDelayMs: 20, rateLimitDelayMs: 5 }, cacheDir: 'cache' }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  if (work) await rm(work, { recursive: true, force: true });
});

/** Per-document scores, keyed by id: what must not depend on faults for documents whose calls succeeded. */
function scoresOf(documents: Record<string, any>[]): Map<string, unknown> {
  return new Map(
    documents.map((d) => [d.document_id, { extraction: d.extraction, markdown: d.markdown, texts: d.texts }]),
  );
}

describe('fault drill: 30% faults across every mode, 200 documents', () => {
  it('completes, records every document, scores the succeeded ones as a fault-free run does, and counts retries', {
    timeout: 240_000,
  }, async () => {
    const clean = await startLocalService({ dataDir: path.join(work, 'clean-data') });
    services.push(clean);
    const reference = await runCli(
      [
        'run',
        '--dataset',
        dataset,
        '--base-url',
        clean.baseUrl,
        '--systems',
        'service',
        '--out',
        'clean',
        '--no-cache',
        '--quiet',
      ],
      work,
    );
    expect(reference.code, reference.stderr).toBe(0);

    const faulty = await startLocalService({
      dataDir: path.join(work, 'faulty-data'),
      faults: { rate: 0.3, seed: 20261121, modes: [...FAULT_MODES] },
    });
    services.push(faulty);
    const drill = await runCli(
      [
        'run',
        '--dataset',
        dataset,
        '--base-url',
        faulty.baseUrl,
        '--systems',
        'service',
        '--out',
        'faulty',
        '--no-cache',
        '--retries',
        '3',
        '--quiet',
      ],
      work,
    );
    expect(drill.code, drill.stderr).toBe(0);

    const runDir = path.join(work, 'faulty');
    const manifest = await readJson(path.join(runDir, 'run.json'));
    expect(manifest).toMatchObject({
      status: 'completed',
      stop_reason: null,
      counts: { planned: DOCUMENTS * 2, recorded: DOCUMENTS * 2, not_started: 0 },
    });

    // Every planned call has exactly one line: nothing lost, nothing doubled.
    const records = await readJsonl(path.join(runDir, 'results.jsonl'));
    expect(records).toHaveLength(DOCUMENTS * 2);
    expect(new Set(records.map((r) => r.key)).size).toBe(DOCUMENTS * 2);
    const documents = await readJsonl(path.join(runDir, 'documents.jsonl'));
    expect(documents.map((d) => d.document_id).sort()).toEqual(
      Array.from({ length: DOCUMENTS }, (_, i) => `claim-${String(i + 1).padStart(4, '0')}`),
    );

    // At 30% per attempt the drill retries a lot, and with 3 attempts about 1 call in 37 has every attempt
    // faulted (P(no failed call among 400) < 1e-4): each is recorded with its reason and marks its document.
    const retried = records.filter((r) => r.attempts > 1);
    expect(retried.length).toBeGreaterThan(DOCUMENTS * 2 * 0.15);
    const failed = records.filter((r) => r.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const record of failed) {
      expect(record.attempts).toBe(3);
      expect(record.error.message).toMatch(/HTTP (429|500|503)|not JSON|network error/);
    }

    // summary.json counts calls, failures, attempts and retries exactly as results.jsonl holds them.
    const summary = await readJson(path.join(runDir, 'summary.json'));
    for (const [name, endpoint] of [
      ['extract:slow', 'extract'],
      ['compare', 'compare'],
    ] as const) {
      const mine = records.filter((r) => r.endpoint === endpoint);
      expect(summary.systems.service.calls[name], name).toMatchObject({
        calls: DOCUMENTS,
        failed: mine.filter((r) => r.status === 'failed').length,
        attempts: mine.reduce((sum, r) => sum + r.attempts, 0),
        retried: mine.filter((r) => r.attempts > 1).length,
      });
    }
    const failedDocuments = new Set(failed.map((r) => r.document_id));
    expect(summary.systems.service.documents).toEqual({
      total: DOCUMENTS,
      succeeded: DOCUMENTS - failedDocuments.size,
      failed: failedDocuments.size,
    });

    // Documents whose calls all succeeded score exactly as in the fault-free run.
    const expected = scoresOf(await readJsonl(path.join(work, 'clean', 'documents.jsonl')));
    const actual = scoresOf(documents);
    const succeeded = documents.filter((d) => !failedDocuments.has(d.document_id));
    expect(succeeded.length).toBeGreaterThan(DOCUMENTS * 0.9);
    for (const document of succeeded)
      expect(actual.get(document.document_id), document.document_id).toEqual(expected.get(document.document_id));
    // The engine reads these forms: a fault-free score that is all zeros would make the comparison empty.
    expect(
      (await readJson(path.join(work, 'clean', 'summary.json'))).systems.service.extraction.slow.f1,
    ).toBeGreaterThan(0.9);
  });
});
