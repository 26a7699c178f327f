/**
 * Synthetic scored run directories for report tests: run.json, summary.json, documents.jsonl and gate.json
 * with known values, including hostile strings from the "service" and the "dataset" (script tags, event
 * handlers, javascript: URLs, quotes, unicode, spreadsheet formulas). Every payload that runs sets
 * `window.__pwned` or opens a dialog, so the browser test can tell.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DocumentExtraction, GateResult, LatencyBlock } from '../../src/run-dir/evaluation-types.js';
// Written in schema 1, as older docbench versions did: every report test also checks that such runs still read.
import type {
  DocumentEvaluationV1 as DocumentEvaluation,
  RunSummaryV1 as RunSummary,
} from '../../src/run-dir/summary-v1.js';
import type { RunManifest } from '../../src/run-dir/manifest.js';

export const SCRIPT_PAYLOAD = '<script>window.__pwned=1;alert(1)</script>';
export const IMG_PAYLOAD = '<img src=x onerror="window.__pwned=1;alert(1)">';
export const JS_URL = 'javascript:window.__pwned=1;alert(1)';
export const HOSTILE_ID = `<script>alert(1)</script>"'&`;
export const UNICODE_ID = 'claim-"quoted"&ünïcödé 東京';
export const FORMULA_ID = '=HYPERLINK("http://evil.example/x","click")';
export const HOSTILE_FIELD = '<b onmouseover="window.__pwned=1">name</b>';
export const HOSTILE_DASHBOARD = 'https://dash.example.com/compare/abc?q="x"&y=<2>';

export interface FixtureOptions {
  /** Extra generated documents after the special ones. @default 6 */
  generated?: number;
  /** Write gate.json. @default true */
  gate?: boolean;
  /** Include the hostile documents. @default true */
  hostile?: boolean;
}

/** The special documents' ids, in the order documents.jsonl lists them (sorted by id, as the runner does). */
export interface Fixture {
  dir: string;
  documents: DocumentEvaluation[];
  summary: RunSummary;
  gate: GateResult | null;
  manifest: RunManifest;
}

function latencyBlock(values: number[], failed = 0): LatencyBlock {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))]! : null;
  return {
    count: sorted.length,
    failed,
    p50: at(0.5),
    p90: at(0.9),
    p95: at(0.95),
    p99: at(0.99),
    mean: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null,
    max: at(1),
    method: 'Hyndman-Fan type 7',
  };
}

function extraction(
  f1: number,
  confidence: number | null,
  fields: DocumentExtraction['fields'] = [],
): DocumentExtraction {
  return {
    f1,
    precision: f1,
    recall: f1,
    strict_f1: Math.max(0, f1 - 0.05),
    exact_match: f1 === 1,
    tp: Math.round(f1 * 10),
    fp: 10 - Math.round(f1 * 10),
    fn: 10 - Math.round(f1 * 10),
    parse_failure: false,
    confidence,
    fields,
  };
}

/** A plain generated document: deterministic values from its index. */
export function generateDocument(index: number, withTexts = true): DocumentEvaluation {
  const id = `claim-${String(index).padStart(5, '0')}`;
  const fastF1 = 0.6 + ((index * 37) % 40) / 100;
  const slowF1 = Math.min(1, fastF1 + 0.08);
  const truth = `# Claim ${index}\n\nPatient: Jane Doe ${index}\nTotal: $${(index * 12.5).toFixed(2)}\n\n| Code | Units |\n|---|---|\n| 99213 | 1 |\n| 85025 | ${(index % 3) + 1} |`;
  const service = truth.replace('Jane', index % 2 ? 'Jane' : 'Jame').replace('Units', 'Unit');
  const baseline = truth.replace('Patient', 'Patiënt').replace(/\| 1 \|/, '| l |');
  return {
    document_id: id,
    tags: { tier: ['clean', 'scan', 'fax'][index % 3]!, doc_type: index % 2 ? 'cms1500' : 'ub04' },
    status: 'ok',
    errors: [],
    dashboard_url: `https://dash.example.com/compare/${id}`,
    comparison_id: `cmp-${index}`,
    pages: 1,
    extraction: {
      fast: extraction(fastF1, 50 + ((index * 13) % 50)),
      slow: extraction(slowF1, 60 + ((index * 7) % 40), [
        {
          path: 'patient.name',
          truth: `Jane Doe ${index}`,
          prediction: index % 2 ? `Jane Doe ${index}` : `Jame Doe ${index}`,
          verdict: index % 2 ? 'tp' : 'fp+fn',
          strict_verdict: index % 2 ? 'tp' : 'fp+fn',
          ...(index % 2 ? {} : { error: 'wrong_value' as const }),
        },
        {
          path: 'billing.total',
          truth: index * 12.5,
          prediction: `${(index * 12.5).toFixed(2)}`,
          verdict: 'tp',
          strict_verdict: 'fp+fn',
          error: 'format_only',
        },
        {
          path: 'codes[].cpt',
          truth: ['99213', '85025'],
          prediction: null,
          verdict: 'fn',
          strict_verdict: 'fn',
          error: 'missing',
        },
      ]),
    },
    markdown: {
      service: {
        similarity: 0.9 + (index % 10) / 100,
        edits: 100 - (index % 10) * 10,
        length: 1000,
        raw_similarity: 0.85,
        pages: [{ page: 1, similarity: 0.9 + (index % 10) / 100 }],
      },
      baseline: {
        similarity: 0.85,
        edits: 150,
        length: 1000,
        raw_similarity: 0.8,
        pages: [{ page: 1, similarity: 0.85 }],
      },
      delta: 0.05 + (index % 10) / 100,
    },
    latency_ms: {
      'extract:fast': 400 + ((index * 31) % 300),
      'extract:slow': 2500 + ((index * 53) % 2000),
      compare: 1200 + ((index * 17) % 800),
    },
    ...(withTexts ? { texts: { truth: [truth], service: [service], baseline: [baseline] } } : {}),
    region_pages: {
      truth: [
        {
          page: 1,
          width: 612,
          height: 792,
          bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1, max_x: 4, max_y: 1.5 }, content: 'Claim' }],
        },
      ],
      predicted: [
        {
          page: 1,
          width: 612,
          height: 792,
          bounding_boxes: [{ bounding_box: { min_x: 1.1, min_y: 1.05, max_x: 4.2, max_y: 1.6 }, content: 'Claim' }],
        },
      ],
    },
  };
}

