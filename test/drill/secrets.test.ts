/**
 * Secrets drill: a run with a unique API key against a service that echoes the key back in every
 * way it can — inside extracted values, markdown, regions and text, in dashboard URLs (URL-encoded), in error
 * bodies, in a body that is not JSON, in response headers and in a redirect — then a search of every file
 * written (run directory, cache, everything under the working directory) and of the console output for the
 * key, raw, JSON-escaped and URL-encoded: never found. The key goes to the base URL's host only: never to
 * the host of a document's fileUrl, never to a redirect target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  readMultipart,
  sendJson,
  sendText,
  startHttpServer,
  type RecordedRequest,
  type TestServer,
} from '../helpers/http-server.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { listFilesDeep, readJson, readJsonl, runCli } from '../helpers/cli.js';

// Characters that JSON and URLs spell differently, so each spelling of the key is a distinct string.
const KEY = `dbk_${randomBytes(12).toString('hex')}+/="\\`;
const SPELLINGS = {
  raw: KEY,
  'JSON-escaped': JSON.stringify(KEY).slice(1, -1),
  'URL-encoded': encodeURIComponent(KEY),
  // Percent-encoding is case-insensitive (RFC 3986 §2.1): a service may well echo %2f for %2F.
  'URL-encoded, lower-case hex': encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
};

let work: string;
let service: TestServer;
let fileHost: TestServer;
let elsewhere: TestServer;
let outcome: { code: number; stdout: string; stderr: string };

/** The headers a request carried, flattened, for searching. */
const requestText = (r: RecordedRequest) => `${r.url}\n${r.rawHeaders.join('\n')}\n${r.body.toString('latin1')}`;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-secrets-'));
  elsewhere = await startHttpServer((_request, response) => sendJson(response, 200, { response: '{}' }));
  fileHost = await startHttpServer((_request, response) => sendText(response, 404, 'no such file'));
  service = await startHttpServer(async (request, response) => {
    const form = await readMultipart(request);
    const file = form.get('file');
    const id = file && typeof file !== 'string' ? file.name.replace(/\.pdf$/, '') : 'by-url';
    // Echo the key in a response header on every answer, and in the body in whatever the endpoint returns.
    const echo = { 'x-echo-key': KEY, 'set-cookie': `session=${encodeURIComponent(KEY)}` };
    if (id === 'doc-002' && request.url === '/extract')
      return sendText(
        response,
        500,
        `internal error: bad key ${KEY} (${SPELLINGS['URL-encoded']}, ${SPELLINGS['URL-encoded, lower-case hex']})`,
        echo,
      );
    if (id === 'doc-003' && request.url === '/extract')
      return sendText(response, 200, `<html>proxy error for key ${KEY}</html>`, echo);
    if (id === 'doc-004' && request.url === '/extract') {
      response.writeHead(302, { ...echo, location: `${elsewhere.url}/extract?api_key=${encodeURIComponent(KEY)}` });
      return void response.end();
    }
    if (id === 'doc-005' && request.url === '/extract')
      return sendJson(response, 401, { error: { code: 'unauthorized', message: `key ${KEY} is not valid` } }, echo);
    switch (request.url) {
      case '/extract':
        return sendJson(
          response,
          200,
          {
            response: JSON.stringify({
              name: `Patient ${KEY}`,
              total: 100,
              codes: [{ cpt: SPELLINGS['JSON-escaped'] }],
            }),
            method: 'slow',
            pages_processed: 1,
            confidence_score: 90,
          },
          echo,
        );
      case '/compare':
        return sendJson(
          response,
          200,
          {
            success: true,
            pages: [{ content: `# Claim\n\nKey: ${KEY}\n`, width: 612, height: 792 }],
            dashboard_url: `${service.url}/evals?filename=${SPELLINGS['URL-encoded, lower-case hex']}`,
            comparison_id: KEY,
          },
          echo,
        );
      case '/split':
        return sendJson(
          response,
          200,
          {
            pages: [
              {
                page: 1,
                width: 612,
                height: 792,
                bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1, max_x: 2, max_y: 2 }, content: KEY }],
              },
            ],
          },
          echo,
        );
      default:
        return sendJson(
          response,
          200,
          {
            status: 'success',
            document_id: KEY,
            content: { text: KEY, structured_data: { key: KEY } },
            metadata: { page_count: 1, processing_time_ms: 5 },
          },
          echo,
        );
    }
  });

  const dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(6));
  // One more document given by URL: docbench sends the URL to the service and must not fetch it itself.
  const manifest = await readJson(path.join(dataset, 'dataset.json'));
  manifest.documents.push({ id: 'a-remote', fileUrl: `${fileHost.url}/a-remote.pdf` });
  await writeFile(path.join(dataset, 'dataset.json'), JSON.stringify(manifest));
  // The 401 on doc-005 stops the run at once: one call at a time, and the URL document sorts first, so every
  // other echo is met before it.
  await writeFile(
    path.join(work, 'docbench.config.json'),
    JSON.stringify({ retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 }, concurrency: 1, cacheDir: 'cache' }),
  );
  outcome = await runCli(
    [
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.url,
      '--out',
      'out',
      '--endpoints',
      'extract,compare,split,process',
      '--verbose',
    ],
    work,
    { DOCBENCH_API_KEY: KEY },
  );
}, 60_000);

