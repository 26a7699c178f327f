/**
 * `docbench diff` compares the block edit distances paired by document (docs/gate.md §3): Δ the candidate's
 * page average minus the baseline's, recomputed on every resample; a win is a lower edit distance; a significant
 * rise beyond the tolerance is a regression, named but in the verdict only when configured as the primary
 * metric. Checked by hand on three documents and against a plain reimplementation on sixty.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DIFF_SETTINGS, type DiffDocument, type DiffRun } from '../../src/gate/index.js';
import { compareRuns } from '../../src/gate/compare-runs.js';
import { type BlockPairedTest, blockDiffMarkdown } from '../../src/gate/block-diff.js';
import { formatDiffVerdict } from '../../src/gate/diff-runs.js';
import { bootstrapP, compareSystems } from '../../src/score/stats/index.js';
import type { RunManifest } from '../../src/run-dir/manifest.js';
import type { RunSummary } from '../../src/run-dir/evaluation-types.js';

const RO = 'markdown.blocks.reading_order_edit';

/** A run whose documents have these reading-order edit distances per page (text edit 0.1 on every page). */
function run(runId: string, pagesPerDocument: number[][]): DiffRun {
  const documents = new Map<string, DiffDocument>();
  pagesPerDocument.forEach((pages, i) => {
    const id = `doc-${String(i).padStart(3, '0')}`;
    const sum = pages.reduce((s, v) => s + v, 0);
    documents.set(id, {
      id,
      status: 'ok',
      extraction: {},
      similarity: 0.9,
      markdownCounts: { edits: 10, length: 100 },
      regionsF1: null,
      latency: {},
      blockEdits: {
        reading_order_edit: { sum, count: pages.length },
        text_edit: { sum: 0.1 * pages.length, count: pages.length },
        formula_edit: null,
        table_edit: null,
      },
    });
  });
  const all = pagesPerDocument.flat();
  return {
    dir: runId,
    manifest: {
      run_id: runId,
      created_at: '2026-01-01T00:00:00.000Z',
      status: 'completed',
      dataset: { name: 'd', version: '1', content_hash: 'sha256:aa' },
      service: { base_url: 'https://service.example.com' },
      systems: [],
    } as unknown as RunManifest,
    summary: {
      systems: {
        service: {
          extraction: {},
          markdown: {
            blocks: {
              text_edit: 0.1,
              formula_edit: null,
              table_teds: null,
              table_teds_structure: null,
              table_edit: null,
              reading_order_edit: all.reduce((s, v) => s + v, 0) / all.length,
              pages: all.length,
            },
          },
        },
      },
      metric_versions: {},
    } as unknown as RunSummary,
    system: 'service',
    documents,
  };
}

/**
 * The same bootstrap as the diff's (same seed, resamples and draws) with the test's own statistic, `mean` of the
 * drawn documents' pages or tables, checked to give the paired test's interval and p. `sign` −1: lower is better.
 */
function expectSameBootstrap(
  test: BlockPairedTest,
  cand: number[][],
  base: number[][],
  mean: (docs: number[][], indices: Iterable<number>) => number,
  settings: { seed: number; resamples: number },
  sign = 1,
) {
  const all = cand.map((_, i) => i);
  const independent = compareSystems(
    all.map((i) => sign * mean(cand, [i])),
    all.map((i) => sign * mean(base, [i])),
    {
      seed: settings.seed,
      resamples: settings.resamples,
      statistic: (indices) => mean(cand, indices) - mean(base, indices),
    },
  );
  expect(test.ci95[0]).toBeCloseTo(independent.ci95[0], 12);
  expect(test.ci95[1]).toBeCloseTo(independent.ci95[1], 12);
  expect(test.p_bootstrap).toBeCloseTo(bootstrapP(independent), 12);
}

const pageMean = (docs: number[][], indices: Iterable<number>) => {
  const pages = [...indices].flatMap((i) => docs[i]!);
  return pages.reduce((s, v) => s + v, 0) / pages.length;
};

