/**
 * Sets a run's systems against each other (summary.json schema 2, docs/summary-json.md): a leaderboard per
 * headline metric ranked on the documents every system was scored on, with each system's own figure on all
 * its documents beside it; each system against the reference (paired bootstrap Δ, sign test, Wilcoxon,
 * wins/losses/ties, decided by docs/metrics/comparison.md "Decision rule"), the best system per field path, and
 * the documents where the systems disagree most. Pure; the statistics are src/score/stats's, every bootstrap
 * of the run drawn in one seeded pass (`pairedBootstrapMany`, `compareSystemsMany`).
 */
import type { Mode } from '../types.js';
import {
  countFieldPaths,
  type PathCounts,
  createMicroSimilarityDelta,
  createMicroSimilarityStatistic,
  type EditCounts,
  adjustHeadlineFamilies,
  bootstrapP,
  choosePrimaryMetric,
  compareSystemsMany,
  createMeanStatistic,
  createMicroF1Delta,
  fewestSignificantDocuments,
  holmAdjust,
  pairedBootstrapMany,
  type BootstrapRequest,
  type ComparisonRequest,
  type CountsLike,
  type DecisionFamily,
  BLOCK_EDIT_FIGURES,
  type BlockEditFigure,
  type PageSum,
  createPageMeanStatistic,
  createPageMeanDelta,
  tableTedsSum,
  TABLE_TEDS_FIGURES,
  type TableTedsFigure,
  pageSum,
  type ResampleStatistic,
  microF1,
  toCounts,
} from '../score/index.js';
import type { DocumentScores, SystemDocumentScores } from './kept-scores.js';
import {
  type CategoryCounts,
  type CheckResult,
  countCategories,
  documentPassRate,
  macroOver,
} from '../checks/index.js';
import type {
  Disagreement,
  FieldLeader,
  LeaderboardBlock,
  RunSummary,
  SystemComparisonBlock,
} from '../run-dir/index.js';

/** The level every comparison of a run is decided at: the default of `gate.diff.alpha` (docs/gate.md). */
const ALPHA = 0.05;
/** Documents listed in `disagreements`. */
const DISAGREEMENTS_LISTED = 20;
/**
 * Counts of a document on which nothing is right: micro F1 0. Against it, `createMicroF1Delta` is a system's
 * own micro F1, so one system's interval comes from the same counted statistic the comparisons use.
 */
const NOTHING_RIGHT: CountsLike = { tp: 0, fp: 0, fn: 1 };

/** A headline metric: what it reads of one system's document scores. */
export interface HeadlineMetric {
  metric: string;
  label: string;
  /**
   * The document's value (higher is better unless `better` is 'lower'), with the counts its micro aggregate
   * sums, or for a page average its pages' figures summed and counted (table TEDS: its tables'); null: not
   * scored.
   */
  read: (
    scores: SystemDocumentScores,
    checks: readonly CheckResult[] | undefined,
  ) => {
    value: number;
    counts?: CountsLike;
    edits?: EditCounts;
    categories?: CategoryCounts;
    pages?: PageSum;
  } | null;
  /** The aggregate over documents at `indices`, and the paired Δ statistic. */
  kind: 'micro-f1' | 'mean' | 'micro-similarity' | 'macro-checks' | 'page-mean';
  /** Edit distances are lower-is-better: ranked ascending, a win is a lower value (docs/metrics.md "Blocks"). */
  better?: 'lower';
}

/** The block figures compared between systems: OmniDocBench's page-averaged edit distances. */
const BLOCK_EDIT_LABELS: Record<BlockEditFigure, string> = {
  text_edit: 'block text edit distance (lower is better)',
  reading_order_edit: 'reading-order edit distance (lower is better)',
  formula_edit: 'display-formula edit distance (lower is better)',
  table_edit: 'table edit distance (lower is better)',
};

/** The table figures compared between systems: OmniDocBench's TEDS and TEDS-S, means over truth tables. */
const TABLE_TEDS_LABELS: Record<TableTedsFigure, string> = {
  table_teds: 'block table TEDS',
  table_teds_structure: 'block table TEDS (structure)',
};

