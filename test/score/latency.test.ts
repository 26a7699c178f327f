import { describe, expect, it } from 'vitest';
import {
  computePercentile,
  latencyStats,
  PERCENTILE_METHOD,
  summarizeLatency,
  type LatencySample,
} from '../../src/score/latency.js';
import { DocbenchError } from '../../src/errors.js';

describe('latencyStats', () => {
  it('interpolates linearly between closest ranks (Hyndman–Fan type 7) and names the method', () => {
    const stats = latencyStats([40, 10, 30, 20]); // sorted 10 20 30 40
    expect(stats.method).toBe(PERCENTILE_METHOD);
    expect(stats.method).toMatch(/type 7/);
    expect(stats.p50).toBe(25); // rank 1.5
    expect(stats.p90).toBeCloseTo(37, 12); // rank 2.7
    expect(stats.p95).toBeCloseTo(38.5, 12);
    expect(stats.p99).toBeCloseTo(39.7, 12);
    expect(stats).toMatchObject({ count: 4, failed: 0, mean: 25, min: 10, max: 40 });
  });

  it('matches NumPy / Excel PERCENTILE.INC on 1..10', () => {
    const values = Array.from({ length: 10 }, (_, i) => i + 1);
    // numpy.percentile(range(1, 11), [50, 90, 95, 99]) = 5.5, 9.1, 9.55, 9.91
    const stats = latencyStats(values);
    expect(stats.p50).toBeCloseTo(5.5, 12);
    expect(stats.p90).toBeCloseTo(9.1, 12);
    expect(stats.p95).toBeCloseTo(9.55, 12);
    expect(stats.p99).toBeCloseTo(9.91, 12);
  });

  it('gives every percentile the value itself for one value', () => {
    expect(latencyStats([123])).toMatchObject({ p50: 123, p90: 123, p99: 123, min: 123, max: 123, mean: 123 });
    expect(computePercentile([5], 0.99)).toBe(5);
  });

  it('returns count 0 and null figures for no value, keeping the failure count', () => {
    expect(latencyStats([], { failed: 3 })).toMatchObject({
      count: 0,
      failed: 3,
      p50: null,
      p99: null,
      mean: null,
      max: null,
    });
  });

  it('refuses negative or non-finite latencies and bad failure counts with INPUT_INVALID', () => {
    expect(() => latencyStats([1, -2])).toThrowError(/value #1/);
    expect(() => latencyStats([Number.POSITIVE_INFINITY])).toThrowError(DocbenchError);
    expect(() => latencyStats([1], { failed: 1.5 })).toThrowError(/failed count/);
  });
});

describe('summarizeLatency', () => {
  const sample = (over: Partial<LatencySample>): LatencySample => ({
    endpoint: 'extract',
    mode: 'fast',
    latencyMs: 1000,
    outcome: 'ok',
    ...over,
  });

  it('groups by endpoint and mode, in endpoint order', () => {
    const groups = summarizeLatency([
      sample({ endpoint: 'split', mode: null }),
      sample({ mode: 'slow' }),
      sample({ mode: 'fast' }),
    ]);
    expect(groups.map((g) => `${g.endpoint}|${g.mode}`)).toEqual(['extract|fast', 'extract|slow', 'split|null']);
  });

  it('computes per-document and per-page figures from successful calls', () => {
    const [group] = summarizeLatency([
      sample({ latencyMs: 1000, pages: 2 }),
      sample({ latencyMs: 3000, pages: 1 }),
      sample({ latencyMs: 2000, pages: null }),
    ]);
    expect(group!.perDocument).toMatchObject({ count: 3, p50: 2000, mean: 2000 });
    expect(group!.perPage).toMatchObject({ count: 2, min: 500, max: 3000 });
    expect(group!.withoutPageCount).toBe(1);
  });

  it('counts failures and timeouts beside the figures, without their latencies', () => {
    const [group] = summarizeLatency([
      sample({ latencyMs: 1000 }),
      sample({ latencyMs: 20, outcome: 'failed' }),
      sample({ latencyMs: 60000, outcome: 'timeout' }),
    ]);
    expect(group).toMatchObject({ failed: 2, timedOut: 1 });
    expect(group!.perDocument).toMatchObject({ count: 1, failed: 2, min: 1000, max: 1000 });
  });

  it("summarises the service's own processing time where reported", () => {
    const [group] = summarizeLatency([
      sample({ latencyMs: 1000, processingTimeMs: 800 }),
      sample({ latencyMs: 1200, processingTimeMs: null }),
    ]);
    expect(group!.serviceProcessing).toMatchObject({ count: 1, p50: 800 });
  });
});
