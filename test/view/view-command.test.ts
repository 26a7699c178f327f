import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { startViewServer } from '../../src/view/index.js';

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-view-cmd-'));
  await mkdir(path.join(tmp, 'reports'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('docbench view', () => {
  it('prints its URL with the session token as the first stdout line and serves the index there', async () => {
    const child = spawnCli(['view', 'reports', '--quiet'], tmp);
    try {
      const lines = createInterface({ input: child.stdout! });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`docbench view exited ${code}`)));
      });
      expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
      const opened = await fetch(first, { redirect: 'manual' });
      expect(opened.status).toBe(302);
      const response = await fetch(new URL(opened.headers.get('location')!, first), {
        headers: { cookie: opened.headers.get('set-cookie')!.split(';')[0]! },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await response.text()).toContain('No run yet');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);

  it('refuses a bad --port with exit code 2', async () => {
    const result = await runCli(['view', 'reports', '--port', '70000'], tmp);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port');
  });

  it('beyond loopback as on it, asks for the session on every request and trades the printed URL for a cookie', async () => {
    const server = await startViewServer({ reportsDir: path.join(tmp, 'reports'), cwd: tmp, host: '0.0.0.0' });
    try {
      const refused = await fetch(`${server.baseUrl}/`);
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain(server.token);
      const printed = await fetch(server.url, { redirect: 'manual' });
      expect(printed.status).toBe(302);
      expect(printed.headers.get('location')).toBe('/');
      const cookie = printed.headers.get('set-cookie')!;
      expect(cookie).toMatch(/HttpOnly; SameSite=Strict; Path=\/$/);
      expect(cookie).not.toMatch(/Domain=/i);
      // The redirect stays on this server, even for a path that normalises to `//host` (sent as it is: fetch
      // would normalise it first).
      for (const address of ['/.//example.com/?x=1&token=', '/a/..//example.com?token=']) {
        const location = await new Promise<string | undefined>((resolve, reject) => {
          get(`${server.baseUrl}/`, { path: `${address}${server.token}` }, (response) => {
            response.resume();
            resolve(response.statusCode === 302 ? response.headers.location : `HTTP ${response.statusCode}`);
          }).on('error', reject);
        });
        expect(location, address).toMatch(/^\/example\.com\/?(\?x=1)?$/);
      }
      expect((await fetch(`${server.baseUrl}/history`, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(
        200,
      );
      // The cookie without the view's own Origin never authorises a change.
      const post = await fetch(`${server.baseUrl}/api/runs/x/rescore`, {
        method: 'POST',
        headers: { cookie: cookie.split(';')[0]! },
      });
      expect(post.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