describe('block edit distances in docbench diff', () => {
  it('pairs by document with the page average, a lower edit distance a win (three documents, by hand)', () => {
    // Baseline pages: 0.2, 0.4 | 0.9 | 0.3 → 1.8 / 4 = 0.45. Candidate: 0, 0.2 | 0.5 | 0.6 → 1.3 / 4 = 0.325.
    const baseline = run('base', [[0.2, 0.4], [0.9], [0.3]]);
    const candidate = run('cand', [[0, 0.2], [0.5], [0.6]]);
    const diff = compareRuns(baseline, candidate, { settings: { ...DEFAULT_DIFF_SETTINGS, resamples: 400 } });
    const row = diff.blocks!.find((b) => b.metric === RO)!;
    expect(row.paired!.documents).toBe(3);
    expect(row.paired!.delta).toBeCloseTo(0.325 - 0.45, 12);
    // Lower on d0 (0.1 vs 0.3) and d1, higher on d2: two wins, one loss.
    expect([row.paired!.wins, row.paired!.losses, row.paired!.ties]).toEqual([2, 1, 0]);
    expect(row.paired!.significant).toBe(false);
    expect(row.paired!.regression).toBe(false);
    // Identical text edit distances: Δ 0, all ties, p 1.
    const text = diff.blocks!.find((b) => b.metric === 'markdown.blocks.text_edit')!.paired!;
    expect([text.delta, text.ties, text.p_bootstrap]).toEqual([0, 3, 1]);
    // Tables and formulas absent from both runs: shown, not tested.
    expect(diff.blocks!.find((b) => b.metric === 'markdown.blocks.table_edit')!.paired).toBeUndefined();
  });

  it('matches a plain reimplementation on 60 documents; a rise is a regression, in the verdict only as primary', () => {
    const unit = (k: number) => ((k * 7919) % 1000) / 1000;
    const base: number[][] = [];
    const cand: number[][] = [];
    for (let i = 0; i < 60; i++) {
      const pages = 1 + (i % 3);
      base.push(Array.from({ length: pages }, (_, p) => 0.1 + 0.5 * unit(i * 5 + p)));
      // The candidate reads most pages in a worse order.
      cand.push(Array.from({ length: pages }, (_, p) => 0.1 + 0.5 * unit(i * 5 + p) + 0.15 * unit(i + p + 3)));
    }
    const settings = { ...DEFAULT_DIFF_SETTINGS, resamples: 500, seed: 5 };
    const diff = compareRuns(run('base', base), run('cand', cand), { settings });
    const test = diff.blocks!.find((b) => b.metric === RO)!.paired!;
    const all = Array.from({ length: 60 }, (_, i) => i);
    expect(test.delta).toBeCloseTo(pageMean(cand, all) - pageMean(base, all), 12);
    expect(test.delta).toBeGreaterThan(0);
    const own = (docs: number[][], i: number) => pageMean(docs, [i]);
    expect(test.wins).toBe(all.filter((i) => own(base, i) - own(cand, i) > 0.005).length);
    expect(test.losses).toBe(all.filter((i) => own(cand, i) - own(base, i) > 0.005).length);
    expectSameBootstrap(test, cand, base, pageMean, settings, -1);
    expect(test.ci95[0]).toBeGreaterThan(0);
    expect(test.significant).toBe(true);
    expect(test.regression).toBe(true);
    expect(test.improvement).toBe(false);
    expect(test.family).toBe('secondary');
    // Named, but not in the verdict: the headline (markdown similarity) did not move.
    expect(diff.verdict).toBe('no regression');
    expect(diff.reasons.join(' ')).toContain('block metrics that regressed: Reading-order edit distance');
    expect(blockDiffMarkdown(diff.blocks!).join('\n')).toContain('regression (worse; not in the verdict)');
    // Beside a regression verdict decided by another metric, the terminal still names it.
    expect(formatDiffVerdict({ ...diff, verdict: 'regression' })).toContain(
      'block metrics that regressed (not in the verdict): Reading-order edit distance +',
    );
    expect(formatDiffVerdict(diff)).not.toContain('block metrics that regressed (not in the verdict)');

    // Configured as primary: decided on its own p, and the verdict is a regression.
    const primary = compareRuns(run('base', base), run('cand', cand), { settings: { ...settings, primary: RO } });
    const decided = primary.blocks!.find((b) => b.metric === RO)!.paired!;
    expect(decided.family).toBe('primary');
    expect(decided.p_adjusted).toBe(decided.p_bootstrap);
    expect(primary.verdict).toBe('regression');
    expect(primary.reasons[0]).toContain('Reading-order edit distance rose +');

    // The other way round the candidate reads in the better order: an improvement, never a regression.
    const better = compareRuns(run('base', cand), run('cand', base), { settings: { ...settings, primary: RO } });
    const improved = better.blocks!.find((b) => b.metric === RO)!.paired!;
    expect(improved.delta).toBeCloseTo(-test.delta, 12);
    expect([improved.wins, improved.losses]).toEqual([test.losses, test.wins]);
    expect(improved.improvement).toBe(true);
    expect(improved.regression).toBe(false);
    expect(better.verdict).toBe('no regression');
  });

  it('compares table TEDS paired, higher better: a fall beyond the tolerance is a regression (by hand)', () => {
    /** The run with one truth table per document, scored `teds[i]`. */
    const withTables = (r: DiffRun, teds: number[]): DiffRun => {
      [...r.documents.values()].forEach((d, i) => {
        d.tableTeds = { table_teds: { sum: teds[i]!, count: 1 }, table_teds_structure: null };
      });
      return r;
    };
    const pages = Array.from({ length: 40 }, () => [0.1]);
    // The candidate reads 20 of the 40 tables with one cell of the six nodes wrong: TEDS 5/6 there.
    const baseline = withTables(
      run('base', pages),
      Array.from({ length: 40 }, () => 1),
    );
    const candidate = withTables(
      run('cand', pages),
      Array.from({ length: 40 }, (_, i) => (i < 20 ? 5 / 6 : 1)),
    );
    const settings = { ...DEFAULT_DIFF_SETTINGS, resamples: 500 };
    const diff = compareRuns(baseline, candidate, { settings });
    const row = diff.blocks!.find((b) => b.metric === 'markdown.blocks.table_teds')!;
    expect(row.better).toBe('higher');
    const test = row.paired!;
    expect(test.documents).toBe(40);
    // (20 × 5/6 + 20) / 40 − 1 = −1/12.
    expect(test.delta).toBeCloseTo(-1 / 12, 12);
    // A loss is a lower TEDS: 20 losses, 20 ties.
    expect([test.wins, test.losses, test.ties]).toEqual([0, 20, 20]);
    expect(test.ci95[1]).toBeLessThan(0);
    expect(test.significant).toBe(true);
    expect(test.regression).toBe(true);
    expect(test.improvement).toBe(false);
    expect(blockDiffMarkdown(diff.blocks!).join('\n')).toContain('regression (worse; not in the verdict)');
    // As the primary metric it decides the verdict, and the reason says it fell.
    const primary = compareRuns(baseline, candidate, {
      settings: { ...settings, primary: 'markdown.blocks.table_teds' },
    });
    expect(primary.verdict).toBe('regression');
    expect(primary.reasons[0]).toContain('Table TEDS fell');
    expect(primary.reasons[0]).toContain('higher is better');
    // The other way round: an improvement.
    const back = compareRuns(candidate, baseline, { settings }).blocks!.find(
      (b) => b.metric === 'markdown.blocks.table_teds',
    )!.paired!;
    expect(back.delta).toBeCloseTo(1 / 12, 12);
    expect([back.wins, back.losses, back.improvement, back.regression]).toEqual([20, 0, true, false]);
  });
  it("compares table TEDS-S paired the same way, pooling each document's tables (six documents, by hand)", () => {
    // Each document's truth tables' TEDS-S; the TEDS of the same tables is 1 on both sides.
    const baseTables = [[0.5, 1], [0.8], [0.6, 0.9, 0.9], [0.7], [1], [0.4, 0.6]];
    const candTables = [[1, 1], [0.9], [0.9, 1, 0.9], [0.7], [0.95], [0.8, 0.8]];
    const withTables = (r: DiffRun, tables: number[][]): DiffRun => {
      [...r.documents.values()].forEach((d, i) => {
        const t = tables[i]!;
        d.tableTeds = {
          table_teds: { sum: t.length, count: t.length },
          table_teds_structure: { sum: t.reduce((s, v) => s + v, 0), count: t.length },
        };
      });
      return r;
    };
    const pages = Array.from({ length: 6 }, () => [0.1]);
    const baseline = withTables(run('base', pages), baseTables);
    const candidate = withTables(run('cand', pages), candTables);
    const settings = { ...DEFAULT_DIFF_SETTINGS, resamples: 500, seed: 3 };
    const diff = compareRuns(baseline, candidate, { settings });
    const S = 'markdown.blocks.table_teds_structure';
    const row = diff.blocks!.find((b) => b.metric === S)!;
    expect(row.better).toBe('higher');
    const test = row.paired!;
    expect(test.documents).toBe(6);

    // The independent computation: the drawn documents' tables in one list, their mean (7.4 / 10 → 8.95 / 10).
    const tableMean = (docs: number[][], indices: Iterable<number>) => {
      const tables = [...indices].flatMap((i) => docs[i]!);
      return tables.reduce((s, v) => s + v, 0) / tables.length;
    };
    const all = [0, 1, 2, 3, 4, 5];
    expect(test.delta).toBeCloseTo(0.895 - 0.74, 12);
    expect(test.delta).toBeCloseTo(tableMean(candTables, all) - tableMean(baseTables, all), 12);
    // A win is a higher TEDS-S: +0.25, +0.1, +0.133, a tie, −0.05, +0.3.
    expect([test.wins, test.losses, test.ties]).toEqual([4, 1, 1]);
    expectSameBootstrap(test, candTables, baseTables, tableMean, settings);
    // Five documents differ: p is at least 2 · 0.5⁵, so not significant. The block family here is text and
    // reading-order edit distance (equal: p 1), table TEDS (equal: p 1) and TEDS-S: Holm multiplies the smallest by 4.
    expect(test.p_bootstrap).toBeGreaterThanOrEqual(2 * 0.5 ** 5);
    expect(test.family).toBe('secondary');
    expect(test.p_adjusted).toBeCloseTo(Math.min(1, 4 * test.p_bootstrap), 12);
    expect([test.significant, test.regression, test.improvement]).toEqual([false, false, false]);
    expect(diff.blocks!.find((b) => b.metric === 'markdown.blocks.table_teds')!.paired!.delta).toBe(0);
    const markdown = blockDiffMarkdown(diff.blocks!).join('\n');
    const line = markdown.split('\n').find((l) => l.startsWith('| Table TEDS (structure) |'))!;
    expect(line).toContain(' on 6 |');
    expect(line).toContain('no significant change');

    // As the primary metric it is decided alone: on its own p, which with five differing documents cannot reach α.
    const primary = compareRuns(baseline, candidate, { settings: { ...settings, primary: S } });
    const decided = primary.blocks!.find((b) => b.metric === S)!.paired!;
    expect(decided.family).toBe('primary');
    expect(decided.p_adjusted).toBe(decided.p_bootstrap);
    expect(primary.settings.primary).toBe(S);
    // The other way round TEDS-S falls; the fall is significant once the six documents are seen five times over.
    const times = <T>(xs: T[]) => [...xs, ...xs, ...xs, ...xs, ...xs];
    const fall = compareRuns(
      withTables(run('base', times(pages)), times(candTables)),
      withTables(run('cand', times(pages)), times(baseTables)),
      { settings: { ...settings, primary: S } },
    );
    const fell = fall.blocks!.find((b) => b.metric === S)!.paired!;
    expect(fell.delta).toBeCloseTo(0.74 - 0.895, 12);
    expect([fell.wins, fell.losses, fell.ties]).toEqual([5, 20, 5]);
    expect(fell.regression).toBe(true);
    expect(fall.verdict).toBe('regression');
    expect(fall.reasons[0]).toContain('Table TEDS (structure) fell');
  });
});
