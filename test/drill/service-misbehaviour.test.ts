/**
 * Service misbehaviour drill, at the run level: through `docbench run`, each way a service can
 * misbehave makes THAT call FAILED in results.jsonl with a clear reason, is counted in summary.json and shown
 * in documents.jsonl, and the run goes on to complete (exit 0). The client's reaction to each is unit-tested
 * in test/service; this proves the runner records it and nothing else is disturbed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { startFakeService, type Fault, type FakeService } from '../helpers/fake-service.js';
import { startHttpServer, type TestServer } from '../helpers/http-server.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { readJson, readJsonl, runCli } from '../helpers/cli.js';

const MAX_RESPONSE_BYTES = 64 * 1024;
// Generous: only the dripping response should reach it, and a loaded CI machine must not turn an ordinary
// answer into a timeout (that made the capped-response and missing-pages cases retry under load).
const TIMEOUT_MS = 2000;

/** One misbehaviour: which call gets it, what the service sends, and what the record must say. */
interface Case {
  name: string;
  document: string;
  endpoint: 'extract' | 'compare';
  fault: (elsewhere: string) => Fault;
  code: string;
  reason: RegExp;
  /** Attempts made: torn bodies and timeouts are retried (here up to 2), a wrong answer is not. @default 1 */
  attempts?: number;
}

function drip(res: ServerResponse): Promise<void> {
  // A 200 whose body arrives one byte every 50 ms and never ends: only the attempt timeout stops it.
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"response": "');
  return new Promise((resolve) => {
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => {
      clearInterval(timer);
      resolve();
    });
  });
}

const CASES: Case[] = [
  {
    name: '200 with a body that is not JSON',
    document: 'doc-001',
    endpoint: 'extract',
    fault: () => ({ status: 200, body: '<html><body>Gateway says hi</body></html>' }),
    code: 'SERVICE_RESPONSE_INVALID',
    reason: /200 with a body that is not JSON/,
    attempts: 2,
  },
  {
    name: 'JSON of the wrong shape',
    document: 'doc-002',
    endpoint: 'extract',
    fault: () => ({ status: 200, body: '["not", "an", "object"]' }),
    code: 'SERVICE_RESPONSE_INVALID',
    reason: /`\(body\)` is an array, expected an object/,
  },
  {
    name: '`response` that is not JSON',
    document: 'doc-003',
    endpoint: 'extract',
    fault: () => ({
      status: 200,
      body: JSON.stringify({ response: 'Sorry, I cannot read this document.', method: 'slow' }),
    }),
    code: 'SERVICE_RESPONSE_INVALID',
    reason: /response.*is not JSON/,
  },
  {
    name: 'confidence out of range',
    document: 'doc-004',
    endpoint: 'extract',
    fault: () => ({
      status: 200,
      body: JSON.stringify({ response: '{}', method: 'slow', pages_processed: 1, confidence_score: 250 }),
    }),
    code: 'SERVICE_RESPONSE_INVALID',
    reason: /confidence_score.*250.*outside 0–100/,
  },
  {
    name: 'dashboard_url that is not http(s)',
    document: 'doc-005',
    endpoint: 'compare',
    fault: () => ({
      status: 200,
      body: JSON.stringify({
        success: true,
        pages: [{ content: 'x', width: 612, height: 792 }],
        dashboard_url: 'javascript:alert(document.cookie)',
      }),
    }),
    code: 'SERVICE_RESPONSE_INVALID',
    reason: /dashboard_url.*not an http\(s\) URL/,
  },
  {
    name: 'pages missing',
    document: 'doc-006',
    endpoint: 'compare',
    fault: () => ({
      status: 200,
      body: JSON.stringify({ success: true, dashboard_url: 'https://dash.example.com/evals?filename=x' }),
    }),
    code: 'SERVICE_RESPONSE_INVALID',
    reason: /pages.*is missing/,
  },
  {
    name: 'a huge response (capped)',
    document: 'doc-007',
    endpoint: 'extract',
    fault: () => ({
      respond: (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ response: JSON.stringify({ name: 'x'.repeat(4 * MAX_RESPONSE_BYTES) }), method: 'slow' }),
        );
      },
    }),
    code: 'SERVICE_RESPONSE_INVALID',
    reason: /response larger than 64 KiB \(maxResponseBytes\)/,
  },
  {
    name: 'a response that drips slowly (timeout)',
    document: 'doc-008',
    endpoint: 'extract',
    fault: () => ({ respond: drip }),
    code: 'SERVICE_TIMEOUT',
    reason: /no complete response within 2 s/,
    attempts: 2,
  },
  {
    name: 'a redirect to another host',
    document: 'doc-009',
    endpoint: 'extract',
    fault: (elsewhere) => ({ status: 307, body: '', headers: { location: `${elsewhere}/extract` } }),
    code: 'SERVICE_HTTP',
    reason: /HTTP 307.*redirect not followed/,
  },
];

