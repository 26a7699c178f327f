/** One DocumentEvaluation → the compact row the table, CSV and JUnit use (texts stay in the drill-down). */
import type { DocumentEvaluation, RunSummary, SystemDocument } from '../run-dir/index.js';
import type { Mode } from '../types.js';
import { drilldownHref } from './drilldown-name.js';
import { resolveDashboardLink, type DashboardLink } from './dashboard-link.js';
import type { DocumentColumn, DocumentRow, SystemCells, SystemView } from './view-types.js';
import { toCheckCells } from './checks-view.js';

/** "extract:slow SERVICE_HTTP 503 — the service answered 503 after 4 tries". */
export function describeDocumentError(error: SystemDocument['errors'][number]): string {
  const call = error.mode ? `${error.endpoint}:${error.mode}` : error.endpoint;
  return `${call} ${error.code}${error.status !== undefined ? ` ${error.status}` : ''} — ${error.message}`;
}

const STATUS_RANK = { failed: 0, partial: 1, ok: 2 } as const;

/**
 * @param index the document's position in documents.jsonl, which places its drill-down.
 * @param gateReasons per `${system}\u0000${document id}`: the reasons gate.json gives (a schema-1 gate.json
 *   names no system: its reasons belong to the primary system).
 */
/** The six figures alone: a row is kept for every document, its matched texts are not. */
function blockFigures(
  blocks: NonNullable<DocumentEvaluation['systems'][string]['markdown']>['blocks'],
): SystemCells['blocks'] {
  if (!blocks) return null;
  const { text_edit, reading_order_edit, formula_edit, table_teds, table_teds_structure, table_edit } = blocks;
  return { text_edit, reading_order_edit, formula_edit, table_teds, table_teds_structure, table_edit };
}

export function toDocumentRow(
  doc: DocumentEvaluation,
  index: number,
  systems: readonly SystemView[],
  reference: string | null,
  modes: readonly Mode[],
  gateReasons: ReadonlyMap<string, string[]>,
): DocumentRow {
  const cells: SystemCells[] = [];
  const referenceSimilarity = reference ? (doc.systems?.[reference]?.markdown?.similarity ?? null) : null;
  for (const system of systems) {
    const s = doc.systems?.[system.name];
    if (!s) continue;
    const similarity = s.markdown?.similarity ?? null;
    const cell: SystemCells = {
      system: system.name,
      status: s.status,
      errors: (s.errors ?? []).map(describeDocumentError),
      f1: {},
      strict_f1: {},
      exact: {},
      confidence: {},
      latency_ms: {},
      similarity,
      similarity_delta:
        system.name !== reference && similarity !== null && referenceSimilarity !== null
          ? similarity - referenceSimilarity
          : null,
      blocks: blockFigures(s.markdown?.blocks),
      regions_reading_order: s.regions?.reading_order ?? null,
      cost_usd: typeof s.cost_usd === 'number' && Number.isFinite(s.cost_usd) ? s.cost_usd : null,
      ...dashboardCells(resolveDashboardLink(s, system.kind === 'local', '')),
      gate_reasons: gateReasons.get(`${system.name}\u0000${doc.document_id}`) ?? [],
      checks: toCheckCells(s.checks),
    };
    for (const mode of modes) {
      const extraction = s.extraction?.[mode];
      cell.f1[mode] = extraction?.f1 ?? null;
      cell.strict_f1[mode] = extraction?.strict_f1 ?? null;
      cell.exact[mode] = extraction ? extraction.exact_match : null;
      cell.confidence[mode] = extraction?.confidence ?? null;
    }
    for (const [key, value] of Object.entries(s.latency_ms ?? {}))
      cell.latency_ms[key] = typeof value === 'number' && Number.isFinite(value) ? value : null;
    cells.push(cell);
  }
  const status = cells.reduce<DocumentRow['status']>(
    (worst, c) => (STATUS_RANK[c.status] < STATUS_RANK[worst] ? c.status : worst),
    'ok',
  );
  return {
    id: doc.document_id,
    status,
    tags: { ...(doc.tags ?? {}) },
    pages:
      cells.length > 0 ? (Object.values(doc.systems).find((s) => typeof s.pages === 'number')?.pages ?? null) : null,
    systems: cells,
    drilldown: drilldownHref(doc.document_id, index),
    errors: cells.flatMap((c) => c.errors.map((e) => `${c.system}: ${e}`)),
    gate_reasons: cells.flatMap((c) => c.gate_reasons.map((r) => (cells.length > 1 ? `${c.system}: ${r}` : r))),
  };
}

/**
 * The documents table's numeric columns, grouped by figure and then by system (so systems sit side by side):
 * field F1 per mode, markdown similarity, confidence where a system reports one, latency per call key where
 * a system measured any, cost where a system has a price.
 */
export function buildDocumentColumns(
  summary: RunSummary,
  systems: readonly SystemView[],
  modes: readonly Mode[],
  latencyKeys: readonly string[],
): DocumentColumn[] {
  const columns: DocumentColumn[] = [];
  const add = (system: SystemView, key: string, label: string, title: string, format: DocumentColumn['format']) =>
    columns.push({
      key: `${key}:${system.name}`,
      label: `${label} · ${system.name}`,
      title: `${title}, ${system.name}`,
      format,
      system: system.name,
      cls: system.cls,
    });
  const block = (name: string) => summary.systems[name];
  for (const mode of modes)
    for (const s of systems)
      if (block(s.name)?.extraction[mode])
        add(s, `f1:${mode}`, `F1 ${mode}`, `field F1 (${mode}, normalised)`, 'percent');
  for (const s of systems) if (block(s.name)?.markdown) add(s, 'sim', 'Sim.', 'markdown similarity', 'percent');
  for (const s of systems) if (block(s.name)?.checks) add(s, 'chk', 'Checks', 'rule checks passed', 'percent');
  for (const mode of modes)
    for (const s of systems)
      if ((block(s.name)?.confidence[mode]?.documents ?? 0) > 0)
        add(s, `conf:${mode}`, `Conf. ${mode}`, `confidence_score (${mode})`, 'confidence');
  for (const key of latencyKeys)
    for (const s of systems)
      if ((block(s.name)?.latency_ms[key]?.max ?? 0) > 0) add(s, `lat:${key}`, key, `client wall time, ${key}`, 'ms');
  for (const s of systems) if (block(s.name)?.cost) add(s, 'cost', 'Cost', 'USD for this document', 'usd');
  return columns;
}

/** The value of one column for one row (null: not scored). */
export function readColumn(row: DocumentRow, column: DocumentColumn): number | null {
  const cell = row.systems.find((c) => c.system === column.system);
  if (!cell) return null;
  const [kind, name] = column.key.split(':');
  if (kind === 'f1') return cell.f1[name as Mode] ?? null;
  if (kind === 'sim') return cell.similarity;
  if (kind === 'chk') return cell.checks?.pass_rate ?? null;
  if (kind === 'conf') return cell.confidence[name as Mode] ?? null;
  if (kind === 'cost') return cell.cost_usd;
  // Latency keys contain a colon themselves (extract:slow): everything between the kind and the system.
  return cell.latency_ms[column.key.slice('lat:'.length, -(column.system.length + 1))] ?? null;
}

function dashboardCells(link: DashboardLink): Pick<SystemCells, 'dashboard_url' | 'dashboard_href'> {
  return { dashboard_url: link.url, dashboard_href: link.href };
}
