import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headToHead, scoreMarkdownDrift } from '../../src/score/markdown/index.js';
import { compareSystems } from '../../src/score/stats/index.js';
import { DocbenchError } from '../../src/errors.js';

describe('headToHead', () => {
  it('counts wins, losses and ties exactly as compareSystems does on the same pairs', () => {
    // Similarities on a 1/1000 grid put many differences at exactly ±0.005, the tie boundary.
    const similarity = fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000);
    fc.assert(
      fc.property(fc.array(fc.tuple(similarity, similarity), { minLength: 1, maxLength: 20 }), (pairs) => {
        const service = pairs.map(([a]) => a);
        const incumbent = pairs.map(([, b]) => b);
        const ours = headToHead(service, incumbent);
        const theirs = compareSystems(service, incumbent, { resamples: 1 });
        expect([ours.wins, ours.losses, ours.ties]).toEqual([theirs.wins, theirs.losses, theirs.ties]);
      }),
      { numRuns: 200 },
    );
  });

  it('computes per-document Δ = service − incumbent and counts wins, losses and ties', () => {
    const result = headToHead([0.9, 0.7, 0.805, 0.5], [0.8, 0.75, 0.8, 0.5]);
    expect(result.deltas[0]).toBeCloseTo(0.1, 12);
    expect(result.deltas[1]).toBeCloseTo(-0.05, 12);
    expect(result.outcomes).toEqual(['win', 'loss', 'tie', 'tie']);
    expect(result).toMatchObject({ wins: 1, losses: 1, ties: 2, tieTolerance: 0.005 });
    expect(result.meanDelta).toBeCloseTo((0.1 - 0.05 + 0.005) / 4, 12);
  });

  it('counts a difference just beyond the tolerance as a win or loss', () => {
    expect(headToHead([0.806], [0.8]).outcomes).toEqual(['win']);
    expect(headToHead([0.8], [0.806]).outcomes).toEqual(['loss']);
  });

  it('takes the tie tolerance as an option', () => {
    expect(headToHead([0.82], [0.8], { tieTolerance: 0.05 }).ties).toBe(1);
    expect(headToHead([0.82], [0.8], { tieTolerance: 0 }).wins).toBe(1);
  });

  it('returns a null mean for no document', () => {
    expect(headToHead([], [])).toMatchObject({ meanDelta: null, wins: 0, losses: 0, ties: 0 });
  });

  it('refuses unpaired inputs and out-of-range similarities with INPUT_INVALID', () => {
    expect(() => headToHead([0.5], [])).toThrowError(DocbenchError);
    expect(() => headToHead([1.2], [0.5])).toThrowError(/outside \[0, 1\]/);
    expect(() => headToHead([Number.NaN], [0.5])).toThrowError(/service similarity/);
  });
});

describe('scoreMarkdownDrift', () => {
  it('measures how far the service output is from the incumbent output, page by page', () => {
    const drift = scoreMarkdownDrift(['kitten', 'same'], ['sitting', 'same']);
    expect(drift.similarity).toBeCloseTo(1 - 3 / 11, 12);
  });

  it('is symmetric in its two outputs', () => {
    expect(scoreMarkdownDrift(['kitten'], ['sitting']).similarity).toBe(
      scoreMarkdownDrift(['sitting'], ['kitten']).similarity,
    );
  });

  it('is 0 for a failed service call', () => {
    expect(scoreMarkdownDrift(null, ['abc']).similarity).toBe(0);
  });
});
