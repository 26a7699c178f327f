/**
 * report.html and the drill-downs of a run with three systems, opened from file:// in headless chromium: the
 * leaderboard leads with one row per system, the accuracy-vs-cost and accuracy-vs-latency charts draw one
 * point per system, the drill-down shows truth and every system side by side, and hostile text in any
 * system's answers (field values, markdown, error messages, dashboard URLs) stays inert.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/dataset/index.js';
import { evaluateRun } from '../../src/evaluate/evaluate-run.js';
import type { RunSummary } from '../../src/run-dir/evaluation-types.js';
import { silentLogger } from '../../src/logger.js';
import { renderReports } from '../../src/report/index.js';
import type { CallRecord } from '../../src/run-dir/record.js';
import { makeRunManifest } from '../helpers/run-manifest.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { IMG_PAYLOAD, JS_URL, SCRIPT_PAYLOAD } from '../report/run-fixture.js';
import { launchChromium, networkRequests, openLoggedPage } from './browser.js';

const SYSTEMS = ['alpha', 'beta', 'incumbent'] as const;
let browser: Browser;
let tmp: string;
let runDir: string;
let summary: RunSummary;

beforeAll(async () => {
  browser = await launchChromium();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-systems-browser-'));
  const documents = tinyDocuments(5);
  const dataset = await loadDataset(await writeTinyDataset(path.join(tmp, 'dataset'), documents), {});
  const records: CallRecord[] = [];
  SYSTEMS.forEach((system, s) => {
    documents.forEach((doc, i) => {
      const common = {
        v: 2,
        system,
        document_id: doc.id,
        repeat: 0,
        attempts: system === 'incumbent' ? 0 : 1,
        last_attempt_ms: 0,
        started_at: new Date(0).toISOString(),
        from_cache: false,
        ...(system === 'incumbent' ? {} : { cost_usd: 0.002 * (s + 1) }),
      };
      const latency = system === 'incumbent' ? 0 : 150 * (s + 1) + i;
      // beta answers with markup in its values and its markdown; its last call fails with markup in the message.
      const hostile = system === 'beta';
      const failed = hostile && i === 4;
      records.push(
        failed
          ? ({
              ...common,
              key: `${system}|${doc.id}|extract|slow|0`,
              endpoint: 'extract',
              mode: 'slow',
              latency_ms: latency,
              status: 'failed',
              error: { code: 'SERVICE_HTTP', message: `503 ${SCRIPT_PAYLOAD}`, status: 503, retryable: true },
            } as CallRecord)
          : ({
              ...common,
              key: `${system}|${doc.id}|extract|slow|0`,
              endpoint: 'extract',
              mode: 'slow',
              latency_ms: latency,
              status: 'ok',
              result: {
                data: hostile ? { ...doc.data, name: IMG_PAYLOAD } : doc.data,
                responseForm: 'object',
                method: null,
                pagesProcessed: null,
                confidence: null,
                confidenceScale: null,
              },
            } as CallRecord),
        {
          ...common,
          key: `${system}|${doc.id}|compare|-|0`,
          endpoint: 'compare',
          mode: null,
          latency_ms: latency,
          status: 'ok',
          result: {
            success: true,
            pages: [
              {
                content: hostile ? `${doc.markdown}\n${SCRIPT_PAYLOAD}` : doc.markdown.replace('Patient', 'Patent'),
                width: null,
                height: null,
              },
            ],
            dashboardUrl: hostile ? JS_URL : null,
            comparisonId: null,
            failedPages: 0,
            failedPageList: [],
          },
        } as CallRecord,
      );
    });
  });
  runDir = path.join(tmp, 'run');
  await mkdir(runDir);
  const manifest = makeRunManifest({
    runId: 'three-systems',
    contentHash: dataset.contentHash,
    documents: 5,
    modes: ['slow'],
    endpoints: ['extract', 'compare'],
    systems: SYSTEMS.map((name) => ({ name, kind: name === 'incumbent' ? 'stored' : 'command' })),
    reference: 'incumbent',
  });
  await writeFile(path.join(runDir, 'run.json'), JSON.stringify(manifest));
  await writeFile(path.join(runDir, 'results.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  summary = await evaluateRun(runDir, { dataset, logger: silentLogger });
  const outcome = await renderReports(runDir);
  expect(outcome.failed).toEqual([]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('report.html of a three-system run', () => {
  it("leads with the leaderboard, draws one point per system in both charts, and keeps every system's text inert", async () => {
    const { page, log } = await openLoggedPage(browser);
    await page.goto(pathToFileURL(path.join(runDir, 'report.html')).href);
    const headings = await page.locator('main h2').allTextContents();
    expect(headings[0]).toBe('Leaderboard');
    const board = summary.leaderboard.find((b) => b.metric === 'extraction.slow.f1')!;
    const rows = page.locator('table.leaderboard[data-metric="extraction.slow.f1"] tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('strong')!.textContent))).toEqual(
      board.rows.map((r) => r.system),
    );
    expect(board.rows).toHaveLength(3);
    // Cost: alpha and beta are priced, the incumbent is not (named under the chart, not drawn at zero).
    const cost = page.locator('svg[aria-label*="against cost"]');
    expect(await cost.locator('circle.marker').count()).toBe(2);
    expect(await cost.locator('path.interval').count()).toBe(2);
    expect(await page.locator('.legend', { hasText: 'incumbent (no price' }).count()).toBe(1);
    const latency = page.locator('svg[aria-label*="against latency"]');
    expect(await latency.locator('circle.marker').count()).toBe(2);
    expect(await page.locator('#comparisons-table tbody tr').count()).toBe(summary.comparisons.length);
    expect(summary.comparisons.map((c) => c.system)).toEqual(['alpha', 'beta', 'alpha', 'beta', 'alpha', 'beta']);
    // One column per system for each figure in the documents table.
    expect(await page.locator('#documents-table th[data-key^="f1:slow:"]').count()).toBe(3);
    expect(await page.locator('#documents-table th[data-key^="sim:"]').count()).toBe(3);
    // The hostile name shows as text in the fields table (beta's row) and nowhere as markup.
    await page.fill('#doc-search', 'doc-005');
    expect(await page.locator('#documents-body tr').count()).toBe(1);
    expect(await page.locator('#documents-body tr .error, #documents-body tr').first().textContent()).toContain(
      SCRIPT_PAYLOAD,
    );
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(log.dialogs).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(log.consoleErrors).toEqual([]);
    expect(networkRequests(log)).toEqual([]);

    // The drill-down of a document beta answered with markup: truth and the three systems side by side.
    await page.fill('#doc-search', 'doc-001');
    await page.locator('#documents-body a.drilldown').first().click();
    await page.waitForURL(/\/drilldown\/part-\d{5}\.html#[A-Za-z0-9_-]+$/);
    const shown = page.locator('article.doc:target');
    expect(await shown.locator('h1').textContent()).toContain('doc-001');
    expect(await shown.locator('table.side-by-side thead th').allTextContents()).toEqual([
      'Field',
      'Truth',
      ...SYSTEMS,
    ]);
    expect(await shown.locator('.diff-grid').first().locator('.diff-col h4').allTextContents()).toEqual([
      'Truth',
      ...SYSTEMS,
    ]);
    expect(await shown.locator('table.side-by-side').textContent()).toContain(IMG_PAYLOAD);
    expect(await shown.locator('.diff-grid').first().textContent()).toContain(SCRIPT_PAYLOAD);
    expect(await page.locator('img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(log.dialogs).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(networkRequests(log)).toEqual([]);
    await page.close();
    // Five documents: one drill-down file, a section each.
    expect(await readdir(path.join(runDir, 'drilldown'))).toEqual(['part-00001.html']);
  });
});
