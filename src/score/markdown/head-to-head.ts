/**
 * The service against the incumbent on the same documents (docs/metrics/markdown.md): per-document
 * Δ = similarity(service) − similarity(incumbent), with wins, losses and ties (|Δ| within the tolerance).
 * Where no truth exists, {@link scoreMarkdownDrift} measures how far the two outputs are apart: change, not
 * accuracy. The paired bootstrap interval on Δ lives with the statistics (src/score/stats).
 */
import { DocbenchError } from '../../errors.js';
import { classifyDelta, DEFAULT_TIE_TOLERANCE, type PairedOutcome } from '../shared/paired-outcome.js';
import { scoreMarkdownPages, type MarkdownDocumentScore } from './pages.js';

/** Options of {@link headToHead}. */
export interface HeadToHeadOptions {
  /** |Δ| at or below this is a tie. @default 0.005 */
  tieTolerance?: number;
}

/** Per-document outcome of {@link headToHead}. */
export type HeadToHeadOutcome = PairedOutcome;

/** {@link headToHead}. A win is a document where the service scored higher than the incumbent. */
export interface HeadToHeadResult {
  /** Per document, in input order: service − incumbent. Positive favours the service. */
  deltas: number[];
  outcomes: HeadToHeadOutcome[];
  /** Mean Δ over documents; `null` with no document. */
  meanDelta: number | null;
  wins: number;
  losses: number;
  ties: number;
  tieTolerance: number;
}

/**
 * Compares per-document similarities of the service and the incumbent, paired by position (the caller pairs
 * by document id). A failed call must come in as similarity 0, not be left out.
 */
export function headToHead(
  serviceSimilarities: readonly number[],
  incumbentSimilarities: readonly number[],
  options: HeadToHeadOptions = {},
): HeadToHeadResult {
  const tieTolerance = options.tieTolerance ?? DEFAULT_TIE_TOLERANCE;
  if (!(tieTolerance >= 0) || !Number.isFinite(tieTolerance)) {
    throw new DocbenchError(
      'INPUT_INVALID',
      `head-to-head: tieTolerance ${String(tieTolerance)} is not a finite number ≥ 0`,
      {
        hint: 'Pass a tolerance such as 0.005.',
      },
    );
  }
  if (serviceSimilarities.length !== incumbentSimilarities.length) {
    throw new DocbenchError(
      'INPUT_INVALID',
      `head-to-head: ${serviceSimilarities.length} service scores but ${incumbentSimilarities.length} incumbent scores`,
      { hint: 'Pair the two systems by document id and score a failed call as 0 rather than dropping it.' },
    );
  }
  const deltas: number[] = [];
  const outcomes: HeadToHeadOutcome[] = [];
  serviceSimilarities.forEach((service, index) => {
    const incumbent = incumbentSimilarities[index]!;
    for (const [who, value] of [
      ['service', service],
      ['incumbent', incumbent],
    ] as const) {
      if (!Number.isFinite(value) || value < 0 || value > 1) {
        throw new DocbenchError(
          'INPUT_INVALID',
          `head-to-head: ${who} similarity ${String(value)} of document #${index} is outside [0, 1]`,
          {
            hint: 'Pass similarities as computed by markdownSimilarity / scoreMarkdownPages.',
          },
        );
      }
    }
    const delta = service - incumbent;
    deltas.push(delta);
    outcomes.push(classifyDelta(delta, tieTolerance));
  });
  return {
    deltas,
    outcomes,
    meanDelta: deltas.length === 0 ? null : deltas.reduce((s, d) => s + d, 0) / deltas.length,
    wins: outcomes.filter((o) => o === 'win').length,
    losses: outcomes.filter((o) => o === 'loss').length,
    ties: outcomes.filter((o) => o === 'tie').length,
    tieTolerance,
  };
}

/**
 * Drift: the similarity between the service's and the incumbent's pages of one document where no truth
 * exists. The incumbent takes the truth's seat only for pairing pages; the similarity itself is symmetric.
 * `null` service pages (a failed call) give drift 0, as any failure does.
 */
export function scoreMarkdownDrift(
  servicePages: readonly string[] | null,
  incumbentPages: readonly string[],
): MarkdownDocumentScore {
  return scoreMarkdownPages(servicePages, incumbentPages);
}
