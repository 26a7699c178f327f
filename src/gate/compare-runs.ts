/**
 * Compares a candidate run with a baseline run on the documents both scored (docs/metrics/comparison.md): per headline
 * metric Δ with its paired-bootstrap 95% interval and p-values, per field path the significant changes,
 * documents that flipped, latency changes, and the verdict. Pure: both runs come in loaded.
 *
 * The verdict (docs/metrics/comparison.md "Decision rule"): a headline metric is a regression when it drops by more
 * than `tolerance` AND the drop is significant at `alpha`, two-sided — the primary metric on its own p, the
 * other headline metrics on their p Holm-adjusted among themselves. Field paths are a Holm family of their
 * own; they decide the verdict only with `fail_on_fields`.
 */
import { compareProvenance } from './diff-provenance.js';
import { type BlockDiff, type BlockPairedTest, diffBlocks } from './block-diff.js';
import { documentPassRate, macroOver } from '../checks/index.js';
import {
  DEFAULT_TIE_TOLERANCE,
  BLOCK_EDIT_FIGURES,
  TABLE_TEDS_FIGURES,
  adjustHeadlineFamilies,
  bootstrapP,
  choosePrimaryMetric,
  compareSystemsMany,
  createMicroF1Delta,
  fewestSignificantDocuments,
  holmAdjust,
  pairByDocumentId,
  quantileSorted,
  smallestPossibleP,
  type ComparisonRequest,
  type CountsLike,
  type PairedValues,
  type PageSum,
  type SystemComparison,
  computeMicroSimilarity,
  createMicroSimilarityDelta,
  microF1,
  createPageMeanDelta,
  sumCounts,
  toCounts,
} from '../score/index.js';
import { DocbenchError } from '../errors.js';
import { describeServiceUrl } from '../render/index.js';
import { MODES, type Mode } from '../types.js';
import {
  DIFF_SCHEMA_VERSION,
  type DiffResult,
  type DiffRunInfo,
  type FieldDiff,
  type FlipDiff,
  type LatencyDiff,
  type MetricDiff,
} from './diff-types.js';
import type { DiffDocument, DiffRun } from './read-diff-run.js';
import type { DiffSettings } from './thresholds.js';

/** Float slack so that a drop of exactly the tolerance is not "beyond" it. */
const SLACK = 1e-12;
/** Below this many paired documents, "no regression" comes with the smallest drop that could have been found. */
const FEW_DOCUMENTS = 100;

export interface CompareRunsOptions {
  settings: DiffSettings;
  /** The two runs' datasets differ and the user allowed it (`--allow-dataset-change`). */
  datasetChanged?: boolean;
}

/** A document both runs scored, by id. */
type DocumentPair = { id: string; base: DiffDocument; cand: DiffDocument };
type PendingMetric = { metric: string; build: () => RawMetric };
type PendingField = () => Omit<FieldDiff, Decided>;

