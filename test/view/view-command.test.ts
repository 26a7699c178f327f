import { mkdir, mkdtemp, rm } from 'node:fs/promises';
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
      const response = await fetch(first);
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

  it('beyond loopback, asks for the token on reads too, and keeps it for the links between pages', async () => {
    const server = await startViewServer({ reportsDir: path.join(tmp, 'reports'), cwd: tmp, host: '0.0.0.0' });
    try {
      expect((await fetch(`${server.baseUrl}/`)).status).toBe(403);
      const withToken = await fetch(server.url);
      expect(withToken.status).toBe(200);
      const cookie = withToken.headers.get('set-cookie')!;
      expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
      expect((await fetch(`${server.baseUrl}/history`, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(200);
      // The cookie never authorises a change.
      const post = await fetch(`${server.baseUrl}/api/runs/x/rescore`, { method: 'POST', headers: { cookie: cookie.split(';')[0]! } });
      expect(post.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
