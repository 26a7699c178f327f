/**
 * The reports' per-document work done during a run's calls (src/report/early-reports.ts): the run's reports
 * must be the bytes the reporters write from the stored run alone, the early rows and parts must really be the
 * ones used, and what the early work assumed is made again where the report's inputs differ (a gate reason
 * among a part's documents, another run id). 230 documents: two complete parts and a partial one.
 */
import { appendFile, cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/dataset/index.js';
import { finalizeRun, startEarlyWork } from '../../src/finalize.js';
import { silentLogger } from '../../src/logger.js';
import { planCalls } from '../../src/run/plan.js';
import { trackRecordedDocuments } from '../../src/run/recorded-documents.js';
import { readManifest, readScoredSummary, writeGate } from '../../src/run-dir/index.js';
import type { CallRecord } from '../../src/run-dir/record.js';
import { ResultsWriter } from '../../src/run-dir/results-writer.js';
import { earlyReportInputs, renderReports, startEarlyReports } from '../../src/report/index.js';
import type { Dataset } from '../../src/types.js';
import { comparePages, extractResult, plannedCallBase } from '../helpers/compare-records.js';
import { makeRunManifest } from '../helpers/run-manifest.js';
import { tinyDocuments, writeTinyDataset, type TinyDocument } from '../helpers/tiny-dataset.js';

const COUNT = 230;
/** Appended to an early part on disk: still there after the reports, the part was kept, not rendered again. */
const MARKER = '<!-- rendered during the calls -->';

let tmp: string;
let documents: TinyDocument[];
let dataset: Dataset;
/** A run scored and reported with its drill-downs rendered during the calls. */
let early: string;
/** The same run's drill-downs rendered by the reporter alone. */
let reference: Map<string, string>;

/** The system reads every document but the fifth's markdown, whose digits it doubles. */
function recordOf(call: ReturnType<typeof planCalls>[number], i: number): CallRecord {
  const doc = documents[i]!;
  const base = plannedCallBase(call, i);
  if (call.endpoint === 'compare') {
    const content = i % 5 === 4 ? doc.markdown.replace(/\d/g, '$&$&') : doc.markdown;
    return { ...base, status: 'ok', result: comparePages(content) } as CallRecord;
  }
  return { ...base, status: 'ok', result: extractResult(doc.data) } as CallRecord;
}

async function drilldownFiles(runDir: string): Promise<Map<string, string>> {
  const dir = path.join(runDir, 'drilldown');
  const names = (await readdir(dir)).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(path.join(dir, n), 'utf8')] as const)));
}