export function headlineMetrics(modes: readonly Mode[]): HeadlineMetric[] {
  const metrics: HeadlineMetric[] = [];
  for (const mode of modes) {
    metrics.push({
      metric: `extraction.${mode}.f1`,
      label: `field F1 (${mode})`,
      kind: 'micro-f1',
      read: (s) =>
        s.extraction[mode] ? { value: s.extraction[mode]!.score.f1, counts: s.extraction[mode]!.score } : null,
    });
    metrics.push({
      metric: `extraction.${mode}.exact_match_rate`,
      label: `exact match (${mode})`,
      kind: 'mean',
      read: (s) => (s.extraction[mode] ? { value: s.extraction[mode]!.score.exactMatch ? 1 : 0 } : null),
    });
  }
  metrics.push({
    metric: 'markdown.similarity',
    label: 'markdown similarity',
    kind: 'micro-similarity',
    read: (s) => (s.markdown ? { value: s.markdown.score.similarity, edits: s.markdown.score } : null),
  });
  metrics.push({
    metric: 'checks.macro_pass_rate',
    label: 'rule checks (macro pass rate)',
    kind: 'macro-checks',
    read: (_s, checks) => {
      const categories = checks ? countCategories(checks) : null;
      return categories && categories.size > 0 ? { value: documentPassRate(categories), categories } : null;
    },
  });
  for (const figure of BLOCK_EDIT_FIGURES)
    metrics.push({
      metric: `markdown.blocks.${figure}`,
      label: BLOCK_EDIT_LABELS[figure],
      kind: 'page-mean',
      better: 'lower',
      read: (s) => {
        const pages = s.markdown?.blocks ? pageSum(s.markdown.blocks.pages, figure) : null;
        return pages ? { value: pages.sum / pages.count, pages } : null;
      },
    });
  // The mean over truth tables (OmniDocBench's headline): each document's tables pooled as its pages are above.
  for (const figure of TABLE_TEDS_FIGURES)
    metrics.push({
      metric: `markdown.blocks.${figure}`,
      label: TABLE_TEDS_LABELS[figure],
      kind: 'page-mean',
      read: (s) => {
        const tables = s.markdown?.blocks ? tableTedsSum(s.markdown.blocks.pages, figure) : null;
        return tables ? { value: tables.sum / tables.count, pages: tables } : null;
      },
    });
  return metrics;
}

export type Read = NonNullable<ReturnType<HeadlineMetric['read']>>;

/** The statistic of one system alone: its aggregate over the drawn documents. */
export function ownStatistic(kind: HeadlineMetric['kind'], values: readonly Read[]): ResampleStatistic {
  if (kind === 'micro-f1')
    return createMicroF1Delta(
      values.map((v) => v.counts!),
      values.map(() => NOTHING_RIGHT),
    );
  if (kind === 'micro-similarity') return createMicroSimilarityStatistic(values.map((v) => v.edits!));
  if (kind === 'macro-checks') {
    const categories = values.map((v) => v.categories!);
    return (indices) => macroOver(categories, indices);
  }
  if (kind === 'page-mean') {
    return createPageMeanStatistic(values.map((v) => v.pages!));
  }
  return createMeanStatistic(Float64Array.from(values, (v) => v.value));
}

/**
 * The paired statistic, system − reference, of the same aggregate. For a lower-is-better metric the values the
 * wins, sign test and Wilcoxon read are negated, so a win is still the system doing better; Δ stays in the
 * metric's own units (negative: the system is better).
 */
