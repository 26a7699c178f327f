/**
 * Reads run directories scored before several systems shared a run (summary.json schema_version 1, one
 * documents.jsonl line per document with `extraction_baseline`, `markdown.service`/`baseline`): their single
 * system keeps its name (`service` or `local`), the baseline files' scores become the stored system
 * `incumbent`, exactly as a schema-2 scoring of the same responses names them. Figures are carried over, never
 * recomputed; what schema 1 did not compute (leaderboard intervals, comparisons beyond the markdown head-to-head,
 * Holm-adjusted p, field leaders) stays absent.
 */
import type { Mode } from '../types.js';
import { INCUMBENT, v1SystemName } from './manifest.js';
import type { DocumentEvaluationV1, RunSummaryV1 } from './summary-v1.js';
import {
  SUMMARY_SCHEMA_VERSION,
  type DocumentEvaluation,
  type LeaderboardBlock,
  type RunSummary,
  type SystemDocument,
  type SystemSummary,
} from './evaluation-types.js';

export function upgradeSummaryV1(v1: RunSummaryV1): RunSummary {
  const name = v1SystemName(v1);
  const modes = Object.keys(v1.extraction ?? {}) as Mode[];
  const systems: Record<string, SystemSummary> = { [name]: primarySystemV1(v1) };
  const incumbent = incumbentSystemV1(v1, modes);
  if (incumbent) systems[INCUMBENT] = incumbent;
  const names = Object.keys(systems);
  const reference = names.includes(INCUMBENT) ? INCUMBENT : null;
  return {
    schema_version: SUMMARY_SCHEMA_VERSION,
    run_id: v1.run_id,
    status: v1.status,
    dataset: v1.dataset,
    system_names: names,
    reference,
    primary: name,
    systems,
    leaderboard: leaderboardWithoutIntervals(systems, modes),
    comparisons: reference ? headToHeadComparison(v1, name, reference) : [],
    field_leaders: [],
    disagreements: [],
    skipped: {
      truth_json: v1.skipped?.truth_json ?? 0,
      truth_markdown: v1.skipped?.truth_markdown ?? 0,
      truth_regions: v1.skipped?.truth_regions ?? 0,
    },
    metric_versions: v1.metric_versions ?? {},
  };
}

/** The run's own system: every figure schema 1 kept for the service it called, its baseline fields left out. */
function primarySystemV1(v1: RunSummaryV1): SystemSummary {
  return {
    kind: v1.service?.local ? 'local' : 'interface',
    documents: v1.documents,
    calls: v1.calls ?? {},
    latency_ms: v1.latency_ms ?? {},
    latency_per_page_ms: v1.latency_per_page_ms ?? {},
    ...(v1.service_processing_ms ? { service_processing_ms: v1.service_processing_ms } : {}),
    extraction: v1.extraction ?? {},
    ...(v1.markdown?.service ? { markdown: v1.markdown.service } : {}),
    ...(v1.markdown?.drift ? { markdown_drift: v1.markdown.drift } : {}),
    confidence: v1.confidence ?? {},
    ...(v1.regions ? { regions: v1.regions } : {}),
    ...(v1.repeat ? { repeat: v1.repeat } : {}),
    by_tag: byTagV1(v1, 'similarity_service', true),
    fields: (v1.fields ?? []).flatMap((f) => (f.mode === 'baseline' ? [] : [{ ...f, mode: f.mode }])),
  };
}

/** The stored system `incumbent` the baseline files' scores become; null when the run scored none. */
function incumbentSystemV1(v1: RunSummaryV1, modes: readonly Mode[]): SystemSummary | null {
  const baseline = v1.extraction_baseline;
  const baselineMarkdown = v1.markdown?.baseline;
  if (!baseline && !baselineMarkdown) return null;
  // A stored answer is the same in every mode: the one baseline block stands for each mode run.
  const documents = Math.max(baseline?.documents ?? 0, baselineMarkdown?.documents ?? 0);
  return {
    kind: 'stored',
    documents: { total: documents, succeeded: documents, failed: 0 },
    calls: {},
    latency_ms: {},
    latency_per_page_ms: {},
    extraction: baseline ? Object.fromEntries(modes.map((mode) => [mode, baseline])) : {},
    ...(baselineMarkdown ? { markdown: baselineMarkdown } : {}),
    confidence: {},
    by_tag: byTagV1(v1, 'similarity_baseline', false),
    fields: (v1.fields ?? []).flatMap((f) => (f.mode === 'baseline' ? modes.map((mode) => ({ ...f, mode })) : [])),
  };
}

/**
 * One system's figures per tag value; schema 1 kept one similarity column per side, and extraction figures for
 * the called service only (`withExtraction`).
 */
