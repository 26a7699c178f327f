/**
 * The power table of docs/gate.md ("Power"), computed by the real diff: for n paired documents, the smallest
 * number k of uniformly worse documents (the others unchanged) whose drop `docbench diff` calls a regression
 * of the primary metric with the default settings. Checked three ways: the code's answer, an independent
 * computation (exact binomial tail and the closed-form micro F1 drop), and the table printed in the docs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readDiffRun, DEFAULT_DIFF_SETTINGS, type DiffRun } from '../../src/gate/index.js';
import { compareRuns } from '../../src/gate/compare-runs.js';
import { makeDocuments, writeRun, type Verdict } from './run-builder.js';

const SIZES = [10, 20, 50, 100, 500];
/** Fields per document of `makeDocuments`. */
const FIELDS = 6;

interface Scenario {
  column: string;
  tolerance: number;
  change: (verdicts: Record<string, Verdict>) => void;
  /** Micro field F1 after k of n documents changed (every baseline document is exactly right: F1 1). */
  microF1: (k: number, n: number) => number;
}

const oneWrong = (v: Record<string, Verdict>) => {
  v.total = 'fp+fn';
};
const SCENARIOS: Scenario[] = [
  // One wrong value is an FP and an FN: TP 6n − k, FP k, FN k.
  {
    column: 'any drop (tolerance 0)',
    tolerance: 0,
    change: oneWrong,
    microF1: (k, n) => (2 * (FIELDS * n - k)) / (2 * (FIELDS * n - k) + 2 * k),
  },
  {
    column: 'one field of six wrong',
    tolerance: DEFAULT_DIFF_SETTINGS.tolerance,
    change: oneWrong,
    microF1: (k, n) => (2 * (FIELDS * n - k)) / (2 * (FIELDS * n - k) + 2 * k),
  },
  // Every field missed: TP 6(n − k), FN 6k.
  {
    column: 'every field missed',
    tolerance: DEFAULT_DIFF_SETTINGS.tolerance,
    change: (v) => {
      for (const key of Object.keys(v)) v[key] = 'fn';
    },
    microF1: (k, n) => (2 * FIELDS * (n - k)) / (2 * FIELDS * (n - k) + FIELDS * k),
  },
];

let work: string;
const baselines = new Map<number, DiffRun>();

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-power-'));
  for (const n of SIZES) {
    await writeRun(path.join(work, `base-${n}`), { runId: `base-${n}`, documents: makeDocuments(n, 'slow') });
    baselines.set(n, await readDiffRun(path.join(work, `base-${n}`), 'baseline'));
  }
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Whether the real diff calls the primary metric a regression when the first k of n documents are worse. */
async function flags(n: number, k: number, scenario: Scenario): Promise<boolean> {
  const dir = path.join(work, `cand-${n}-${k}-${SCENARIOS.indexOf(scenario)}`);
  await writeRun(dir, {
    runId: path.basename(dir),
    documents: makeDocuments(n, 'slow', (i, v) => {
      if (i < k) scenario.change(v);
    }),
  });
  const diff = compareRuns(baselines.get(n)!, await readDiffRun(dir, 'candidate'), {
    settings: { ...DEFAULT_DIFF_SETTINGS, tolerance: scenario.tolerance },
  });
  const primary = diff.headline.find((m) => m.metric === diff.settings.primary)!;
  expect(primary.metric).toBe('extraction.slow.f1');
  return primary.regression;
}

/** The smallest k the diff flags: bisection over k (more worse documents never make a drop less significant), with both edges checked. */
async function smallestFlagged(n: number, scenario: Scenario): Promise<number> {
  let low = 0;
  let high = n;
  expect(await flags(n, high, scenario)).toBe(true);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await flags(n, mid, scenario)) high = mid;
    else low = mid;
  }
  if (high > 1) expect(await flags(n, high - 1, scenario)).toBe(false);
  return high;
}

/** Independent of docbench's code: exact two-sided binomial tail of k outcomes all one way, and the closed-form drop. */
function expectedSmallest(n: number, scenario: Scenario, alpha: number): number {
  const twoSidedAllOneWay = (k: number) => Math.min(1, 2 / 2 ** k);
  let k = 1;
  while (!(twoSidedAllOneWay(k) <= alpha && 1 - scenario.microF1(k, n) > scenario.tolerance + 1e-12)) k++;
  return k;
}

/** The table between the power-table markers of docs/gate.md: n → one value per column. */
async function readDocTable(): Promise<{ header: string[]; rows: Map<number, number[]> }> {
  const text = await readFile(path.join(import.meta.dirname, '../../docs/gate.md'), 'utf8');
  const block = /<!-- power-table -->\n([\s\S]*?)\n<!-- \/power-table -->/.exec(text)?.[1];
  if (!block) throw new Error('docs/gate.md has no <!-- power-table --> block');
  const cells = block.split('\n').map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  );
  return {
    header: cells[0]!.slice(1),
    rows: new Map(cells.slice(2).map((r) => [Number(r[0]), r.slice(1).map(Number)])),
  };
}

describe('the power table of docs/gate.md', () => {
  it('is what the real diff computes, and what an exact binomial and the closed-form drop predict', {
    timeout: 300_000,
  }, async () => {
    const computed = new Map<number, number[]>();
    for (const n of SIZES) {
      const row: number[] = [];
      for (const scenario of SCENARIOS) {
        const k = await smallestFlagged(n, scenario);
        expect(k, `n = ${n}, ${scenario.column}`).toBe(expectedSmallest(n, scenario, DEFAULT_DIFF_SETTINGS.alpha));
        row.push(k);
      }
      computed.set(n, row);
    }
    const doc = await readDocTable();
    expect(doc.header).toEqual(SCENARIOS.map((s) => s.column));
    expect(doc.rows).toEqual(computed);
  });
});