function pairedRequest(metric: HeadlineMetric, a: readonly Read[], b: readonly Read[]): ComparisonRequest {
  const { kind } = metric;
  const sign = metric.better === 'lower' ? -1 : 1;
  const request: ComparisonRequest = { a: a.map((v) => sign * v.value), b: b.map((v) => sign * v.value) };
  if (kind === 'micro-f1')
    request.statistic = createMicroF1Delta(
      a.map((v) => v.counts!),
      b.map((v) => v.counts!),
    );
  if (kind === 'micro-similarity')
    request.statistic = createMicroSimilarityDelta(
      a.map((v) => v.edits!),
      b.map((v) => v.edits!),
    );
  if (kind === 'macro-checks') {
    const ca = a.map((v) => v.categories!);
    const cb = b.map((v) => v.categories!);
    request.statistic = (indices) => macroOver(ca, indices) - macroOver(cb, indices);
  }
  if (kind === 'page-mean') {
    request.statistic = createPageMeanDelta(
      a.map((v) => v.pages!),
      b.map((v) => v.pages!),
    );
  }
  return request;
}

type Compared = Pick<RunSummary, 'leaderboard' | 'comparisons' | 'field_leaders' | 'disagreements' | 'decision'>;

export function compareRunSystems(
  documents: readonly DocumentScores[],
  systems: readonly string[],
  reference: string | null,
  modes: readonly Mode[],
  seed: number,
): Compared {
  const metrics = headlineMetrics(modes);
  const leaderboard = buildLeaderboard(documents, systems, metrics, seed);
  const comparisons = reference ? buildComparisons(documents, systems, reference, metrics, seed) : [];
  const decision = { alpha: ALPHA, sides: 'two-sided' as const, fewest_significant: fewestSignificantDocuments(ALPHA) };
  return {
    leaderboard,
    comparisons,
    field_leaders: buildFieldLeaders(documents, systems, modes, seed),
    disagreements: findDisagreements(documents, systems, metrics),
    decision,
  };
}

/** Each document's value for one system, in document order (documents the system did not score left out). */
function collect(
  documents: readonly DocumentScores[],
  system: string,
  metric: HeadlineMetric,
): { id: string; read: Read }[] {
  return documents.flatMap((d) => {
    const scores = d.systems.get(system);
    const read = scores ? metric.read(scores, d.checks?.get(system)) : null;
    return read ? [{ id: d.document_id, read }] : [];
  });
}

/**
 * Per metric, the systems ranked on the documents every one of them was scored on (so a row compares like
 * with like: a stored system may cover only some documents), each with its own figure on all its documents.
 * Every bootstrap of one document count draws the same resamples, so the shared figures are paired.
 */
function buildLeaderboard(
  documents: readonly DocumentScores[],
  systems: readonly string[],
  metrics: readonly HeadlineMetric[],
  seed: number,
): LeaderboardBlock[] {
  const blocks = metrics.flatMap((metric) => {
    const entries = systems
      .map((system) => ({ system, scored: collect(documents, system, metric) }))
      .filter((e) => e.scored.length > 0);
    if (entries.length === 0) return [];
    // Looked up in a set per system: a scan of every system's list per document is quadratic (hours at 100,000).
    const scoredIds = entries.map((e) => new Set(e.scored.map((v) => v.id)));
    const shared = new Set(entries[0]!.scored.map((v) => v.id).filter((id) => scoredIds.every((ids) => ids.has(id))));
    return [
      {
        metric,
        entries: entries.map((e) => ({ ...e, shared: e.scored.filter((v) => shared.has(v.id)).map((v) => v.read) })),
        shared: shared.size,
      },
    ];
  });
  const requests: BootstrapRequest[] = [];
  const request = (kind: HeadlineMetric['kind'], values: readonly Read[]) =>
    requests.push({ n: values.length, statistic: ownStatistic(kind, values) }) - 1;
  const slots = blocks.map((b) =>
    b.entries.map((e) => ({
      own: request(
        b.metric.kind,
        e.scored.map((v) => v.read),
      ),
      shared:
        b.shared === 0 ? null : b.shared === e.scored.length ? ('own' as const) : request(b.metric.kind, e.shared),
    })),
  );
  const boots = pairedBootstrapMany(requests, { seed });
  return blocks.map((block, b) => {
    const most = Math.max(...block.entries.map((e) => e.scored.length));
    const rows = block.entries.map((e, i) => {
      const slot = slots[b]![i]!;
      const own = boots[slot.own]!;
      const sharedSlot = slot.shared === 'own' ? slot.own : slot.shared;
      const shared = sharedSlot === null ? null : boots[sharedSlot]!;
      return {
        system: e.system,
        value: own.estimate,
        ci95: own.interval,
        documents: e.scored.length,
        shared: shared ? { value: shared.estimate, ci95: shared.interval, documents: block.shared } : null,
        covers_fewer: e.scored.length < most,
      };
    });
    // Ranked on the shared documents; with none shared, on each system's own (the view says so). Lower-is-better
    // metrics rank on the negated figure, so rank 1 is always the best.
    const sign = block.metric.better === 'lower' ? -1 : 1;
    const ranking = (row: (typeof rows)[number]) => sign * (row.shared?.value ?? row.value);
    rows.sort((x, y) => ranking(y) - ranking(x) || systems.indexOf(x.system) - systems.indexOf(y.system));
    return {
      metric: block.metric.metric,
      label: block.metric.label,
      ...(block.metric.better ? { better: block.metric.better } : {}),
      shared_documents: block.shared,
      rows: rows.map((row) => ({ rank: 1 + rows.filter((other) => ranking(other) > ranking(row)).length, ...row })),
    };
  });
}

