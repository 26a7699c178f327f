/**
 * OmniDocBench's demo (18 pages, one parser's markdown) scored by docbench's block metrics against the figures
 * OmniDocBench's own code computed for it (../shared/reference/omnidocbench/result): whole, per page and per
 * page attribute, within 0.005.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOmniPages } from '../../src/dataset/import/omnidocbench-pages.js';
import { aggregateBlocks, pageBlockFigures, scorePageBlocks, type PageBlockFigures } from '../../src/score/index.js';

const REFERENCE = path.resolve(import.meta.dirname, '../../../shared/reference/omnidocbench');
const readJson = (relative: string): unknown => JSON.parse(readFileSync(path.join(REFERENCE, relative), 'utf8'));
const TOLERANCE = 0.005;

type PerPage = Record<string, number>;
type Metric = 'text_edit' | 'formula_edit' | 'table_edit' | 'reading_order_edit';
const PER_PAGE_FILES: Record<Metric, string> = {
  text_edit: 'text_block',
  formula_edit: 'display_formula',
  table_edit: 'table',
  reading_order_edit: 'reading_order',
};

describe("OmniDocBench's demo reproduced", () => {
  const pages = readOmniPages(readJson('demo_data/omnidocbench_demo/OmniDocBench_demo.json'), 'OmniDocBench_demo.json');
  const scored = pages.map((page) => {
    const markdown = readFileSync(
      path.join(REFERENCE, 'demo_data/end2end', `${page.image.replace(/\.[^.]+$/, '')}.md`),
      'utf8',
    );
    return { page, figures: pageBlockFigures(scorePageBlocks(page.blocks, markdown)) };
  });
  const expected = readJson('result/end2end_quick_match_metric_result.json') as Record<
    string,
    { all: Record<string, Record<string, number>>; page: Record<string, Record<string, number>> }
  >;

  it('equals its page averages and its table TEDS over all tables', () => {
    const whole = aggregateBlocks(scored.map((s) => s.figures));
    expect(whole.pages).toBe(18);
    expect(whole.text_edit).toBeCloseTo(0.3561, 3);
    expect(whole.formula_edit).toBeCloseTo(0.4929, 3);
    expect(whole.table_teds).toBeCloseTo(0.7838, 3);
    expect(whole.table_teds_structure).toBeCloseTo(0.9116, 3);
    expect(whole.table_edit).toBeCloseTo(0.2027, 3);
    expect(whole.reading_order_edit).toBeCloseTo(0.217, 3);
    expect(Math.abs(whole.text_edit! - expected.text_block!.all.Edit_dist!.ALL_page_avg!)).toBeLessThan(TOLERANCE);
    expect(Math.abs(whole.table_teds! - expected.table!.all.TEDS!.all!)).toBeLessThan(TOLERANCE);
    expect(Math.abs(whole.table_teds_structure! - expected.table!.all.TEDS_structure_only!.all!)).toBeLessThan(
      TOLERANCE,
    );
  });

  it('equals it on every page', () => {
    for (const [metric, name] of Object.entries(PER_PAGE_FILES) as [Metric, string][]) {
      const perPage = readJson(`result/end2end_quick_match_${name}_per_page_edit.json`) as PerPage;
      for (const { page, figures } of scored) {
        const theirs = perPage[page.image];
        if (theirs === undefined) expect(figures[metric], `${metric} of ${page.image}`).toBeNull();
        else expect(Math.abs(figures[metric]! - theirs), `${metric} of ${page.image}`).toBeLessThan(TOLERANCE);
      }
    }
  });

  it('equals it per page attribute (the mean of the pages that have it)', () => {
    const tagged = (key: string): PageBlockFigures[] => {
      if (key === 'ALL') return scored.map((s) => s.figures);
      const [attribute, value] = key.includes(': ') ? key.split(': ') : [`special_issue.${key}`, 'yes'];
      return scored.filter((s) => s.page.tags[attribute!] === value).map((s) => s.figures);
    };
    const mean = (values: (number | null)[]): number => {
      const present = values.filter((v): v is number => v !== null);
      return present.reduce((a, b) => a + b, 0) / present.length;
    };
    let compared = 0;
    for (const [metric, name] of Object.entries(PER_PAGE_FILES) as [Metric, string][]) {
      for (const [key, theirs] of Object.entries(expected[name]!.page.Edit_dist!)) {
        expect(Math.abs(mean(tagged(key).map((f) => f[metric])) - theirs), `${metric} ${key}`).toBeLessThan(TOLERANCE);
        compared += 1;
      }
    }
    // Per attribute, OmniDocBench averages TEDS per page first.
    for (const [key, theirs] of Object.entries(expected.table!.page.TEDS!)) {
      expect(Math.abs(mean(tagged(key).map((f) => f.table_teds)) - theirs), `table_teds ${key}`).toBeLessThan(
        TOLERANCE,
      );
      compared += 1;
    }
    expect(compared).toBeGreaterThan(60);
  });
});
