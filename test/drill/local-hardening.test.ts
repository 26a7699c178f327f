/**
 * Local service hardening, what the engine's own tests (packages/local-engine/test) do not already cover: it binds loopback unless told
 * otherwise; request bodies are bounded however they arrive (declared, chunked) and multipart is bounded in
 * parts and part size; `/evals?filename=` reads nothing outside its data directory, whatever the encoding
 * and even through a link planted in it; `fileUrl` is http(s) only, also after a redirect, and bounded in
 * size and time while the body streams.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import PDFDocument from 'pdfkit';
import { startLocalService, type LocalService } from '@docbench/local-engine';
import { startHttpServer, type TestServer } from '../helpers/http-server.js';
import { spawnCli } from '../helpers/cli.js';

const MAX_UPLOAD = 100_000;
let work: string;
let dataDir: string;
let service: LocalService;
let files: TestServer;
let pdf: Buffer;

function makePdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', margin: 72 });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(12).text('Invoice Number: INV-9', 72, 72);
    doc.end();
  });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-hardening-'));
  dataDir = path.join(work, 'data');
  pdf = await makePdf();
  service = await startLocalService({ dataDir, maxUploadBytes: MAX_UPLOAD, fileUrlTimeoutMs: 1_000 });
  files = await startHttpServer((request, response) => {
    switch (request.url) {
      case '/ok.pdf':
        return void response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      case '/to-file':
        return void response.writeHead(302, { location: 'file:///etc/passwd' }).end();
      case '/to-ok':
        return void response.writeHead(302, { location: '/ok.pdf' }).end();
      case '/chunked-big.pdf': {
        // No content-length: the limit must hold while the body streams.
        response.writeHead(200, { 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' });
        for (let i = 0; i < 30; i++) response.write(Buffer.alloc(10_000, 32));
        return void response.end();
      }
      case '/drip.pdf': {
        // Headers at once, then a byte every 100 ms for ever: only the download timeout ends it.
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.write('%PDF-1.4\n');
        const timer = setInterval(() => response.write(' '), 100);
        return void response.on('close', () => clearInterval(timer));
      }
      default:
        return void response.writeHead(404).end();
    }
  });
});

afterAll(async () => {
  await service?.close();
  await files?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function post(pathname: string, form: FormData): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.baseUrl}${pathname}`, { method: 'POST', body: form });
  return { status: response.status, body: await response.json() };
}

function pdfForm(extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'doc.pdf');
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  return form;
}

function urlForm(fileUrl: string): FormData {
  const form = new FormData();
  form.append('fileUrl', fileUrl);
  return form;
}

/** Sends a raw request body with the given headers; resolves to the status (or 'closed' if none came). */
function rawPost(
  url: string,
  headers: Record<string, string | number>,
  write: (req: ReturnType<typeof httpRequest>) => void,
): Promise<number | 'closed' | 'no answer'> {
  return new Promise((resolve) => {
    // A service that neither answers nor closes must fail the test quickly, not hang it.
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, 10_000);
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      clearTimeout(timer);
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => {
      clearTimeout(timer);
      resolve('closed');
    });
    write(req);
  });
}

describe('binding', () => {
  it('listens on loopback only unless told otherwise', async () => {
    expect(service.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(service.baseUrl).port);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    const reachable = (host: string, p: number) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port: p }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    expect(await reachable('127.0.0.1', port)).toBe(true);
    if (external) {
      expect(await reachable(external, port)).toBe(false);
      const open = await startLocalService({ host: '0.0.0.0', dataDir: path.join(work, 'open') });
      try {
        expect(await reachable(external, Number(new URL(open.baseUrl).port))).toBe(true);
      } finally {
        await open.close();
      }
    }
  });
});

