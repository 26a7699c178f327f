/**
 * report.html of a REAL run of the sample dataset (against the local reference service), opened from
 * file:// in headless chromium: clean console, no network, sorting, filtering, drill-down, dashboard links.
 * The service injects seeded 500s and the run allows one attempt, so the report holds a document whose calls
 * all failed, one partly failed and one ok: the status filter has rows to show and rows to hide.
 * The leaderboard has two rows: the service and the stored incumbent (the dataset's baseline files); the
 * drill-down shows truth and both side by side.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { startLocalService, type LocalService } from '@docbench/local-engine';
import type { DocumentEvaluation, RunSummary } from '../../src/run-dir/evaluation-types.js';
import { launchChromium, networkRequests, openLoggedPage } from './browser.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');

let tmp: string;
let runDir: string;
let browser: Browser;
let documents: DocumentEvaluation[];
let service: LocalService;

function quietStream(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

beforeAll(async () => {
  // Launch first: a missing chromium should fail fast, before the run.
  browser = await launchChromium();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-browser-'));
  runDir = path.join(tmp, 'run');
  // One call after another, so the seeded fault sequence meets the calls in plan order: with seed 53 the first
  // document's three calls succeed, the second's partly fail and the third's all fail.
  service = await startLocalService({
    dataDir: path.join(tmp, 'service'),
    faults: { rate: 0.5, seed: 53, modes: ['500'] },
  });
  const stderr: string[] = [];
  const args = [
    'run',
    '--dataset',
    path.join(ROOT, 'datasets/sample-claims'),
    '--out',
    runDir,
    '--limit',
    '3',
    '--modes',
    'fast,slow',
  ];
  const code = await main(
    [...args, '--base-url', service.baseUrl, '--retries', '1', '--concurrency', '1', '--no-cache', '--quiet'],
    {
      cwd: tmp,
      env: {},
      stdout: quietStream(),
      stderr: new Writable({
        write: (chunk, _encoding, done) => {
          stderr.push(String(chunk));
          done();
        },
      }),
    },
  );
  if (code !== 0) throw new Error(`docbench run exited ${code}: ${stderr.join('')}`);
  documents = (await readFile(path.join(runDir, 'documents.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as DocumentEvaluation);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('report.html of a real run of the sample dataset', () => {
  it('loads offline with no errors, sorts, filters, links dashboards and opens a drill-down', async () => {
    const { page, log } = await openLoggedPage(browser);
    await page.goto(pathToFileURL(path.join(runDir, 'report.html')).href);
    const rows = page.locator('#documents-body tr');
    await expect.poll(() => rows.count()).toBe(documents.length);

    // The leaderboard leads: local and the incumbent (the dataset's baseline files), ranked, with intervals.
    const summary = JSON.parse(await readFile(path.join(runDir, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.system_names).toEqual(['service', 'incumbent']);
    // The sample's first documents have baseline markdown; not all have baseline JSON.
    const board = summary.leaderboard.find((b) => b.rows.length === 2)!;
    expect(board.rows.map((r) => r.system).sort()).toEqual(['incumbent', 'service']);
    const leaderboard = page.locator(`table.leaderboard[data-metric="${board.metric}"] tbody tr`);
    await expect.poll(() => leaderboard.count()).toBe(2);
    expect(await leaderboard.evaluateAll((trs) => trs.map((tr) => tr.querySelector('strong')!.textContent))).toEqual(
      board.rows.map((r) => r.system),
    );
    expect(await page.locator('svg[aria-label$="against latency, one point per system"]').count()).toBe(1);
    expect(await page.locator('#comparisons-table tbody tr').count()).toBe(summary.comparisons.length);

    // Sorting: the service's F1 slow ascending, then descending.
    const f1 = (d: DocumentEvaluation) => d.systems.service?.extraction.slow?.f1 ?? -1;
    const idsBy = (dir: 1 | -1) =>
      [...documents]
        .sort((a, b) => dir * (f1(a) - f1(b)) || (a.document_id < b.document_id ? -1 : 1))
        .map((d) => d.document_id);
    expect(documents.length).toBeGreaterThan(1);
    const header = page.locator('#documents-table th[data-key="f1:slow:service"]');
    await header.click();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual(idsBy(1));
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await header.click();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual(idsBy(-1));

    // Filtering by text, and a search that matches nothing.
    const target = documents[documents.length - 1]!.document_id;
    await page.fill('#doc-search', target);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual([target]);
    await page.fill('#doc-search', 'no-such-document-zzz');
    expect(await rows.count()).toBe(0);
    await expect.poll(() => page.textContent('#doc-count')).toContain('No documents match');
    await page.fill('#doc-search', '');
    expect(await rows.count()).toBe(documents.length);
    // The fixture has every status, so each filter both shows and hides rows.
    // A document's status is the worst of its systems' (the incumbent's stored answers never fail).
    const statusOf = (d: DocumentEvaluation) => d.systems.service!.status;
    const idsWith = (status: 'ok' | 'partial' | 'failed') =>
      documents.filter((d) => statusOf(d) === status).map((d) => d.document_id);
    expect(idsWith('failed')).toHaveLength(1);
    expect(idsWith('partial')).toHaveLength(1);
    expect(idsWith('ok')).toHaveLength(1);
    const shownIds = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
    for (const status of ['failed', 'partial', 'ok'] as const) {
      await page.selectOption('#doc-status', status);
      expect(await shownIds(), status).toEqual(idsWith(status));
    }
    await page.selectOption('#doc-status', 'failed');
    expect(await rows.first().textContent()).toContain('FAILED');
    await page.selectOption('#doc-status', 'problem');
    expect((await shownIds()).sort()).toEqual([...idsWith('failed'), ...idsWith('partial')].sort());
    await page.selectOption('#doc-status', 'all');
    expect(await rows.count()).toBe(documents.length);

    // Dashboard links carry the service's URLs: a service reached by --base-url keeps its own links, even
    // when it is docbench's engine (only the embedded engine's pages are copied into the run directory).
    const links = await page.locator('#documents-body a.dashboard').evaluateAll((as) =>
      as.map((a) => ({
        id: a.closest('tr')!.getAttribute('data-id'),
        href: a.getAttribute('href'),
        rel: a.getAttribute('rel'),
      })),
    );
    const dashboard = (d: DocumentEvaluation) => d.systems.service?.dashboard_url ?? null;
    const expected = documents.filter((d) => dashboard(d) && /^https?:/.test(dashboard(d)!));
    expect(expected.length).toBeGreaterThan(0);
    expect(links).toHaveLength(expected.length);
    for (const link of links) {
      expect(link.href).toBe(new URL(dashboard(documents.find((d) => d.document_id === link.id)!)!).href);
      expect(link.rel).toBe('noopener noreferrer');
    }
    expect(existsSync(path.join(runDir, 'comparisons'))).toBe(false);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'report.png'), fullPage: true });

    // junit.xml is well-formed XML (the browser's parser is strict).
    const xml = await readFile(path.join(runDir, 'junit.xml'), 'utf8');
    const parseError = await page.evaluate(
      (text) =>
        new DOMParser().parseFromString(text, 'application/xml').querySelector('parsererror')?.textContent ?? null,
      xml,
    );
    expect(parseError).toBeNull();

    // A drill-down opens from the table and shows the document.
    const first = rows.first();
    const id = await first.getAttribute('data-id');
    await first.locator('a.drilldown').click();
    await page.waitForURL(/\/drilldown\/part-\d{5}\.html#[A-Za-z0-9_-]+$/);
    // The file holds a hundred documents; the link's anchor shows this one alone.
    const shown = page.locator('article.doc:target');
    expect(await shown.locator('h1').textContent()).toContain(id!);
    expect(
      await page
        .locator('article.doc')
        .evaluateAll((articles) => articles.filter((a) => getComputedStyle(a).display !== 'none').length),
    ).toBe(1);
    expect(await shown.locator('table tbody tr').count()).toBeGreaterThan(0);
    // Truth and every system side by side: fields (Field, Truth, local, incumbent) and markdown columns.
    const systemsHere = Object.keys(documents.find((d) => d.document_id === id)!.systems);
    expect(await shown.locator('table.side-by-side').first().locator('thead th').allTextContents()).toEqual([
      'Field',
      'Truth',
      ...systemsHere,
    ]);
    expect(await shown.locator('.diff-grid').first().locator('.diff-col h4').allTextContents()).toEqual([
      'Truth',
      ...systemsHere,
    ]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'drilldown.png'), fullPage: true });

    expect(log.pageErrors).toEqual([]);
    expect(log.consoleErrors).toEqual([]);
    expect(log.dialogs).toEqual([]);
    expect(networkRequests(log)).toEqual([]);
    await page.close();
  });
});
