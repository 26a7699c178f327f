/**
 * `docbench view` in Debian's chromium, over a REAL run of the embedded engine on 3 sample documents (the
 * dataset copied to a temp directory, since the review edits its truth): dashboard links from file:// and
 * served, progress of a run in progress, three keyboard reviews and their truth-changes.jsonl lines, undo,
 * re-scoring, a stale tab refused, the session asked of every request (the printed URL traded for a cookie,
 * writes from another origin refused), a replaced document's page shown anew, hostile values inert.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/run-dir/evaluation-types.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import type { QueueItem } from '../../src/view/review-source.js';
import type { ReviewPage } from '../../src/view/review-queue-store.js';
import type { TruthChange } from '../../src/view/truth-files.js';
import { runCli } from '../helpers/cli.js';
import { IMG_PAYLOAD, SCRIPT_PAYLOAD } from '../report/run-fixture.js';
import { launchChromium, openLoggedPage, type PageLog } from './browser.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');

let tmp: string;
let datasetDir: string;
let reportsDir: string;
let runDir: string;
let browser: Browser;
let server: ViewServer;

beforeAll(async () => {
  browser = await launchChromium();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-view-'));
  datasetDir = path.join(tmp, 'dataset');
  reportsDir = path.join(tmp, 'reports');
  runDir = path.join(reportsDir, 'r1');
  await cp(path.join(ROOT, 'datasets/sample-claims'), datasetDir, { recursive: true });
  const result = await runCli(
    [
      'run',
      '--dataset',
      'dataset',
      '--out',
      'reports/r1',
      '--limit',
      '3',
      '--modes',
      'fast,slow',
      '--endpoints',
      'extract,compare,split',
      '--no-cache',
      '--quiet',
    ],
    tmp,
  );
  if (result.code !== 0) throw new Error(`docbench run exited ${result.code}: ${result.stderr}`);
  server = await startViewServer({ reportsDir, cwd: tmp });
}, 400_000);

afterAll(async () => {
  await server?.close();
  await browser?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function expectClean(log: PageLog): void {
  expect(log.pageErrors).toEqual([]);
  expect(log.consoleErrors).toEqual([]);
  expect(log.dialogs).toEqual([]);
}

/** A request as a script makes it: the token in the header. */
function withToken(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    ...init,
    headers: { ...(init.headers as Record<string, string> | undefined), 'x-docbench-token': server.token },
  });
}

