/**
 * pairedBootstrapMany and compareSystemsMany give exactly the numbers of one pairedBootstrap / compareSystems
 * call each (the reference), for mixes of sizes and statistics — plain, counted from multiplicities, counted
 * with packed counts, counts too large or not integers to count — and across the chunks of the shared stream.
 */
import { describe, expect, it } from 'vitest';
import {
  compareSystems,
  compareSystemsMany,
  createCountedSum,
  createMeanStatistic,
  createMicroF1Delta,
  createRandom,
  isCountedStatistic,
  pairedBootstrap,
  pairedBootstrapMany,
  type ComparisonRequest,
  type CountsLike,
} from '../../src/score/stats/index.js';
import { createMicroSimilarityDelta, createMicroSimilarityStatistic } from '../../src/score/markdown/index.js';

type Shape = 'sparse' | 'dense' | 'huge' | 'fractional';

/** Per-document counts of two runs: mostly agreeing (sparse), anything (dense), beyond exact packing, or fractional. */
function makeCounts(random: () => number, n: number, shape: Shape): { a: CountsLike[]; b: CountsLike[] } {
  const draw = (): CountsLike => {
    if (shape === 'dense')
      return { tp: Math.floor(random() * 7), fp: Math.floor(random() * 3), fn: Math.floor(random() * 3) };
    if (shape === 'huge') return { tp: Math.floor(random() * 2 ** 40), fp: Math.floor(random() * 2 ** 40), fn: 0 };
    if (shape === 'fractional') return { tp: random() * 3, fp: random(), fn: 0 };
    return random() < 0.85 ? { tp: 1, fp: 0, fn: 0 } : { tp: 0, fp: random() < 0.5 ? 1 : 0, fn: 1 };
  };
  const b = Array.from({ length: n }, draw);
  const a = b.map((row) => (random() < 0.8 ? { ...row } : draw()));
  return { a, b };
}

function makeRequests(seed: number): ComparisonRequest[] {
  const random = createRandom(seed);
  const sizes = [1, 2, 3, 17, 17, 40, 333, 333, 1000];
  const shapes: Shape[] = ['sparse', 'dense', 'huge', 'fractional'];
  const requests: ComparisonRequest[] = [];
  for (const n of sizes) {
    const shape = shapes[Math.floor(random() * shapes.length)]!;
    const { a, b } = makeCounts(random, n, shape);
    const f1 = (c: CountsLike) => (c.tp + c.fp + c.fn === 0 ? 1 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn));
    requests.push({ a: a.map(f1), b: b.map(f1), statistic: createMicroF1Delta(a, b) });
    // The default mean: exact-match style 0/1 values (counted) and fractional values (plain).
    requests.push({ a: a.map((c) => (c.fp + c.fn === 0 ? 1 : 0)), b: b.map((c) => (c.fp + c.fn === 0 ? 1 : 0)) });
    requests.push({ a: a.map(() => random() * 100), b: b.map(() => random() * 100), tieTolerance: 0 });
  }
  return requests;
}