const KEY = 'drill-misbehaviour-key-5d1e';
let work: string;
let service: FakeService;
let elsewhere: TestServer;
let runDir: string;
let outcome: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-misbehaviour-'));
  const dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(12));
  await writeFile(
    path.join(work, 'docbench.config.json'),
    JSON.stringify({
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      maxResponseBytes: MAX_RESPONSE_BYTES,
      timeoutMs: TIMEOUT_MS,
      cacheDir: 'cache',
    }),
  );
  elsewhere = await startHttpServer(
    (_request, response) =>
      void response.writeHead(200, { 'content-type': 'application/json' }).end('{"response": "{}"}'),
  );
  service = await startFakeService({
    apiKey: KEY,
    fault: ({ endpoint, documentId }) =>
      CASES.find((c) => c.document === documentId && c.endpoint === endpoint)?.fault(elsewhere.url) ?? null,
  });
  outcome = await runCli(
    ['run', '--dataset', dataset, '--base-url', service.baseUrl, '--systems', 'service', '--out', 'out', '--quiet'],
    work,
    { DOCBENCH_API_KEY: KEY },
  );
  runDir = path.join(work, 'out');
}, 60_000);

afterAll(async () => {
  await service?.close();
  await elsewhere?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('service misbehaviour: that call FAILED with a clear reason, the run goes on', () => {
  it('completes with exit 0 and every call recorded', async () => {
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(await readJson(path.join(runDir, 'run.json'))).toMatchObject({
      status: 'completed',
      counts: { planned: 24, recorded: 24, failed: CASES.length },
    });
  });

  for (const c of CASES) {
    it(`${c.name} → ${c.document} ${c.endpoint} FAILED (${c.code})`, async () => {
      const records = await readJsonl(path.join(runDir, 'results.jsonl'));
      const record = records.find((r) => r.document_id === c.document && r.endpoint === c.endpoint)!;
      expect(record.status).toBe('failed');
      expect(record.error.code).toBe(c.code);
      expect(record.error.message).toMatch(c.reason);
      expect(record.attempts).toBe(c.attempts ?? 1);
      // The document's other call is unaffected.
      expect(records.find((r) => r.document_id === c.document && r.endpoint !== c.endpoint)!.status).toBe('ok');
      const document = (await readJsonl(path.join(runDir, 'documents.jsonl'))).find(
        (d) => d.document_id === c.document,
      )!;
      expect(document.systems.service.status).toBe('partial');
      expect(document.systems.service.errors.map((e: { code: string }) => e.code)).toEqual([c.code]);
      expect(await readFile(path.join(runDir, 'documents.csv'), 'utf8')).toMatch(
        new RegExp(`${c.document},service,partial,`),
      );
    });
  }

  it('counts every failure in summary.json and keeps the other documents whole', async () => {
    const summary = await readJson(path.join(runDir, 'summary.json'));
    const failedBy = (endpoint: string) => CASES.filter((c) => c.endpoint === endpoint).length;
    expect(summary.systems.service.calls['extract:slow']).toMatchObject({ calls: 12, failed: failedBy('extract') });
    expect(summary.systems.service.calls.compare).toMatchObject({ calls: 12, failed: failedBy('compare') });
    expect(summary.systems.service.documents).toEqual({
      total: 12,
      succeeded: 12 - CASES.length,
      failed: CASES.length,
    });
    for (const id of ['doc-010', 'doc-011', 'doc-012']) {
      expect(
        (await readJsonl(path.join(runDir, 'documents.jsonl'))).find((d) => d.document_id === id)!.systems.service
          .status,
      ).toBe('ok');
    }
  });

  it('never follows the redirect: the other host sees no request, let alone the key', () => {
    expect(elsewhere.requests).toEqual([]);
    expect(
      service.requests
        .filter((r) => r.documentId === 'doc-009' && r.endpoint === 'extract')
        .every((r) => r.apiKey === KEY),
    ).toBe(true);
  });
});