/** The comparison of `candidate` against `baseline`. */
export function compareRuns(baseline: DiffRun, candidate: DiffRun, options: CompareRunsOptions): DiffResult {
  const { settings } = options;
  const pairing = pairByDocumentId(indexMap(baseline.documents), indexMap(candidate.documents));
  const pairs: DocumentPair[] = pairing.ids.map((id) => ({
    id,
    base: baseline.documents.get(id)!,
    cand: candidate.documents.get(id)!,
  }));
  const warnings = pairingWarnings(pairing, baseline, candidate, Boolean(options.datasetChanged));
  // Every comparison is collected first and bootstrapped in one pass (compareSystemsMany): the same numbers as
  // one compareSystems call each, but the resamples of each document count are drawn once, not per metric.
  const batch = createComparisonBatch();
  const modes = MODES.filter(
    (mode) =>
      baseline.summary.systems[baseline.system]?.extraction[mode] &&
      candidate.summary.systems[candidate.system]?.extraction[mode],
  );
  const rawHeadline = collectHeadline(pairs, modes, batch);
  const rawFields = collectFields(pairs, modes, batch);
  const latencyRows = collectLatency(pairs, batch);
  const rawBlocks = collectBlocks(pairs, batch);
  // Chosen before the bootstrap runs: a primary metric the runs lack is an input error, reported at once.
  const primary = choosePrimaryMetric(
    [...rawHeadline.map((m) => m.metric), ...rawBlocks.map((b) => b.metric)],
    settings.primary,
  );
  batch.run({ seed: settings.seed, resamples: settings.resamples });
  const headline = decideHeadline(rawHeadline, primary, settings);
  const fields = decideFields(rawFields, settings);
  const blocks = diffBlocks(
    baseline.summary,
    candidate.summary,
    candidate.system,
    baseline.system,
    decideBlocks(rawBlocks, primary, settings),
  );
  const { regression, reasons } = decideVerdict(headline, fields, blocks, primary, settings);
  const power = powerOf(pairs.length, settings);

  return {
    schema_version: DIFF_SCHEMA_VERSION,
    verdict: regression ? 'regression' : 'no regression',
    reasons,
    baseline: describeRun(baseline),
    candidate: describeRun(candidate),
    settings: describeSettings(settings, primary),
    dataset_changed: Boolean(options.datasetChanged),
    provenance: compareProvenance(baseline, candidate),
    documents: { paired: pairs.length, only_in_baseline: pairing.onlyInA, only_in_candidate: pairing.onlyInB },
    status_flips: {
      to_failed: pairs.filter((p) => p.base.status === 'ok' && p.cand.status !== 'ok').map((p) => p.id),
      to_ok: pairs.filter((p) => p.base.status !== 'ok' && p.cand.status === 'ok').map((p) => p.id),
    },
    headline,
    fields,
    flips: collectFlips(pairs, modes),
    latency: latencyRows.map((row) => row()),
    ...(blocks.length > 0 ? { blocks } : {}),
    warnings,
    power,
    power_note:
      !regression && headline.length > 0 && pairs.length < FEW_DOCUMENTS ? describePower(power, settings) : null,
  };
}

/** What the comparison leaves out or cannot vouch for: documents in one run only, a changed dataset. */
function pairingWarnings(
  pairing: PairedValues,
  baseline: DiffRun,
  candidate: DiffRun,
  datasetChanged: boolean,
): string[] {
  const warnings: string[] = [];
  if (pairing.onlyInA.length > 0)
    warnings.push(
      `${pairing.onlyInA.length} documents only in the baseline run were left out: ${preview(pairing.onlyInA)}`,
    );
  if (pairing.onlyInB.length > 0)
    warnings.push(
      `${pairing.onlyInB.length} documents only in the candidate run were left out: ${preview(pairing.onlyInB)}`,
    );
  if (datasetChanged)
    warnings.push(
      `the runs used different dataset contents (${shortHash(baseline.manifest.dataset.content_hash)} vs ${shortHash(candidate.manifest.dataset.content_hash)}): documents are paired by id, but their truth may differ`,
    );
  return warnings;
}

/** The indices 0 … n − 1: every document once. */
const every = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** The pairs both runs scored in `mode`. */
function scoredIn(pairs: readonly DocumentPair[], mode: Mode): DocumentPair[] {
  return pairs.filter((p) => p.base.extraction[mode] && p.cand.extraction[mode]);
}

