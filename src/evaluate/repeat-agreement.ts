/**
 * Whether a system's repetitions agree (`--repeat N`, docs/summary-json.md `repeat.agreement`): per mode, the
 * documents where some field's predicted value differs between repetitions, the exact-match rate of the first
 * repetition beside that of all of them (pass^N) and of most of them (majority), and the fields that differ
 * most often; for markdown, the documents whose texts differ and the spread of their similarity. Aggregates
 * what scoring kept per document (src/evaluate/score-document.ts); computes no score of its own.
 */
import type { SystemSummary } from '../run-dir/index.js';
import type { Mode } from '../types.js';
import type { SystemDocumentScores } from './kept-scores.js';

type Agreement = NonNullable<NonNullable<SystemSummary['repeat']>['agreement']>;

/** Paths listed under `flakiest_fields`. */
const FLAKIEST_LISTED = 10;

export function repeatAgreement(
  documents: readonly SystemDocumentScores[],
  modes: readonly Mode[],
): Agreement | undefined {
  const repeated = documents.filter(
    (d) => d.repeats.similarity.length > 1 || Object.keys(d.repeats.extraction).length > 0,
  );
  if (repeated.length === 0) return undefined;
  const extraction: Agreement['extraction'] = {};
  for (const mode of modes) {
    const block = modeAgreement(repeated.flatMap((d) => d.repeats.extraction[mode] ?? []));
    if (block) extraction[mode] = block;
  }
  const flaky = repeated.filter(
    (d) =>
      d.repeats.markdownDiffers === true ||
      Object.values(d.repeats.extraction).some((entry) => entry.flakyFields.length > 0),
  ).length;
  const markdown = markdownAgreement(repeated);
  return {
    documents: repeated.length,
    flaky_documents: flaky,
    flaky_share: flaky / repeated.length,
    extraction,
    ...(markdown ? { markdown } : {}),
  };
}

function modeAgreement(
  entries: readonly { exact: boolean[]; flakyFields: string[] }[],
): Agreement['extraction'][Mode] | undefined {
  if (entries.length === 0) return undefined;
  const rate = (test: (exact: boolean[]) => boolean) => entries.filter((e) => test(e.exact)).length / entries.length;
  const byPath = new Map<string, number>();
  for (const entry of entries) for (const path of entry.flakyFields) byPath.set(path, (byPath.get(path) ?? 0) + 1);
  return {
    documents: entries.length,
    flaky_documents: entries.filter((e) => e.flakyFields.length > 0).length,
    exact_first: rate((exact) => exact[0] === true),
    exact_all: rate((exact) => exact.every(Boolean)),
    exact_majority: rate((exact) => exact.filter(Boolean).length * 2 > exact.length),
    flakiest_fields: [...byPath.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, FLAKIEST_LISTED)
      .map(([path, count]) => ({ path, documents: count })),
  };
}

function markdownAgreement(documents: readonly SystemDocumentScores[]): Agreement['markdown'] {
  const repeated = documents.filter((d) => d.repeats.similarity.length > 1);
  if (repeated.length === 0) return undefined;
  const spreads = repeated.map((d) => Math.max(...d.repeats.similarity) - Math.min(...d.repeats.similarity));
  return {
    documents: repeated.length,
    flaky_documents: repeated.filter((d) => d.repeats.markdownDiffers === true).length,
    similarity_spread_mean: spreads.reduce((sum, s) => sum + s, 0) / spreads.length,
    similarity_spread_max: Math.max(...spreads),
  };
}
