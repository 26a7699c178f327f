/** docbench history: runs in time order, one chart point per run, other directories skipped, text escaped. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli.js';
import { makeDocuments, writeRun } from './run-builder.js';

let work: string;

async function docbench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    ({
      write: (chunk: string) => {
        append(String(chunk));
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const code = await main(args, {
    cwd: work,
    env: { PATH: process.env.PATH },
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
  });
  return { code, stdout, stderr };
}

const HOSTILE = '<script>alert(1)</script>"&';

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-history-'));
  const reports = path.join(work, 'reports');
  // Directory names sort differently from creation times, so the order must come from created_at.
  const runs = [
    { dir: 'zeta', at: '2026-03-01T10:00:00.000Z', wrong: 0 },
    { dir: 'alpha', at: '2026-03-03T10:00:00.000Z', wrong: 2 },
    { dir: 'mid', at: '2026-03-02T10:00:00.000Z', wrong: 1 },
    { dir: 'beta', at: '2026-03-04T10:00:00.000Z', wrong: 3 },
  ];
  for (const run of runs) {
    await writeRun(path.join(reports, run.dir), {
      runId: `run-${run.dir}`,
      createdAt: run.at,
      documents: makeDocuments(
        10,
        'slow',
        (i, v) => {
          if (i < run.wrong) v.total = 'fp+fn';
        },
        () => ({ similarity: 0.9, latency: { 'extract:slow': 2000, compare: 800 } }),
      ),
    });
  }
  // Only these two have a report to link to.
  for (const dir of ['zeta', 'alpha']) await writeFile(path.join(reports, dir, 'report.html'), '<!DOCTYPE html>');
  await writeRun(path.join(reports, 'other'), {
    runId: 'run-other',
    dataset: HOSTILE,
    createdAt: '2026-03-02T12:00:00.000Z',
    documents: makeDocuments(3, 'fast'),
  });
  await mkdir(path.join(reports, 'not-a-run'));
  // A run killed before scoring: a valid run.json, no summary.json. (A damaged run.json is an error: test/drill/run-files.test.ts.)
  await mkdir(path.join(reports, 'unscored'));
  await writeFile(path.join(reports, 'unscored', 'run.json'), await readFile(path.join(reports, 'zeta', 'run.json')));
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('docbench history', () => {
  it('lists every run in time order in history.csv and index.html, skipping other directories with a warning', async () => {
    const { code, stdout, stderr } = await docbench(['history', 'reports']);
    expect(code).toBe(0);
    expect(stdout).toContain('5 runs of 2 datasets (2 directories skipped)');
    expect(stderr).toContain('skipped not-a-run');
    expect(stderr).toContain('skipped unscored');
    const csv = (await readFile(path.join(work, 'reports', 'history.csv'), 'utf8')).trim().split('\n');
    expect(csv[0]).toMatch(/^created_at,run_id,dir,dataset,/);
    expect(csv.slice(1).map((line) => line.split(',')[1])).toEqual([
      'run-zeta',
      'run-mid',
      'run-other',
      'run-alpha',
      'run-beta',
    ]);
    // F1 of run-alpha: 2 documents with total wrong → 116/120.
    const alpha = csv.find((line) => line.includes('run-alpha'))!.split(',');
    expect(Number(alpha[csv[0]!.split(',').indexOf('f1_slow')])).toBeCloseTo(116 / 120, 6);

    const html = await readFile(path.join(work, 'reports', 'index.html'), 'utf8');
    // The table lists the newest first.
    const order = ['run-beta', 'run-alpha', 'run-other', 'run-mid', 'run-zeta'].map((id) =>
      html.indexOf(`<td class="mono">${id}</td>`),
    );
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('href="alpha/report.html"');
    expect(html).not.toContain('href="mid/report.html"');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script/i);
  });

  it('draws one point per run in each trend series, left to right in time', async () => {
    await docbench(['history', 'reports', '--out', 'site']);
    const html = await readFile(path.join(work, 'site', 'index.html'), 'utf8');
    // Trends are per dataset and system, listed by name: the hostile dataset sorts first.
    const start = html.search(/<h2 id="dataset-\d+">constructed · service<\/h2>/);
    expect(start).toBeGreaterThan(0);
    const section = html.slice(start, html.indexOf('<h2 id="runs">'));
    expect(section.length).toBeGreaterThan(1000);
    for (const series of [
      'Field F1 slow',
      'Exact match slow',
      'Markdown similarity',
      'p95 extract:slow',
      'p95 compare',
    ]) {
      const points = [
        ...section.matchAll(
          new RegExp(
            `<circle cx="([\\d.]+)" cy="[\\d.]+" r="3.5" class="point s\\d"><title>${series}: [^<]* · run (run-\\w+)`,
            'g',
          ),
        ),
      ];
      expect(
        points.map((p) => p[2]),
        series,
      ).toEqual(['run-zeta', 'run-mid', 'run-alpha', 'run-beta']);
      const xs = points.map((p) => Number(p[1]));
      expect(
        [...xs].sort((a, b) => a - b),
        series,
      ).toEqual(xs);
    }
    // Links from another directory point back into reports/.
    expect(html).toContain('href="../reports/zeta/report.html"');
  });
});
