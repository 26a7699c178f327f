/**
 * report.html of a 100,000-document run, opened from file:// in headless chromium: the page loads, the
 * documents table holds one page of rows (not one DOM row per document), and it pages, sorts and filters
 * over all 100,000. The run is generated: a real stored-systems run of a few documents, whose documents.jsonl
 * is then grown to 100,000 lines — each a copy of a scored line under a new id with its own F1, some
 * failed, each tagged — and report.html rendered from it by the real reporter (scoring 100,000 documents is
 * the scale bench's job, not a test's).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReports } from '../../src/report/index.js';
import type { DocumentEvaluation } from '../../src/run-dir/index.js';
import { runCli } from '../helpers/cli.js';
import { writeStoredDataset } from '../helpers/stored-dataset.js';
import { launchChromium, networkRequests, openLoggedPage } from './browser.js';

const DOCUMENTS = 100_000;
/** Every FAILED_EVERY-th document failed for the candidate: 100 of 100,000. */
const FAILED_EVERY = 1000;
const REGIONS = ['north', 'south', 'east', 'west'] as const;

let browser: Browser;
let tmp: string;
let runDir: string;

/** The i-th generated line: a scored line's copy with its own id, candidate F1, region tag and status. */
function generateLine(template: DocumentEvaluation, i: number): DocumentEvaluation {
  const line = structuredClone(template);
  line.document_id = `gen-${String(i).padStart(6, '0')}`;
  line.tags = { region: REGIONS[i % REGIONS.length]! };
  delete line.texts;
  const candidate = line.systems.candidate!;
  const extraction = candidate.extraction.fast!;
  // Distinct F1 values in a scrambled order, so a sort has something to do.
  extraction.f1 = ((i * 7919) % DOCUMENTS) / DOCUMENTS;
  for (const system of Object.values(line.systems))
    for (const mode of Object.values(system.extraction)) mode.fields = [];
  if (i % FAILED_EVERY === 0) {
    candidate.status = 'failed';
    candidate.errors = [
      { endpoint: 'extract', mode: 'fast', code: 'SERVICE_HTTP', message: `503 on document ${i}`, status: 503 },
    ];
  }
  return line;
}

beforeAll(async () => {
  browser = await launchChromium();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-scale-browser-'));
  await writeStoredDataset(path.join(tmp, 'dataset'), 8);
  runDir = path.join(tmp, 'run');
  const result = await runCli(
    [
      'run',
      '--dataset',
      'dataset',
      '--config',
      'dataset/docbench.config.yaml',
      '--endpoints',
      'extract,compare',
      '--modes',
      'fast',
      '--no-cache',
      '--no-gate',
      '--quiet',
      '--out',
      runDir,
    ],
    tmp,
  );
  expect(result.code).toBe(0);
  const templates = (await readFile(path.join(runDir, 'documents.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as DocumentEvaluation);
  const out = createWriteStream(path.join(runDir, 'documents.jsonl'));
  for (let i = 1; i <= DOCUMENTS; i++) {
    if (!out.write(`${JSON.stringify(generateLine(templates[i % templates.length]!, i))}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);
  const outcome = await renderReports(runDir, { formats: ['html'] });
  expect(outcome.failed).toEqual([]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const rowIds = (page: Page) => page.locator('#documents-body tr td:first-child').allTextContents();
const countText = (page: Page) => page.locator('#doc-count').textContent();

describe('report.html of a 100,000-document run', () => {
  it('opens with one page of rows, and pages, sorts and filters over every document', async () => {
    const { page, log } = await openLoggedPage(browser);
    await page.goto(pathToFileURL(path.join(runDir, 'report.html')).href, { timeout: 120_000 });
    await expect.poll(() => countText(page), { timeout: 60_000 }).toBe('Showing 1–100 of 100,000');
    // One page of the table in the DOM, failures first.
    expect(await page.locator('#documents-body tr').count()).toBe(100);
    const first = await rowIds(page);
    expect(first[0]).toContain('gen-001000');
    expect(
      first.slice(0, DOCUMENTS / FAILED_EVERY).every((id) => Number(id.match(/gen-(\d+)/)![1]) % FAILED_EVERY === 0),
    ).toBe(true);

    await page.click('#doc-next');
    expect(await countText(page)).toBe('Showing 101–200 of 100,000');
    expect(await page.locator('#documents-body tr').count()).toBe(100);
    expect((await rowIds(page))[0]).not.toBe(first[0]);
    await page.click('#doc-prev');
    expect(await countText(page)).toBe('Showing 1–100 of 100,000');

    // Sort by the candidate's F1, ascending then descending: the lowest and highest of all 100,000.
    const f1Header = page.locator('#documents-table th[data-key="f1:fast:candidate"]');
    await f1Header.click();
    expect(await f1Header.getAttribute('aria-sort')).toBe('ascending');
    expect((await rowIds(page))[0]).toContain(`gen-${String(DOCUMENTS).padStart(6, '0')}`);
    await f1Header.click();
    expect(await f1Header.getAttribute('aria-sort')).toBe('descending');
    const highest = (await rowIds(page))[0]!;
    const index = Number(highest.match(/gen-(\d+)/)![1]);
    expect((index * 7919) % DOCUMENTS).toBe(DOCUMENTS - 1);

    // Filters: status, tag, search, each over every document.
    await page.selectOption('#doc-status', 'failed');
    expect(await countText(page)).toBe(`Showing 1–100 of 100 (filtered from 100,000)`);
    await page.selectOption('#doc-status', 'all');
    await page.selectOption('#doc-tag', 'region=north');
    expect(await countText(page)).toBe('Showing 1–100 of 25,000 (filtered from 100,000)');
    // region=north is every fourth document.
    const north = await page
      .locator('#documents-body tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')!));
    expect(north.map((id) => Number(id.slice('gen-'.length)) % REGIONS.length)).toEqual(north.map(() => 0));
    await page.selectOption('#doc-tag', '');
    await page.fill('#doc-search', 'gen-04242');
    expect(await countText(page)).toBe('Showing 1–10 of 10 (filtered from 100,000)');
    expect((await rowIds(page)).every((id) => id.includes('gen-04242'))).toBe(true);

    expect(log.pageErrors).toEqual([]);
    expect(log.consoleErrors).toEqual([]);
    expect(networkRequests(log)).toEqual([]);
  }, 300_000);
});
