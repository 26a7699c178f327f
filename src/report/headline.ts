/** The headline figures and the sentences that go with them, shared by the HTML, summary.md and the terminal. */
import type { ConfidenceBlock, RunSummary, SystemComparisonBlock, SystemSummary } from '../run-dir/index.js';
import type { Mode } from '../types.js';
import { toUnitConfidence } from './charts/calibration-charts.js';
import { formatDecimal, formatMs, formatPercent, formatPoints } from '../render/index.js';
import { buildBlocksHeadline } from './blocks-view.js';
import type { HeadlineView, MarkdownHeadline, ModeHeadline, Tone } from './view-types.js';

/** The summary.latency_ms key of one extract mode. */
export function extractKey(mode: Mode): string {
  return `extract:${mode}`;
}

/** What the verdict of one comparison reads: an entry of summary.json's `comparisons`. */
export type ComparisonFacts = Pick<
  SystemComparisonBlock,
  'delta' | 'ci95' | 'significant' | 'wins' | 'losses' | 'p_holm' | 'family' | 'better'
>;

/** Whether Δ is the system doing better: a higher figure, or a lower one for an edit distance. */
export function deltaIsBetter(c: Pick<SystemComparisonBlock, 'delta' | 'better'>): boolean {
  return c.better === 'lower' ? c.delta < 0 : c.delta > 0;
}

/**
 * Why a comparison is or is not significant, in words. `significant` is the evaluation's (the decision p ≤ α,
 * docs/metrics/comparison.md "Decision rule", as summary.json's `decision` records it); this only says which
 * condition decided: too few documents differ for any p to reach α (the p floor), Holm among the secondary
 * metrics, or a p above α. `short` is for a table cell that shows the interval beside it.
 */
export function significanceReason(
  c: ComparisonFacts,
  decision: RunSummary['decision'],
  form: 'sentence' | 'short' = 'sentence',
): string {
  const differing = c.wins + c.losses;
  if (c.significant) return 'significant';
  if (decision && differing < decision.fewest_significant) {
    return form === 'short'
      ? `not significant: too few documents differ (${differing})`
      : `not significant: ${differing} document${differing === 1 ? '' : 's'} differ${differing === 1 ? 's' : ''}, too few for any test at α = ${decision.alpha}`;
  }
  if (c.ci95[0] > 0 || c.ci95[1] < 0) {
    if (c.p_holm === null) return 'not significant';
    return c.family === 'secondary'
      ? 'not significant after Holm among the secondary metrics'
      : `not significant (p ${formatDecimal(c.p_holm)} > α${decision ? ` = ${decision.alpha}` : ''})`;
  }
  return form === 'short'
    ? 'not significant'
    : `not significant (the 95% interval ${formatPoints(c.ci95[0])} to ${formatPoints(c.ci95[1])} includes zero)`;
}

/** Δ in words with the reason for its significance, for the head-to-head of a system and its reference. */
export function describeComparison(
  c: ComparisonFacts,
  decision: RunSummary['decision'],
  subject: string,
  other: string,
): { verdict: string; significant: boolean; tone: Tone } {
  const points = (Math.abs(c.delta) * 100).toFixed(1);
  const direction =
    Number(points) === 0
      ? `${subject} and ${other} are level (Δ ${points} points)`
      : `${subject} is ${deltaIsBetter(c) ? 'better' : 'worse'} by ${points} points`;
  const tone: Tone = !c.significant ? 'neutral' : deltaIsBetter(c) ? 'good' : 'bad';
  return { verdict: `${direction}; ${significanceReason(c, decision)}`, significant: c.significant, tone };
}

/** "accepting documents with confidence ≥ 87 gives 96% field F1 on 71% of documents". */
export function describeAutoAccept(block: ConfidenceBlock): string {
  const threshold = block.auto_accept_threshold;
  if (threshold === null)
    return `no confidence threshold reaches the target of ${formatPercent(block.auto_accept_target, 0)} field F1: every document needs review`;
  const point = block.risk_coverage.find((p) => p.threshold === threshold);
  const accuracy = point ? formatPercent(point.accuracy, 0) : `at least ${formatPercent(block.auto_accept_target, 0)}`;
  const share = block.auto_accept_share ?? point?.coverage ?? null;
  return `accepting documents with confidence ≥ ${formatThreshold(threshold)} gives ${accuracy} field F1 on ${formatPercent(share, 0)} of documents (target ${formatPercent(block.auto_accept_target, 0)})`;
}

