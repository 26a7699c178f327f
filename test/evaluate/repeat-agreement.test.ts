/**
 * The agreement of repetitions (docs/summary-json.md, `repeat.agreement`) on hand-made documents whose
 * expected figures are counted here by hand: exact-match rates of the first repetition, of all (pass^N) and of
 * most (majority); the flaky documents and fields; markdown's spread.
 */
import { describe, expect, it } from 'vitest';
import { repeatAgreement } from '../../src/evaluate/repeat-agreement.js';
import type { SystemDocumentScores } from '../../src/evaluate/kept-scores.js';

function doc(repeats: Partial<SystemDocumentScores['repeats']>): SystemDocumentScores {
  return { repeats: { f1: {}, similarity: [], extraction: {}, ...repeats } } as unknown as SystemDocumentScores;
}

describe('repeatAgreement', () => {
  it('sets pass^N and majority beside the first repetition, and counts flaky documents and fields', () => {
    const documents = [
      // Right, then wrong twice: first yes, all no, majority no; `total` differs.
      doc({ extraction: { slow: { exact: [true, false, false], flakyFields: ['total'] } } }),
      // Wrong, then right twice: first no, all no, majority yes; `total` and `name` differ.
      doc({ extraction: { slow: { exact: [false, true, true], flakyFields: ['name', 'total'] } } }),
      // Right every time, the same answers.
      doc({ extraction: { slow: { exact: [true, true, true], flakyFields: [] } } }),
      // Markdown only: the texts differ.
      doc({ similarity: [0.9, 0.8, 0.85], markdownDiffers: true }),
      // Scored once: not counted.
      doc({}),
    ];
    const agreement = repeatAgreement(documents, ['slow'])!;
    expect(agreement).toMatchObject({ documents: 4, flaky_documents: 3, flaky_share: 0.75 });
    expect(agreement.extraction.slow).toEqual({
      documents: 3,
      flaky_documents: 2,
      exact_first: 2 / 3,
      exact_all: 1 / 3,
      exact_majority: 2 / 3,
      flakiest_fields: [
        { path: 'total', documents: 2 },
        { path: 'name', documents: 1 },
      ],
    });
    expect(agreement.markdown!.documents).toBe(1);
    expect(agreement.markdown!.flaky_documents).toBe(1);
    expect(agreement.markdown!.similarity_spread_mean).toBeCloseTo(0.1, 12);
    expect(agreement.markdown!.similarity_spread_max).toBeCloseTo(0.1, 12);
  });

  it('is absent when no document was repeated', () => {
    expect(repeatAgreement([doc({})], ['slow'])).toBeUndefined();
  });
});
