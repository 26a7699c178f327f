/**
 * `docbench history`: every scored run under a reports directory, in time order, as index.html (a table
 * linking each report, and per dataset SVG trend charts of the headline metrics and p95 latency, one point
 * per run) and history.csv with the same rows.
 */
import { readdir, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GateResult, RunSummary } from '../run-dir/index.js';
import {
  DIFF_FILES,
  HISTORY_FILES,
  RUN_DIR_FILES,
  readGate,
  readManifest,
  readSummary,
  runDirPath,
  type RunManifest,
} from '../run-dir/index.js';
import {
  describeServiceUrl,
  neutraliseFormula,
  formatDate,
  formatMs,
  formatPercent,
  roundForCsv,
  stringifyCsv,
} from '../render/index.js';
import { UsageError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { toJson, writeFileAtomic } from '../fs-utils.js';
import { DOCBENCH_VERSION } from '../version.js';
import { buildTrendCharts } from './trend-charts.js';
import { loadGateTemplates } from './page-templates.js';

/** One run as history lists it. Metrics are null where the run did not measure them. */
export interface HistoryRow {
  created_at: string;
  run_id: string;
  /** The run directory relative to the reports directory, forward slashes. */
  dir: string;
  dataset: string;
  dataset_version: string | null;
  content_hash: string;
  service: string;
  /** The system these figures are of: history has one row per run and system. */
  system: string;
  status: string;
  documents: number;
  failed_documents: number;
  f1_fast: number | null;
  f1_slow: number | null;
  exact_match_fast: number | null;
  exact_match_slow: number | null;
  similarity: number | null;
  p95_ms_extract_fast: number | null;
  p95_ms_extract_slow: number | null;
  p95_ms_compare: number | null;
  /** "passed", "failed" or null (no gate.json). */
  gate: 'passed' | 'failed' | null;
  has_report: boolean;
  has_diff: boolean;
}

/** history.csv's columns, in order. */
export const HISTORY_COLUMNS = [
  'created_at',
  'run_id',
  'dir',
  'dataset',
  'dataset_version',
  'content_hash',
  'service',
  'system',
  'status',
  'documents',
  'failed_documents',
  'f1_fast',
  'f1_slow',
  'exact_match_fast',
  'exact_match_slow',
  'similarity',
  'p95_ms_extract_fast',
  'p95_ms_extract_slow',
  'p95_ms_compare',
  'gate',
] as const satisfies readonly (keyof HistoryRow)[];

export interface HistoryOutcome {
  rows: HistoryRow[];
  /** Directories skipped, with the reason. */
  skipped: { dir: string; reason: string }[];
  written: string[];
}

/** One run's rows from its manifest, summary and gate (pure): one per system, in run order. */
export function toHistoryRows(
  dir: string,
  manifest: RunManifest,
  summary: RunSummary,
  gate: GateResult | null,
  files: { report: boolean; diff: boolean },
): HistoryRow[] {
  return summary.system_names.map((name) => toHistoryRow(dir, manifest, summary, gate, files, name));
}

/** One run's row for one system (the primary by default). */
export function toHistoryRow(
  dir: string,
  manifest: RunManifest,
  summary: RunSummary,
  gate: GateResult | null,
  files: { report: boolean; diff: boolean },
  name = summary.primary,
): HistoryRow {
  const system = summary.systems[name];
  // A check without a system (gate.json of schema 1) is the primary system's.
  const checks = gate?.checks.filter((c) => (c.system ?? summary.primary) === name) ?? [];
  const failures = gate?.document_failures.filter((f) => (f.system ?? summary.primary) === name) ?? [];
  return {
    created_at: manifest.created_at,
    run_id: manifest.run_id,
    dir,
    dataset: manifest.dataset.name,
    dataset_version: manifest.dataset.version,
    content_hash: manifest.dataset.content_hash,
    service: describeServiceUrl(manifest.service.base_url),
    system: name,
    status: manifest.status,
    documents: system?.documents?.total ?? 0,
    failed_documents: system?.documents?.failed ?? 0,
    f1_fast: system?.extraction?.fast?.f1 ?? null,
    f1_slow: system?.extraction?.slow?.f1 ?? null,
    exact_match_fast: system?.extraction?.fast?.exact_match_rate ?? null,
    exact_match_slow: system?.extraction?.slow?.exact_match_rate ?? null,
    similarity: system?.markdown?.similarity ?? null,
    p95_ms_extract_fast: system?.latency_ms?.['extract:fast']?.p95 ?? null,
    p95_ms_extract_slow: system?.latency_ms?.['extract:slow']?.p95 ?? null,
    p95_ms_compare: system?.latency_ms?.compare?.p95 ?? null,
    gate:
      gate && checks.length + failures.length > 0
        ? checks.every((c) => c.passed) && failures.length === 0
          ? 'passed'
          : 'failed'
        : null,
    has_report: files.report,
    has_diff: files.diff,
  };
}

/** Runs in time order (created_at, then run id for equal times). */
export function sortHistory(rows: HistoryRow[]): HistoryRow[] {
  return [...rows].sort(
    (a, b) =>
      Date.parse(a.created_at) - Date.parse(b.created_at) || (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0),
  );
}

/** Finds the run directories directly under `reportsDir`; others are skipped with a reason. */
export async function scanRuns(
  reportsDir: string,
  logger: Logger = silentLogger,
): Promise<{ rows: HistoryRow[]; skipped: { dir: string; reason: string }[] }> {
  let entries: string[];
  try {
    entries = await readdir(reportsDir);
  } catch (error) {
    throw new UsageError(
      `reports directory ${reportsDir} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      {
        code: 'INPUT_INVALID',
        subject: reportsDir,
        hint: 'pass the directory docbench run writes to (default reports/)',
      },
    );
  }
  const rows: HistoryRow[] = [];
  const skipped: { dir: string; reason: string }[] = [];
  for (const name of entries.sort()) {
    const dir = path.join(reportsDir, name);
    if (name.startsWith('.') || !(await stat(dir).catch(() => null))?.isDirectory()) continue;
    if (!existsSync(runDirPath(dir, 'manifest'))) {
      skipped.push({ dir: name, reason: `no ${RUN_DIR_FILES.manifest} (not a run directory)` });
      continue;
    }
    // A run not scored yet (still running, or killed before scoring) is skipped; a damaged file is an error.
    const manifest = await readManifest(dir);
    const summary = await readSummary(dir);
    if (summary === null) {
      skipped.push({ dir: name, reason: `no ${RUN_DIR_FILES.summary} (not scored)` });
      continue;
    }
    const gate = await readGate(dir);
    rows.push(
      ...toHistoryRows(name, manifest, summary, gate, {
        report: existsSync(runDirPath(dir, 'reportHtml')),
        diff: existsSync(path.join(runDirPath(dir, 'diffDir'), DIFF_FILES.html)),
      }),
    );
  }
  for (const s of skipped) logger.warn(`history: skipped ${s.dir}: ${s.reason}`);
  return { rows: sortHistory(rows), skipped };
}

/** history.csv: numbers as numbers (rounded), text neutralised against spreadsheet formulas. */
export function toHistoryCsv(rows: readonly HistoryRow[]): string {
  const records = rows.map((row) =>
    HISTORY_COLUMNS.map((column) => {
      const value = row[column];
      if (typeof value === 'number') return roundForCsv(value);
      return value === null ? null : neutraliseFormula(String(value));
    }),
  );
  return stringifyCsv([[...HISTORY_COLUMNS], ...records]);
}

/** A relative link to a file inside a run directory: each path segment percent-encoded. */
function relativeHref(dir: string, file: string): string {
  return [...dir.split('/'), ...file.split('/')].map(encodeURIComponent).join('/');
}

export function buildHistoryView(
  rows: readonly HistoryRow[],
  skipped: readonly { dir: string; reason: string }[],
  title: string,
): unknown {
  // Trends are per dataset and system: one line of points per system that ran on the dataset.
  const series = (r: HistoryRow) => `${r.dataset} · ${r.system}`;
  const datasets = [...new Set(rows.map(series))].sort();
  const first = rows[0]?.created_at ?? null;
  const last = rows.at(-1)?.created_at ?? null;
  return {
    title,
    version: DOCBENCH_VERSION,
    facts: [
      {
        label: 'Runs',
        value: String(new Set(rows.map((r) => r.run_id)).size),
        detail: skipped.length ? `${skipped.length} directories skipped` : undefined,
      },
      { label: 'Datasets', value: String(new Set(rows.map((r) => r.dataset)).size) },
      { label: 'From', value: formatDate(first) },
      { label: 'To', value: formatDate(last) },
    ],
    warnings: skipped.map((s) => `Skipped ${s.dir}: ${s.reason}`),
    datasets: datasets.map((name, index) => {
      const runs = rows.filter((r) => series(r) === name);
      return {
        name,
        anchor: `dataset-${index + 1}`,
        runs: runs.length,
        span: `${formatDate(runs[0]!.created_at)} to ${formatDate(runs.at(-1)!.created_at)}`,
        charts: buildTrendCharts(runs),
      };
    }),
    metric_columns: ['F1 fast', 'F1 slow', 'Exact match slow', 'Similarity', 'p95 extract:slow', 'p95 compare'],
    // Newest first in the table; the charts read left to right in time.
    rows: [...rows].reverse().map((r) => ({
      date: formatDate(r.created_at),
      run_id: r.run_id,
      dataset: `${r.dataset}${r.dataset_version ? ` v${r.dataset_version}` : ''}`,
      service: `${r.system} (${r.service})`,
      status: r.status,
      documents: `${r.documents}${r.failed_documents ? ` (${r.failed_documents} failed)` : ''}`,
      metrics: [
        formatPercent(r.f1_fast),
        formatPercent(r.f1_slow),
        formatPercent(r.exact_match_slow),
        formatPercent(r.similarity),
        formatMs(r.p95_ms_extract_slow),
        formatMs(r.p95_ms_compare),
      ],
      gate: r.gate ?? 'no gate',
      gate_tone: r.gate === 'passed' ? 'good' : r.gate === 'failed' ? 'bad' : 'neutral',
      report_href: r.has_report ? relativeHref(r.dir, RUN_DIR_FILES.reportHtml) : null,
      diff_href: r.has_diff ? relativeHref(r.dir, `${RUN_DIR_FILES.diffDir}/${DIFF_FILES.html}`) : null,
    })),
  };
}

export interface BuildHistoryOptions {
  /** Where index.html and history.csv go. @default reportsDir */
  outDir?: string;
  logger?: Logger;
}

/** Scans `reportsDir` and writes index.html, history.csv and history.json into it (or `outDir`). */
export async function buildHistory(reportsDir: string, options: BuildHistoryOptions = {}): Promise<HistoryOutcome> {
  const logger = options.logger ?? silentLogger;
  const outDir = options.outDir ?? reportsDir;
  const { rows, skipped } = await scanRuns(reportsDir, logger);
  // Links in index.html are relative to the reports directory; from elsewhere they are rebased.
  const rebase = path.relative(outDir, reportsDir).split(path.sep).join('/');
  const linked = rebase === '' ? rows : rows.map((r) => ({ ...r, dir: `${rebase}/${r.dir}` }));
  const templates = await loadGateTemplates();
  const html = templates.history({ view: buildHistoryView(linked, skipped, 'docbench history') });
  const files: [string, string][] = [
    [HISTORY_FILES.html, html],
    [HISTORY_FILES.csv, toHistoryCsv(rows)],
    [HISTORY_FILES.json, toJson({ runs: rows, skipped })],
  ];
  const written: string[] = [];
  for (const [name, content] of files) {
    const file = path.join(outDir, name);
    await writeFileAtomic(file, content);
    written.push(file);
  }
  return { rows, skipped, written };
}