describe('request limits', () => {
  it('refuses a body whose declared length is over the limit before reading it', async () => {
    const status = await rawPost(
      `${service.baseUrl}/split`,
      { 'content-type': 'multipart/form-data; boundary=x', 'content-length': 50 * 1024 * 1024 },
      (req) => {
        // Never send the 50 MiB: the answer must come without it.
        req.write('--x\r\n');
      },
    );
    expect(status).toBe(413);
  });

  it('answers a chunked body that passes the limit with 413, and stays up (docbench serve, its own process)', async () => {
    // In a child process: if the service dies on this request, the test sees the exit instead of the test
    // worker catching the crash.
    const child = spawnCli(
      ['serve', '--port', '0', '--max-upload-mb', '1', '--data-dir', path.join(work, 'serve-data')],
      work,
    );
    let exited: number | null | undefined;
    let stderr = '';
    child.on('exit', (code) => (exited = code));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      const status = await rawPost(
        `${baseUrl}/split`,
        { 'content-type': 'multipart/form-data; boundary=x', 'transfer-encoding': 'chunked' },
        (req) => {
          const chunk = Buffer.alloc(1024 * 1024, 97);
          let sent = 0;
          // 40 MiB, far past the limit (1 MiB upload + room for text parts); stop when the server answers.
          const pump = () => {
            while (sent < 40 && !req.destroyed) {
              sent++;
              if (!req.write(chunk)) return void req.once('drain', pump);
            }
            req.end();
          };
          pump();
        },
      );
      expect([413, 'closed']).toContain(status);
      const health = await fetch(`${baseUrl}/health`).then(
        (r) => r.status,
        (error: Error) => `unreachable: ${error.message}`,
      );
      expect({ health, exited, stderr }).toEqual({ health: 200, exited: undefined, stderr: '' });
    } finally {
      if (exited === undefined) child.kill('SIGTERM');
    }
  });

  it('refuses more than 32 multipart parts', async () => {
    const form = pdfForm();
    for (let i = 0; i < 40; i++) form.append(`extra${i}`, 'x');
    const { status, body } = await post('/split', form);
    expect(status).toBe(400);
    expect(body.error.code).toBe('too_many_parts');
  });

  it('refuses a text part over 16 MiB', async () => {
    const { status, body } = await post(
      '/extract',
      pdfForm({ schema: '{"type":"object","properties":{}}', customContext: 'x'.repeat(16 * 1024 * 1024 + 1) }),
    );
    expect(status).toBe(413);
    expect(body.error.code).toBe('part_too_large');
  });
});

describe('/evals reads nothing outside its data directory', () => {
  const SECRET = 'SECRET-OUTSIDE-THE-DATA-DIR-7c1f';

  it('refuses traversal however it is spelled', async () => {
    for (const bad of [
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '..%2f..%2fetc%2fpasswd',
      '%252e%252e%252fetc%252fpasswd',
      '/etc/passwd',
      '..\\..\\etc\\passwd',
      'abc%00.json',
      '....//....//etc/passwd',
      'x'.repeat(5000),
    ]) {
      const response = await fetch(`${service.baseUrl}/evals?filename=${bad}`);
      expect(response.status, bad).toBe(400);
      const text = await response.text();
      expect(text, bad).not.toContain('root:');
    }
  });

  it('does not follow a link planted in the store to a file outside it', async () => {
    const outside = path.join(work, 'outside');
    await mkdir(outside, { recursive: true });
    const record = {
      id: 'planted-0000000000-aaaaaaaaaa',
      created_at: new Date().toISOString(),
      filename: SECRET,
      document_hash: 'x',
      baseline: SECRET,
      markdown: [SECRET],
      pages: [],
    };
    await writeFile(path.join(outside, 'record.json'), JSON.stringify(record));
    await writeFile(path.join(outside, 'notes.txt'), `${SECRET} not JSON at all`);
    await mkdir(path.join(dataDir, 'evals'), { recursive: true });
    await symlink(path.join(outside, 'record.json'), path.join(dataDir, 'evals', 'planted-0000000000-aaaaaaaaaa.json'));
    await symlink(path.join(outside, 'notes.txt'), path.join(dataDir, 'evals', 'notes-0000000000-bbbbbbbbbb.json'));
    for (const id of ['planted-0000000000-aaaaaaaaaa', 'notes-0000000000-bbbbbbbbbb']) {
      const response = await fetch(`${service.baseUrl}/evals?filename=${id}`);
      expect(await response.text(), id).not.toContain(SECRET);
    }
    const index = await fetch(`${service.baseUrl}/evals`);
    expect(await index.text()).not.toContain(SECRET);
  });
});

describe('fileUrl', () => {
  it('accepts http(s) only, and refuses other schemes with 400', async () => {
    for (const url of [
      'ftp://example.com/a.pdf',
      'data:application/pdf;base64,JVBERi0=',
      'javascript:alert(1)',
      'gopher://example.com/',
      'file:///etc/passwd',
      '/relative/path.pdf',
    ]) {
      const { status, body } = await post('/split', urlForm(url));
      expect(status, url).toBe(400);
      expect(body.error.code, url).toBe('invalid_file_url');
    }
  });

  it('follows an http redirect, but not one to another scheme', async () => {
    expect((await post('/split', urlForm(`${files.url}/to-ok`))).status).toBe(200);
    const { status, body } = await post('/split', urlForm(`${files.url}/to-file`));
    expect(status).toBe(502);
    expect(body.error.code).toBe('file_url_unreachable');
    expect(JSON.stringify(body)).not.toContain('root:');
  });

  it('stops a download that streams past the size limit without a declared length', async () => {
    const { status, body } = await post('/split', urlForm(`${files.url}/chunked-big.pdf`));
    expect(status).toBe(413);
    expect(body.error.code).toBe('file_too_large');
  });

  it('stops a download whose body drips past the time limit', async () => {
    const { status, body } = await post('/split', urlForm(`${files.url}/drip.pdf`));
    expect(status).toBe(504);
    expect(body.error.code).toBe('file_url_timeout');
  });
});
