/**
 * Drill-down parts rendered during a run's calls (src/report/early-drilldowns.ts): the run's drill-down files
 * must be the bytes the reporter writes from the stored run alone, the early parts must really be the ones kept,
 * and a part is rendered again where the report's inputs are not those the early parts assumed (a gate reason
 * among its documents, another run id). 230 documents: two complete parts and a partial one.
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
import { earlyDrilldownInputs, renderReports, startEarlyDrilldowns } from '../../src/report/index.js';
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

describe('drill-down parts rendered during the calls', () => {
  it('are kept, and are the bytes the reporter writes from the stored run alone', async () => {
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

  /** A copy of the run with early parts rendered from its documents.jsonl, each part marked. */
  async function withEarlyParts(name: string, runId: string) {
    const dir = path.join(tmp, name);
    await cp(early, dir, { recursive: true });
    await rm(path.join(dir, 'drilldown'), { recursive: true });
    const manifest = await readManifest(dir);
    const drilldowns = startEarlyDrilldowns(dir, {
      ...earlyDrilldownInputs(manifest, await readScoredSummary(dir)),
      runId,
    });
    const lines = (await readFile(path.join(dir, 'documents.jsonl'), 'utf8')).trimEnd().split('\n');
    for (const [position, line] of lines.entries()) await drilldowns.add(position, line);
    const rendered = await drilldowns.finish();
    expect(rendered?.parts.size).toBe(2);
    for (const part of rendered!.parts.keys()) await appendFile(path.join(rendered!.dir, part), MARKER);
    return { dir, rendered: rendered! };
  }

  it('renders again a part whose documents have a gate reason, and keeps the others', async () => {
    const { dir, rendered } = await withEarlyParts('gated', 'run');
    const gated = documents[150]!.id;
    await writeGate(dir, {
      passed: false,
      checks: [],
      document_failures: [{ document_id: gated, system: 'alpha', reasons: ['slow field F1 0.500 < 0.750'] }],
    });
    await renderReports(dir, { earlyDrilldowns: rendered });
    const files = await drilldownFiles(dir);
    expect(files.get('part-00001.html')!.endsWith(MARKER)).toBe(true);
    expect(files.get('part-00002.html')).not.toContain(MARKER);
    expect(files.get('part-00002.html')).toContain('slow field F1 0.500 &lt; 0.750');
    expect(files.get('part-00003.html')).toBe(reference.get('part-00003.html'));
    expect(await stagingDirs(dir)).toEqual([]);
  });

  it('keeps none when they were rendered for other inputs (another run id), and leaves no staging behind', async () => {
    const { dir, rendered } = await withEarlyParts('other-run', 'another-run');
    await renderReports(dir, { earlyDrilldowns: rendered });
    expect(await drilldownFiles(dir)).toEqual(reference);
    expect(await stagingDirs(dir)).toEqual([]);
  });

  it('are removed when the drill-downs are not among the formats written', async () => {
    const { dir, rendered } = await withEarlyParts('no-drilldowns', 'run');
    await renderReports(dir, { earlyDrilldowns: rendered, formats: ['html'] });
    expect(await stagingDirs(dir)).toEqual([]);
    expect(await readdir(dir)).not.toContain('drilldown');
  });
});