/** Documents whose content is hostile or odd, plus one that failed and one that partly failed. */
export function specialDocuments(): DocumentEvaluation[] {
  const hostile = generateDocument(900);
  const hostileDoc: DocumentEvaluation = {
    ...hostile,
    document_id: HOSTILE_ID,
    tags: { tier: IMG_PAYLOAD, doc_type: 'cms1500' },
    dashboard_url: JS_URL,
    texts: {
      truth: [`Truth ${SCRIPT_PAYLOAD}`],
      service: [`Service ${SCRIPT_PAYLOAD} ${IMG_PAYLOAD}`],
      baseline: [`Incumbent </pre>${IMG_PAYLOAD}`],
    },
    extraction: {
      ...hostile.extraction,
      slow: extraction(0.5, 40, [
        {
          path: HOSTILE_FIELD,
          truth: SCRIPT_PAYLOAD,
          prediction: { html: IMG_PAYLOAD, close: '</script><script>window.__pwned=1</script>' },
          verdict: 'fp+fn',
          strict_verdict: 'fp+fn',
          error: 'wrong_value',
        },
      ]),
    },
    // Hostile text where documents.jsonl allows any string; a value of the wrong shape is refused when read (test/drill/run-files.test.ts).
    region_pages: {
      truth: [
        {
          page: 1,
          width: 612,
          height: 792,
          bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1, max_x: 2, max_y: 2 }, content: SCRIPT_PAYLOAD }],
        },
      ],
      predicted: [],
    },
  };
  const failed: DocumentEvaluation = {
    ...generateDocument(901),
    document_id: 'claim-failed',
    status: 'failed',
    errors: [
      {
        endpoint: 'extract',
        mode: 'slow',
        code: 'SERVICE_HTTP',
        message: `POST /extract (claim-failed): 503 after 4 tries ${SCRIPT_PAYLOAD}`,
        status: 503,
      },
      {
        endpoint: 'compare',
        mode: null,
        code: 'SERVICE_TIMEOUT',
        message: 'POST /compare (claim-failed): timed out after 600000 ms',
      },
    ],
    dashboard_url: null,
    extraction: { fast: extraction(0, null), slow: extraction(0, null) },
    markdown: {
      service: { similarity: 0, edits: 1000, length: 1000, raw_similarity: 0, pages: [] },
      baseline: { similarity: 0.8, edits: 200, length: 1000, raw_similarity: 0.8, pages: [] },
      delta: -0.8,
    },
    texts: { truth: ['Only truth'], service: null, baseline: ['Only truth, nearly'] },
  };
  const partial: DocumentEvaluation = {
    ...generateDocument(902),
    document_id: UNICODE_ID,
    status: 'partial',
    errors: [
      {
        endpoint: 'extract',
        mode: 'fast',
        code: 'SERVICE_RESPONSE_INVALID',
        message: 'response was not JSON: "oops" & <b>bold</b>',
      },
    ],
    dashboard_url: HOSTILE_DASHBOARD,
  };
  const formula: DocumentEvaluation = {
    ...generateDocument(903),
    document_id: FORMULA_ID,
    dashboard_url: 'data:text/html,<script>alert(1)</script>',
  };
  return [hostileDoc, failed, partial, formula];
}

