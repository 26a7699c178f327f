/**
 * Files that change under `docbench view`: a run's file deleted and rewritten while many requests read it
 * (a run being re-scored, a report rebuilt). Each request gets the whole file as it was when opened, or a 404
 * once it is gone — never half of one version, never a crash: the server process (the real CLI) keeps
 * answering, and the next request after the file is back gets it. A file that grows while it is sent (a run
 * in progress appending to results.jsonl) is sent as long as it was when opened, so the bytes match the
 * Content-Length and the kept-alive connection stays sound for the next request; one cut shorter while it is
 * sent fails that request alone (the connection closes short of the announced length).
 */
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
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
    for (let round = 0; round < 20; round++)
      answers.push(...(await Promise.all(Array.from({ length: 15 }, () => get('report.csv')))));
    stop = true;
    await churn;

    const statuses = answers.map((answer) => ('status' in answer ? answer.status : answer.failed));
    expect(
      new Set(statuses).size > 0 && [...new Set(statuses)].every((status) => status === 200 || status === 404),
      JSON.stringify([...new Set(statuses)]),
    ).toBe(true);
    for (const answer of answers)
      if ('status' in answer && answer.status === 200) expect(versions).toContain(answer.body);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);

    // Gone: that request is a 404 page; back: the next request gets it; the process lives throughout.
    await unlink(file);
    const gone = await get('report.csv');
    expect('status' in gone && gone.status).toBe(404);
    await writeFile(file, versions[7]!);
    expect(await get('report.csv')).toEqual({ status: 200, body: versions[7] });
    expect(child.exitCode).toBeNull();
  }, 120_000);

  it('sends a file that grows while it is read as long as it was when opened, never a byte past its Content-Length', async () => {
    const file = path.join(tmp, 'reports', 'r1', 'results.jsonl');
    const line = (n: number) => `${JSON.stringify({ call: n, pad: 'x'.repeat(1000) })}\n`;
    await writeFile(file, Array.from({ length: 2000 }, (_, n) => line(n)).join(''));
    let stop = false;
    // Appends as a run in progress does, as fast as it can while the requests below run.
    const growing = (async () => {
      for (let n = 2000; !stop; n++) await appendFile(file, line(n));
    })();
    const answers: RawAnswer[] = [];
    for (let round = 0; round < 10; round++)
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => rawGet('results.jsonl')))));
    stop = true;
    await growing;

    const whole = await readFile(file);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      // What the server wrote on the connection after the headers is exactly the body it announced: more
      // would be read as the start of the next response on a kept-alive connection.
      expect(answer.body.length).toBe(answer.contentLength);
      expect(whole.subarray(0, answer.body.length).equals(answer.body)).toBe(true);
    }
    expect(child.exitCode).toBeNull();
  }, 120_000);

  it('fails a request whose file is cut short while it is sent, and serves the next one', async () => {
    const file = path.join(tmp, 'reports', 'r1', 'large.jsonl');
    // Far more than the connection's buffers hold, so the server is still reading the file when it is cut.
    const original = Buffer.from('0123456789abcdef\n'.repeat(2_000_000));
    await writeFile(file, original);
    const cut = await rawGet('large.jsonl', () => truncate(file, 0));
    expect(cut.status).toBe(200);
    expect(cut.contentLength).toBe(original.length);
    // The connection closed before the announced length, with nothing after: the client knows this answer
    // is broken, and no next answer is read as the rest of it.
    expect(cut.body.length).toBeLessThan(original.length);
    expect(original.subarray(0, cut.body.length).equals(cut.body)).toBe(true);

    await writeFile(file, 'whole again\n');
    expect(await get('large.jsonl')).toEqual({ status: 200, body: 'whole again\n' });
    await writeFile(file, '');
    expect(await get('large.jsonl')).toEqual({ status: 200, body: '' });
    expect(child.exitCode).toBeNull();
  }, 120_000);
});

interface RawAnswer {
  status: number;
  contentLength: number;
  /** Every byte after the headers until the server closed the connection. */
  body: Buffer;
}

/**
 * A GET on a raw connection (`Connection: close`), so every byte the server sends is seen, not what a client
 * makes of it. With `onFirstBytes`, the GET is kept alive and a second one follows on the same connection,
 * as a browser reuses it; `onFirstBytes` runs once the first bytes arrived, with reading paused until it settles.
 */
function rawGet(name: string, onFirstBytes?: () => Promise<void>): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunks.length > 1 || !onFirstBytes) return;
      socket.pause();
      onFirstBytes().then(() => socket.resume(), reject);
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split).toString('latin1');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]),
        contentLength: Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]),
        body: all.subarray(split + 4),
      });
    });
    const request = (connection: string) =>
      `GET /runs/r1/${name} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ${cookie}\r\nConnection: ${connection}\r\n\r\n`;
    socket.write(onFirstBytes ? request('keep-alive') + request('close') : request('close'));
  });
}