function buildComparisons(
  documents: readonly DocumentScores[],
  systems: readonly string[],
  reference: string,
  metrics: readonly HeadlineMetric[],
  seed: number,
): SystemComparisonBlock[] {
  const pending: { system: string; metric: string; better?: 'lower'; request: ComparisonRequest }[] = [];
  for (const metric of metrics) {
    const base = new Map(collect(documents, reference, metric).map((v) => [v.id, v.read]));
    for (const system of systems) {
      if (system === reference) continue;
      const paired = collect(documents, system, metric).filter((v) => base.has(v.id));
      if (paired.length === 0) continue;
      pending.push({
        system,
        metric: metric.metric,
        better: metric.better,
        request: pairedRequest(
          metric,
          paired.map((v) => v.read),
          paired.map((v) => base.get(v.id)!),
        ),
      });
    }
  }
  const results = compareSystemsMany(
    pending.map((p) => p.request),
    { seed },
  );
  // Each system against the reference is one comparison, decided as `docbench diff` decides: its primary
  // metric alone, its other metrics Holm-adjusted among themselves (docs/metrics/comparison.md "Decision rule").
  const decided = new Map<number, { p: number; family: DecisionFamily }>();
  for (const system of new Set(pending.map((p) => p.system))) {
    const indices = pending.flatMap((p, i) => (p.system === system ? [i] : []));
    const primary = choosePrimaryMetric(
      indices.map((i) => pending[i]!.metric),
      null,
    );
    const families = adjustHeadlineFamilies(
      indices.map((i) => bootstrapP(results[i]!)),
      indices.findIndex((i) => pending[i]!.metric === primary),
    );
    for (const [k, index] of indices.entries()) decided.set(index, families[k]!);
  }
  return pending.map((p, i) => {
    const r = results[i]!;
    const { p: pDecision, family } = decided.get(i)!;
    return {
      system: p.system,
      reference,
      metric: p.metric,
      ...(p.better ? { better: p.better } : {}),
      delta: r.delta,
      ci95: r.ci95,
      wins: r.wins,
      losses: r.losses,
      ties: r.ties,
      p_sign: r.pSign,
      p_wilcoxon: r.pWilcoxon,
      p_holm: pDecision,
      family,
      significant: pDecision <= ALPHA,
      documents: r.n,
    };
  });
}

/**
 * Per field path and mode: the best system by micro F1 of the path on the documents every system scored, and
 * its lead over the runner-up on those documents (paired bootstrap).
 */
