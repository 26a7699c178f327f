import { describe, expect, it } from 'vitest';
import { aggregateWords, scoreWords, tokenizeWords } from '../../src/score/markdown/index.js';

describe('tokenizeWords', () => {
  it('splits on anything that is not a letter, mark or digit and lowercases', () => {
    expect(tokenizeWords('**Total:** $12.50 — snake_case Ünïcode')).toEqual([
      'total',
      '12',
      '50',
      'snake',
      'case',
      'ünïcode',
    ]);
  });

  it('keeps combining marks inside a word (Devanagari vowel signs have no precomposed form)', () => {
    expect(tokenizeWords('हिन्दी भाषा')).toEqual(['हिन्दी', 'भाषा']);
  });

  it('composes after lowercasing so decomposed and precomposed accents are one word', () => {
    expect(tokenizeWords('CAFE\u0301 café')).toEqual(['café', 'café']);
  });
});

describe('scoreWords', () => {
  it('computes precision and recall on bags of words', () => {
    // truth: the(2) cat sat; prediction: the cat cat dog
    const score = scoreWords('the cat cat dog', 'The cat sat, the end');
    expect(score).toMatchObject({ matched: 2, predictedWords: 4, truthWords: 5 });
    expect(score.precision).toBe(0.5);
    expect(score.recall).toBe(0.4);
    expect(score.missingText).toBeCloseTo(0.6, 12);
    expect(score.f1).toBeCloseTo((2 * 0.5 * 0.4) / 0.9, 12);
  });

  it('ignores word order', () => {
    expect(scoreWords('c b a', 'a b c').recall).toBe(1);
  });

  it('scores an empty prediction 0 and a failed call (null) the same', () => {
    expect(scoreWords('', 'a b')).toMatchObject({ precision: 0, recall: 0, f1: 0, missingText: 1 });
    expect(scoreWords(null, 'a b')).toMatchObject({ precision: 0, recall: 0, missingText: 1 });
  });

  it('scores words invented against an empty truth with precision 0', () => {
    expect(scoreWords('a b', '')).toMatchObject({ precision: 0, recall: 0, bothEmpty: false });
  });

  it('scores both sides empty 1 and flags it', () => {
    expect(scoreWords('---', '')).toMatchObject({ precision: 1, recall: 1, f1: 1, missingText: 0, bothEmpty: true });
  });

  it('accepts pages and never joins words across a page break', () => {
    expect(scoreWords(['ab', 'cd'], 'ab cd').recall).toBe(1);
    expect(scoreWords(['ab', 'cd'], 'abcd').recall).toBe(0);
  });
});

describe('aggregateWords', () => {
  it('sums counts over documents (micro)', () => {
    const aggregate = aggregateWords([scoreWords('a b', 'a b'), scoreWords('', 'c d e f')]);
    expect(aggregate).toMatchObject({ matched: 2, predictedWords: 2, truthWords: 6, documents: 2 });
    expect(aggregate.precision).toBe(1);
    expect(aggregate.recall).toBeCloseTo(2 / 6, 12);
  });

  it('returns null scores without documents', () => {
    expect(aggregateWords([])).toMatchObject({ precision: null, recall: null, documents: 0 });
  });
});