/** The headline metrics (higher is better for each), added to the batch in this order: extraction, markdown, regions. */
function collectHeadline(pairs: readonly DocumentPair[], modes: readonly Mode[], batch: ComparisonBatch) {
  const rawHeadline: PendingMetric[] = [];
  for (const mode of modes) rawHeadline.push(...collectExtractionHeadline(scoredIn(pairs, mode), mode, batch));
  const withMarkdown = pairs.filter((p) => p.base.similarity !== null && p.cand.similarity !== null);
  if (withMarkdown.length > 0) rawHeadline.push(collectMarkdownHeadline(withMarkdown, batch));
  const withChecks = pairs.filter((p) => p.base.checks && p.cand.checks);
  if (withChecks.length > 0) {
    const base = withChecks.map((p) => p.base.checks!);
    const cand = withChecks.map((p) => p.cand.checks!);
    const checks = batch.add({
      a: cand.map(documentPassRate),
      b: base.map(documentPassRate),
      statistic: (indices) => macroOver(cand, indices) - macroOver(base, indices),
    });
    rawHeadline.push(
      pendingMetric(
        'checks.macro_pass_rate',
        'Rule checks: macro pass rate',
        "mean of the categories' pass rates over the drawn documents",
        () => [macroOver(base, every(base.length)), macroOver(cand, every(cand.length)), checks()],
      ),
    );
  }
  const withRegions = pairs.filter((p) => p.base.regionsF1 !== null && p.cand.regionsF1 !== null);
  if (withRegions.length > 0) {
    const regions = batch.add({
      a: withRegions.map((p) => p.cand.regionsF1!),
      b: withRegions.map((p) => p.base.regionsF1!),
    });
    rawHeadline.push(
      pendingMetric(
        'regions.f1_at50',
        'Region F1 @ IoU 0.5 (mean per document)',
        'mean of per-document region F1',
        () => [regions().meanB, regions().meanA, regions()],
      ),
    );
  }
  return rawHeadline;
}

/** Field F1 and exact-match rate of one mode over the documents both runs scored in it (none when none did). */
function collectExtractionHeadline(scored: readonly DocumentPair[], mode: Mode, batch: ComparisonBatch) {
  if (scored.length === 0) return [];
  const base = scored.map((p) => p.base.extraction[mode]!);
  const cand = scored.map((p) => p.cand.extraction[mode]!);
  const f1 = batch.add({
    a: cand.map((e) => e.f1),
    b: base.map((e) => e.f1),
    statistic: createMicroF1Delta(cand, base),
  });
  const exact = batch.add({
    a: cand.map((e) => (e.exactMatch ? 1 : 0)),
    b: base.map((e) => (e.exactMatch ? 1 : 0)),
  });
  return [
    pendingMetric(
      `extraction.${mode}.f1`,
      `Field F1 (${mode}, normalised, micro)`,
      'micro F1 from summed TP/FP/FN',
      () => [microF1(base), microF1(cand), f1()],
    ),
    pendingMetric(
      `extraction.${mode}.exact_match_rate`,
      `Exact-match rate (${mode})`,
      'share of documents with no FP and no FN',
      () => [exact().meanB, exact().meanA, exact()],
    ),
  ];
}

/** Markdown similarity over the documents both runs have it for: micro when every one carries its edit counts. */
function collectMarkdownHeadline(withMarkdown: readonly DocumentPair[], batch: ComparisonBatch): PendingMetric {
  const counted = withMarkdown.every((p) => p.base.markdownCounts && p.cand.markdownCounts);
  if (counted) {
    // The report's headline figure: micro similarity, 1 − Σedits / Σlength, recomputed on every resample.
    const base = withMarkdown.map((p) => p.base.markdownCounts!);
    const cand = withMarkdown.map((p) => p.cand.markdownCounts!);
    const similarity = batch.add({
      a: withMarkdown.map((p) => p.cand.similarity!),
      b: withMarkdown.map((p) => p.base.similarity!),
      statistic: createMicroSimilarityDelta(cand, base),
    });
    return pendingMetric(
      'markdown.similarity',
      'Markdown similarity (micro)',
      '1 − Σedits / Σlength over the drawn documents',
      () => [computeMicroSimilarity(base), computeMicroSimilarity(cand), similarity()],
    );
  }
  // Runs scored before documents.jsonl carried edit counts: the mean per document is all there is.
  const similarity = batch.add({
    a: withMarkdown.map((p) => p.cand.similarity!),
    b: withMarkdown.map((p) => p.base.similarity!),
  });
  return pendingMetric(
    'markdown.similarity',
    'Markdown similarity (mean per document)',
    'mean of per-document similarity',
    () => [similarity().meanB, similarity().meanA, similarity()],
  );
}

