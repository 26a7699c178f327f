import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import levenshtein from 'fast-levenshtein';
import {
  countCodePoints,
  levenshteinCodePoints,
  markdownSimilarity,
  normalizeForSimilarity,
  SIMILARITY_NORMALIZATION,
} from '../../src/score/markdown/index.js';
import { checkUnit } from '../../src/score/shared/check-metric.js';
import { DocbenchError } from '../../src/errors.js';

/** Textbook Wagner–Fischer on arrays of code points: the definition the fast path must agree with. */
function referenceDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

describe('markdownSimilarity: docs/metrics/markdown.md vectors', () => {
  it('"Total: $12.50" vs "Total: 12.5" has NED 1/9', () => {
    const score = markdownSimilarity('Total: $12.50', 'Total: 12.5');
    expect(score.ned).toBeCloseTo(1 / 9, 12);
    expect(score.similarity).toBeCloseTo(8 / 9, 12);
    expect(score.edits).toBe(1);
    expect(score.length).toBe(9);
  });

  it('"**Invoice** #123" vs "Invoice 123" has NED 0', () => {
    const score = markdownSimilarity('**Invoice** #123', 'Invoice 123');
    expect(score.ned).toBe(0);
    expect(score.similarity).toBe(1);
    expect(score.bothEmpty).toBe(false);
  });

  it('"kitten" vs "sitting" has NED 3/7', () => {
    const score = markdownSimilarity('kitten', 'sitting');
    expect(score.edits).toBe(3);
    expect(score.ned).toBeCloseTo(3 / 7, 12);
  });

  it('"" vs "abc" has NED 1 (one side empty scores 0)', () => {
    expect(markdownSimilarity('', 'abc').ned).toBe(1);
    expect(markdownSimilarity('abc', '').similarity).toBe(0);
  });
});

describe('markdownSimilarity: conventions and edge cases', () => {
  it('scores two empty texts 1 and flags them as both empty', () => {
    const score = markdownSimilarity('', '');
    expect(score).toMatchObject({ similarity: 1, ned: 0, edits: 0, length: 0, bothEmpty: true });
    expect(score.raw.bothEmpty).toBe(true);
  });

  it('treats texts that normalise to nothing as both empty, while the raw score still sees them', () => {
    const score = markdownSimilarity('---\n| |', '***');
    expect(score.bothEmpty).toBe(true);
    expect(score.similarity).toBe(1);
    expect(score.raw.bothEmpty).toBe(false);
    expect(score.raw.similarity).toBeLessThan(1);
  });

  it('keeps case', () => {
    expect(markdownSimilarity('Invoice', 'invoice').edits).toBe(1);
  });

  it('records the normalisation steps with the result', () => {
    expect(markdownSimilarity('a', 'a').normalization).toEqual(SIMILARITY_NORMALIZATION);
    expect(SIMILARITY_NORMALIZATION).toEqual(['nfc', 'keep-letters-digits-underscore']);
  });

  it('keeps letters, digits and underscores of every script and drops punctuation, symbols and spaces', () => {
    expect(normalizeForSimilarity('Prix: 12,50 € — naïve_café ٣ 日本語!')).toBe('Prix1250naïve_café٣日本語');
  });

  it('composes decomposed accents (NFC) so that é and e + U+0301 are the same letter', () => {
    const decomposed = 'cafe\u0301';
    expect(markdownSimilarity(decomposed, 'café').similarity).toBe(1);
    // raw is taken as given: the decomposed form has one more code point and differs
    expect(markdownSimilarity(decomposed, 'café').raw.edits).toBe(2);
  });

  it('drops combining marks that have no precomposed form, as the definition deletes non-letters', () => {
    // q + U+0307 (combining dot above) has no precomposed character: the mark is deleted, q stays
    expect(normalizeForSimilarity('q\u0307x')).toBe('qx');
  });

  it('counts an astral character as one code point, not two UTF-16 units', () => {
    // U+1D400 MATHEMATICAL BOLD CAPITAL A is a letter outside the BMP
    const score = markdownSimilarity('𝐀bc', 'Abc');
    expect(score.edits).toBe(1);
    expect(score.length).toBe(3);
    expect(score.ned).toBeCloseTo(1 / 3, 12);
    // fast-levenshtein alone would count the surrogate pair as two edits
    expect(levenshtein.get('𝐀bc', 'Abc')).toBe(2);
  });

  it('distinguishes different astral characters and equates equal ones (raw emoji)', () => {
    expect(markdownSimilarity('a😀b', 'a😁b').raw.edits).toBe(1);
    expect(markdownSimilarity('a😀b', 'a😀b').raw.edits).toBe(0);
    expect(markdownSimilarity('😀😀', '😀').raw).toMatchObject({ edits: 1, length: 2 });
  });

  it('keeps the astral mapping from colliding with private-use characters already in the text', () => {
    const pua = String.fromCharCode(0xe000);
    expect(levenshteinCodePoints(`${pua}😀`, `😀${pua}`).distance).toBe(2);
    expect(levenshteinCodePoints(`${pua}`, '😀').distance).toBe(1);
  });

  it('treats a lone surrogate as one code point of its own', () => {
    expect(levenshteinCodePoints('a\ud800b', 'ab')).toEqual({ distance: 1, lengthA: 3, lengthB: 2 });
    expect(countCodePoints('a\ud800b😀')).toBe(4);
  });

  it('rejects a score outside [0, 1] at the boundary with SCORE_INVALID naming the metric', () => {
    expect(() => checkUnit('markdown similarity', 1.5)).toThrowError(/markdown similarity/);
    try {
      checkUnit('TEDS', Number.NaN);
    } catch (error) {
      expect(error).toBeInstanceOf(DocbenchError);
      expect((error as DocbenchError).code).toBe('SCORE_INVALID');
    }
    expect.assertions(3);
  });
});

