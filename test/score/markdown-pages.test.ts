import { describe, expect, it } from 'vitest';
import { aggregateMarkdown, scoreMarkdownPages } from '../../src/score/markdown/index.js';

describe('scoreMarkdownPages', () => {
  it('pairs pages by index and computes the document micro score from summed edits and lengths', () => {
    // page 1: "kitten"/"sitting" 3 edits over 7; page 2: identical "abcd" 0 over 4
    const score = scoreMarkdownPages(['kitten', 'abcd'], ['sitting', 'abcd']);
    expect(score.pages.map((p) => p.status)).toEqual(['scored', 'scored']);
    expect(score.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(score.edits).toBe(3);
    expect(score.length).toBe(11);
    expect(score.similarity).toBeCloseTo(1 - 3 / 11, 12);
    expect(score.macro).toBeCloseTo((4 / 7 + 1) / 2, 12);
  });

  it('scores a missing predicted page as empty output: similarity 0, edits = truth length', () => {
    const score = scoreMarkdownPages(['abc'], ['abc', 'defgh']);
    expect(score.pages[1]).toMatchObject({ status: 'missing', similarity: 0, edits: 5, length: 5 });
    expect(score.missingPages).toBe(1);
    expect(score.similarity).toBeCloseTo(1 - 5 / 8, 12);
  });

  it('never rewards a missing page, even when the truth page is blank', () => {
    const score = scoreMarkdownPages(['abc'], ['abc', '']);
    expect(score.pages[1]).toMatchObject({ status: 'missing', similarity: 0, bothEmpty: false, edits: 0, length: 0 });
    expect(score.macro).toBe(0.5);
    expect(score.similarity).toBe(1); // nothing to edit: the micro score is unaffected
  });

  it('counts extra predicted pages against the prediction: edits = predicted length', () => {
    const score = scoreMarkdownPages(['abc', 'xyz!'], ['abc']);
    expect(score.pages[1]).toMatchObject({ status: 'extra', similarity: 0, edits: 3, length: 3 });
    expect(score.extraPages).toBe(1);
    expect(score.similarity).toBe(0.5);
  });

  it('scores a failed call (null) as 0 on every page and flags the document', () => {
    const score = scoreMarkdownPages(null, ['abc', 'de']);
    expect(score.failed).toBe(true);
    expect(score.similarity).toBe(0);
    expect(score.macro).toBe(0);
    expect(score.raw.similarity).toBe(0);
    expect(score.pages.every((p) => p.status === 'missing')).toBe(true);
    expect(score.edits).toBe(5);
  });

  it('scores a failed call 0 even when the truth is blank', () => {
    expect(scoreMarkdownPages(null, ['']).similarity).toBe(0);
  });

  it('scores pages empty on both sides 1, counts them and keeps them out of the macro mean', () => {
    const score = scoreMarkdownPages(['---', 'kitten'], ['', 'sitting']);
    expect(score.pages[0]).toMatchObject({ bothEmpty: true, similarity: 1 });
    expect(score.bothEmptyPages).toBe(1);
    expect(score.macro).toBeCloseTo(4 / 7, 12);
    // the raw variant sees "---" against "" as an extra text
    expect(score.raw.bothEmptyPages).toBe(0);
  });

  it('scores a document blank on both sides 1', () => {
    expect(scoreMarkdownPages([''], ['']).similarity).toBe(1);
    expect(scoreMarkdownPages([], []).similarity).toBe(1);
  });

  it('computes the raw document score on the raw texts', () => {
    const score = scoreMarkdownPages(['**Invoice** #123'], ['Invoice 123']);
    expect(score.similarity).toBe(1);
    expect(score.raw.similarity).toBeCloseTo(1 - 5 / 16, 12);
  });
});

describe('aggregateMarkdown', () => {
  it('computes micro over all pages of all documents and macro as the mean over pages', () => {
    const a = scoreMarkdownPages(['kitten'], ['sitting']); // 3 / 7
    const b = scoreMarkdownPages(['abcd', 'ab'], ['abcd', 'abcd']); // 0 / 4 and 2 / 4
    const aggregate = aggregateMarkdown([a, b]);
    expect(aggregate.micro).toBeCloseTo(1 - 5 / 15, 12);
    expect(aggregate.macro).toBeCloseTo((4 / 7 + 1 + 0.5) / 3, 12);
    expect(aggregate.documentMean).toBeCloseTo((4 / 7 + (1 - 2 / 8)) / 2, 12);
    expect(aggregate).toMatchObject({ documents: 2, pages: 3, edits: 5, length: 15, failedDocuments: 0 });
  });

  it('keeps failed documents in with similarity 0 and counts them', () => {
    const ok = scoreMarkdownPages(['abcd'], ['abcd']);
    const failed = scoreMarkdownPages(null, ['abcd']);
    const aggregate = aggregateMarkdown([ok, failed]);
    expect(aggregate.micro).toBe(0.5);
    expect(aggregate.macro).toBe(0.5);
    expect(aggregate.failedDocuments).toBe(1);
    expect(aggregate.missingPages).toBe(1);
  });

  it('reports both-empty pages separately and leaves them out of macro', () => {
    const aggregate = aggregateMarkdown([scoreMarkdownPages(['', 'ab'], ['', 'ab'])]);
    expect(aggregate.bothEmptyPages).toBe(1);
    expect(aggregate.macro).toBe(1);
    expect(aggregate.pages).toBe(2);
  });

  it('aggregates the raw variant from raw edits', () => {
    const aggregate = aggregateMarkdown([scoreMarkdownPages(['**a**'], ['a'])]);
    expect(aggregate.micro).toBe(1);
    expect(aggregate.raw.micro).toBeCloseTo(1 - 4 / 5, 12);
  });

  it('returns null scores for no documents', () => {
    expect(aggregateMarkdown([])).toMatchObject({ micro: null, macro: null, documentMean: null, documents: 0 });
  });
});