function byTagV1(
  v1: RunSummaryV1,
  pick: 'similarity_service' | 'similarity_baseline',
  withExtraction: boolean,
): SystemSummary['by_tag'] {
  return Object.fromEntries(
    Object.entries(v1.by_tag ?? {}).map(([key, values]) => [
      key,
      Object.fromEntries(
        Object.entries(values).map(([value, t]) => [
          value,
          {
            documents: t.documents,
            failed: withExtraction ? t.failed : 0,
            extraction_f1: withExtraction ? t.extraction_f1 : {},
            exact_match_rate: withExtraction ? t.exact_match_rate : {},
            similarity: t[pick],
          },
        ]),
      ),
    ]),
  );
}

/** Schema 1's one comparison: the markdown head-to-head, significant when its interval excluded zero. */
function headToHeadComparison(v1: RunSummaryV1, name: string, reference: string): RunSummary['comparisons'] {
  const headToHead = v1.markdown?.head_to_head;
  if (!headToHead) return [];
  return [
    {
      system: name,
      reference,
      metric: 'markdown.similarity',
      ...headToHead,
      p_holm: null,
      significant: headToHead.ci95[0] > 0 || headToHead.ci95[1] < 0,
    },
  ];
}

/** The ranking schema 1's figures allow: values and ranks, no intervals (schema 1 bootstrapped none per system). */
function leaderboardWithoutIntervals(
  systems: Record<string, SystemSummary>,
  modes: readonly Mode[],
): LeaderboardBlock[] {
  const metrics: {
    metric: string;
    label: string;
    read: (s: SystemSummary) => { value: number; documents: number } | null;
  }[] = [
    ...modes.flatMap((mode) => [
      {
        metric: `extraction.${mode}.f1`,
        label: `field F1 (${mode})`,
        read: (s: SystemSummary) =>
          s.extraction[mode] ? { value: s.extraction[mode]!.f1, documents: s.extraction[mode]!.documents } : null,
      },
      {
        metric: `extraction.${mode}.exact_match_rate`,
        label: `exact match (${mode})`,
        read: (s: SystemSummary) =>
          s.extraction[mode]
            ? { value: s.extraction[mode]!.exact_match_rate, documents: s.extraction[mode]!.documents }
            : null,
      },
    ]),
    {
      metric: 'markdown.similarity',
      label: 'markdown similarity',
      read: (s) => (s.markdown ? { value: s.markdown.similarity, documents: s.markdown.documents } : null),
    },
  ];
  return metrics.flatMap(({ metric, label, read }) => {
    const rows = Object.entries(systems).flatMap(([system, s]) => {
      const r = read(s);
      return r ? [{ system, ...r }] : [];
    });
    if (rows.length === 0) return [];
    rows.sort((a, b) => b.value - a.value);
    return [
      {
        metric,
        label,
        rows: rows.map((row) => ({
          rank: 1 + rows.filter((o) => o.value > row.value).length,
          system: row.system,
          value: row.value,
          ci95: null,
          documents: row.documents,
        })),
      },
    ];
  });
}

/** One schema-1 documents.jsonl line as a schema-2 line. */
export function upgradeDocumentV1(
  v1: DocumentEvaluationV1,
  summary: Pick<RunSummaryV1, 'service'> | { primary: string },
): DocumentEvaluation {
  const name = 'primary' in summary ? summary.primary : v1SystemName(summary);
  const service: SystemDocument = {
    status: v1.status,
    errors: v1.errors ?? [],
    dashboard_url: v1.dashboard_url ?? null,
    comparison_id: v1.comparison_id ?? null,
    pages: v1.pages ?? null,
    extraction: v1.extraction ?? {},
    ...(v1.markdown?.service ? { markdown: { ...v1.markdown.service, teds: v1.markdown.teds ?? null } } : {}),
    ...(typeof v1.markdown?.drift === 'number' ? { markdown_drift: v1.markdown.drift } : {}),
    ...(v1.regions ? { regions: v1.regions } : {}),
    latency_ms: v1.latency_ms ?? {},
    cost_usd: null,
  };
  const line: DocumentEvaluation = { document_id: v1.document_id, tags: v1.tags ?? {}, systems: { [name]: service } };
  const hasIncumbent = v1.extraction_baseline || v1.markdown?.baseline || v1.texts?.baseline;
  if (hasIncumbent) {
    const baseline = v1.extraction_baseline;
    line.systems[INCUMBENT] = {
      status: 'ok',
      errors: [],
      dashboard_url: null,
      comparison_id: null,
      pages: null,
      extraction: baseline ? Object.fromEntries(Object.keys(v1.extraction ?? {}).map((mode) => [mode, baseline])) : {},
      ...(v1.markdown?.baseline ? { markdown: { ...v1.markdown.baseline, teds: null } } : {}),
      latency_ms: {},
      cost_usd: null,
    };
  }
  if (v1.texts) {
    line.texts = {
      truth: v1.texts.truth ?? null,
      systems: {
        [name]: v1.texts.service ?? null,
        ...(hasIncumbent ? { [INCUMBENT]: v1.texts.baseline ?? null } : {}),
      },
    };
  }
  if (v1.region_pages)
    line.region_pages = { truth: v1.region_pages.truth ?? [], systems: { [name]: v1.region_pages.predicted ?? [] } };
  return line;
}
