/**
 * Scored run directories built from per-document field verdicts, so a test knows every count: run.json,
 * summary.json (aggregated here from the documents, the way the scorer does) and documents.jsonl.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentExtraction, ExtractionBlock, LatencyBlock } from '../../src/run-dir/evaluation-types.js';
// Written in schema 1, as older docbench versions did: diff, gate and history read such runs through the upgrade.
import type {
  DocumentEvaluationV1 as DocumentEvaluation,
  FieldRowV1 as FieldRow,
  RunSummaryV1 as RunSummary,
} from '../../src/run-dir/summary-v1.js';
import type { RunManifest } from '../../src/run-dir/manifest.js';
import type { Mode } from '../../src/types.js';

export type Verdict = 'tp' | 'fp' | 'fn' | 'fp+fn';

export interface DocSpec {
  id: string;
  tags?: Record<string, string>;
  status?: 'ok' | 'partial' | 'failed';
  /** Per mode: field path (with indices) → verdict. */
  modes: Partial<Record<Mode, Record<string, Verdict>>>;
  similarity?: number;
  /** Call key → ms. @default extract:<mode> = 1000 for each mode */
  latency?: Record<string, number>;
}

export interface RunSpec {
  runId: string;
  createdAt?: string;
  dataset?: string;
  contentHash?: string;
  status?: RunManifest['status'];
  documents: DocSpec[];
}

function counts(verdicts: Record<string, Verdict>): { tp: number; fp: number; fn: number } {
  const c = { tp: 0, fp: 0, fn: 0 };
  for (const v of Object.values(verdicts)) {
    if (v === 'tp') c.tp++;
    if (v === 'fp' || v === 'fp+fn') c.fp++;
    if (v === 'fn' || v === 'fp+fn') c.fn++;
  }
  return c;
}

function f1(c: { tp: number; fp: number; fn: number }): number {
  return c.tp + c.fp + c.fn === 0 ? 1 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn);
}

function latencyBlock(values: number[]): LatencyBlock {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => {
    if (sorted.length === 0) return null;
    const h = (sorted.length - 1) * p;
    const lo = Math.floor(h);
    return sorted[lo]! + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!);
  };
  return {
    count: sorted.length,
    failed: 0,
    p50: q(0.5),
    p90: q(0.9),
    p95: q(0.95),
    p99: q(0.99),
    mean: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null,
    max: sorted.at(-1) ?? null,
    method: 'linear interpolation between closest ranks (R-7)',
  };
}

function toExtraction(verdicts: Record<string, Verdict>): DocumentExtraction {
  const c = counts(verdicts);
  const value = f1(c);
  return {
    f1: value,
    precision: c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn),
    strict_f1: value,
    exact_match: c.fp === 0 && c.fn === 0,
    ...c,
    parse_failure: false,
    confidence: null,
    fields: Object.entries(verdicts).map(([p, verdict]) => ({
      path: p,
      truth: 'x',
      prediction: verdict === 'tp' ? 'x' : 'y',
      verdict,
      strict_verdict: verdict,
    })),
  };
}

function extractionBlock(docs: DocumentExtraction[], failed: number): ExtractionBlock {
  const c = docs.reduce((acc, d) => ({ tp: acc.tp + d.tp, fp: acc.fp + d.fp, fn: acc.fn + d.fn }), {
    tp: 0,
    fp: 0,
    fn: 0,
  });
  const micro = f1(c);
  return {
    precision: c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn),
    f1: micro,
    strict_precision: micro,
    strict_recall: micro,
    strict_f1: micro,
    macro_f1: docs.reduce((s, d) => s + d.f1, 0) / docs.length,
    exact_match_rate: docs.filter((d) => d.exact_match).length / docs.length,
    parse_failures: 0,
    parse_failure_rate: 0,
    documents: docs.length,
    failed,
    line_item_f1: null,
    item_count_error: null,
    anls: null,
    ...c,
  };
}