afterAll(async () => {
  await Promise.all([service?.close(), fileHost?.close(), elsewhere?.close()]);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the API key never leaks', () => {
  it('was used: every request to the base URL carried it, in the header the interface names', () => {
    expect(service.requests.length).toBeGreaterThan(10);
    for (const request of service.requests) {
      const expected =
        request.url === '/v1/process'
          ? { authorization: `Bearer ${KEY}` }
          : request.url === '/split'
            ? { 'x-api-key': KEY }
            : { 'x-api-key': KEY };
      expect(request.headers).toMatchObject(expected);
    }
    // The run went through the echoing calls: it recorded them and stopped only at the 401.
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(/rejected the API key/);
  });

  it('met every echo: the 500, the body that is not JSON and the redirect were recorded as failed calls', async () => {
    const failed = (await readJsonl(path.join(work, 'out', 'results.jsonl'))).filter((r) => r.status === 'failed');
    expect(failed.map((r) => [r.document_id, r.error.status ?? null])).toEqual([
      ['doc-002', 500],
      ['doc-003', 200],
      ['doc-004', 302],
      ['doc-005', 401],
    ]);
    expect(failed[0]!.error.bodyExcerpt).toContain('[REDACTED]');
  });

  it('is in no file written (run dir, cache, anything under the working directory), in no spelling', async () => {
    const files = await listFilesDeep(work);
    expect(files.some((f) => f.endsWith('results.jsonl'))).toBe(true);
    expect(files.some((f) => f.includes(`${path.sep}cache${path.sep}`))).toBe(true);
    expect(files.some((f) => f.endsWith('report.html'))).toBe(true);
    const records = await readJsonl(path.join(work, 'out', 'results.jsonl'));
    // The echoed values were stored (redacted), so the search below looks where the key would have gone.
    expect(JSON.stringify(records)).toContain('[REDACTED]');
    for (const file of files) {
      const text = (await readFile(file)).toString('latin1');
      for (const [name, spelling] of Object.entries(SPELLINGS))
        expect(text.includes(spelling), `${name} key in ${path.relative(work, file)}`).toBe(false);
    }
  });

  it('is not in the console output (stdout and --verbose stderr)', () => {
    expect(outcome.stderr.length).toBeGreaterThan(0);
    for (const [name, spelling] of Object.entries(SPELLINGS)) {
      expect(outcome.stdout.includes(spelling), `${name} key in stdout`).toBe(false);
      expect(outcome.stderr.includes(spelling), `${name} key in stderr`).toBe(false);
    }
  });

  it('is never sent to a redirect target or to the host of a fileUrl', () => {
    expect(elsewhere.requests).toEqual([]);
    for (const request of fileHost.requests)
      expect(Object.values(SPELLINGS).some((s) => requestText(request).includes(s))).toBe(false);
    // The fileUrl went to the service as a form part, with the key in the header for the service alone.
    expect(service.requests.some((r) => r.body.toString('latin1').includes(`${fileHost.url}/a-remote.pdf`))).toBe(true);
  });
});