function buildFieldLeaders(
  documents: readonly DocumentScores[],
  systems: readonly string[],
  modes: readonly Mode[],
  seed: number,
): FieldLeader[] {
  const leaders: Omit<FieldLeader, 'p_holm' | 'significant'>[] = [];
  const pending: { leader: number; request: ComparisonRequest }[] = [];
  for (const mode of modes) {
    // Per system: document id → path → counts.
    const perSystem = new Map<string, Map<string, Map<string, PathCounts>>>();
    const paths = new Set<string>();
    for (const system of systems) {
      const byDocument = new Map<string, Map<string, PathCounts>>();
      for (const d of documents) {
        const score = d.systems.get(system)?.extraction[mode]?.score;
        if (!score) continue;
        const counts = countFieldPaths(score.fields);
        for (const key of counts.keys()) paths.add(key);
        byDocument.set(d.document_id, counts);
      }
      if (byDocument.size > 0) perSystem.set(system, byDocument);
    }
    // Ranked on the documents every system scored in this mode, so the best system's F1, the runner-up's and
    // the paired lead all describe the same documents (a stored system may cover only some of them).
    const common = [...(perSystem.values().next().value?.keys() ?? [])].filter((id) =>
      [...perSystem.values()].every((byDocument) => byDocument.has(id)),
    );
    if (common.length === 0) continue;
    for (const fieldPath of [...paths].sort()) {
      const ids = common.filter((id) =>
        [...perSystem.values()].some((byDocument) => byDocument.get(id)!.has(fieldPath)),
      );
      if (ids.length === 0) continue;
      const countsOf = (system: string) => ids.map((id) => toCounts(perSystem.get(system)!.get(id)!.get(fieldPath)));
      const ranked = [...perSystem.keys()]
        .map((system) => ({ system, counts: countsOf(system) }))
        .map((r) => ({ ...r, f1: microF1(r.counts) }))
        .sort((a, b) => b.f1 - a.f1 || systems.indexOf(a.system) - systems.indexOf(b.system));
      const [best, second] = ranked;
      if (!best) continue;
      const index = leaders.length;
      leaders.push({
        path: fieldPath,
        mode,
        best: best.system,
        f1: best.f1,
        runner_up: second?.system ?? null,
        runner_up_f1: second?.f1 ?? null,
        delta: null,
        ci95: null,
      });
      if (!second) continue;
      pending.push({
        leader: index,
        request: {
          a: best.counts.map((c) => microF1([c])),
          b: second.counts.map((c) => microF1([c])),
          statistic: createMicroF1Delta(best.counts, second.counts),
        },
      });
    }
  }
  const results = compareSystemsMany(
    pending.map((p) => p.request),
    { seed },
  );
  // A second Holm family: the field paths (as `docbench diff` keeps field paths apart from headline metrics).
  const adjusted = holmAdjust(results.map((r) => bootstrapP(r)));
  const out: FieldLeader[] = leaders.map((l) => ({ ...l, p_holm: null, significant: false }));
  pending.forEach((p, i) => {
    const r = results[i]!;
    const leader = out[p.leader]!;
    leader.delta = r.delta;
    leader.ci95 = r.ci95;
    leader.p_holm = adjusted[i]!;
    leader.significant = adjusted[i]! <= ALPHA;
  });
  return out;
}

/** Documents ranked by the spread (max − min) of the systems' scores on the first headline metric each has. */
function findDisagreements(
  documents: readonly DocumentScores[],
  systems: readonly string[],
  metrics: readonly HeadlineMetric[],
): Disagreement[] {
  if (systems.length < 2) return [];
  const found: Disagreement[] = [];
  for (const d of documents) {
    for (const metric of metrics) {
      const values: Record<string, number | null> = {};
      const scored: number[] = [];
      for (const system of systems) {
        const scores = d.systems.get(system);
        const read = scores ? metric.read(scores, d.checks?.get(system)) : null;
        values[system] = read ? read.value : null;
        if (read) scored.push(read.value);
      }
      if (scored.length < 2) continue;
      found.push({
        document_id: d.document_id,
        metric: metric.metric,
        spread: Math.max(...scored) - Math.min(...scored),
        values,
      });
      break;
    }
  }
  return found
    .filter((f) => f.spread > 0)
    .sort((a, b) => b.spread - a.spread || (a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0))
    .slice(0, DISAGREEMENTS_LISTED);
}
