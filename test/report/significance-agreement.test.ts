/**
 * Every statement about significance uses the decision of the exit code (docs/metrics/comparison.md "Decision
 * rule"): a run of two systems on ten documents, one uniformly worse than the reference on k of them, says
 * "significant" in summary.json, report.html, summary.md and the terminal exactly when `docbench diff` of the
 * same answers, recorded as two runs, exits 1. Six worse documents are significant at α = 0.05, five are not.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { loadDataset } from '../../src/dataset/index.js';
import { evaluateRun } from '../../src/evaluate/evaluate-run.js';
import type { RunSummary } from '../../src/run-dir/evaluation-types.js';
import { silentLogger } from '../../src/logger.js';
import { formatTerminalSummary, renderReports } from '../../src/report/index.js';
import type { CallRecord } from '../../src/run-dir/record.js';
import type { Dataset, JsonObject } from '../../src/types.js';
import { makeRunManifest } from '../helpers/run-manifest.js';
import { tinyDocuments, writeTinyDataset, type TinyDocument } from '../helpers/tiny-dataset.js';

let tmp: string;
let documents: TinyDocument[];
let dataset: Dataset;

/** The reference reads every document as it is; the candidate gets the name wrong on the first `worse`. */
function answer(doc: TinyDocument, i: number, worse: number): JsonObject {
  return (i < worse ? { ...doc.data, name: 'Someone else' } : doc.data) as JsonObject;
}

function callRecord(system: string, doc: TinyDocument, data: JsonObject): CallRecord {
  return {
    v: 2,
    system,
    key: `${system}|${doc.id}|extract|slow|0`,
    document_id: doc.id,
    repeat: 0,
    attempts: 1,
    latency_ms: 100,
    last_attempt_ms: 100,
    started_at: new Date(0).toISOString(),
    from_cache: false,
    endpoint: 'extract',
    mode: 'slow',
    status: 'ok',
    result: {
      data,
      responseForm: 'object',
      method: null,
      pagesProcessed: null,
      confidence: null,
      confidenceScale: null,
    },
  } as CallRecord;
}

/** A scored run directory whose systems answer as given. */
async function scoredRun(
  name: string,
  systems: Record<string, (doc: TinyDocument, i: number) => JsonObject>,
  reference?: string,
): Promise<string> {
  const dir = path.join(tmp, name);
  await mkdir(dir, { recursive: true });
  const names = Object.keys(systems);
  const manifest = makeRunManifest({
    runId: name,
    contentHash: dataset.contentHash,
    documents: documents.length,
    modes: ['slow'],
    endpoints: ['extract'],
    systems: names.map((n) => ({ name: n, kind: 'command' })),
    ...(reference ? { reference } : {}),
  });
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(manifest));
  const records = names.flatMap((n) => documents.map((doc, i) => callRecord(n, doc, systems[n]!(doc, i))));
  await writeFile(path.join(dir, 'results.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  await evaluateRun(dir, { dataset, logger: silentLogger });
  return dir;
}

async function diffExitCode(baseline: string, candidate: string): Promise<number> {
  const sink = { write: () => true } as unknown as NodeJS.WritableStream;
  return main(['diff', baseline, candidate, '--system', 'x', '--out', path.join(candidate, 'diff')], {
    cwd: tmp,
    env: { PATH: process.env.PATH },
    stdout: sink,
    stderr: sink,
  });
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-agree-'));
  documents = tinyDocuments(10).map((d) => ({ ...d, baselineMarkdown: undefined }) as TinyDocument);
  dataset = await loadDataset(await writeTinyDataset(path.join(tmp, 'dataset'), documents), {});
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe.each([
  { worse: 6, significant: true, verdict: 'worse, significant', exit: 1 },
  { worse: 5, significant: false, verdict: 'not significant: too few documents differ (5)', exit: 0 },
])('$worse of 10 documents uniformly worse', ({ worse, significant, verdict, exit }) => {
  let runDir: string;
  let summary: RunSummary;
  beforeAll(async () => {
    runDir = await scoredRun(
      `both-${worse}`,
      { ref: (doc) => doc.data as JsonObject, cand: (doc, i) => answer(doc, i, worse) },
      'ref',
    );
    summary = JSON.parse(await readFile(path.join(runDir, 'summary.json'), 'utf8')) as RunSummary;
  });

  it(`docbench diff of the same answers exits ${exit}`, async () => {
    const baseline = await scoredRun(`ref-${worse}`, { x: (doc) => doc.data as JsonObject });
    const candidate = await scoredRun(`cand-${worse}`, { x: (doc, i) => answer(doc, i, worse) });
    expect(await diffExitCode(baseline, candidate)).toBe(exit);
  });

  it('summary.json decides the primary metric as the diff does', () => {
    const f1 = summary.comparisons.find((c) => c.metric === 'extraction.slow.f1')!;
    expect([f1.family, f1.losses, f1.wins, f1.significant]).toEqual(['primary', worse, 0, significant]);
    expect(f1.p_holm).toBeCloseTo(2 * 0.5 ** worse, 12);
  });

  it('report.html says the same', async () => {
    const outcome = await renderReports(runDir, { logger: silentLogger });
    expect(outcome.failed).toEqual([]);
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    const row =
      /<table id="comparisons-table">[\s\S]*?<tr><td><strong>cand<\/strong><\/td><td>field F1 \(slow\)[\s\S]*?<\/tr>/.exec(
        html,
      )?.[0] ?? '';
    expect(row).toContain('primary');
    expect(row).toContain(`>${verdict}</span>`);
  });

  it('summary.md says the same', async () => {
    await renderReports(runDir, { logger: silentLogger, formats: ['markdown'] });
    const md = await readFile(path.join(runDir, 'summary.md'), 'utf8');
    expect(md).toMatch(
      new RegExp(
        `\\| cand \\| field F1 \\(slow\\) \\(primary\\) \\|[^\\n]*\\| ${verdict.replace(/[()]/g, '\\$&')} \\|`,
      ),
    );
  });

  it('the terminal says the same', async () => {
    const { view } = await renderReports(runDir, { logger: silentLogger, formats: [] });
    expect(formatTerminalSummary(view)).toMatch(
      new RegExp(`cand vs ref: Δ −\\d+\\.\\d pts \\(95% interval [^)]*\\); ${verdict.replace(/[()]/g, '\\$&')}`),
    );
  });
});