describe('pairedBootstrapMany', () => {
  it('returns exactly what pairedBootstrap returns for each request, across chunks of the shared stream', () => {
    for (const seed of [1, 7, 12345]) {
      const requests = makeRequests(seed).map((q) => {
        const differences = q.a.map((v, i) => v - q.b[i]!);
        return {
          n: q.a.length,
          statistic:
            q.statistic ??
            ((indices: Uint32Array) => indices.reduce((s, i) => s + differences[i]!, 0) / indices.length),
        };
      });
      // 1000 documents × 300 resamples is several chunks of 32,768 draws; 333 does not divide a chunk.
      const options = { seed, resamples: 300 };
      const many = pairedBootstrapMany(requests, options);
      expect(many).toEqual(requests.map((q) => pairedBootstrap(q.n, q.statistic, options)));
    }
  });

  it('counts micro F1 from multiplicities only when its sums are exact', () => {
    const random = createRandom(3);
    const shapes: [Shape, boolean][] = [
      ['sparse', true],
      ['dense', true],
      ['huge', false],
      ['fractional', false],
    ];
    for (const [shape, counted] of shapes) {
      const { a, b } = makeCounts(random, 50, shape);
      expect(isCountedStatistic(createMicroF1Delta(a, b)), shape).toBe(counted);
    }
  });

  it('evaluates micro similarity and integer means from multiplicities to the draw-by-draw figures', () => {
    const random = createRandom(5);
    for (const n of [1, 40, 1000]) {
      // Edit counts of two systems that agree on most documents, and 0/1 values (exact matches).
      const b = Array.from({ length: n }, () => ({
        edits: Math.floor(random() * 30),
        length: 20 + Math.floor(random() * 400),
      }));
      const a = b.map((row) =>
        random() < 0.7 ? { ...row } : { edits: Math.floor(random() * 30), length: row.length },
      );
      const flags = Float64Array.from({ length: n }, () => (random() < 0.6 ? 1 : 0));
      const statistics = [
        createMicroSimilarityStatistic(a),
        createMicroSimilarityDelta(a, b),
        createMeanStatistic(flags),
      ];
      for (const statistic of statistics) expect(isCountedStatistic(statistic)).toBe(true);
      const options = { seed: n, resamples: 200 };
      expect(
        pairedBootstrapMany(
          statistics.map((statistic) => ({ n, statistic })),
          options,
        ),
      ).toEqual(statistics.map((statistic) => pairedBootstrap(n, statistic, options)));
    }
    expect(isCountedStatistic(createMicroSimilarityStatistic([{ edits: 0.5, length: 3 }]))).toBe(false);
    expect(isCountedStatistic(createMeanStatistic(Float64Array.of(0.25, 1)))).toBe(false);
  });

  it('rejects what pairedBootstrap rejects', () => {
    expect(() => pairedBootstrapMany([{ n: 0, statistic: () => 0 }])).toThrow(/at least one document/);
    expect(() => pairedBootstrapMany([{ n: 2, statistic: () => 0 }], { resamples: 0 })).toThrow(/resamples/);
    expect(() => pairedBootstrapMany([{ n: 2, statistic: () => Number.NaN }])).toThrow(/bootstrap estimate/);
  });
});

describe('compareSystemsMany', () => {
  it('returns exactly what compareSystems returns for each request', () => {
    for (const seed of [2, 99]) {
      const requests = makeRequests(seed);
      const options = { seed, resamples: 250 };
      expect(compareSystemsMany(requests, options)).toEqual(
        requests.map((q) => compareSystems(q.a, q.b, { ...options, ...q })),
      );
    }
  });
});

describe('createCountedSum', () => {
  it('sums multiplicities times values, from the mode or from the reference column', () => {
    const random = createRandom(5);
    for (let trial = 0; trial < 50; trial++) {
      const n = 1 + Math.floor(random() * 60);
      const reference = Float64Array.from({ length: n }, () => Math.floor(random() * 5) - 2);
      const values = reference.map((v) => (random() < 0.3 ? Math.floor(random() * 9) - 4 : v));
      const multiplicities = new Uint32Array(n);
      for (let k = 0; k < n; k++) multiplicities[Math.floor(random() * n)]!++;
      const dot = (column: Float64Array) => column.reduce((s, v, i) => s + v * multiplicities[i]!, 0);
      expect(createCountedSum(values)!(multiplicities, 0)).toBe(dot(values));
      expect(createCountedSum(values, reference)!(multiplicities, dot(reference))).toBe(dot(values));
    }
  });

  it('refuses values whose sums would not be exact', () => {
    expect(createCountedSum(Float64Array.of(1, 0.5))).toBeNull();
    expect(createCountedSum(Float64Array.of(1, 2 ** 52))).toBeNull();
    expect(createCountedSum(Float64Array.of(1, 2), Float64Array.of(1, 0.5))).toBeNull();
  });
});
