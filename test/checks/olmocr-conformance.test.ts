/**
 * olmOCR-bench's own unit tests of its checks (tests/test_tests.py), case by case, decided through docbench's
 * parseCheck / runCheck / normalizeCheckText. The cases' inputs and expectations are in
 * fixtures/olmocr-conformance.json (Apache-2.0, attribution in fixtures/NOTICE.md); math cases are run only up
 * to their definitions: docbench reports math checks as unsupported (docs/checks.md, "Math").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeCheckText, parseCheck, runCheck, type Check, type CheckOutcome } from '../../src/checks/index.js';
import { htmlTableGrids, markdownTableGrids } from '../../src/checks/table-grid.js';

type Step =
  | { define: number; check: Record<string, unknown> }
  | { reject: Record<string, unknown>; message?: string }
  | { run: number; on: string; as: number; math?: boolean }
  | { expect: number; passed: boolean }
  | { explains: number; contains: string }
  | { field: string; of: number; equals: unknown }
  | { normalize: string; equals: string | null; sameAs: string | null };

const { cases } = JSON.parse(readFileSync(new URL('./fixtures/olmocr-conformance.json', import.meta.url), 'utf8')) as {
  cases: Array<{ name: string; steps: Step[] }>;
};

/** Plays one case's steps: checks defined, rejected, run, and what olmOCR-bench's test asserts of each. */
function play(steps: readonly Step[]): void {
  const checks = new Map<number, Check>();
  const outcomes = new Map<number, CheckOutcome | 'unsupported'>();
  for (const step of steps) {
    if ('define' in step) checks.set(step.define, parseCheck(step.check));
    else if ('reject' in step) {
      if (step.message) expect(() => parseCheck(step.reject)).toThrow(step.message);
      else expect(() => parseCheck(step.reject)).toThrow();
    } else if ('run' in step) {
      const check = checks.get(step.run) as Check;
      if (step.math) {
        expect(() => runCheck(check, step.on)).toThrow(/not supported/);
        outcomes.set(step.as, 'unsupported');
      } else outcomes.set(step.as, runCheck(check, step.on));
    } else if ('expect' in step) {
      const outcome = outcomes.get(step.expect);
      if (outcome !== 'unsupported') expect(outcome?.passed, outcome?.explanation).toBe(step.passed);
    } else if ('explains' in step) {
      const outcome = outcomes.get(step.explains);
      if (outcome !== 'unsupported') expect(outcome?.explanation).toContain(step.contains);
    } else if ('field' in step) {
      expect((checks.get(step.of) as unknown as Record<string, unknown>)[step.field]).toEqual(step.equals);
    } else {
      const normalized = normalizeCheckText(step.normalize);
      if (step.equals !== null) expect(normalized).toBe(step.equals);
      if (step.sameAs !== null) expect(normalized).toBe(normalizeCheckText(step.sameAs));
    }
  }
}

describe("olmOCR-bench's test_tests.py through docbench's checks", () => {
  it('has every case of the source file', () => {
    // 148 cases: 3 are played by hand below (table parsing, and the abstract base's run)
    expect(cases).toHaveLength(145);
  });
  for (const { name, steps } of cases) it(name, () => play(steps));
});

describe('TestTableTest parsing cases', () => {
  const markdown = `
| Header 1 | Header 2 | Header 3 |
| -------- | -------- | -------- |
| Cell A1  | Cell A2  | Cell A3  |
| Cell B1  | Cell B2  | Cell B3  |
`;
  const html = `
<table>
  <tr><th>Header 1</th><th>Header 2</th><th>Header 3</th></tr>
  <tr><td>Cell A1</td><td>Cell A2</td><td>Cell A3</td></tr>
  <tr><td>Cell B1</td><td>Cell B2</td><td>Cell B3</td></tr>
</table>
`;
  it.each([
    ['test_parse_markdown_tables', markdownTableGrids(markdown)],
    ['test_parse_html_tables', htmlTableGrids(html)],
  ])('%s', (_name, grids) => {
    expect(grids).toHaveLength(1);
    expect(grids[0]?.text.get('0,0')).toBe('Header 1');
    expect(grids[0]?.text.get('1,1')).toBe('Cell A2');
    expect(grids[0]?.text.get('2,2')).toBe('Cell B3');
  });

  it('test_run_method_not_implemented: a check of the base fields alone is a baseline check, which runs', () => {
    const check = parseCheck({ pdf: 'test.pdf', page: 1, id: 'test_id', type: 'baseline' });
    expect(runCheck(check, 'content').passed).toBe(true);
  });
});