async function queue(query = 'limit=1000'): Promise<ReviewPage> {
  const response = await withToken(`${server.baseUrl}/api/runs/r1/review?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ReviewPage;
}

async function readChanges(): Promise<TruthChange[]> {
  const file = path.join(datasetDir, 'truth-changes.jsonl');
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TruthChange);
}

async function truthAt(item: QueueItem): Promise<unknown> {
  if (item.kind === 'page') {
    const text = await readFile(path.join(datasetDir, 'truth', `${item.document_id}.md`), 'utf8');
    return text.split(/\n\s*<!-- page-break -->\s*\n/)[item.page! - 1]!.trim();
  }
  const truth = JSON.parse(
    await readFile(path.join(datasetDir, 'truth', `${item.document_id}.json`), 'utf8'),
  ) as unknown;
  return item
    .path!.split(/\.|\[|\]/)
    .filter(Boolean)
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], truth);
}

/** A new browser page that opened the printed URL (its session cookie set), then the review. */
async function openReview(on: ViewServer = server): Promise<{ page: Page; log: PageLog }> {
  const opened = await openLoggedPage(browser);
  await opened.page.goto(on.url);
  await opened.page.goto(`${on.baseUrl}/review/r1`);
  await opened.page.waitForSelector('body[data-ready="1"]');
  return opened;
}

const currentItem = (page: Page) => page.getAttribute('#item', 'data-item');

describe('docbench view over a real run of the embedded engine', () => {
  it('links each document to its comparison view inside the run directory, from file://', async () => {
    const csv = await readFile(path.join(runDir, 'documents.csv'), 'utf8');
    const links = [...csv.matchAll(/,(comparisons\/[a-z0-9-]+\.html),/g)].map((m) => m[1]!);
    expect(links).toHaveLength(3);
    for (const link of links) expect(existsSync(path.join(runDir, link))).toBe(true);

    const { page, log } = await openLoggedPage(browser);
    const reportUrl = pathToFileURL(path.join(runDir, 'report.html')).href;
    await page.goto(reportUrl);
    const href = await page.locator('#documents-body a.dashboard').first().getAttribute('href');
    expect(links).toContain(href);
    await page.goto(new URL(href!, reportUrl).href);
    expect(await page.textContent('main p')).toContain('Left: the docbench local engine');
    expect(await page.locator('section.page').count()).toBeGreaterThan(0);

    await page.goto(reportUrl);
    await page.locator('#documents-body a.drilldown').first().click();
    await page.waitForURL(/\/drilldown\/part-\d{5}\.html#[A-Za-z0-9_-]+$/);
    const fromDrilldown = await page.locator('article.doc:target a.dashboard').getAttribute('href');
    expect(fromDrilldown).toMatch(/^\.\.\/comparisons\/[a-z0-9-]+\.html$/);
    await page.goto(new URL(fromDrilldown!, page.url()).href);
    expect(await page.locator('section.page').count()).toBeGreaterThan(0);
    expectClean(log);
    await page.close();
  });

  it('goes history → run → drill-down → comparison view when served, and shows a run in progress', async () => {
    const { page, log } = await openLoggedPage(browser);
    await page.goto(server.url);
    // The printed URL's token became the session cookie; the address bar no longer shows it.
    expect(page.url()).toBe(`${server.baseUrl}/`);
    expect(await page.locator('tr[data-run="r1"]').count()).toBe(1);

    // A run that starts after the server: listed on the next load, with its progress.
    const running = path.join(reportsDir, 'r2-running');
    await mkdir(running);
    const manifest = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as {
      status: string;
      run_id: string;
      counts: { planned: number };
    };
    await writeFile(
      path.join(running, 'run.json'),
      JSON.stringify({
        ...manifest,
        run_id: 'r2-running',
        status: 'running',
        created_at: new Date().toISOString(),
        counts: { ...manifest.counts, planned: 9 },
      }),
    );
    const results = (await readFile(path.join(runDir, 'results.jsonl'), 'utf8')).split('\n').slice(0, 2).join('\n');
    await writeFile(path.join(running, 'results.jsonl'), `${results}\n`);
    await page.reload();
    expect(await page.locator('tr[data-run="r2-running"] .progress-text').textContent()).toBe('2 of 9 calls');
    await page.locator('tr[data-run="r2-running"] a.progress').click();
    expect(await page.textContent('#progress')).toContain('2 of 9 calls recorded');
    await rm(running, { recursive: true });

    await page.goto(server.url);
    await page.locator('tr[data-run="r1"] a.report').click();
    await page.waitForURL(/\/runs\/r1\/report\.html$/);
    await page.locator('#documents-body a.drilldown').first().click();
    await page.waitForURL(/\/runs\/r1\/drilldown\/part-\d{5}\.html#[A-Za-z0-9_-]+$/);
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      page.locator('article.doc:target a.dashboard').click(),
    ]);
    await popup.waitForLoadState();
    expect(popup.url()).toMatch(/\/runs\/r1\/comparisons\/[a-z0-9-]+\.html$/);
    expect(await popup.locator('section.page').count()).toBeGreaterThan(0);
    await popup.close();
    expectClean(log);
    await page.close();
  });

  it('applies three keyboard reviews as exactly three truth edits and truth-changes.jsonl lines; undo reverts; re-scoring updates F1', async () => {
    const before = await queue();
    const items = before.items;
    expect(items.length).toBeGreaterThan(5);
    expect(items[0]!.tier).toBe(1);
    expect(items[0]!.systems.length).toBeGreaterThanOrEqual(2);
    const summaryBefore = JSON.parse(await readFile(path.join(runDir, 'summary.json'), 'utf8')) as RunSummary;
    const { page, log } = await openReview();
    expect(await currentItem(page)).toBe(items[0]!.id);
    await page.waitForFunction(() => (document.getElementById('page-image') as HTMLImageElement).complete);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'view-review.jpg'), type: 'jpeg', quality: 80 });
    expect(await page.locator('#systems li').count()).toBe(items[0]!.systems.length);
    // One statement per item: the heading is the tier's label, the reason details the same classification.
    expect([await page.locator('#tier').textContent(), await page.locator('#reason').textContent()]).toEqual([
      items[0]!.label,
      items[0]!.reason,
    ]);

    // 1: accept system 1's value, with a note.
    await page.fill('#note', 'checked on the scan');
    await page.press('#note', 'Escape');
    await page.keyboard.press('1');
    await expect.poll(() => currentItem(page)).toBe(items[1]!.id);
    // keep the truth, then 2: accept system 2's value.
    await page.keyboard.press('k');
    await expect.poll(() => currentItem(page)).toBe(items[2]!.id);
    await page.keyboard.press('2');
    await expect.poll(() => currentItem(page)).toBe(items[3]!.id);
    // skip, then 3: type a value.
    await page.keyboard.press('s');
    await expect.poll(() => currentItem(page)).toBe(items[4]!.id);
    await page.keyboard.press('e');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Reviewed value 42');
    await page.keyboard.press(items[4]!.kind === 'page' ? 'Control+Enter' : 'Enter');
    await expect.poll(() => currentItem(page)).toBe(items[5]?.id ?? '');

    const expected = [
      {
        item: items[0]!,
        value: items[0]!.systems[0]!.value,
        source: items[0]!.systems[0]!.system,
        note: 'checked on the scan',
      },
      { item: items[2]!, value: items[2]!.systems[1]!.value, source: items[2]!.systems[1]!.system, note: '' },
      { item: items[4]!, value: 'Reviewed value 42', source: 'edit', note: '' },
    ];
    const changes = await readChanges();
    expect(changes).toHaveLength(3);
    expected.forEach((e, i) => {
      expect(changes[i]).toMatchObject({
        document: e.item.document_id,
        field_path: e.item.path,
        page: e.item.page,
        old: e.item.truth,
        new: e.value,
        source: e.source,
        note: e.note,
        run: 'r1',
      });
      expect(Date.parse(changes[i]!.time)).not.toBeNaN();
    });
    for (const e of expected) expect(await truthAt(e.item)).toEqual(e.value);
    expect(await truthAt(items[1]!)).toEqual(items[1]!.truth);
    expect(await truthAt(items[3]!)).toEqual(items[3]!.truth);
    await expect.poll(() => page.isVisible('#changed')).toBe(true);
    expect((await queue()).truth_changed).toBe(true);

    // Undo reverts the typed value and logs it.
    await page.keyboard.press('u');
    await expect.poll(async () => (await readChanges()).length).toBe(4);
    expect((await readChanges())[3]).toMatchObject({
      document: items[4]!.document_id,
      old: 'Reviewed value 42',
      new: items[4]!.truth,
      source: 'undo',
    });
    expect(await truthAt(items[4]!)).toEqual(items[4]!.truth);
    // The page goes back to the item once the server has answered, which is after it wrote the file.
    await expect.poll(() => currentItem(page)).toBe(items[4]!.id);

    // Re-score: the figures come from the new summary.json; accepting the fast engine's own values where it
    // was scored wrong turns those fields into true positives.
    await page.click('#rescore');
    await expect.poll(() => page.isVisible('#changed'), { timeout: 60_000 }).toBe(false);
    const summaryAfter = JSON.parse(await readFile(path.join(runDir, 'summary.json'), 'utf8')) as RunSummary;
    const fastBefore = summaryBefore.systems.local!.extraction.fast!;
    const fastAfter = summaryAfter.systems.local!.extraction.fast!;
    const gained = [expected[0]!, expected[1]!].filter(
      (e) =>
        e.item.kind === 'field' &&
        JSON.stringify(e.item.systems.find((s) => s.system === 'local (fast)')?.value) === JSON.stringify(e.value) &&
        !e.item.matches[0],
    ).length;
    expect(gained).toBeGreaterThan(0);
    expect(fastAfter.tp).toBe(fastBefore.tp + gained);
    expect(fastAfter.fp).toBe(fastBefore.fp - gained);
    expect(fastAfter.fn).toBe(fastBefore.fn - gained);
    expect(fastAfter.f1).toBeCloseTo((2 * fastAfter.tp) / (2 * fastAfter.tp + fastAfter.fp + fastAfter.fn), 12);
    expect(fastAfter.f1).toBeGreaterThan(fastBefore.f1);
    expect(await page.textContent('#figures [data-label="Field F1 (local, fast)"]')).toContain(
      `${(fastAfter.f1 * 100).toFixed(1)}%`,
    );
    expect((await queue()).truth_changed).toBe(false);
    expectClean(log);
    await page.close();
  }, 180_000);

  it("refuses a stale tab with a message and keeps the other tab's edit", async () => {
    const a = await openReview();
    const b = await openReview();
    const item = (await queue()).items[0]!;
    expect(await currentItem(a.page)).toBe(item.id);
    expect(await currentItem(b.page)).toBe(item.id);
    const count = (await readChanges()).length;
    await a.page.keyboard.press('1');
    await expect.poll(async () => (await readChanges()).length).toBe(count + 1);
    await b.page.keyboard.press('2');
    await expect.poll(() => b.page.getAttribute('#message', 'class')).toBe('error');
    expect(await b.page.textContent('#message')).toContain('changed since this page loaded it');
    expect(await currentItem(b.page)).toBe(item.id);
    expect((await readChanges()).length).toBe(count + 1);
    expect(await truthAt(item)).toEqual(item.systems[0]!.value);
    await a.page.close();
    await b.page.close();
  });

  it('asks for the session on every page: 403 without it, the token in no page, the printed URL traded for an HttpOnly SameSite=Strict cookie', async () => {
    const item = (await queue()).items[0]!;
    const pages = [
      '/',
      '/history',
      '/runs/r1/',
      '/runs/r1/report.html',
      '/runs/r1/documents.csv',
      '/diff/r1/r1',
      '/review/r1',
      '/favicon.ico',
      '/nothing-here',
      '/api/runs/r1/review',
      `/api/runs/r1/page?document=${item.document_id}&page=1`,
    ];
    const opened = await fetch(server.url, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/');
    const setCookie = opened.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^docbench_view_\d+=[A-Za-z0-9_-]+; HttpOnly; SameSite=Strict; Path=\/$/);
    const cookie = setCookie.split(';')[0]!;
    for (const address of pages) {
      const refused = await fetch(`${server.baseUrl}${address}`, { redirect: 'manual' });
      expect(refused.status, address).toBe(403);
      const text = await refused.text();
      expect(text, address).toContain('open the URL docbench view printed');
      expect(text, address).not.toContain(server.token);
      const served = await fetch(`${server.baseUrl}${address}`, { headers: { cookie }, redirect: 'manual' });
      expect(served.status, address).toBe(
        address === '/nothing-here' ? 404 : address === '/favicon.ico' ? 204 : address === '/runs/r1/' ? 302 : 200,
      );
      expect(await served.text(), address).not.toContain(server.token);
    }
    // A wrong token in a link is refused, not traded.
    const wrong = await fetch(`${server.baseUrl}/?token=not-the-token`, { redirect: 'manual' });
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('takes a change with the cookie from its own origin, refuses one from another origin or without Origin', async () => {
    const item = (await queue()).items.find((i) => i.kind === 'field' && typeof i.truth === 'string')!;
    const cookie = (await fetch(server.url, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
    const post = (origin: string | null, value: unknown, etag: string) =>
      fetch(`${server.baseUrl}/api/runs/r1/truth`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'if-match': etag, ...(origin ? { origin } : {}) },
        body: JSON.stringify({
          document: item.document_id,
          kind: item.kind,
          path: item.path,
          page: item.page,
          value,
          source: 'edit',
        }),
      });
    const count = (await readChanges()).length;
    expect((await post('http://attacker.example', 'Forged', item.etag)).status).toBe(403);
    expect((await post(null, 'Forged', item.etag)).status).toBe(403);
    expect((await readChanges()).length).toBe(count);
    const own = await post(server.baseUrl, 'From the view', item.etag);
    expect(own.status).toBe(200);
    expect(await truthAt(item)).toBe('From the view');
    expect((await post(server.baseUrl, item.truth, own.headers.get('etag')!)).status).toBe(200);
    expect((await readChanges()).length).toBe(count + 2);
  });

  it('shows a document replaced on disk with its new page, not the cached one', async () => {
    const file = path.join(datasetDir, 'documents', 'bill-014.pdf');
    const image = async () =>
      Buffer.from(await (await withToken(`${server.baseUrl}/api/runs/r1/page?document=bill-014&page=1`)).arrayBuffer());
    const before = await image();
    expect(await image()).toEqual(before);
    await cp(path.join(datasetDir, 'documents', 'bill-017.pdf'), file);
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    const after = await image();
    expect(after.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(after.equals(before)).toBe(false);
  });

  it('answers a state-changing request without the token with 403, and a foreign Host with 421', async () => {
    const item = (await queue()).items[0]!;
    const body = JSON.stringify({
      document: item.document_id,
      kind: item.kind,
      path: item.path,
      page: item.page,
      value: 'x',
      source: 'edit',
    });
    const count = (await readChanges()).length;
    const noToken = await fetch(`${server.baseUrl}/api/runs/r1/truth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': item.etag },
      body,
    });
    expect(noToken.status).toBe(403);
    const tokenInQuery = await fetch(`${server.baseUrl}/api/runs/r1/truth?token=${server.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': item.etag },
      body,
    });
    expect(tokenInQuery.status).toBe(403);
    expect((await fetch(`${server.baseUrl}/api/runs/r1/rescore`, { method: 'POST' })).status).toBe(403);
    expect((await readChanges()).length).toBe(count);
    const rebound = await new Promise<number>((resolve, reject) => {
      // fetch() cannot set Host; node:http can.
      void import('node:http').then(({ request }) => {
        const req = request(`${server.baseUrl}/`, { headers: { host: 'attacker.example:80' } }, (res) =>
          resolve(res.statusCode ?? 0),
        );
        req.on('error', reject);
        req.end();
      });
    });
    expect(rebound).toBe(421);
    expect((await withToken(`${server.baseUrl}/runs/r1/..%2F..%2Fdataset/truth/bill-002.json`)).status).toBe(404);
  });

  it('serves the queue a page at a time in one order, kept through its own edits and rebuilt when the truth changes outside', async () => {
    const whole = await queue();
    expect(whole.total).toBe(whole.items.length);
    expect(whole.total).toBeGreaterThan(8);
    const middle = await queue('offset=3&limit=4');
    expect(middle).toMatchObject({ offset: 3, total: whole.total, version: whole.version });
    expect(middle.items.map((i) => i.id)).toEqual(whole.items.slice(3, 7).map((i) => i.id));
    for (const bad of ['offset=-1', 'offset=x', 'limit=0', 'limit=1001'])
      expect((await withToken(`${server.baseUrl}/api/runs/r1/review?${bad}`)).status, bad).toBe(400);

    // An edit through the view: the same queue, in the same order, with the new truth and the file's new ETag.
    const item = whole.items.find((i) => i.kind === 'field' && typeof i.truth === 'string')!;
    const write = (value: unknown, etag: string) =>
      fetch(`${server.baseUrl}/api/runs/r1/truth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-docbench-token': server.token, 'if-match': etag },
        body: JSON.stringify({
          document: item.document_id,
          kind: item.kind,
          path: item.path,
          page: item.page,
          value,
          source: 'edit',
        }),
      });
    const edited = await write('Paged value', item.etag);
    expect(edited.status).toBe(200);
    const etag = edited.headers.get('etag')!;
    const after = await queue();
    expect(after.version).toBe(whole.version);
    expect(after.items.map((i) => i.id)).toEqual(whole.items.map((i) => i.id));
    const kept = after.items.find((i) => i.id === item.id)!;
    expect(kept).toMatchObject({ truth: 'Paged value', etag });
    for (const other of after.items.filter((i) => i.document_id === item.document_id && i.kind === 'field'))
      expect(other.etag).toBe(etag);
    expect((await write(item.truth, etag)).status).toBe(200);

    // The truth file touched by another program: the queue is built anew.
    const file = path.join(datasetDir, 'truth', `${item.document_id}.json`);
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    expect((await queue()).version).not.toBe(whole.version);
  });

  it('walks a queue larger than a page: the next page loads as the reviewer nears the end of the loaded ones', async () => {
    const whole = await queue();
    const small = await startViewServer({ reportsDir, cwd: tmp, reviewPageSize: 2 });
    try {
      const { page, log } = await openReview(small);
      expect(await page.textContent('#position')).toBe(`Item 1 of ${whole.total}`);
      for (let i = 1; i <= 6; i++) {
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => currentItem(page)).toBe(whole.items[i]!.id);
      }
      expect(await page.textContent('#position')).toBe(`Item 7 of ${whole.total}`);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => currentItem(page)).toBe(whole.items[5]!.id);
      expectClean(log);
      await page.close();
    } finally {
      await small.close();
    }
    await expect(startViewServer({ reportsDir, cwd: tmp, reviewPageSize: 0 })).rejects.toThrow(
      /reviewPageSize must be a whole number from 1 to 1000/,
    );
  });

  it('renders hostile truth values as text', async () => {
    const file = path.join(datasetDir, 'truth', 'bill-002.json');
    const truth = JSON.parse(await readFile(file, 'utf8')) as { provider: { name: string } };
    truth.provider.name = `${SCRIPT_PAYLOAD}${IMG_PAYLOAD}`;
    await writeFile(file, JSON.stringify(truth, null, 2));
    const items = (await queue()).items;
    const index = items.findIndex((i) => i.id === 'field:bill-002:provider.name');
    expect(index).toBeGreaterThanOrEqual(0);
    const { page, log } = await openReview();
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => currentItem(page)).toBe('field:bill-002:provider.name');
    expect(await page.textContent('#truth')).toBe(`${SCRIPT_PAYLOAD}${IMG_PAYLOAD}`);
    expect(await page.locator('#item img, #item script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expectClean(log);
    await page.close();
  });

  it('adds present and before-after rule checks from text selected in a markdown page, and shows them', async () => {
    const items = (await queue()).items;
    const index = items.findIndex((i) => i.kind === 'page');
    expect(index).toBeGreaterThanOrEqual(0);
    const item = items[index]!;
    const { page, log } = await openReview();
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => currentItem(page)).toBe(item.id);
    expect(await page.isVisible('#check-bar')).toBe(true);
    const truthText = (await page.textContent('#truth'))!;
    const words = [...truthText.matchAll(/[A-Za-z]{4,}/g)];
    expect(words.length).toBeGreaterThan(2);
    const [first, last] = [words[0]!, words.at(-1)!];
    /** Selects characters [start, end) of the truth's markdown, as a drag of the mouse does. */
    const select = (start: number, end: number) =>
      page.evaluate(
        ([s, e]) => {
          const range = document.createRange();
          const node = document.getElementById('truth')!.firstChild!;
          range.setStart(node, s!);
          range.setEnd(node, e!);
          window.getSelection()!.removeAllRanges();
          window.getSelection()!.addRange(range);
        },
        [start, end],
      );

    // The category first: focusing its field takes the selection away.
    await page.fill('#check-category', 'reviewed');
    await page.press('#check-category', 'Escape');
    await select(first.index, first.index + first[0].length);
    await page.click('#check-present');
    await expect.poll(() => page.locator('#checks-added li').count()).toBe(1);
    // before-after: the first selection is `before`, the second `after`.
    await select(first.index, first.index + first[0].length);
    await page.keyboard.press('b');
    await expect.poll(() => page.textContent('#check-pending')).toContain(first[0]);
    await select(last.index, last.index + last[0].length);
    await page.keyboard.press('b');
    await expect.poll(() => page.locator('#checks-added li').count()).toBe(2);
    expect(await page.textContent('#message')).toMatch(/^Added check \S+ to checks\.jsonl\.$/);

    const checks = (await readFile(path.join(datasetDir, 'checks.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const pdf = (await readdir(path.join(datasetDir, 'documents'))).find((f) => f.startsWith(`${item.document_id}.`));
    expect(checks).toEqual([
      expect.objectContaining({ pdf, page: item.page, type: 'present', text: first[0], category: 'reviewed' }),
      expect.objectContaining({ pdf, page: item.page, type: 'order', before: first[0], after: last[0] }),
    ]);
    expect(await page.getAttribute('#checks-added li:last-child', 'data-check')).toBe(checks[1]!.id);
    const logged = (await readChanges()).slice(-2) as unknown as Record<string, unknown>[];
    expect(logged.map((c) => [c.check, c.source, c.run])).toEqual([
      [checks[0]!.id, 'truth', 'r1'],
      [checks[1]!.id, 'truth', 'r1'],
    ]);
    expectClean(log);
    await page.close();
  });
});
