/** One DocumentEvaluation → the compact row the table, CSV and JUnit use (texts stay in the drill-down). */
import type { DocumentEvaluation } from '../run-dir/index.js';
import type { Mode } from '../types.js';
import { drilldownHref } from './drilldown-name.js';
import { resolveDashboardLink } from './dashboard-link.js';
import type { DocumentRow } from './view-types.js';

/** "extract:slow SERVICE_HTTP 503 — the service answered 503 after 4 tries". */
export function describeDocumentError(error: DocumentEvaluation['errors'][number]): string {
  const call = error.mode ? `${error.endpoint}:${error.mode}` : error.endpoint;
  return `${call} ${error.code}${error.status !== undefined ? ` ${error.status}` : ''} — ${error.message}`;
}

/** `local`: the run used the embedded engine, whose comparison pages live in the run directory. */
export function toDocumentRow(doc: DocumentEvaluation, modes: readonly Mode[], gateReasons: ReadonlyMap<string, string[]>, local: boolean): DocumentRow {
  const dashboard = resolveDashboardLink(doc, local, '');
  const row: DocumentRow = {
    id: doc.document_id,
    status: doc.status,
    errors: (doc.errors ?? []).map(describeDocumentError),
    tags: { ...(doc.tags ?? {}) },
    pages: doc.pages ?? null,
    f1: {},
    strict_f1: {},
    exact: {},
    confidence: {},
    latency_ms: {},
    similarity_service: doc.markdown?.service?.similarity ?? null,
    similarity_baseline: doc.markdown?.baseline?.similarity ?? null,
    similarity_delta: doc.markdown?.delta ?? null,
    dashboard_url: dashboard.url,
    dashboard_href: dashboard.href,
    drilldown: drilldownHref(doc.document_id),
    gate_reasons: gateReasons.get(doc.document_id) ?? [],
  };
  for (const mode of modes) {
    const extraction = doc.extraction?.[mode];
    row.f1[mode] = extraction?.f1 ?? null;
    row.strict_f1[mode] = extraction?.strict_f1 ?? null;
    row.exact[mode] = extraction ? extraction.exact_match : null;
    row.confidence[mode] = extraction?.confidence ?? null;
  }
  for (const [key, value] of Object.entries(doc.latency_ms ?? {})) row.latency_ms[key] = typeof value === 'number' && Number.isFinite(value) ? value : null;
  return row;
}