/** Writes the run into `dir` and returns its documents.jsonl entries. */
export async function writeRun(dir: string, spec: RunSpec): Promise<DocumentEvaluation[]> {
  await mkdir(dir, { recursive: true });
  const modes = (['fast', 'slow'] as const).filter((m) => spec.documents.some((d) => d.modes[m]));
  const documents: DocumentEvaluation[] = spec.documents.map((d) => ({
    document_id: d.id,
    tags: d.tags ?? {},
    status: d.status ?? 'ok',
    errors:
      d.status && d.status !== 'ok'
        ? [{ endpoint: 'extract', mode: 'slow', code: 'SERVICE_HTTP', message: 'POST /extract: 500', status: 500 }]
        : [],
    dashboard_url: null,
    comparison_id: null,
    pages: 1,
    extraction: Object.fromEntries(Object.entries(d.modes).map(([mode, verdicts]) => [mode, toExtraction(verdicts!)])),
    ...(d.similarity !== undefined
      ? {
          markdown: {
            service: {
              similarity: d.similarity,
              edits: Math.round((1 - d.similarity) * 1000),
              length: 1000,
              raw_similarity: d.similarity,
              pages: [{ page: 1, similarity: d.similarity }],
            },
          },
        }
      : {}),
    latency_ms: d.latency ?? Object.fromEntries(Object.keys(d.modes).map((mode) => [`extract:${mode}`, 1000])),
  }));

  const fields: FieldRow[] = [];
  const extraction: RunSummary['extraction'] = {};
  for (const mode of modes) {
    const docs = documents.filter((d) => d.extraction[mode]);
    extraction[mode] = extractionBlock(
      docs.map((d) => d.extraction[mode]!),
      docs.filter((d) => d.status !== 'ok').length,
    );
    const byPath = new Map<string, { tp: number; fp: number; fn: number }>();
    for (const doc of docs) {
      for (const field of doc.extraction[mode]!.fields) {
        const key = field.path.replace(/\[\d+\]/g, '[]');
        const c = byPath.get(key) ?? { tp: 0, fp: 0, fn: 0 };
        const one = counts({ [key]: field.verdict as Verdict });
        byPath.set(key, { tp: c.tp + one.tp, fp: c.fp + one.fp, fn: c.fn + one.fn });
      }
    }
    for (const [p, c] of byPath) {
      fields.push({
        path: p,
        mode,
        ...c,
        precision: c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp),
        recall: c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn),
        f1: f1(c),
        missing: 0,
        hallucinated: 0,
        wrong_value: c.fp,
        format_only: 0,
      });
    }
  }
  fields.sort((a, b) => a.f1 - b.f1 || a.path.localeCompare(b.path));

  const latencyKeys = [...new Set(documents.flatMap((d) => Object.keys(d.latency_ms)))];
  const latency_ms = Object.fromEntries(
    latencyKeys.map((key) => [
      key,
      latencyBlock(documents.flatMap((d) => (d.latency_ms[key] !== undefined ? [d.latency_ms[key]!] : []))),
    ]),
  );
  const withMarkdown = documents.filter((d) => d.markdown?.service);
  const tagKeys = [...new Set(documents.flatMap((d) => Object.keys(d.tags)))];
  const by_tag: RunSummary['by_tag'] = {};
  for (const key of tagKeys) {
    by_tag[key] = {};
    for (const value of new Set(documents.flatMap((d) => (d.tags[key] !== undefined ? [d.tags[key]!] : [])))) {
      const docs = documents.filter((d) => d.tags[key] === value);
      const breakdown: RunSummary['by_tag'][string][string] = {
        documents: docs.length,
        failed: docs.filter((d) => d.status !== 'ok').length,
        extraction_f1: {},
        exact_match_rate: {},
        similarity_service: null,
        similarity_baseline: null,
      };
      for (const mode of modes) {
        const scored = docs.filter((d) => d.extraction[mode]).map((d) => d.extraction[mode]!);
        if (scored.length === 0) continue;
        const block = extractionBlock(scored, 0);
        breakdown.extraction_f1[mode] = block.f1;
        breakdown.exact_match_rate[mode] = block.exact_match_rate;
      }
      by_tag[key]![value] = breakdown;
    }
  }
  const failed = documents.filter((d) => d.status !== 'ok').length;
  const summary: RunSummary = {
    schema_version: 1,
    run_id: spec.runId,
    status: spec.status ?? 'completed',
    dataset: { name: spec.dataset ?? 'constructed', version: '1', content_hash: spec.contentHash ?? 'sha256:aaaa' },
    service: { base_url: 'https://service.example.com', local: false },
    documents: { total: documents.length, succeeded: documents.length - failed, failed },
    calls: Object.fromEntries(
      latencyKeys.map((key) => [
        key,
        { calls: documents.length, failed: 0, attempts: documents.length, retried: 0, from_cache: 0 },
      ]),
    ),
    latency_ms,
    latency_per_page_ms: latency_ms,
    extraction,
    ...(withMarkdown.length
      ? {
          markdown: {
            service: {
              similarity: withMarkdown.reduce((s, d) => s + d.markdown!.service!.similarity, 0) / withMarkdown.length,
              similarity_macro: 0,
              raw_similarity: 0,
              word_precision: 0,
              word_recall: 0,
              teds: null,
              teds_structure: null,
              documents: withMarkdown.length,
              pages: withMarkdown.length,
              failed: 0,
              both_empty_pages: 0,
            },
          },
        }
      : {}),
    confidence: {},
    by_tag,
    fields,
    skipped: { truth_json: 0, truth_markdown: 0, truth_regions: 0, baseline_markdown: 0, baseline_json: 0 },
    metric_versions: { extraction: '1' },
  };
  const manifest: RunManifest = {
    schema_version: 1,
    run_id: spec.runId,
    docbench_version: '0.1.0',
    docbench_commit: null,
    node_version: process.version,
    platform: 'test',
    created_at: spec.createdAt ?? '2026-01-01T00:00:00.000Z',
    ended_at: spec.createdAt ?? '2026-01-01T00:00:00.000Z',
    duration_ms: 1000,
    status: spec.status ?? 'completed',
    stop_reason: null,
    stop_message: null,
    dataset: {
      name: spec.dataset ?? 'constructed',
      version: '1',
      path: 'datasets/constructed',
      content_hash: spec.contentHash ?? 'sha256:aaaa',
      documents_total: documents.length,
      documents_selected: documents.length,
    },
    service: { base_url: 'https://service.example.com', local: false, identity: 'https://service.example.com' },
    options: {
      modes: [...modes],
      endpoints: ['extract'],
      repeat: 1,
      cache: false,
      selection: { filters: [], sample: null, seed: 1, limit: null, shard: null },
    },
    config: {},
    counts: {
      planned: documents.length,
      recorded: documents.length,
      succeeded: documents.length - failed,
      failed,
      from_cache: 0,
      not_started: 0,
    },
    invocations: [],
  };
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(manifest, null, 2));
  await writeFile(path.join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  await writeFile(path.join(dir, 'documents.jsonl'), `${documents.map((d) => JSON.stringify(d)).join('\n')}\n`);
  return documents;
}

/** `count` documents with the same fields; `change(i, fields)` edits document i's verdicts. */
export function makeDocuments(
  count: number,
  mode: Mode,
  change: (index: number, verdicts: Record<string, Verdict>) => void = () => {},
  extra: (index: number) => Partial<DocSpec> = () => ({}),
): DocSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const verdicts: Record<string, Verdict> = {
      name: 'tp',
      total: 'tp',
      'codes[0].cpt': 'tp',
      'codes[0].units': 'tp',
      'codes[1].cpt': 'tp',
      'codes[1].units': 'tp',
    };
    change(i, verdicts);
    return {
      id: `doc-${String(i + 1).padStart(3, '0')}`,
      tags: { tier: i % 2 ? 'fax' : 'digital' },
      modes: { [mode]: verdicts },
      ...extra(i),
    };
  });
}
