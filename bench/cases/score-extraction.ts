/**
 * Extraction scoring and comparison statistics at the sizes the issue names: one document with 200 line items
 * (Hungarian matching on a 200 × 200 matrix, target < 50 ms) and a paired bootstrap of 10,000 resamples over
 * 1,000 documents (target < 2 s), both the default mean delta and micro F1 recomputed from summed counts.
 */
import type { BenchCase, BenchFigure } from '../harness.js';
import { medianTimeMs } from '../harness.js';
import { scoreExtraction } from '../../src/score/extraction/index.js';
import { compareSystems, createMicroF1Delta, createRandom } from '../../src/score/stats/index.js';
import type { JsonObject } from '../../src/types.js';

const CPT = ['99213', '99214', '85025', '36415', '80053', '93000', '71046', '81001', '87880', '90471'];

/** A claim with `count` line items, and a prediction of it: shuffled, ~10% of values changed, 3 dropped, 2 invented. */
function makeClaim(count: number, seed: number): { truth: JsonObject; prediction: JsonObject } {
  const random = createRandom(seed);
  const lines = Array.from({ length: count }, (_, i) => ({
    cpt: CPT[Math.floor(random() * CPT.length)]!,
    units: 1 + Math.floor(random() * 3),
    charge: Math.round(random() * 50000) / 100,
    dos: `2024-03-${String(1 + (i % 28)).padStart(2, '0')}`,
    modifiers: random() < 0.3 ? ['25'] : [],
    description: `Office visit, established patient, level ${1 + (i % 5)}`,
  }));
  const predicted = lines
    .filter((_, i) => i % 67 !== 5)
    .map((line) => {
      const copy = {
        ...line,
        charge: `$${line.charge.toFixed(2)}` as string | number,
        dos: line.dos.replace(/^(\d+)-(\d+)-(\d+)$/u, '$2/$3/$1'),
      };
      if (random() < 0.1) copy.units = line.units + 1;
      if (random() < 0.05) copy.charge = line.charge + 1;
      return copy;
    });
  predicted.push({ ...predicted[0]!, cpt: '99999' }, { ...predicted[1]!, cpt: '11111' });
  for (let i = predicted.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [predicted[i], predicted[j]] = [predicted[j]!, predicted[i]!];
  }
  return {
    truth: { claim_id: 'C-1', total_charge: 12345.67, lines },
    prediction: { claim_id: 'C-1', total_charge: '$12,345.67', lines: predicted },
  };
}

/** 200 items that differ only in one field: the most ties the assignment can face. */
function makeTiedClaim(count: number): { truth: JsonObject; prediction: JsonObject } {
  const lines = Array.from({ length: count }, (_, i) => ({ cpt: '99213', units: 1, charge: 100, ref: `R${i}` }));
  return {
    truth: { lines },
    prediction: { lines: [...lines].reverse().map((l, i) => ({ ...l, ref: i % 2 ? l.ref : 'X' })) },
  };
}

function makeRuns(documents: number): {
  a: number[];
  b: number[];
  countsA: { tp: number; fp: number; fn: number }[];
  countsB: { tp: number; fp: number; fn: number }[];
} {
  const random = createRandom(11);
  const countsA = Array.from({ length: documents }, () => {
    const truth = 20 + Math.floor(random() * 30);
    const tp = Math.floor(truth * (0.7 + random() * 0.3));
    return { tp, fp: Math.floor(random() * 4), fn: truth - tp };
  });
  const countsB = countsA.map((c) => {
    const shift = Math.min(c.tp, Math.floor(random() * 3));
    return { tp: c.tp - shift, fp: c.fp + (random() < 0.2 ? 1 : 0), fn: c.fn + shift };
  });
  const f1 = (c: { tp: number; fp: number; fn: number }) => (2 * c.tp) / (2 * c.tp + c.fp + c.fn);
  return { a: countsA.map(f1), b: countsB.map(f1), countsA, countsB };
}

/** CPU time per call (user + system), ms: less sensitive than wall time to other processes on a busy machine. */
function cpuMsPerCall(fn: () => unknown, calls: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / calls;
}

export const cases: BenchCase[] = [
  {
    id: 'score-extraction',
    title: 'Extraction scoring of one document with 200 line items',
    async run(): Promise<BenchFigure[]> {
      const claim = makeClaim(200, 3);
      const tied = makeTiedClaim(200);
      const check = scoreExtraction(claim.truth, claim.prediction);
      // Warm the JIT first: the figure is the steady-state cost per document of a run that scores many.
      for (let i = 0; i < 5; i++) {
        scoreExtraction(claim.truth, claim.prediction);
        scoreExtraction(tied.truth, tied.prediction);
      }
      const ms = await medianTimeMs(() => scoreExtraction(claim.truth, claim.prediction), 5, 500);
      const tiedMs = await medianTimeMs(() => scoreExtraction(tied.truth, tied.prediction), 5, 500);
      const withoutText = { longTextMinLength: Number.POSITIVE_INFINITY };
      return [
        {
          name: '200 items, shuffled and edited (median)',
          value: ms,
          unit: 'ms',
          target: { op: '<', value: 50 },
          note: `F1 ${check.f1.toFixed(3)}, ${check.fields.length} fields, ANLS* on descriptions`,
        },
        {
          name: '  same, CPU time per document',
          value: cpuMsPerCall(() => scoreExtraction(claim.truth, claim.prediction), 10),
          unit: 'ms',
          target: { op: '<', value: 50 },
        },
        {
          name: '  same without ANLS* (no free-text fields)',
          value: cpuMsPerCall(() => scoreExtraction(claim.truth, claim.prediction, withoutText), 10),
          unit: 'ms',
          target: { op: '<', value: 50 },
          note: 'CPU time',
        },
        {
          name: '200 near-identical items, all ties (median)',
          value: tiedMs,
          unit: 'ms',
          target: { op: '<', value: 50 },
        },
        {
          name: '  same, CPU time per document',
          value: cpuMsPerCall(() => scoreExtraction(tied.truth, tied.prediction), 10),
          unit: 'ms',
          target: { op: '<', value: 50 },
        },
      ];
    },
  },
  {
    id: 'score-bootstrap',
    title: 'Paired bootstrap: 10,000 resamples over 1,000 documents',
    async run(): Promise<BenchFigure[]> {
      const runs = makeRuns(1000);
      const statistic = createMicroF1Delta(runs.countsA, runs.countsB);
      let last = compareSystems(runs.a, runs.b, { seed: 1 });
      const meanMs = await medianTimeMs(() => (last = compareSystems(runs.a, runs.b, { seed: 1 })), 3, 0);
      const microMs = await medianTimeMs(() => compareSystems(runs.a, runs.b, { seed: 1, statistic }), 3, 0);
      return [
        {
          name: 'compareSystems, mean delta (median)',
          value: meanMs,
          unit: 'ms',
          target: { op: '<', value: 2000 },
          note: `Δ ${last.delta.toFixed(4)} [${last.ci95.map((v) => v.toFixed(4)).join(', ')}]`,
        },
        {
          name: 'compareSystems, micro F1 from summed counts (median)',
          value: microMs,
          unit: 'ms',
          target: { op: '<', value: 2000 },
        },
      ];
    },
  },
];