/** Field paths: micro F1 of each path over the documents where it occurs in either run. */
function collectFields(pairs: readonly DocumentPair[], modes: readonly Mode[], batch: ComparisonBatch) {
  const rawFields: PendingField[] = [];
  for (const mode of modes) {
    const scored = scoredIn(pairs, mode);
    const paths = new Set<string>();
    for (const p of scored)
      for (const side of [p.base, p.cand]) for (const key of side.extraction[mode]!.paths.keys()) paths.add(key);
    for (const fieldPath of [...paths].sort()) rawFields.push(collectField(scored, mode, fieldPath, batch));
  }
  return rawFields;
}

function collectField(
  scored: readonly DocumentPair[],
  mode: Mode,
  fieldPath: string,
  batch: ComparisonBatch,
): PendingField {
  const base: CountsLike[] = [];
  const cand: CountsLike[] = [];
  for (const p of scored) {
    const b = p.base.extraction[mode]!.paths.get(fieldPath);
    const c = p.cand.extraction[mode]!.paths.get(fieldPath);
    if (!b && !c) continue;
    base.push(toCounts(b));
    cand.push(toCounts(c));
  }
  const comparison = batch.add({
    a: cand.map(documentF1),
    b: base.map(documentF1),
    statistic: createMicroF1Delta(cand, base),
  });
  return () => ({
    mode,
    path: fieldPath,
    documents: base.length,
    baseline: { f1: microF1(base), ...sumCounts(base) },
    candidate: { f1: microF1(cand), ...sumCounts(cand) },
    delta: comparison().delta,
    ci95: comparison().ci95,
    p_bootstrap: bootstrapP(comparison()),
  });
}

/** The headline rows, decided: the primary metric on its own p, the others Holm-adjusted among themselves. */
function decideHeadline(rawHeadline: readonly PendingMetric[], primary: string | null, settings: DiffSettings) {
  const measured = rawHeadline.map((row) => row.build());
  const families = adjustHeadlineFamilies(
    measured.map((m) => m.p_bootstrap),
    measured.findIndex((m) => m.metric === primary),
  );
  return measured.map((m, i) => ({ ...decideOne(m, families[i]!.p, settings), family: families[i]!.family }));
}

/** A block metric's paired comparison, readable once the batch has run. */
type PendingBlock = { metric: string; better: 'lower' | 'higher'; comparison: () => SystemComparison };

/**
 * The block metrics over the documents both runs have them for (docs/metrics.md "Blocks"): Δ is the
 * candidate's page average minus the baseline's (table TEDS and TEDS-S: its mean over tables), recomputed on every
 * resample; for the edit distances the per-document values are negated for wins, sign test and Wilcoxon, so a
 * win is a lower edit distance, and a higher TEDS.
 */
function collectBlocks(pairs: readonly DocumentPair[], batch: ComparisonBatch): PendingBlock[] {
  const pending = (
    metric: string,
    better: PendingBlock['better'],
    read: (document: DiffDocument) => PageSum | null | undefined,
  ): PendingBlock[] => {
    const both = pairs.filter((p) => read(p.base) && read(p.cand));
    if (both.length === 0) return [];
    const base = both.map((p) => read(p.base)!);
    const cand = both.map((p) => read(p.cand)!);
    const sign = better === 'lower' ? -1 : 1;
    const comparison = batch.add({
      a: cand.map((v) => (sign * v.sum) / v.count),
      b: base.map((v) => (sign * v.sum) / v.count),
      statistic: createPageMeanDelta(cand, base),
    });
    return [{ metric, better, comparison }];
  };
  return [
    ...BLOCK_EDIT_FIGURES.flatMap((figure) =>
      pending(`markdown.blocks.${figure}`, 'lower', (d) => d.blockEdits?.[figure]),
    ),
    ...TABLE_TEDS_FIGURES.flatMap((figure) =>
      pending(`markdown.blocks.${figure}`, 'higher', (d) => d.tableTeds?.[figure]),
    ),
  ];
}

/**
 * The block tests, decided: a block metric configured as primary on its own p, the others Holm-adjusted among
 * the block metrics (a family of their own, as field paths are). A regression is a significant rise.
 */
