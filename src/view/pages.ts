/**
 * The view's own pages: the run index, a run's progress, the review shell and error messages, from the
 * templates of ./page-templates.ts; every value goes through `{{ }}` (run ids, dataset names and service URLs
 * are untrusted). Each page comes with the Content-Security-Policy the server sends: no script except the
 * review's own (by hash), no network but this server.
 */
import { MODES, type Mode } from '../types.js';
import { DOCBENCH_VERSION } from '../version.js';
import { describeServiceUrl, formatDate, formatPercent } from '../render/index.js';
import { toScriptJsonHtml } from '../report/index.js';
import { RUN_DIR_FILES } from '../run-dir/index.js';
import { findPreviousRun, type ListedRun } from './run-list.js';
import type { ViewTemplates } from './page-templates.js';

export interface Page {
  html: string;
  csp: string;
}

const BASE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
export const STATIC_CSP = `${BASE_CSP}; img-src 'none'`;

function runRow(run: ListedRun, all: readonly ListedRun[], modes: readonly Mode[]) {
  const base = `/runs/${encodeURIComponent(run.name)}/`;
  const previous = run.summary ? findPreviousRun(all, run) : null;
  const status = run.manifest.status;
  return {
    name: run.name,
    date: formatDate(run.manifest.created_at),
    dataset: `${run.manifest.dataset.name}${run.manifest.dataset.version ? ` v${run.manifest.dataset.version}` : ''}`,
    service: describeServiceUrl(run.manifest.service.base_url),
    status,
    statusTone: status === 'completed' ? 'good' : 'warn',
    progress: run.in_progress
      ? { ...run.progress, text: `${run.progress.recorded} of ${run.progress.planned} calls` }
      : null,
    documents: run.manifest.dataset.documents_selected,
    f1: modes.map((mode) =>
      formatPercent((run.summary ? run.summary.systems[run.summary.primary]?.extraction[mode]?.f1 : null) ?? null),
    ),
    runHref: base,
    reportHref: run.has_report && !run.in_progress ? `${base}${RUN_DIR_FILES.reportHtml}` : null,
    reviewHref: `/review/${encodeURIComponent(run.name)}`,
    diffHref: previous ? `/diff/${encodeURIComponent(previous.name)}/${encodeURIComponent(run.name)}` : null,
    diffBase: previous?.name ?? null,
  };
}

export function renderIndexPage(
  templates: ViewTemplates,
  reportsLabel: string,
  runs: readonly ListedRun[],
  skipped: readonly { name: string; reason: string }[],
): Page {
  const modes = MODES.filter((mode) => runs.some((r) => r.summary?.systems[r.summary.primary]?.extraction[mode]));
  const inProgress = runs.filter((r) => r.in_progress && r.manifest.status === 'running').length;
  return {
    html: templates.index({
      version: DOCBENCH_VERSION,
      reportsLabel,
      runs: runs.map((r) => runRow(r, runs, modes)),
      modeColumns: modes,
      skipped,
      inProgress,
      refresh: inProgress > 0,
    }),
    csp: STATIC_CSP,
  };
}

export function renderProgressPage(templates: ViewTemplates, run: ListedRun): Page {
  return {
    html: templates.progress({
      name: run.name,
      dataset: run.manifest.dataset.name,
      service: describeServiceUrl(run.manifest.service.base_url),
      date: formatDate(run.manifest.created_at),
      status: run.manifest.status,
      running: run.manifest.status === 'running',
      ...run.progress,
    }),
    csp: STATIC_CSP,
  };
}

export function renderMessagePage(templates: ViewTemplates, title: string, message: string, hint?: string): Page {
  return { html: templates.message({ title, message, hint }), csp: STATIC_CSP };
}

/** The review shell; the queue comes from the API, `pageSize` items a request (authenticated by the session cookie: no token in the page). */
export function renderReviewPage(templates: ViewTemplates, run: string, pageSize: number): Page {
  const base = `/runs/${encodeURIComponent(run)}/`;
  return {
    html: templates.review({
      run,
      reportHref: `${base}${RUN_DIR_FILES.reportHtml}`,
      data: toScriptJsonHtml({ run, api: `/api/runs/${encodeURIComponent(run)}/`, page_size: pageSize }),
      script: templates.reviewScript.html,
    }),
    csp: `${BASE_CSP}; img-src 'self'; connect-src 'self'; script-src '${templates.reviewScript.hash}'`,
  };
}