function formatThreshold(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function buildModeHeadline(summary: SystemSummary, mode: Mode): ModeHeadline {
  const extraction = summary.extraction[mode];
  const latency = summary.latency_ms[extractKey(mode)];
  const confidence = summary.confidence[mode];
  const confidenceMean = toUnitConfidence(confidence?.mean);
  return {
    mode,
    f1: extraction?.f1 ?? null,
    strict_f1: extraction?.strict_f1 ?? null,
    precision: extraction?.precision ?? null,
    recall: extraction?.recall ?? null,
    macro_f1: extraction?.macro_f1 ?? null,
    exact_match_rate: extraction?.exact_match_rate ?? null,
    parse_failures: extraction?.parse_failures ?? 0,
    documents: extraction?.documents ?? 0,
    failed: extraction?.failed ?? 0,
    p50_ms: latency?.p50 ?? null,
    p95_ms: latency?.p95 ?? null,
    latency_failed: latency?.failed ?? 0,
    confidence_mean: confidenceMean,
    ece: confidence?.ece ?? null,
    text: {
      f1: formatPercent(extraction?.f1),
      strict_f1: formatPercent(extraction?.strict_f1),
      precision: formatPercent(extraction?.precision),
      recall: formatPercent(extraction?.recall),
      macro_f1: formatPercent(extraction?.macro_f1),
      exact_match_rate: formatPercent(extraction?.exact_match_rate),
      p50: formatMs(latency?.p50),
      p95: formatMs(latency?.p95),
      confidence_mean: formatPercent(confidenceMean),
      ece: formatDecimal(confidence?.ece),
    },
  };
}

function buildMarkdownHeadline(summary: RunSummary, name: string): MarkdownHeadline | null {
  const system = summary.systems[name];
  const markdown = system?.markdown;
  if (!system || (!markdown && !system.markdown_drift)) return null;
  const reference = summary.reference && summary.reference !== name ? summary.reference : null;
  const h2h = summary.comparisons.find((c) => c.system === name && c.metric === 'markdown.similarity');
  const comparison = h2h ? describeComparison(h2h, summary.decision, name, h2h.reference) : null;
  const baseline = reference ? (summary.systems[reference]?.markdown?.similarity ?? null) : null;
  const verdict =
    comparison?.verdict ??
    (baseline === null ? 'no reference markdown to compare with' : 'no paired comparison available');
  return {
    system: name,
    reference,
    service: markdown?.similarity ?? null,
    baseline,
    delta: h2h?.delta ?? null,
    ci95: h2h?.ci95 ?? null,
    significant: comparison?.significant ?? null,
    verdict,
    tone: comparison?.tone ?? 'neutral',
    wins: h2h?.wins ?? null,
    losses: h2h?.losses ?? null,
    ties: h2h?.ties ?? null,
    documents: markdown?.documents ?? 0,
    text: {
      service: formatPercent(markdown?.similarity),
      baseline: formatPercent(baseline),
      delta: formatPoints(h2h?.delta),
      ci95: h2h ? `${formatPoints(h2h.ci95[0])} to ${formatPoints(h2h.ci95[1])}` : '—',
      raw_similarity: formatPercent(markdown?.raw_similarity),
      teds: formatPercent(markdown?.teds),
      word_recall: formatPercent(markdown?.word_recall),
      wins_losses_ties: h2h ? `${h2h.wins} / ${h2h.losses} / ${h2h.ties}` : '—',
    },
    drift: system.markdown_drift
      ? { ...system.markdown_drift, text: formatPercent(system.markdown_drift.similarity) }
      : null,
  };
}

/** The headline cards: the figures of one system (the run's primary system by default). */
export function buildHeadline(summary: RunSummary, modes: readonly Mode[], name = summary.primary): HeadlineView {
  const system = summary.systems[name];
  const regions = system?.regions;
  return {
    system: name,
    modes: system ? modes.map((mode) => buildModeHeadline(system, mode)) : [],
    markdown: buildMarkdownHeadline(summary, name),
    blocks: buildBlocksHeadline(summary, name),
    regions: regions
      ? [
          { label: 'Region F1 @ IoU 0.5', value: formatPercent(regions.at50.f1) },
          { label: 'Region F1 @ IoU 0.75', value: formatPercent(regions.at75.f1) },
          { label: 'Mean IoU', value: formatDecimal(regions.mean_iou) },
          { label: 'Character accuracy', value: formatPercent(regions.char_accuracy) },
          // Absent in runs scored before docbench computed it.
          ...(regions.reading_order === undefined
            ? []
            : [{ label: 'Reading order (ARD, higher is better)', value: formatDecimal(regions.reading_order) }]),
        ]
      : null,
  };
}