function decideBlocks(
  rawBlocks: readonly PendingBlock[],
  primary: string | null,
  settings: DiffSettings,
): Map<string, BlockPairedTest> {
  const measured = rawBlocks.map((b) => ({ metric: b.metric, better: b.better, c: b.comparison() }));
  const families = adjustHeadlineFamilies(
    measured.map((m) => bootstrapP(m.c)),
    measured.findIndex((m) => m.metric === primary),
  );
  return new Map(
    measured.map(({ metric, better, c }, i) => {
      const { p, family } = families[i]!;
      const significant = p <= settings.alpha;
      // Worse is a rise of an edit distance, a fall of TEDS.
      const worse = better === 'lower' ? c.delta : -c.delta;
      return [
        metric,
        {
          documents: c.n,
          delta: c.delta,
          ci95: c.ci95,
          p_bootstrap: bootstrapP(c),
          p_adjusted: p,
          family,
          significant,
          regression: significant && worse > settings.tolerance + SLACK,
          improvement: significant && worse < -settings.tolerance - SLACK,
          wins: c.wins,
          losses: c.losses,
          ties: c.ties,
        },
      ];
    }),
  );
}

/** The field rows, decided on their Holm-adjusted p: regressions first, then the largest drops. */
function decideFields(rawFields: readonly PendingField[], settings: DiffSettings) {
  const fieldRows = rawFields.map((row) => row());
  const fieldP = fieldRows.length > 0 ? holmAdjust(fieldRows.map((f) => f.p_bootstrap)) : [];
  return fieldRows
    .map((f, i) => decideOne(f, fieldP[i]!, settings))
    .sort(
      (a, b) =>
        Number(b.regression) - Number(a.regression) ||
        a.delta - b.delta ||
        a.path.localeCompare(b.path) ||
        a.mode.localeCompare(b.mode),
    );
}

/** The documents whose exact match flipped, per mode. */
function collectFlips(pairs: readonly DocumentPair[], modes: readonly Mode[]): FlipDiff[] {
  return modes.map((mode) => {
    const scored = scoredIn(pairs, mode);
    return {
      mode,
      to_wrong: scored
        .filter((p) => p.base.extraction[mode]!.exactMatch && !p.cand.extraction[mode]!.exactMatch)
        .map((p) => p.id),
      to_correct: scored
        .filter((p) => !p.base.extraction[mode]!.exactMatch && p.cand.extraction[mode]!.exactMatch)
        .map((p) => p.id),
    };
  });
}

/**
 * The verdict and its reasons: each headline regression (and field regression with fail_on_fields, a block
 * regression when that block metric is the primary one), or why none.
 */
function decideVerdict(
  headline: readonly MetricDiff[],
  fields: readonly FieldDiff[],
  blocks: readonly BlockDiff[],
  primary: string | null,
  settings: DiffSettings,
): { regression: boolean; reasons: string[] } {
  const secondaries = headline.filter((h) => h.family === 'secondary').length;
  const reasons: string[] = [];
  for (const m of headline.filter((h) => h.regression)) {
    const decidedOn =
      m.family === 'primary'
        ? `p ${formatP(m.p_adjusted)}, the primary metric, decided alone`
        : `p ${formatP(m.p_adjusted)} Holm-adjusted among the ${secondaries} secondary metrics`;
    reasons.push(
      `${m.label} dropped ${formatSigned(m.delta)} (95% interval ${formatSigned(m.ci95[0])} to ${formatSigned(m.ci95[1])}, ${decidedOn}): more than the tolerance ${settings.tolerance} and significant at α = ${settings.alpha}`,
    );
  }
  const blockRegressions = blocks.filter((b) => b.paired?.regression);
  for (const b of blockRegressions.filter((r) => r.paired!.family === 'primary')) {
    const t = b.paired!;
    reasons.push(
      `${b.label} ${b.better === 'lower' ? 'rose' : 'fell'} ${formatSigned(t.delta)} (${b.better} is better; 95% interval ${formatSigned(t.ci95[0])} to ${formatSigned(t.ci95[1])}, p ${formatP(t.p_adjusted)}, the primary metric, decided alone): more than the tolerance ${settings.tolerance} and significant at α = ${settings.alpha}`,
    );
  }
  const secondaryBlocks = blockRegressions.filter((b) => b.paired!.family !== 'primary');
  const fieldRegressions = fields.filter((f) => f.regression);
  if (settings.fail_on_fields) {
    for (const f of fieldRegressions)
      reasons.push(
        `field ${f.path} (${f.mode}) F1 dropped ${formatSigned(f.delta)} (Holm-adjusted p ${formatP(f.p_adjusted)})`,
      );
  }
  const regression = reasons.length > 0;
  if (!regression) {
    reasons.push(
      headline.length === 0
        ? 'no headline metric could be compared'
        : `no headline metric dropped by more than ${settings.tolerance} with a significant p ≤ ${settings.alpha} (the primary metric ${primary} alone, the others Holm-adjusted among themselves)${fieldRegressions.length > 0 && !settings.fail_on_fields ? ` (${fieldRegressions.length} field paths regressed; they decide the verdict only with diff.fail_on_fields)` : ''}${secondaryBlocks.length > 0 ? ` (block metrics that regressed: ${secondaryBlocks.map((b) => b.label).join(', ')}; they decide the verdict only as diff.primary)` : ''}`,
    );
  }
  return { regression, reasons };
}

