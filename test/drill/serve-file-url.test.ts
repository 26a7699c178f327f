/**
 * `docbench serve` beyond loopback and fileUrl (packages/local-engine/docs/reference.md, "fileUrl beyond loopback"): loopback,
 * private, link-local and metadata addresses are refused with a 400 naming the rule, whether the URL names
 * the address, a DNS name resolves to it, or a redirect leads to it; with --allow-private-urls the loopback
 * test server's URL is fetched; on loopback fileUrl is as before. Every test sends traffic to loopback only:
 * a refusal is decided before any connection, which undici's diagnostics channels would show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import { startLocalService, type LocalService } from '@docbench/local-engine';
import { refusedRange } from '../../packages/local-engine/src/file-url-guard.js';
import { fetchFileUrl } from '../../packages/local-engine/src/read-request.js';
import { HttpProblem } from '../../packages/local-engine/src/http-problem.js';
import { startHttpServer, type TestServer } from '../helpers/http-server.js';
import { spawnCli } from '../helpers/cli.js';
import { postJson } from '../../packages/local-engine/test/post-form.js';
import { makeClaimPdf } from '../../packages/local-engine/test/fixtures.js';

let work: string;
let open: LocalService;
let files: TestServer;
let pdf: Buffer;
/**
 * Where undici (the service's and the test's own fetch, which publish to the same channels) started or made a
 * connection, as `host:port`, leaving out the test's requests to the service itself.
 */
const connecting: string[] = [];
const connected: string[] = [];
const record = (into: string[]) => (message: unknown) => {
  const { hostname, port } = (message as { connectParams: { hostname: string; port: string } }).connectParams;
  if (open && String(port) === new URL(open.baseUrl).port) return;
  into.push(`${hostname}:${port}`);
};
const onConnecting = record(connecting);
const onConnected = record(connected);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-serve-url-'));
  pdf = await makeClaimPdf();
  files = await startHttpServer((request, response) => {
    const port = new URL(files.url).port;
    switch (request.url) {
      case '/ok.pdf':
        return void response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      case '/to-alias':
        // Another loopback address: Linux answers on all of 127/8, so only the check can stop it.
        return void response.writeHead(302, { location: `http://127.0.0.2:${port}/ok.pdf` }).end();
      case '/to-metadata':
        return void response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      default:
        return void response.writeHead(404).end();
    }
  });
  open = await startLocalService({ host: '0.0.0.0', dataDir: path.join(work, 'open'), fileUrlTimeoutMs: 5_000 });
  subscribe('undici:client:beforeConnect', onConnecting);
  subscribe('undici:client:connected', onConnected);
});

afterAll(async () => {
  unsubscribe('undici:client:beforeConnect', onConnecting);
  unsubscribe('undici:client:connected', onConnected);
  await open?.close();
  await files?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const local = (service: LocalService) => `http://127.0.0.1:${new URL(service.baseUrl).port}`;

describe('serve --host 0.0.0.0: fileUrl reaches public addresses only', () => {
  const port = () => new URL(files.url).port;
  const cases: [string, () => string, string][] = [
    ['127.0.0.1 (the loopback test server)', () => `${files.url}/ok.pdf`, 'loopback'],
    ['10.0.0.1', () => 'http://10.0.0.1/invoice.pdf', 'private'],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/iam/', 'metadata'],
    ['169.254.10.10', () => 'http://169.254.10.10/x.pdf', 'link-local'],
    ['fd12::1', () => 'http://[fd12::1]/x.pdf', 'unique-local'],
    ['::ffff:10.0.0.1 (IPv4 inside IPv6)', () => 'http://[::ffff:10.0.0.1]/x.pdf', 'private'],
    ['2130706433 (127.0.0.1 as a number)', () => `http://2130706433:${port()}/ok.pdf`, 'loopback'],
    ['localhost (a name resolving to loopback)', () => `http://localhost:${port()}/ok.pdf`, 'loopback'],
  ];
  for (const [name, url, rule] of cases) {
    it(`refuses ${name}: 400 file_url_forbidden, rule ${rule}, no connection made`, async () => {
      const before = { connecting: connecting.length, connected: connected.length, served: files.requests.length };
      const { status, body } = await postJson(`${local(open)}/split`, { fileUrl: url() });
      expect(status).toBe(400);
      expect(body.error.code).toBe('file_url_forbidden');
      expect(body.error.details.rule).toBe(rule);
      expect(body.error.message).toContain(`(rule: ${rule})`);
      expect(body.error.message).toContain('--allow-private-urls');
      // An IP literal is refused before undici is asked; a name, by the lookup before the socket connects.
      const started = connecting.slice(before.connecting);
      expect(
        started.every((host) => host.startsWith('localhost:')),
        started.join(','),
      ).toBe(true);
      expect(connected.slice(before.connected)).toEqual([]);
      expect(files.requests.length).toBe(before.served);
    });
  }

  it('a public first hop that redirects to loopback or metadata is refused at the redirect, before connecting to it', async () => {
    // The loopback test server stands for the public first hop: only 127.0.0.1 passes this rule.
    const onlyTheTestServer = (address: string) => (address === '127.0.0.1' ? null : refusedRange(address));
    for (const [path, rule] of [
      ['/to-alias', 'loopback'],
      ['/to-metadata', 'metadata'],
    ] as const) {
      const before = { connected: connected.length, served: files.requests.length };
      const refused = await fetchFileUrl(`${files.url}${path}`, 1_000_000, 5_000, onlyTheTestServer).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(HttpProblem);
      expect((refused as HttpProblem).status).toBe(400);
      expect((refused as HttpProblem).details).toMatchObject({ rule });
      // The first hop was fetched; the hop it led to never was.
      expect(files.requests.slice(before.served).map((r) => r.url)).toEqual([path]);
      // (None new when the first hop reused a kept-alive connection.)
      expect(connected.slice(before.connected).every((host) => host === `127.0.0.1:${new URL(files.url).port}`)).toBe(
        true,
      );
    }
    // The same rule lets the allowed hop's document through.
    expect((await fetchFileUrl(`${files.url}/ok.pdf`, 1_000_000, 5_000, onlyTheTestServer)).format).toBe('pdf');
  });
});

describe('serve --host 0.0.0.0 --allow-private-urls, and serve on loopback', () => {
  async function startServe(args: string[]): Promise<{ child: ChildProcess; url: string }> {
    const child = spawnCli(
      ['serve', '--ocr-workers', '1', '--data-dir', path.join(work, `cli-${args.length}`), ...args],
      work,
    );
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`docbench serve exited ${code}`)));
    });
    return { child, url: `http://127.0.0.1:${new URL(url).port}` };
  }
  async function stop(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  it("fetches the loopback test server's URL when allowed, and refuses it without the flag", async () => {
    for (const [args, allowed] of [
      [['--host', '0.0.0.0', '--allow-private-urls'], true],
      [['--host', '0.0.0.0'], false],
      [[], true],
    ] as const) {
      const { child, url } = await startServe([...args]);
      try {
        const { status, body } = await postJson(`${url}/split`, { fileUrl: `${files.url}/ok.pdf` });
        if (allowed) {
          expect(status, JSON.stringify(body)).toBe(200);
          expect(body.pages).toHaveLength(1);
        } else {
          expect(status).toBe(400);
          expect(body.error).toMatchObject({ code: 'file_url_forbidden', details: { rule: 'loopback' } });
        }
      } finally {
        await stop(child);
      }
    }
  }, 120_000);
});