export function buildSummary(docs: DocumentEvaluation[]): RunSummary {
  const lat = (key: string) =>
    latencyBlock(
      docs.map((d) => d.latency_ms[key]).filter((v): v is number => typeof v === 'number'),
      docs.filter((d) => d.status !== 'ok').length,
    );
  const ext = (f1: number) => ({
    precision: f1,
    recall: f1,
    f1,
    strict_precision: f1 - 0.05,
    strict_recall: f1 - 0.05,
    strict_f1: f1 - 0.05,
    macro_f1: f1 - 0.01,
    exact_match_rate: 0.42,
    parse_failures: 1,
    parse_failure_rate: 0.01,
    documents: docs.length,
    failed: 1,
    line_item_f1: 0.8,
    item_count_error: 0.1,
    anls: 0.9,
    tp: 100,
    fp: 10,
    fn: 12,
  });
  const confidence = {
    mean: 74.5,
    ece: 0.0812,
    adaptive_ece: 0.09,
    brier: 0.1709,
    auroc: 0.875,
    auto_accept_threshold: 87,
    auto_accept_share: 0.71,
    auto_accept_target: 0.95,
    documents: docs.length,
    bins: Array.from({ length: 10 }, (_, i) => ({
      lo: i * 10,
      hi: i * 10 + 10,
      count: i < 3 ? 0 : i,
      confidence: i < 3 ? null : i * 10 + 5,
      accuracy: i < 3 ? null : Math.min(1, i / 10 + 0.1),
    })),
    risk_coverage: [95, 90, 87, 80, 70, 60, 50].map((threshold, i) => ({
      threshold,
      coverage: 0.3 + i * 0.11,
      accuracy: threshold === 87 ? 0.96 : 0.99 - i * 0.02,
    })),
  };
  return {
    schema_version: 1,
    run_id: '20261121T194502Z-3f9a',
    status: 'completed',
    dataset: { name: 'sample-claims', version: '1.0.0', content_hash: 'sha256:0123456789abcdef0123456789abcdef' },
    service: { base_url: 'https://user:secret@api.example.com/v1?api_key=SECRET', local: false },
    documents: {
      total: docs.length,
      succeeded: docs.filter((d) => d.status === 'ok').length,
      failed: docs.filter((d) => d.status !== 'ok').length,
    },
    calls: { 'extract:slow': { calls: docs.length, failed: 1, attempts: docs.length + 3, retried: 1, from_cache: 0 } },
    latency_ms: { 'extract:fast': lat('extract:fast'), 'extract:slow': lat('extract:slow'), compare: lat('compare') },
    latency_per_page_ms: {
      'extract:fast': lat('extract:fast'),
      'extract:slow': lat('extract:slow'),
      compare: lat('compare'),
    },
    extraction: { fast: ext(0.8123), slow: ext(0.9312) },
    markdown: {
      service: {
        similarity: 0.931,
        similarity_macro: 0.92,
        raw_similarity: 0.9,
        word_precision: 0.95,
        word_recall: 0.94,
        teds: 0.88,
        teds_structure: 0.97,
        documents: docs.length,
        pages: docs.length,
        failed: 1,
        both_empty_pages: 0,
      },
      baseline: {
        similarity: 0.889,
        similarity_macro: 0.88,
        raw_similarity: 0.86,
        word_precision: 0.9,
        word_recall: 0.9,
        teds: 0.8,
        teds_structure: 0.9,
        documents: docs.length,
        pages: docs.length,
        failed: 0,
        both_empty_pages: 0,
      },
      head_to_head: {
        delta: 0.042,
        ci95: [0.021, 0.063],
        wins: 7,
        losses: 2,
        ties: 1,
        p_sign: 0.01,
        p_wilcoxon: 0.02,
        documents: docs.length,
      },
    },
    confidence: { fast: { ...confidence, auto_accept_threshold: null, auto_accept_share: null }, slow: confidence },
    by_tag: {
      tier: {
        clean: {
          documents: 4,
          failed: 0,
          extraction_f1: { fast: 0.9, slow: 0.97 },
          exact_match_rate: { fast: 0.5, slow: 0.75 },
          similarity_service: 0.95,
          similarity_baseline: 0.9,
        },
        [IMG_PAYLOAD]: {
          documents: 1,
          failed: 0,
          extraction_f1: { fast: 0.5, slow: 0.5 },
          exact_match_rate: { fast: 0, slow: 0 },
          similarity_service: 0.5,
          similarity_baseline: null,
        },
      },
    },
    fields: [
      {
        path: 'patient.name',
        mode: 'slow',
        tp: 8,
        fp: 2,
        fn: 2,
        precision: 0.8,
        recall: 0.8,
        f1: 0.8,
        missing: 0,
        hallucinated: 0,
        wrong_value: 2,
        format_only: 1,
      },
      {
        path: HOSTILE_FIELD,
        mode: 'slow',
        tp: 0,
        fp: 1,
        fn: 1,
        precision: 0,
        recall: 0,
        f1: 0,
        missing: 0,
        hallucinated: 0,
        wrong_value: 1,
        format_only: 0,
      },
      {
        path: 'codes[].cpt',
        mode: 'fast',
        tp: 5,
        fp: 1,
        fn: 4,
        precision: 0.833,
        recall: 0.556,
        f1: 0.667,
        missing: 4,
        hallucinated: 1,
        wrong_value: 0,
        format_only: 0,
      },
      {
        path: 'billing.total',
        mode: 'slow',
        tp: 10,
        fp: 0,
        fn: 0,
        precision: 1,
        recall: 1,
        f1: 1,
        missing: 0,
        hallucinated: 0,
        wrong_value: 0,
        format_only: 3,
      },
    ],
    skipped: { truth_json: 0, truth_markdown: 0, truth_regions: 0, baseline_markdown: 0, baseline_json: 0 },
    metric_versions: { extraction: '1' },
  };
}