/** The hidden staging directories left in a run directory. */
async function stagingDirs(runDir: string): Promise<string[]> {
  return (await readdir(runDir)).filter((name) => name.startsWith('.drilldown.'));
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-early-drilldowns-'));
  documents = tinyDocuments(COUNT);
  dataset = await loadDataset(await writeTinyDataset(path.join(tmp, 'dataset'), documents), {});
  early = path.join(tmp, 'early');
  await mkdir(early);
  const manifest = makeRunManifest({
    runId: 'run',
    contentHash: dataset.contentHash,
    documents: COUNT,
    modes: ['slow'],
    endpoints: ['extract', 'compare'],
    systems: [{ name: 'alpha', kind: 'command' }],
  });
  await writeFile(path.join(early, 'run.json'), JSON.stringify(manifest));
  const calls = planCalls(dataset.documents, {
    modes: ['slow'],
    endpoints: ['extract', 'compare'],
    repeat: 1,
    systems: [{ name: 'alpha', operations: new Set(['extract', 'compare'] as const) }],
  });

  // As `docbench run` does: the records written as the calls end, each document handed over when recorded.
  const writer = ResultsWriter.open(path.join(early, 'results.jsonl'), (text) => text, { index: true });
  const index = writer.writtenIndex()!;
  const work = await startEarlyWork(early, { dataset });
  const recorded = trackRecordedDocuments(dataset.documents, calls, index, work.scoring.documentRecorded);
  for (const call of calls) {
    const written = recordOf(
      call,
      documents.findIndex((d) => d.id === call.document.id),
    );
    writer.append(written);
    recorded(written);
    await new Promise((resolve) => setImmediate(resolve));
  }
  writer.close();
  while (work.scoring.scored < COUNT) await setTimeout(5);

  // The two complete parts are on disk before the reports; the marker shows whether the reporter keeps them.
  const [staging] = await stagingDirs(early);
  expect((await readdir(path.join(early, staging!))).sort()).toEqual(['part-00001.html', 'part-00002.html']);
  for (const part of ['part-00001.html', 'part-00002.html']) await appendFile(path.join(early, staging!, part), MARKER);
  await finalizeRun(early, {
    dataset,
    logger: silentLogger,
    print: false,
    early: work,
    recordIndex: { index, issues: [] },
  });

  const after = path.join(tmp, 'after');
  await cp(early, after, { recursive: true });
  await rm(path.join(after, 'drilldown'), { recursive: true });
  await renderReports(after);
  reference = await drilldownFiles(after);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("the reports' work during the calls", () => {
  it('drill-down parts: kept, and are the bytes the reporter writes from the stored run alone', async () => {
    const files = await drilldownFiles(early);
    expect([...files.keys()]).toEqual(['part-00001.html', 'part-00002.html', 'part-00003.html']);
    for (const [name, text] of files) {
      // The complete parts were kept as rendered during the calls; the partial last one, by the reporter.
      expect(text.endsWith(MARKER)).toBe(name !== 'part-00003.html');
      expect(text.replace(MARKER, '')).toBe(reference.get(name));
    }
    // The markdown diffs were rendered (the fifth documents' doubled digits), so the budget was used.
    expect(files.get('part-00002.html')).toContain('<ins>');
    expect(await stagingDirs(early)).toEqual([]);
  });

  /** A copy of the run, its drill-downs removed, with the early work made from its documents.jsonl (each part
   * marked), and a plain copy of it to render without. */
  async function withEarlyWork(name: string, runId: string, maxRows?: number) {
    const dir = path.join(tmp, name);
    await cp(early, dir, { recursive: true });
    await rm(path.join(dir, 'drilldown'), { recursive: true });
    const reports = startEarlyReports(
      dir,
      { ...earlyReportInputs(await readManifest(dir), await readScoredSummary(dir)), runId },
      maxRows === undefined ? {} : { maxRows },
    );
    const lines = (await readFile(path.join(dir, 'documents.jsonl'), 'utf8')).trimEnd().split('\n');
    for (const [position, line] of lines.entries()) await reports.add(position, line);
    const work = (await reports.finish())!;
    expect(work.rows?.rows).toHaveLength(maxRows ?? COUNT);
    expect(work.drilldowns?.parts.size).toBe(2);
    for (const part of work.drilldowns!.parts.keys()) await appendFile(path.join(work.drilldowns!.dir, part), MARKER);
    const plain = path.join(tmp, `${name}-plain`);
    await cp(dir, plain, { recursive: true, filter: (source) => !path.basename(source).startsWith('.drilldown.') });
    return { dir, work, plain };
  }

  const REPORT_FILES = ['report.html', 'documents.csv', 'fields.csv', 'junit.xml'];

  async function reportFiles(runDir: string): Promise<Map<string, string>> {
    const files = await drilldownFiles(runDir);
    for (const name of REPORT_FILES) files.set(name, await readFile(path.join(runDir, name), 'utf8'));
    return files;
  }

  it('make the table rows the view would make of the stored run', async () => {
    const { dir, work, plain } = await withEarlyWork('rows', 'run');
    await renderReports(plain);
    await renderReports(dir, { early: work });
    const expected = await reportFiles(plain);
    for (const [name, text] of await reportFiles(dir)) expect(text.replace(MARKER, ''), name).toBe(expected.get(name));
  });

  it('make the rows of the first documents only, up to their limit; the view makes the rest', async () => {
    const { dir, work, plain } = await withEarlyWork('some-rows', 'run', 150);
    work.rows!.rows[0] = { ...work.rows!.rows[0]!, pages: 999 };
    await renderReports(plain);
    await renderReports(dir, { early: work });
    const csv = await readFile(path.join(dir, 'documents.csv'), 'utf8');
    const plainCsv = await readFile(path.join(plain, 'documents.csv'), 'utf8');
    // The first document's lines (one per system) are the early row's; the others the same as a plain render's,
    // those after the limit the view's own.
    const first = `${documents[0]!.id},`;
    const split = (text: string) => {
      const lines = text.split('\n');
      return { of: lines.filter((l) => l.startsWith(first)), others: lines.filter((l) => !l.startsWith(first)) };
    };
    const [early, plainLines] = [split(csv), split(plainCsv)];
    expect(early.of.length).toBeGreaterThan(0);
    for (const line of early.of) expect(line).toContain(',999,');
    expect(early.others).toEqual(plainLines.others);
  });

  it('make the rows the report uses', async () => {
    const { dir, work } = await withEarlyWork('rows-used', 'run');
    // The first row's page count changed in the early rows only: documents.csv shows which rows were used.
    work.rows!.rows[0] = { ...work.rows!.rows[0]!, pages: 999 };
    await renderReports(dir, { early: work });
    expect(await readFile(path.join(dir, 'documents.csv'), 'utf8')).toContain(`${documents[0]!.id},alpha,ok,,,999,`);
  });

  it('with a gate reason: rows made again, the part holding it rendered again, the other parts kept', async () => {
    const { dir, work, plain } = await withEarlyWork('gated', 'run');
    const gate = {
      passed: false,
      checks: [],
      document_failures: [
        { document_id: documents[150]!.id, system: 'alpha', reasons: ['slow field F1 0.500 < 0.750'] },
      ],
    };
    await writeGate(dir, gate);
    await writeGate(plain, gate);
    await renderReports(plain);
    work.rows!.rows[0] = { ...work.rows!.rows[0]!, pages: 999 };
    await renderReports(dir, { early: work });
    const files = await reportFiles(dir);
    expect(files.get('part-00001.html')!.endsWith(MARKER)).toBe(true);
    expect(files.get('part-00002.html')).not.toContain(MARKER);
    expect(files.get('part-00002.html')).toContain('slow field F1 0.500 &lt; 0.750');
    for (const [name, text] of await reportFiles(plain)) expect(files.get(name)!.replace(MARKER, ''), name).toBe(text);
    expect(await stagingDirs(dir)).toEqual([]);
  });

  it('are not used for another run id, and leave no staging behind', async () => {
    const { dir, work, plain } = await withEarlyWork('other-run', 'another-run');
    work.rows!.rows[0] = { ...work.rows!.rows[0]!, pages: 999 };
    await renderReports(plain);
    await renderReports(dir, { early: work });
    expect(await reportFiles(dir)).toEqual(await reportFiles(plain));
    expect(await stagingDirs(dir)).toEqual([]);
  });

  it('leave no staging behind when the drill-downs are not among the formats written', async () => {
    const { dir, work } = await withEarlyWork('no-drilldowns', 'run');
    await renderReports(dir, { early: work, formats: ['html'] });
    expect(await stagingDirs(dir)).toEqual([]);
    expect(await readdir(dir)).not.toContain('drilldown');
  });
});