/** The settings the comparison ran with, and the tests and corrections it applied, for diff.json. */
function describeSettings(settings: DiffSettings, primary: string | null): DiffResult['settings'] {
  return {
    ...settings,
    primary,
    test: "Paired bootstrap over documents (percentile 95% interval; p two-sided from Δ / bootstrap standard error, never below the sign test's 2 · 0.5^k for the k documents that differ); sign test and Wilcoxon signed-rank reported alongside",
    correction: `the primary metric (${primary ?? 'none'}) decided on its own p; the other headline metrics Holm-adjusted among themselves; field paths a Holm family of their own`,
    tie_tolerance: DEFAULT_TIE_TOLERANCE,
  };
}

/** What the primary metric's test can find on `documents` paired documents (docs/gate.md "Power"). */
function powerOf(documents: number, settings: DiffSettings): DiffResult['power'] {
  return {
    documents,
    fewest_significant: fewestSignificantDocuments(settings.alpha),
    alpha: settings.alpha,
    tolerance: settings.tolerance,
  };
}

/** "with 10 paired documents, a drop on fewer than 6 of them cannot be significant …". */
function describePower(power: DiffResult['power'], settings: DiffSettings): string {
  const k = power.fewest_significant;
  const fewer = k - 1;
  const tolerance = `and a drop must also exceed the tolerance ${settings.tolerance}`;
  if (power.documents < k)
    return `with ${power.documents} paired documents no drop can be significant at α = ${settings.alpha}: it takes at least ${k} documents that all moved the same way (the smallest p ${power.documents} documents can give is ${formatP(smallestPossibleP(power.documents))})`;
  return `with ${power.documents} paired documents, a drop on fewer than ${k} of them cannot be significant at α = ${settings.alpha} (the smallest p ${fewer} document${fewer === 1 ? '' : 's'} can give is ${formatP(smallestPossibleP(fewer))}), ${tolerance}`;
}

/** A headline metric whose figures can be read once the batch has run. */
function pendingMetric(
  name: string,
  label: string,
  aggregate: string,
  read: () => [baseline: number, candidate: number, comparison: SystemComparison],
): PendingMetric {
  return { metric: name, build: () => metric(name, label, aggregate, ...read()) };
}

/** The keys the decision adds to a measured row. */
type Decided = 'p_adjusted' | 'significant' | 'regression' | 'improvement';
type RawMetric = Omit<MetricDiff, Decided | 'family'>;

function metric(
  name: string,
  label: string,
  aggregate: string,
  baseline: number,
  candidate: number,
  c: SystemComparison,
): RawMetric {
  return {
    metric: name,
    label,
    aggregate,
    documents: c.n,
    baseline,
    candidate,
    delta: c.delta,
    ci95: c.ci95,
    p_bootstrap: bootstrapP(c),
    p_sign: c.pSign,
    p_wilcoxon: c.pWilcoxon,
    wins: c.wins,
    losses: c.losses,
    ties: c.ties,
  };
}

