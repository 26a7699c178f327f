/**
 * Files that change under `docbench view`: a run's file deleted and rewritten while many requests read it
 * (a run being re-scored, a report rebuilt). Each request gets the whole file as it was when opened, or a 404
 * once it is gone — never half of one version, never a crash: the server process (the real CLI) keeps
 * answering, and the next request after the file is back gets it.
 */
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

let tmp: string;
let child: ChildProcess;
let baseUrl: string;
let cookie: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-view-race-'));
  await mkdir(path.join(tmp, 'reports', 'r1'), { recursive: true });
  child = spawnCli(['view', 'reports', '--quiet'], tmp);
  const printed = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`docbench view exited ${code}`)));
  });
  const opened = await fetch(printed, { redirect: 'manual' });
  cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  baseUrl = new URL(printed).origin;
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Version `n` of the file: 256 KiB of one repeated line, so a mix of two versions shows. */
const version = (n: number) => `version ${n}\n`.repeat(Math.ceil(262_144 / `version ${n}\n`.length));

async function get(name: string): Promise<{ status: number; body: string } | { failed: string }> {
  try {
    const response = await fetch(`${baseUrl}/runs/r1/${name}`, { headers: { cookie } });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { failed: (error as Error).message };
  }
}

describe('docbench view while a run file is deleted and rewritten', () => {
  it('answers each request with a whole version or a 404, and keeps serving', async () => {
    const file = path.join(tmp, 'reports', 'r1', 'report.csv');
    const versions = Array.from({ length: 40 }, (_, n) => version(n));
    await writeFile(file, versions[0]!);
    let stop = false;
    // Deletes and rewrites the file as fast as it can while the requests below run.
    const churn = (async () => {
      for (let n = 1; !stop; n = (n % 39) + 1) {
        await unlink(file).catch(() => undefined);
        await new Promise((resolve) => setImmediate(resolve));
        // As docbench rewrites its files: whole, then renamed into place.
        await writeFile(`${file}.tmp`, versions[n]!);
        await rename(`${file}.tmp`, file);
      }
    })();
    const answers: Awaited<ReturnType<typeof get>>[] = [];
    for (let round = 0; round < 20; round++) answers.push(...(await Promise.all(Array.from({ length: 15 }, () => get('report.csv')))));
    stop = true;
    await churn;

    const statuses = answers.map((answer) => ('status' in answer ? answer.status : answer.failed));
    expect(new Set(statuses).size > 0 && [...new Set(statuses)].every((status) => status === 200 || status === 404), JSON.stringify([...new Set(statuses)])).toBe(true);
    for (const answer of answers) if ('status' in answer && answer.status === 200) expect(versions).toContain(answer.body);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);

    // Gone: that request is a 404 page; back: the next request gets it; the process lives throughout.
    await unlink(file);
    const gone = await get('report.csv');
    expect('status' in gone && gone.status).toBe(404);
    await writeFile(file, versions[7]!);
    expect(await get('report.csv')).toEqual({ status: 200, body: versions[7] });
    expect(child.exitCode).toBeNull();
  }, 120_000);
});