export function buildManifest(count: number): RunManifest {
  return {
    schema_version: 1,
    run_id: '20261121T194502Z-3f9a',
    docbench_version: '0.1.0',
    docbench_commit: 'abcdef0123456789',
    node_version: 'v20.20.2',
    platform: 'linux',
    created_at: '2026-11-21T19:45:02.000Z',
    ended_at: '2026-11-21T19:48:14.000Z',
    duration_ms: 192_000,
    status: 'completed',
    stop_reason: null,
    stop_message: null,
    dataset: {
      name: 'sample-claims',
      version: '1.0.0',
      path: 'datasets/sample-claims',
      content_hash: 'sha256:0123456789abcdef0123456789abcdef',
      documents_total: count,
      documents_selected: count,
    },
    service: { base_url: 'https://user:secret@api.example.com/v1?api_key=SECRET', local: false, identity: 'x' },
    options: {
      modes: ['fast', 'slow'],
      endpoints: ['extract', 'compare'],
      repeat: 1,
      cache: true,
      selection: { filters: [], sample: null, seed: 1, limit: null, shard: null },
    } as RunManifest['options'],
    config: { apiKeySet: true },
    counts: {
      planned: count * 3,
      recorded: count * 3,
      succeeded: count * 3 - 3,
      failed: 3,
      from_cache: 0,
      not_started: 0,
    },
    invocations: [
      {
        started_at: '2026-11-21T19:45:02.000Z',
        ended_at: '2026-11-21T19:48:14.000Z',
        recorded: count * 3,
        stop_reason: null,
      },
    ],
  };
}

/** The gate: one check passes, one fails; two documents below the per-document threshold. */
export function buildGate(): GateResult {
  return {
    passed: false,
    checks: [
      {
        metric: 'extraction.slow.f1',
        op: '>=',
        threshold: 0.9,
        actual: 0.9312,
        passed: true,
        message: 'slow field F1 0.931 ≥ 0.900',
      },
      {
        metric: 'latency_ms.extract:slow.p95',
        op: '<=',
        threshold: 3000,
        actual: 4300,
        passed: false,
        message: 'p95 4300 ms > 3000 ms',
      },
      {
        metric: 'extraction.slow.f1',
        scope: `tier=${IMG_PAYLOAD}`,
        op: '>=',
        threshold: 0.8,
        actual: null,
        passed: false,
        message: 'not computed',
      },
    ],
    document_failures: [
      { document_id: 'claim-00002', reasons: ['slow field F1 0.700 < 0.750'] },
      { document_id: HOSTILE_ID, reasons: [`slow field F1 0.500 < 0.750 ${SCRIPT_PAYLOAD}`] },
    ],
  };
}

/** Writes a complete scored run into a new temp directory. */
export async function writeRunFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-report-'));
  const generated = Array.from({ length: options.generated ?? 6 }, (_, i) => generateDocument(i + 1));
  const documents = [...generated, ...(options.hostile === false ? [] : specialDocuments())].sort((a, b) =>
    a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0,
  );
  const summary = buildSummary(documents);
  const manifest = buildManifest(documents.length);
  const gate = options.gate === false ? null : buildGate();
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(manifest, null, 2));
  await writeFile(path.join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  await writeFile(path.join(dir, 'documents.jsonl'), `${documents.map((d) => JSON.stringify(d)).join('\n')}\n`);
  if (gate) await writeFile(path.join(dir, 'gate.json'), JSON.stringify(gate, null, 2));
  return { dir, documents, summary, gate, manifest };
}
