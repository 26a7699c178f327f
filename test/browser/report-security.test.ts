/**
 * The security drill: HTML/JS payloads in markdown, JSON values, field names, document ids, tags, errors
 * and dashboard URLs stay inert in report.html and every drill-down (no dialog, no script, no request),
 * opened from file:// in headless chromium. With 250 documents the table pages, sorts and filters.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReports } from '../../src/report/index.js';
import { drilldownAnchor, drilldownFileName } from '../../src/report/drilldown-name.js';
import {
  HOSTILE_DASHBOARD,
  HOSTILE_ID,
  JS_URL,
  UNICODE_ID,
  writeRunFixture,
  type Fixture,
} from '../report/run-fixture.js';
import { launchChromium, networkRequests, openLoggedPage, type PageLog } from './browser.js';

let browser: Browser;
let fixture: Fixture;

beforeAll(async () => {
  browser = await launchChromium();
  fixture = await writeRunFixture({ generated: 250 });
  const outcome = await renderReports(fixture.dir);
  expect(outcome.failed).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  if (fixture) await rm(fixture.dir, { recursive: true, force: true });
});

async function expectInert(page: Page, log: PageLog): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(log.dialogs).toEqual([]);
  expect(log.pageErrors).toEqual([]);
  // A blocked inline script or handler would show up here as a CSP violation.
  expect(log.consoleErrors).toEqual([]);
  expect(networkRequests(log)).toEqual([]);
}

const rowIds = (page: Page) =>
  page.locator('#documents-body tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));

describe('report.html with hostile content', () => {
  it('shows payloads as text, links only http(s) dashboards, and pages, sorts and filters 250+ documents', async () => {
    const { page, log } = await openLoggedPage(browser);
    await page.goto(pathToFileURL(path.join(fixture.dir, 'report.html')).href);
    const total = fixture.documents.length;
    await expect.poll(() => page.textContent('#doc-count')).toBe(`Showing 1–100 of ${total}`);
    // Failures first: the failed document leads the default order.
    expect((await rowIds(page))[0]).toBe('claim-failed');

    await page.click('#doc-next');
    expect(await page.textContent('#doc-count')).toBe(`Showing 101–200 of ${total}`);
    expect(await page.locator('#documents-body tr').count()).toBe(100);

    await page.click('#documents-table th[data-key="id"]');
    const sortedIds = fixture.documents.map((d) => d.document_id).sort((a, b) => a.localeCompare(b));
    expect(await rowIds(page)).toEqual(sortedIds.slice(0, 100));
    await page.click('#documents-table th[data-key="lat:extract:slow:service"]');
    const latencies = await page.locator('#documents-body tr').evaluateAll((trs) => trs.length);
    expect(latencies).toBe(100);

    await page.fill('#doc-search', `</script>"'&`);
    expect(await rowIds(page)).toEqual([HOSTILE_ID]);
    const hostileRow = page.locator('#documents-body tr').first();
    expect(await hostileRow.locator('a.drilldown').textContent()).toBe(HOSTILE_ID);
    expect(await hostileRow.locator('a.dashboard').count()).toBe(0);
    expect(await hostileRow.locator('.url-text').textContent()).toBe(JS_URL);

    await page.fill('#doc-search', 'quoted');
    expect(await rowIds(page)).toEqual([UNICODE_ID]);
    expect(await page.locator('#documents-body a.dashboard').getAttribute('href')).toBe(
      new URL(HOSTILE_DASHBOARD).href,
    );

    await page.fill('#doc-search', '');
    await page.selectOption('#doc-status', 'problem');
    const problems = fixture.documents.filter(
      (d) => d.status !== 'ok' || fixture.gate!.document_failures.some((f) => f.document_id === d.document_id),
    ).length;
    expect(await page.locator('#documents-body tr').count()).toBe(problems);
    await page.selectOption('#doc-status', 'all');
    await page.selectOption('#doc-tag', 'tier=fax');
    expect(await page.locator('#documents-body tr').count()).toBe(
      fixture.documents.filter((d) => d.tags.tier === 'fax').length,
    );

    // Fields table sorts in place.
    await page.click('#fields-table th:nth-child(3)');
    const f1 = await page
      .locator('#fields-table tbody td:nth-child(3)')
      .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
    expect(f1).toEqual([...f1].sort((a, b) => b - a));

    await expectInert(page, log);
    await page.close();
  });

  it('keeps every drill-down inert', async () => {
    const { page, log } = await openLoggedPage(browser);
    const names = await readdir(path.join(fixture.dir, 'drilldown'));
    expect(names.length).toBeGreaterThanOrEqual(1);
    for (const name of names) {
      await page.goto(pathToFileURL(path.join(fixture.dir, 'drilldown', name)).href);
      expect(await page.locator('h1').count()).toBe(await page.locator('article.doc').count());
      expect(await page.locator('script').count()).toBe(0);
    }
    // The hostile document's section, opened at its anchor as the report links it.
    const hostile = fixture.documents.findIndex((d) => d.document_id === HOSTILE_ID);
    await page.goto(
      `${pathToFileURL(path.join(fixture.dir, 'drilldown', drilldownFileName(hostile))).href}#${drilldownAnchor(HOSTILE_ID)}`,
    );
    expect(await page.locator('article.doc:target h1').textContent()).toContain(HOSTILE_ID);
    expect(await page.locator('article.doc:target a.dashboard').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    await expectInert(page, log);
    await page.close();
  });
});
