/**
 * The block edit distances between the systems of a run (docs/metrics.md "Blocks"): ranked lower-first, compared
 * paired by document with the page average (mean over pages of each page's figure) recomputed on every
 * resample, a win being a lower edit distance — checked by hand on a few documents and, on many, against a
 * plain reimplementation of the statistic written here.
 */
import { describe, expect, it } from 'vitest';
import { compareRunSystems } from '../../src/evaluate/compare-run-systems.js';
import type { DocumentScores, SystemDocumentScores } from '../../src/evaluate/kept-scores.js';
import { tagIntervals } from '../../src/evaluate/tag-intervals.js';
import { buildComparisonRows } from '../../src/report/leaderboard-view.js';
import type { RunSummary } from '../../src/run-dir/index.js';
import { LeaderboardBlockFormat, SystemComparisonBlockFormat } from '../../src/run-dir/formats/summary.js';
import { compileCheck } from '../../src/schema-check.js';
import { pageBlockFigures, scorePageBlocks, type PageBlockFigures } from '../../src/score/index.js';
import { bootstrapP, compareSystems } from '../../src/score/stats/index.js';

const SEED = 7;

/** A page with only text and reading-order figures (null: the page has no such blocks). */
function page(readingOrder: number | null, text: number | null = 0.1): PageBlockFigures {
  return {
    text_edit: text,
    formula_edit: null,
    table_teds: null,
    table_teds_structure: null,
    table_edit: null,
    reading_order_edit: readingOrder,
    tables: 0,
  };
}

function scores(pages: PageBlockFigures[]): SystemDocumentScores {
  return {
    markdown: { score: { similarity: 0.9, edits: 1, length: 10, pages: [] }, blocks: { pages } },
  } as unknown as SystemDocumentScores;
}

function documentsOf(perSystem: Record<string, PageBlockFigures[][]>): DocumentScores[] {
  const n = Object.values(perSystem)[0]!.length;
  return Array.from({ length: n }, (_, i) => ({
    document_id: `d${String(i).padStart(3, '0')}`,
    tags: {},
    systems: new Map(Object.entries(perSystem).map(([system, docs]) => [system, scores(docs[i]!)])),
  }));
}

const RO = 'markdown.blocks.reading_order_edit';

/** The report's comparison rows (report.html and summary.md) of a run's systems compared. */
function comparisonRows(result: ReturnType<typeof compareRunSystems>) {
  return buildComparisonRows({
    leaderboard: result.leaderboard,
    comparisons: result.comparisons,
    decision: result.decision,
  } as unknown as RunSummary);
}

