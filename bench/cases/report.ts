/**
 * Reports at 10,000 documents (the target in docs/performance.md): time to write every report from a scored run
 * (target < 10 s), size of report.html (target < 25 MB) and of the drill-downs, and first paint of
 * report.html in headless chromium (target < 2 s) plus the time until the document table is filled.
 * Absolute figures: the targets are absolute in the issue.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { BenchCase, BenchFigure } from '../harness.js';
import { renderReports } from '../../src/report/index.js';
import { buildGate, buildManifest, buildSummary, generateDocument } from '../../test/report/run-fixture.js';

const DOCUMENTS = 10_000;
const CHROMIUM = '/usr/bin/chromium';

async function writeLargeRun(dir: string): Promise<void> {
  const documents = Array.from({ length: DOCUMENTS }, (_, i) => generateDocument(i + 1, false));
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(buildManifest(DOCUMENTS)));
  await writeFile(path.join(dir, 'summary.json'), JSON.stringify(buildSummary(documents)));
  await writeFile(path.join(dir, 'gate.json'), JSON.stringify(buildGate()));
  // Documents are written with their texts one at a time, as the scorer would, not held together.
  const out = createWriteStream(path.join(dir, 'documents.jsonl'));
  for (let i = 0; i < DOCUMENTS; i++) {
    const doc = generateDocument(i + 1, true);
    if (!out.write(`${JSON.stringify(doc)}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(path.join(dir, name))).size;
  return total;
}

export const cases: BenchCase[] = [
  {
    id: 'report-10k',
    title: 'Reports for 10,000 documents: build time, report.html size, first paint in headless chromium',
    async run(): Promise<BenchFigure[]> {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-bench-report-'));
      try {
        await writeLargeRun(dir);
        const started = performance.now();
        const outcome = await renderReports(dir);
        const buildMs = performance.now() - started;
        if (outcome.failed.length > 0) throw new Error(`reporters failed: ${JSON.stringify(outcome.failed)}`);
        const htmlBytes = (await stat(path.join(dir, 'report.html'))).size;
        const drilldownBytes = await directoryBytes(path.join(dir, 'drilldown'));
        const figures: BenchFigure[] = [
          {
            name: 'write all reports (10,000 documents)',
            value: buildMs / 1000,
            unit: 's',
            target: { op: '<', value: 10 },
            note: 'report.html, 10,000 drill-downs, CSV, JUnit, summary.md',
          },
          { name: 'report.html size', value: htmlBytes / 1e6, unit: 'MB', target: { op: '<', value: 25 } },
          { name: 'drill-down pages, total size', value: drilldownBytes / 1e6, unit: 'MB', note: `${DOCUMENTS} files` },
        ];
        if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
        const browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        });
        try {
          const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
          await page.goto(pathToFileURL(path.join(dir, 'report.html')).href, { waitUntil: 'load' });
          await page.waitForSelector('#documents-body tr');
          const timing = await page.evaluate(() => {
            const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
            return { paint, now: performance.now() };
          });
          if (timing.paint !== null)
            figures.push({
              name: 'first contentful paint',
              value: timing.paint / 1000,
              unit: 's',
              target: { op: '<', value: 2 },
            });
          figures.push({
            name: 'document table filled (from navigation)',
            value: timing.now / 1000,
            unit: 's',
            note: 'upper bound: measured after the wait',
          });
          const sortStarted = performance.now();
          await page.click('#documents-table th[data-key="f1:slow"]');
          await page.waitForFunction(
            () =>
              document.querySelector('#documents-table th[data-key="f1:slow"]')?.getAttribute('aria-sort') ===
              'ascending',
          );
          figures.push({
            name: 'sort 10,000 rows by F1 (click to repaint)',
            value: performance.now() - sortStarted,
            unit: 'ms',
          });
        } finally {
          await browser.close();
        }
        return figures;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
];