describe('markdownSimilarity: properties', () => {
  // Letters, digits, punctuation, combining marks, an astral letter and an emoji: the cases that matter.
  const alphabet = ['a', 'b', 'A', '1', '_', ' ', '*', '|', '#', 'é', 'e\u0301', '\u0301', '𝐀', '😀', 'ß', '日'];
  const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }).map((parts) => parts.join(''));

  it('stays within [0, 1], normalised and raw', () => {
    fc.assert(
      fc.property(text, text, (p, t) => {
        const score = markdownSimilarity(p, t);
        for (const value of [score.similarity, score.ned, score.raw.similarity, score.raw.ned]) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('is symmetric', () => {
    fc.assert(
      fc.property(text, text, (p, t) => {
        const a = markdownSimilarity(p, t);
        const b = markdownSimilarity(t, p);
        expect(a.similarity).toBe(b.similarity);
        expect(a.raw.similarity).toBe(b.raw.similarity);
      }),
    );
  });

  it('is 1 exactly when the texts are equal after normalisation', () => {
    fc.assert(
      fc.property(text, text, (p, t) => {
        const equal = normalizeForSimilarity(p) === normalizeForSimilarity(t);
        expect(markdownSimilarity(p, t).similarity === 1).toBe(equal);
      }),
    );
  });

  it('counts edits exactly as a code-point Levenshtein distance', () => {
    fc.assert(
      fc.property(text, text, (p, t) => {
        const { distance, lengthA, lengthB } = levenshteinCodePoints(p, t);
        expect(distance).toBe(referenceDistance(p, t));
        expect(lengthA).toBe(Array.from(p).length);
        expect(lengthB).toBe(Array.from(t).length);
      }),
    );
  });

  it('agrees with the reference on texts longer than one 32-bit block, with astral characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { minLength: 30, maxLength: 120 }),
        fc.array(fc.constantFrom(...alphabet), { minLength: 30, maxLength: 120 }),
        (x, y) => {
          const p = x.join('');
          const t = y.join('');
          expect(levenshteinCodePoints(p, t).distance).toBe(referenceDistance(p, t));
        },
      ),
      { numRuns: 50 },
    );
  });
});