describe('block edit distances between systems', () => {
  it('averages over pages, ranks lower first and counts a lower edit distance as a win (by hand)', () => {
    // Reference: pages 0.2, 0.4 | 0.9 | (no reading order) → page average (0.2 + 0.4 + 0.9) / 3 = 0.5, not the
    // mean of document averages (0.3 + 0.9) / 2 = 0.6.
    // Candidate: pages 0, 0.2 | 0.5 | 0.3 → 1/4 on its own documents, 0.7 / 3 on the two it shares.
    const documents = documentsOf({
      reference: [[page(0.2), page(0.4)], [page(0.9)], [page(null)]],
      candidate: [[page(0), page(0.2)], [page(0.5)], [page(0.3)]],
    });
    const result = compareRunSystems(documents, ['reference', 'candidate'], 'reference', [], SEED);
    const board = result.leaderboard.find((b) => b.metric === RO)!;
    expect(board.better).toBe('lower');
    // The reference has no reading order on d2: the ranking compares the two shared documents.
    expect(board.shared_documents).toBe(2);
    const reference = board.rows.find((r) => r.system === 'reference')!;
    const candidate = board.rows.find((r) => r.system === 'candidate')!;
    expect(reference.value).toBeCloseTo(0.5, 12);
    expect(candidate.value).toBeCloseTo((0 + 0.2 + 0.5 + 0.3) / 4, 12);
    expect(candidate.shared!.value).toBeCloseTo((0 + 0.2 + 0.5) / 3, 12);
    // Lower is better: the candidate ranks first.
    expect(board.rows.map((r) => [r.system, r.rank])).toEqual([
      ['candidate', 1],
      ['reference', 2],
    ]);
    const c = result.comparisons.find((x) => x.metric === RO)!;
    expect(c.better).toBe('lower');
    expect(c.documents).toBe(2);
    // Δ = candidate − reference on the paired documents, in the metric's units: 0.7/3 − 0.5.
    expect(c.delta).toBeCloseTo(0.7 / 3 - 0.5, 12);
    // Both paired documents have a lower edit distance for the candidate: two wins.
    expect([c.wins, c.losses, c.ties]).toEqual([2, 0, 0]);
    // Two documents are too few for any test (the p floor): not significant.
    expect(c.significant).toBe(false);
    // What summary.json stores of them passes its schema (a field without its schema does not exist).
    const check = (schema: object) => compileCheck({ schema: JSON.parse(JSON.stringify(schema)), options: {} });
    const leaderboardBlock = check(LeaderboardBlockFormat);
    const comparisonBlock = check(SystemComparisonBlockFormat);
    for (const block of result.leaderboard) expect(leaderboardBlock(block), JSON.stringify(block)).toBe(true);
    for (const comparison of result.comparisons) expect(comparisonBlock(comparison)).toBe(true);
    // The higher-is-better headline keeps its direction: no `better` on it.
    expect(result.leaderboard.find((b) => b.metric === 'markdown.similarity')!.better).toBeUndefined();
  });

  it('matches a plain reimplementation on 60 documents, and calls the lower edit distance better', () => {
    // A deterministic spread: the candidate reads most pages in a better order, some worse; page counts vary.
    const unit = (k: number) => ((k * 7919) % 1000) / 1000;
    const reference: PageBlockFigures[][] = [];
    const candidate: PageBlockFigures[][] = [];
    for (let i = 0; i < 60; i++) {
      const pages = 1 + (i % 3);
      reference.push(Array.from({ length: pages }, (_, p) => page(0.2 + 0.6 * unit(i * 5 + p))));
      candidate.push(
        Array.from({ length: pages }, (_, p) => page(Math.max(0, 0.2 + 0.6 * unit(i * 5 + p) - 0.1 * unit(i + p + 1)))),
      );
    }
    const documents = documentsOf({ reference, candidate });
    const result = compareRunSystems(documents, ['reference', 'candidate'], 'reference', [], SEED);
    const c = result.comparisons.find((x) => x.metric === RO)!;

    // The reimplementation: every drawn document's pages in one list, their mean; Δ candidate − reference.
    const pagesOf = (docs: PageBlockFigures[][], i: number) => docs[i]!.map((p) => p.reading_order_edit!);
    const pageMean = (docs: PageBlockFigures[][], indices: Iterable<number>) => {
      const all = [...indices].flatMap((i) => pagesOf(docs, i));
      return all.reduce((s, v) => s + v, 0) / all.length;
    };
    const docMean = (docs: PageBlockFigures[][], i: number) => pageMean(docs, [i]);
    const all = Array.from({ length: 60 }, (_, i) => i);
    expect(c.delta).toBeCloseTo(pageMean(candidate, all) - pageMean(reference, all), 12);
    expect(c.delta).toBeLessThan(0);
    const wins = all.filter((i) => docMean(reference, i) - docMean(candidate, i) > 0.005).length;
    const losses = all.filter((i) => docMean(candidate, i) - docMean(reference, i) > 0.005).length;
    expect([c.wins, c.losses]).toEqual([wins, losses]);
    expect(wins).toBeGreaterThan(losses);

    // The same bootstrap (same seed, same draws) with the test's own statistic gives the same interval and p.
    const independent = compareSystems(
      all.map((i) => -docMean(candidate, i)),
      all.map((i) => -docMean(reference, i)),
      { seed: SEED, statistic: (indices) => pageMean(candidate, indices) - pageMean(reference, indices) },
    );
    expect(c.ci95[0]).toBeCloseTo(independent.ci95[0], 12);
    expect(c.ci95[1]).toBeCloseTo(independent.ci95[1], 12);
    expect(c.ci95[1]).toBeLessThan(0);
    // Secondary metrics are Holm-adjusted among themselves, so the decision p is at least the bootstrap p.
    expect(c.family).toBe('secondary');
    expect(c.p_holm!).toBeGreaterThanOrEqual(bootstrapP(independent) - 1e-12);
    expect(c.significant).toBe(true);

    // The report's wording agrees with the numbers: a negative Δ of an edit distance is "better".
    const rows = comparisonRows(result);
    const row = rows.find((r) => r.metric === result.leaderboard.find((b) => b.metric === RO)!.label)!;
    expect(row.verdict).toBe('better, significant');
    expect(row.tone).toBe('good');

    // Swapped roles: the reference is now the better one, and the wording says the candidate is worse.
    const swapped = compareRunSystems(documents, ['candidate', 'reference'], 'candidate', [], SEED);
    const back = swapped.comparisons.find((x) => x.metric === RO)!;
    expect(back.delta).toBeCloseTo(-c.delta, 12);
    expect([back.wins, back.losses]).toEqual([losses, wins]);
    const backRow = comparisonRows(swapped).find((r) => r.metric.startsWith('reading-order'))!;
    expect(backRow.verdict).toBe('worse, significant');
    expect(swapped.leaderboard.find((b) => b.metric === RO)!.rows[0]!.system).toBe('candidate');
  });

  it('compares table TEDS paired, higher better, on tables scored by OmniDocBench TEDS (by hand)', () => {
    // One 2 × 2 truth table per document; a wrong cell costs a rename of 1 over the 6 nodes below the table.
    const html = (cells: string[]) =>
      `<table><tr><td>${cells[0]}</td><td>${cells[1]}</td></tr><tr><td>${cells[2]}</td><td>${cells[3]}</td></tr></table>`;
    const truth = [{ category: 'table', order: 1, content: html(['a', 'b', 'c', 'd']) }];
    const read = (cells: string[]) => [pageBlockFigures(scorePageBlocks(truth, html(cells)))];
    const right = read(['a', 'b', 'c', 'd']);
    const oneWrong = read(['a', 'b', 'c', 'x']);
    const twoWrong = read(['a', 'b', 'y', 'x']);
    expect(right[0]!.table_teds).toBe(1);
    expect(oneWrong[0]!.table_teds).toBeCloseTo(5 / 6, 12);
    expect(twoWrong[0]!.table_teds).toBeCloseTo(4 / 6, 12);
    // 30 documents: the candidate reads 25 tables right and 5 with one wrong cell; the reference 20 with one
    // wrong cell and 10 with two.
    const candidate = Array.from({ length: 30 }, (_, i) => (i < 25 ? right : oneWrong));
    const reference = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? twoWrong : oneWrong));
    const result = compareRunSystems(
      documentsOf({ reference, candidate }),
      ['reference', 'candidate'],
      'reference',
      [],
      SEED,
    );
    const board = result.leaderboard.find((b) => b.metric === 'markdown.blocks.table_teds')!;
    expect(board.better).toBeUndefined();
    expect(board.rows.map((r) => r.system)).toEqual(['candidate', 'reference']);
    const candidateMean = (25 + 5 * (5 / 6)) / 30;
    const referenceMean = (20 * (5 / 6) + 10 * (4 / 6)) / 30;
    expect(board.rows[0]!.value).toBeCloseTo(candidateMean, 12);
    expect(board.rows[1]!.value).toBeCloseTo(referenceMean, 12);
    const c = result.comparisons.find((x) => x.metric === 'markdown.blocks.table_teds')!;
    expect(c.delta).toBeCloseTo(candidateMean - referenceMean, 12);
    // Higher is better: a win is a higher TEDS. Ties where both read one cell wrong (documents 25, 26, 28, 29);
    // on document 27 the candidate's one wrong cell beats the reference's two.
    expect([c.wins, c.losses, c.ties]).toEqual([26, 0, 4]);
    expect(c.ci95[0]).toBeGreaterThan(0);
    expect(c.significant).toBe(true);
    const row = comparisonRows(result).find((r) => r.metric === board.label)!;
    expect(row.verdict).toBe('better, significant');
  });

  it("compares table TEDS-S paired, higher better, pooling each document's tables (six documents, by hand)", () => {
    // Each document's pages, each page the TEDS-S of its truth tables. Table TEDS is 1 everywhere on both sides, so
    // only the structure differs.
    const referenceTables = [[[0.5, 1]], [[0.8]], [[0.6], [0.9, 0.9]], [[0.7]], [[1]], [[0.4, 0.6]]];
    const candidateTables = [[[1, 1]], [[0.9]], [[0.9], [1, 0.9]], [[0.7]], [[0.95]], [[0.8, 0.8]]];
    const figures = (tables: number[][]): PageBlockFigures[] =>
      tables.map((page) => ({
        text_edit: null,
        formula_edit: null,
        table_teds: 1,
        table_teds_structure: page.reduce((s, v) => s + v, 0) / page.length,
        table_edit: null,
        reading_order_edit: null,
        tables: page.length,
      }));
    const documents = documentsOf({
      reference: referenceTables.map(figures),
      candidate: candidateTables.map(figures),
    });
    const result = compareRunSystems(documents, ['reference', 'candidate'], 'reference', [], SEED);
    const S = 'markdown.blocks.table_teds_structure';

    // The independent computation: the drawn documents' tables in one list, their mean.
    const tableMean = (docs: number[][][], indices: Iterable<number>) => {
      const tables = [...indices].flatMap((i) => docs[i]!.flat());
      return tables.reduce((s, v) => s + v, 0) / tables.length;
    };
    const all = [0, 1, 2, 3, 4, 5];
    // Reference: 7.4 over 10 tables; candidate: 8.95 over 10 (not the mean of the document means).
    expect(tableMean(referenceTables, all)).toBeCloseTo(0.74, 12);
    expect(tableMean(candidateTables, all)).toBeCloseTo(0.895, 12);

    const board = result.leaderboard.find((b) => b.metric === S)!;
    expect(board.label).toBe('block table TEDS (structure)');
    expect(board.better).toBeUndefined();
    expect(board.rows.map((r) => [r.system, r.rank])).toEqual([
      ['candidate', 1],
      ['reference', 2],
    ]);
    expect(board.rows[0]!.value).toBeCloseTo(0.895, 12);
    expect(board.rows[1]!.value).toBeCloseTo(0.74, 12);

    const c = result.comparisons.find((x) => x.metric === S)!;
    expect(c.better).toBeUndefined();
    expect(c.documents).toBe(6);
    expect(c.delta).toBeCloseTo(0.895 - 0.74, 12);
    // Document means, candidate − reference: +0.25, +0.1, +0.1333, 0 (tie), −0.05, +0.3.
    expect([c.wins, c.losses, c.ties]).toEqual([4, 1, 1]);
    // Sign test on 4 wins, 1 loss: 2 · (C(5,0) + C(5,1)) / 2⁵ = 12/32.
    expect(c.p_sign).toBeCloseTo(12 / 32, 12);
    // Wilcoxon, the tie dropped: |differences| ranked 0.05 → 1, 0.1 → 2, 0.133 → 3, 0.25 → 4, 0.3 → 5; W− = 1.
    // Exact: 2 of the 32 sign patterns give W− ≤ 1 (none negative, or only rank 1), two-sided 2 · 2/32.
    expect(c.p_wilcoxon).toBeCloseTo(4 / 32, 12);
    const independent = compareSystems(
      all.map((i) => tableMean(candidateTables, [i])),
      all.map((i) => tableMean(referenceTables, [i])),
      {
        seed: SEED,
        statistic: (indices) => tableMean(candidateTables, indices) - tableMean(referenceTables, indices),
      },
    );
    expect(c.ci95[0]).toBeCloseTo(independent.ci95[0], 12);
    expect(c.ci95[1]).toBeCloseTo(independent.ci95[1], 12);
    // Five documents differ: no p can be below 2 · 0.5⁵ = 0.0625, so not significant.
    const p = bootstrapP(independent);
    expect(p).toBeGreaterThanOrEqual(2 * 0.5 ** 5);
    // Secondary, Holm among table TEDS (Δ 0, p 1) and TEDS-S (markdown similarity, equal, is the primary metric):
    // the smaller p doubled.
    expect(c.family).toBe('secondary');
    expect(c.p_holm).toBeCloseTo(Math.min(1, 2 * p), 12);
    expect(c.significant).toBe(false);
    const teds = result.comparisons.find((x) => x.metric === 'markdown.blocks.table_teds')!;
    expect([teds.delta, teds.ties]).toEqual([0, 6]);

    // summary.json's blocks pass their schema, and the report's row (report.html and summary.md) names it.
    const check = (schema: object) => compileCheck({ schema: JSON.parse(JSON.stringify(schema)), options: {} });
    const leaderboardBlock = check(LeaderboardBlockFormat);
    const comparisonBlock = check(SystemComparisonBlockFormat);
    expect(leaderboardBlock(board)).toBe(true);
    expect(comparisonBlock(c)).toBe(true);
    const row = comparisonRows(result).find((r) => r.metric === board.label)!;
    expect(row.wins_losses_ties).toBe('4 / 1 / 1');
    expect(row.tone).toBe('neutral');
  });

  it('leaves the block edit distances out of by_tag intervals, which hold only F1, exact match and similarity', () => {
    const [intervals] = tagIntervals([[scores([page(0.2), page(0.4)]), scores([page(0.6)])]], [], SEED);
    expect(intervals!.extraction_f1).toEqual({});
    expect(intervals!.exact_match_rate).toEqual({});
    expect(intervals!.similarity).not.toBeNull();
  });
});
