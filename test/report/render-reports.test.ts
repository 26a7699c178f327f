import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/logger.js';
import { renderReports, type ReportOutcome } from '../../src/report/index.js';
import { drilldownAnchor } from '../../src/report/drilldown-name.js';
import { readCsvRecords } from './csv-parse.js';
import {
  FORMULA_ID,
  HOSTILE_DASHBOARD,
  HOSTILE_FIELD,
  HOSTILE_ID,
  IMG_PAYLOAD,
  JS_URL,
  UNICODE_ID,
  writeRunFixture,
  type Fixture,
} from './run-fixture.js';

/** Raw markup a hostile string would produce if it reached the page unescaped. */
const LIVE_MARKUP = [
  /<script>window\.__pwned/i,
  /<script>alert/i,
  /<img src=x/i,
  /<b onmouseover/i,
  /href="javascript:/i,
  /href="data:/i,
];

let fixture: Fixture;
let outcome: ReportOutcome;
const files: Record<string, string> = {};

beforeAll(async () => {
  fixture = await writeRunFixture();
  outcome = await renderReports(fixture.dir);
  for (const name of ['report.html', 'documents.csv', 'fields.csv', 'junit.xml', 'summary.md'])
    files[name] = await readFile(path.join(fixture.dir, name), 'utf8');
});
afterAll(async () => {
  await rm(fixture.dir, { recursive: true, force: true });
});