/** Marks a drop or gain beyond the tolerance whose decision p (`pAdjusted`, already adjusted in its family) is ≤ alpha. */
function decideOne<T extends { delta: number }>(
  row: T,
  pAdjusted: number,
  settings: DiffSettings,
): T & Pick<MetricDiff, Decided> {
  const significant = pAdjusted <= settings.alpha;
  return {
    ...row,
    p_adjusted: pAdjusted,
    significant,
    regression: significant && row.delta < -settings.tolerance - SLACK,
    improvement: significant && row.delta > settings.tolerance + SLACK,
  };
}

function collectLatency(pairs: readonly DocumentPair[], batch: ComparisonBatch): (() => LatencyDiff)[] {
  const keys = new Set<string>();
  for (const p of pairs)
    for (const key of Object.keys(p.base.latency)) if (p.cand.latency[key] !== undefined) keys.add(key);
  const out: (() => LatencyDiff)[] = [];
  for (const key of [...keys].sort()) {
    const both = pairs.filter(
      (p) => typeof p.base.latency[key] === 'number' && typeof p.cand.latency[key] === 'number',
    );
    const base = both.map((p) => p.base.latency[key]!);
    const cand = both.map((p) => p.cand.latency[key]!);
    // Higher-is-better convention of compareSystems: delta = mean(candidate − baseline) ms, "wins" = slower.
    const comparison = batch.add({ a: cand, b: base, tieTolerance: 0 });
    const p50 = (values: number[]) => percentile(values, 0.5);
    const p95 = (values: number[]) => percentile(values, 0.95);
    out.push(() => {
      const c = comparison();
      return {
        key,
        documents: both.length,
        baseline: { p50: p50(base), p95: p95(base) },
        candidate: { p50: p50(cand), p95: p95(cand) },
        delta_p50: subtract(p50(cand), p50(base)),
        delta_p95: subtract(p95(cand), p95(base)),
        mean_delta: c.delta,
        ci95: c.ci95,
        p_wilcoxon: c.pWilcoxon,
        faster: c.losses,
        slower: c.wins,
      };
    });
  }
  return out;
}

/** Comparisons collected with `add`, computed together by `run`; each `add` returns its result's getter. */
interface ComparisonBatch {
  add(request: ComparisonRequest): () => SystemComparison;
  run(options: { seed: number; resamples: number }): void;
}

function createComparisonBatch(): ComparisonBatch {
  const requests: ComparisonRequest[] = [];
  let results: SystemComparison[] | null = null;
  return {
    add(request) {
      const slot = requests.push(request) - 1;
      return () => {
        if (!results) throw new DocbenchError('INTERNAL', 'compareRuns: a comparison was read before the batch ran');
        return results[slot]!;
      };
    },
    run(options) {
      results = compareSystemsMany(requests, options);
    },
  };
}

/** R-7 percentile (the method summary.json names), over the paired documents. */
function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    q,
  );
}

function subtract(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a - b;
}

function documentF1(counts: CountsLike): number {
  return microF1([counts]);
}

function indexMap(documents: Map<string, DiffDocument>): Map<string, number> {
  return new Map([...documents.keys()].map((id, i) => [id, i]));
}

function describeRun(run: DiffRun): DiffRunInfo {
  const m = run.manifest;
  return {
    run_id: m.run_id,
    dir: run.dir,
    created_at: m.created_at,
    status: m.status,
    dataset: { name: m.dataset.name, version: m.dataset.version, content_hash: m.dataset.content_hash },
    service: describeServiceUrl(m.service.base_url),
    system: run.system,
  };
}

function preview(ids: string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, … (${ids.length - 5} more)` : ''}`;
}

function shortHash(hash: string): string {
  return hash.replace(/^sha256:/, '').slice(0, 12);
}

/** +0.0123 / −0.0123 (a difference of rates). */
export function formatSigned(value: number, digits = 4): string {
  const text = Math.abs(value).toFixed(digits);
  return `${Number(text) === 0 ? '±' : value > 0 ? '+' : '−'}${text}`;
}

/** p-values: 4 decimals, "< 0.0001" below. */
export function formatP(p: number): string {
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}
