/**
 * Untrusted-output drill, end to end: hostile HTML/JS arrives through a real `docbench run` —
 * from the service (extracted values, invented field names, markdown, regions, a dashboard_url with markup
 * in its query, an error message quoting a javascript: URL) and from the dataset (schema field names, truth
 * values, tags) — and report.html and every drill-down stay inert in chromium: no dialog, no script runs, no
 * request leaves the file system, and each payload is shown as text. test/browser/report-security.test.ts
 * drills the same on a hand-made run directory (including hostile document ids, which a dataset cannot
 * carry: ids must be safe file names).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, networkRequests, openLoggedPage, type PageLog } from '../browser/browser.js';
import { readMultipart, sendJson, startHttpServer, type TestServer } from '../helpers/http-server.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { parseCsv } from '../report/csv-parse.js';
import { runCli } from '../helpers/cli.js';

// Every payload that runs sets window.__pwned, opens a dialog or fetches a URL: the page log sees each.
const SCRIPT = '<script>window.__pwned=1;alert("script")</script>';
const IMG = '<img src=x onerror="window.__pwned=1;alert(\'img\')">';
const SVG = '<svg onload="window.__pwned=1;alert(\'svg\')"></svg>';
const CLOSE = '</textarea></pre></script><script>window.__pwned=1;alert("close")</script>';
const FETCH = '<img src="https://evil.example/beacon.png"><link rel="stylesheet" href="https://evil.example/x.css">';
const JS_LINK = '[click](javascript:window.__pwned=1;alert("link"))';
const HOSTILE_FIELD = '<img src=x onerror="window.__pwned=1;alert(\'field\')">';
const FORMULA = '=HYPERLINK("https://evil.example/x","click")';
const DASHBOARD = 'https://dash.example.com/evals?filename="><script>window.__pwned=1;alert("dash")</script>';

let work: string;
let service: TestServer;
let browser: Browser;
let runDir: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-untrusted-'));
  const dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(4));
  // Dataset side: a schema field named with markup, truth values and tags carrying payloads.
  const schema = JSON.parse(await readFile(path.join(dataset, 'schema.json'), 'utf8'));
  schema.properties[HOSTILE_FIELD] = { type: 'string', description: SCRIPT };
  schema.properties[FORMULA] = { type: 'string' };
  await writeFile(path.join(dataset, 'schema.json'), JSON.stringify(schema));
  for (const id of ['doc-001', 'doc-002']) {
    const truth = JSON.parse(await readFile(path.join(dataset, 'truth', `${id}.json`), 'utf8'));
    await writeFile(
      path.join(dataset, 'truth', `${id}.json`),
      JSON.stringify({ ...truth, name: SCRIPT, [HOSTILE_FIELD]: IMG }),
    );
    await writeFile(path.join(dataset, 'truth', `${id}.md`), `# Truth ${SCRIPT}\n\n${IMG} ${JS_LINK}`);
  }
  const manifest = JSON.parse(await readFile(path.join(dataset, 'dataset.json'), 'utf8'));
  manifest.documents[0].tags = { tier: IMG, [SVG]: CLOSE };
  await writeFile(path.join(dataset, 'dataset.json'), JSON.stringify(manifest));

  // Service side: every string it returns is hostile.
  service = await startHttpServer(async (request, response) => {
    const form = await readMultipart(request);
    const file = form.get('file');
    const id = file && typeof file !== 'string' ? file.name.replace(/\.pdf$/, '') : 'url';
    if (request.url === '/extract') {
      const data = {
        name: `${SCRIPT}${IMG}`,
        total: 100,
        codes: [{ cpt: CLOSE }],
        [HOSTILE_FIELD]: SVG,
        [SCRIPT]: FETCH,
        [FORMULA]: FORMULA,
      };
      return sendJson(response, 200, {
        response: JSON.stringify(data),
        method: 'slow',
        pages_processed: 1,
        confidence_score: 80,
      });
    }
    if (request.url === '/compare') {
      // doc-004's dashboard URL is a javascript: URL: that call fails, and its error message quotes it.
      const dashboard = id === 'doc-004' ? `javascript:window.__pwned=1;alert("js-url")` : DASHBOARD;
      return sendJson(response, 200, {
        success: true,
        pages: [
          {
            content: `# ${SCRIPT}\n\n${IMG}\n\n${SVG}\n\n${CLOSE}\n\n${FETCH}\n\n${JS_LINK}\n\n| a | ${IMG} |\n|---|---|\n| ${SCRIPT} | 1 |`,
            width: 612,
            height: 792,
          },
        ],
        dashboard_url: dashboard,
      });
    }
    return sendJson(response, 200, {
      pages: [
        {
          page: 1,
          width: 612,
          height: 792,
          bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1, max_x: 3, max_y: 2 }, content: `${SCRIPT}${IMG}` }],
        },
      ],
    });
  });
  const outcome = await runCli(
    [
      'run',
      '--dataset',
      dataset,
      '--base-url',
      service.url,
      '--out',
      'out',
      '--endpoints',
      'extract,compare,split',
      '--quiet',
    ],
    work,
  );
  expect(outcome.code, outcome.stderr).toBe(0);
  runDir = path.join(work, 'out');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function expectInert(page: Page, log: PageLog, where: string): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), where).toBeUndefined();
  expect(log.dialogs, where).toEqual([]);
  expect(log.pageErrors, where).toEqual([]);
  expect(log.consoleErrors, where).toEqual([]);
  expect(networkRequests(log), where).toEqual([]);
  // No element carries an event handler attribute, and no link or frame points at a javascript: URL.
  const live = await page.evaluate(() =>
    // Array.from: the project's DOM lib settings give NodeList and NamedNodeMap no iterator.
    Array.from(document.querySelectorAll('*')).flatMap((element) => [
      ...Array.from(element.attributes)
        .filter((a) => /^on/i.test(a.name))
        .map((a) => `${element.tagName} ${a.name}`),
      ...(/^\s*javascript:/i.test(element.getAttribute('href') ?? element.getAttribute('src') ?? '')
        ? [`${element.tagName} javascript: URL`]
        : []),
    ]),
  );
  expect(live, where).toEqual([]);
  // The only scripts are the report's own (inline, no src).
  expect(await page.locator('script[src]').count(), where).toBe(0);
}

describe('untrusted content from a real run stays inert in the reports', () => {
  it('report.html: payloads shown as text, no script, no dialog, no request', async () => {
    const { page, log } = await openLoggedPage(browser);
    await page.goto(pathToFileURL(path.join(runDir, 'report.html')).href);
    await expect.poll(() => page.locator('#documents-body tr').count()).toBe(4);
    const text = (await page.textContent('body')) ?? '';
    // The field named with markup is listed by its name, as text.
    expect(text).toContain(HOSTILE_FIELD);
    // The dashboard URL is http(s), so it is a link, but its markup stays inside the href.
    const href = await page.locator('#documents-body a.dashboard').first().getAttribute('href');
    expect(href).toBe(new URL(DASHBOARD).href);
    await page.fill('#doc-search', 'doc-004');
    expect(await page.locator('#documents-body a.dashboard').count()).toBe(0);
    await expectInert(page, log, 'report.html');
    await page.close();
  });

  it('every drill-down: markdown, fields, regions and errors shown as text, nothing runs', async () => {
    // Four documents: one drill-down file, a section each.
    const names = (await readdir(path.join(runDir, 'drilldown'))).filter((n) => n.endsWith('.html'));
    expect(names).toEqual(['part-00001.html']);
    const { page, log } = await openLoggedPage(browser);
    await page.goto(pathToFileURL(path.join(runDir, 'drilldown', names[0]!)).href);
    const sections = await page
      .locator('article.doc')
      .evaluateAll((articles) => articles.map((a) => ({ id: a.id, text: a.textContent ?? '' })));
    expect(sections).toHaveLength(4);
    for (const { id, text } of sections) {
      expect(text, id).toContain('window.__pwned=1;alert("script")');
      if (id.startsWith('doc-004'))
        expect(text, id).toMatch(
          /dashboard_url` is not an http\(s\) URL: a string \("javascript:window.__pwned=1;alert\(/,
        );
    }
    await expectInert(page, log, names[0]!);
    await page.close();
  });

  it('CSV reports: no cell a spreadsheet would run as a formula', async () => {
    for (const name of ['documents.csv', 'fields.csv']) {
      const cells = parseCsv(await readFile(path.join(runDir, name), 'utf8')).flat();
      if (name === 'fields.csv') expect(cells).toContain(`'${FORMULA}`);
      expect(
        cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d/.test(cell)),
        name,
      ).toEqual([]);
    }
  });

  it('summary.md (pull-request comments) and junit.xml carry no live markup', async () => {
    for (const name of ['summary.md', 'junit.xml']) {
      const text = await readFile(path.join(runDir, name), 'utf8');
      expect(text, name).toContain('pwned');
      expect(text, name).not.toMatch(/<(script|img|svg|link)\b/i);
      expect(text, name).not.toMatch(/\]\(javascript:/i);
    }
  });
});