describe('renderReports on a scored run', () => {
  it('writes every report file and the drill-downs (a hundred documents a file, a section each), and reports no failure', async () => {
    expect(outcome.failed).toEqual([]);
    expect(outcome.written.map((f) => f.slice(fixture.dir.length + 1))).toEqual([
      'report.html',
      `drilldown${path.sep}`,
      'documents.csv',
      'fields.csv',
      'tags.csv',
      'junit.xml',
      'summary.md',
    ]);
    const pages = await readdir(path.join(fixture.dir, 'drilldown'));
    expect(pages).toEqual(['part-00001.html']);
    const bundle = await readFile(path.join(fixture.dir, 'drilldown', 'part-00001.html'), 'utf8');
    expect([...bundle.matchAll(/<article class="doc" id="([^"]+)">/g)].map((m) => m[1])).toEqual(
      fixture.documents.map((d) => drilldownAnchor(d.document_id)),
    );
    expect((await readdir(fixture.dir)).filter((f) => f.endsWith('.tmp') || f.endsWith('.old'))).toEqual([]);
  });

  it('documents.csv has one row per document with the agreed columns and the scored values', () => {
    // Long layout: one row per document and system (the run written in schema 1 reads as service + incumbent).
    const all = readCsvRecords(files['documents.csv']!);
    const records = all.filter((r) => r.system === 'service');
    expect(records).toHaveLength(fixture.documents.length);
    const incumbent = all.filter((r) => r.system === 'incumbent');
    expect(incumbent).toHaveLength(fixture.documents.filter((d) => d.markdown?.baseline).length);
    for (const row of incumbent)
      expect(Number(row.similarity)).toBeCloseTo(
        fixture.documents.find((d) => d.document_id === row.document_id!.replace(/^'/, ''))!.markdown!.baseline!
          .similarity,
        6,
      );
    const header = Object.keys(records[0]!);
    expect(header.slice(0, 2)).toEqual(['document_id', 'system']);
    for (const column of [
      'document_id',
      'status',
      'error',
      'dashboard_url',
      'f1_fast',
      'f1_slow',
      'exact_fast',
      'exact_slow',
      'confidence_fast',
      'confidence_slow',
      'latency_ms_fast',
      'latency_ms_slow',
      'similarity',
      'similarity_delta_vs_reference',
      'cost_usd',
      'latency_ms_compare',
      'gate_passed',
      'tag_tier',
    ]) {
      expect(header).toContain(column);
    }
    const failed = records.find((r) => r.document_id === 'claim-failed')!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('extract:slow SERVICE_HTTP 503');
    expect(failed.error).toContain('SERVICE_TIMEOUT');
    const first = records.find((r) => r.document_id === 'claim-00001')!;
    const doc = fixture.documents.find((d) => d.document_id === 'claim-00001')!;
    expect(Number(first.f1_slow)).toBeCloseTo(doc.extraction.slow!.f1, 6);
    expect(Number(first.latency_ms_slow)).toBe(doc.latency_ms['extract:slow']);
    expect(first.dashboard_url).toBe('https://dash.example.com/compare/claim-00001');
    expect(records.find((r) => r.document_id === UNICODE_ID)!.dashboard_url).toBe(HOSTILE_DASHBOARD);
  });

  it('documents.csv neutralises cells a spreadsheet would run as formulas', () => {
    const records = readCsvRecords(files['documents.csv']!);
    expect(records.map((r) => r.document_id)).toContain(`'${FORMULA_ID}`);
    expect(records.filter((r) => r.document_id === `'${FORMULA_ID}`).map((r) => r.system)).toEqual([
      'service',
      'incumbent',
    ]);
    expect(records.every((r) => !/^[=+@]/.test(r.document_id!))).toBe(true);
  });

  it('fields.csv has one row per field path and mode, worst F1 first', () => {
    const records = readCsvRecords(files['fields.csv']!);
    expect(records).toHaveLength(fixture.summary.fields.length);
    expect(records.map((r) => Number(r.f1))).toEqual(
      [...fixture.summary.fields.map((f) => f.f1)].sort((a, b) => a - b),
    );
    expect(records[0]!.path).toBe(HOSTILE_FIELD);
    expect(records.every((r) => r.system === 'service')).toBe(true);
    expect(Object.keys(records[0]!)).toEqual([
      'system',
      'path',
      'mode',
      'f1',
      'precision',
      'recall',
      'tp',
      'fp',
      'fn',
      'missing',
      'hallucinated',
      'wrong_value',
      'format_only',
      'not_in_text',
      'in_text',
    ]);
  });

  it('junit.xml has a testsuite per system with one testcase per document, and one per gate check, failing exactly the errored, below-gate and failed-check cases', () => {
    const xml = files['junit.xml']!;
    const start = xml.indexOf('<testsuite name="documents · service"');
    const documentsSuite = xml.slice(start, xml.indexOf('</testsuite>', start));
    const incumbentStart = xml.indexOf('<testsuite name="documents · incumbent"');
    const incumbentSuite = xml.slice(incumbentStart, xml.indexOf('</testsuite>', incumbentStart));
    expect(incumbentSuite.match(/<testcase /g)).toHaveLength(
      fixture.documents.filter((d) => d.markdown?.baseline).length,
    );
    expect(incumbentSuite).toContain('failures="0"');
    const gateSuite = xml.slice(xml.indexOf('<testsuite name="quality gate"'));
    expect(documentsSuite.match(/<testcase /g)).toHaveLength(fixture.documents.length);
    const errored = fixture.documents.filter((d) => d.status !== 'ok').map((d) => d.document_id);
    const belowGate = fixture.gate!.document_failures.map((f) => f.document_id);
    const expectedFailures = new Set([...errored, ...belowGate]).size;
    expect(documentsSuite.match(/<failure /g)).toHaveLength(expectedFailures);
    expect(documentsSuite).toContain(`failures="${expectedFailures}"`);
    expect(gateSuite.match(/<testcase /g)).toHaveLength(fixture.gate!.checks.length);
    expect(gateSuite.match(/<failure /g)).toHaveLength(fixture.gate!.checks.filter((c) => !c.passed).length);
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*failures="${expectedFailures + 2}"`));
    expect(xml).not.toMatch(/<script|<img/);
    expect(xml).toContain('name="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&apos;&amp;"');
  });

  it('summary.md has the leaderboard, the headline table, the gate verdict agreeing with gate.json, the worst fields and escaped text', () => {
    const md = files['summary.md']!;
    expect(md).toContain('## Leaderboard: field F1 (slow)');
    expect(md).toContain('| 1 | service (primary) | 93.1% | not computed |');
    expect(md).toContain('| Metric | fast | slow |');
    expect(md).toContain('| Field F1 (normalised) | 81.2% | 93.1% |');
    expect(md).toContain('**❌ Quality gate FAILED**: 2 of 3 checks failed');
    expect(md).toContain('**Markdown similarity:** service 93.1% vs incumbent 88.9%, Δ +4.2 pts');
    expect(md).toContain('service is better by 4.2 points; significant');
    expect(md).toContain('accepting documents with confidence ≥ 87 gives 96% field F1 on 71% of documents');
    expect(md).toContain('## Worst fields');
    expect(md).toContain('[dashboard](https://dash.example.com/compare/claim-00002)');
    for (const pattern of LIVE_MARKUP) expect(md).not.toMatch(pattern);
    expect(md).not.toContain('](javascript:');
    expect(md).not.toContain('](data:');
  });

  it('report.html escapes every hostile string, links only http(s) dashboards and embeds data with < escaped', () => {
    const html = files['report.html']!;
    const body = html.slice(0, html.indexOf('<script type="application/json"'));
    for (const pattern of LIVE_MARKUP) expect(body).not.toMatch(pattern);
    expect(body).toContain('&lt;img src&#x3D;x onerror&#x3D;&quot;window.__pwned&#x3D;1;alert(1)&quot;&gt;');
    const open = '<script type="application/json" id="report-data">';
    const json = html.slice(html.indexOf(open) + open.length, html.indexOf('</script>', html.indexOf(open)));
    expect(json).not.toContain('<');
    const data = JSON.parse(json) as {
      rows: { id: string; dashboard_href: string | null; dashboard_url: string | null }[];
    };
    expect(data.rows.map((r) => r.id)).toContain(HOSTILE_ID);
    const hostile = data.rows.find((r) => r.id === HOSTILE_ID)!;
    expect(hostile.dashboard_url).toBe(JS_URL);
    expect(hostile.dashboard_href).toBeNull();
    expect(data.rows.find((r) => r.id === FORMULA_ID)!.dashboard_href).toBeNull();
    expect(data.rows.find((r) => r.id === 'claim-00001')!.dashboard_href).toBe(
      'https://dash.example.com/compare/claim-00001',
    );
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain("script-src 'sha256-");
  });

  it('report.html shows the header, failures, gate and headline, and never the service credentials', () => {
    const html = files['report.html']!;
    expect(html).toContain('sample-claims');
    expect(html).toContain('https://api.example.com/v1');
    expect(html).not.toContain('secret');
    expect(html).not.toContain('SECRET');
    expect(html).toContain('Failures: 1 failed and 1 partly failed of 10 documents');
    expect(html).toContain('Quality gate FAILED');
    expect(html).toContain('service is better by 4.2 points; significant');
    expect(html).toContain('accepting documents with confidence ≥ 87 gives 96% field F1 on 71% of documents');
    expect(html).toMatch(/<path d="[MLZ0-9. -]+" class="line s0"\/>/);
  });

  it('drill-downs escape the document content, mark differences and link only http(s) dashboards', async () => {
    const bundle = await readFile(path.join(fixture.dir, 'drilldown', 'part-00001.html'), 'utf8');
    for (const pattern of LIVE_MARKUP) expect(bundle).not.toMatch(pattern);
    expect(bundle).not.toMatch(/<script[\s>]/);
    const section = (id: string) =>
      bundle.slice(
        bundle.indexOf(`<article class="doc" id="${drilldownAnchor(id)}">`),
        bundle.indexOf('</article>', bundle.indexOf(`id="${drilldownAnchor(id)}"`)),
      );
    const hostile = section(HOSTILE_ID);
    expect(hostile).toContain('<span class="url-text"');
    expect(hostile).toContain('<ins>');
    expect(hostile).toContain('Truth &lt;script&gt;window.__pwned&#x3D;1;alert(1)&lt;/script&gt;');
    const failed = section('claim-failed');
    expect(failed).toContain('FAILED');
    expect(failed).toContain('extract:slow SERVICE_HTTP 503');
    const partial = section(UNICODE_ID);
    expect(partial).toContain('href="https://dash.example.com/compare/abc?q&#x3D;%22x%22&amp;y&#x3D;%3C2%3E"');
    expect(partial).toContain('rel="noopener noreferrer"');
  });

  it('rebuilding replaces the drill-downs and gives the same report', async () => {
    const again = await renderReports(fixture.dir);
    expect(again.failed).toEqual([]);
    expect(await readFile(path.join(fixture.dir, 'report.html'), 'utf8')).toBe(files['report.html']);
    expect(await readdir(path.join(fixture.dir, 'drilldown'))).toEqual(['part-00001.html']);
  });
});

describe('renderReports when something goes wrong', () => {
  it('keeps writing the other reports when one cannot be written, and names the failed file', async () => {
    const broken = await writeRunFixture({ generated: 2, gate: false });
    try {
      // A directory where documents.csv should go: the rename onto it fails.
      await mkdir(path.join(broken.dir, 'documents.csv', 'blocker'), { recursive: true });
      const logger = createMemoryLogger();
      const result = await renderReports(broken.dir, { logger });
      expect(result.failed).toHaveLength(1);
      expect(result.failed[0]!.file).toBe(path.join(broken.dir, 'documents.csv'));
      expect(result.written.map((f) => path.basename(f))).toEqual([
        'report.html',
        'drilldown',
        'fields.csv',
        'tags.csv',
        'junit.xml',
        'summary.md',
      ]);
      expect(logger.lines.some((l) => l.level === 'error' && l.message.includes('documents.csv'))).toBe(true);
      const xml = await readFile(path.join(broken.dir, 'junit.xml'), 'utf8');
      expect(xml).not.toContain('quality gate');
    } finally {
      await rm(broken.dir, { recursive: true, force: true });
    }
  });

  it('writes only the formats asked for', async () => {
    const run = await writeRunFixture({ generated: 1, hostile: false });
    try {
      const result = await renderReports(run.dir, { formats: ['markdown', 'junit'] });
      expect(result.written.map((f) => path.basename(f))).toEqual(['junit.xml', 'summary.md']);
      expect((await readdir(run.dir)).sort()).toEqual([
        'documents.jsonl',
        'gate.json',
        'junit.xml',
        'run.json',
        'summary.json',
        'summary.md',
      ]);
    } finally {
      await rm(run.dir, { recursive: true, force: true });
    }
  });

  it('names the run directory when it is missing, and the file and line of a damaged documents.jsonl', async () => {
    await expect(renderReports('/nonexistent/run-dir')).rejects.toMatchObject({
      code: 'INPUT_INVALID',
      message: expect.stringContaining('/nonexistent/run-dir'),
    });
    const run = await writeRunFixture({ generated: 1, hostile: false });
    try {
      const { appendFile } = await import('node:fs/promises');
      await appendFile(path.join(run.dir, 'documents.jsonl'), '{"document_id": "x", oops\n');
      await expect(renderReports(run.dir)).rejects.toMatchObject({
        code: 'INPUT_INVALID',
        message: expect.stringMatching(/documents\.jsonl:2 is not valid JSON/),
      });
    } finally {
      await rm(run.dir, { recursive: true, force: true });
    }
  });
});

describe('report.html with no hostile input', () => {
  it('contains the IMG payload nowhere when none was given (fixture sanity)', async () => {
    const run = await writeRunFixture({ generated: 2, hostile: false });
    try {
      await renderReports(run.dir, { formats: ['html'] });
      const html = await readFile(path.join(run.dir, 'report.html'), 'utf8');
      // by_tag in the fixture summary always holds the payload; the document rows must not.
      expect(html.slice(html.indexOf('id="report-data"'))).not.toContain(IMG_PAYLOAD.slice(0, 8));
    } finally {
      await rm(run.dir, { recursive: true, force: true });
    }
  });
});
