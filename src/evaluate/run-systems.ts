/**
 * Which systems a stored run holds, which one is the reference, and which records belong to each. Run
 * directories written before several systems shared a run (run.json without `systems`, version-1 records
 * without `system`) hold one system — `service` when a base URL was set, else `local` — and, when the
 * dataset has baseline files, the stored system `incumbent`, whose answers are those files
 * (SYSTEMS-SPEC: "today's baseline/ is the stored system incumbent").
 */
import { INCUMBENT, v1SystemName, type RunManifest, type CallRecord } from '../run-dir/index.js';
import type { DatasetDocument, Endpoint, JsonObject, Mode } from '../types.js';
import type { PlannedSlot } from './score-document.js';

export interface RunSystem {
  name: string;
  kind: string;
  /** The operations it answers; null: every operation the run planned. */
  operations: readonly Endpoint[] | null;
  /**
   * True for the incumbent of a run whose runner did not record it: its records are made here from the
   * baseline files, so it is scored by the same code as every other system.
   */
  fromBaselineFiles: boolean;
  /**
   * Its last invocation stopped it at its budget (run.json `stop_reason` "budget"): the calls it did not
   * make were held back on purpose, so it is scored on the calls it made (docs/systems.md, "Budgets").
   */
  stoppedAtBudget: boolean;
}

export interface RunSystems {
  systems: RunSystem[];
  reference: string | null;
  /** The system the single-system sections of a report describe: the first that is not the reference. */
  primary: string;
}

/** run.json `systems` entries as the runner writes them (version 2); read defensively. */
interface ManifestSystemEntry {
  name?: unknown;
  kind?: unknown;
  operations?: unknown;
  stop_reason?: unknown;
}

/**
 * The run's systems in run order. `hasBaselineFiles` says whether any selected document has baseline JSON or
 * markdown: then a run without a recorded incumbent gets one from those files.
 */
export function resolveRunSystems(
  manifest: RunManifest,
  records: readonly CallRecord[],
  hasBaselineFiles: boolean,
): RunSystems {
  const listed = (manifest as RunManifest & { systems?: ManifestSystemEntry[]; reference?: unknown }).systems;
  const systems: RunSystem[] = [];
  if (Array.isArray(listed) && listed.length > 0) {
    for (const entry of listed) {
      if (typeof entry?.name !== 'string') continue;
      const operations = Array.isArray(entry.operations)
        ? entry.operations.filter((o): o is Endpoint => typeof o === 'string')
        : null;
      systems.push({
        name: entry.name,
        kind: typeof entry.kind === 'string' ? entry.kind : 'unknown',
        operations,
        fromBaselineFiles: false,
        stoppedAtBudget: entry.stop_reason === 'budget',
      });
    }
  } else {
    const single = v1SystemName(manifest);
    systems.push({
      name: single,
      kind: manifest.service.local ? 'local' : 'interface',
      operations: null,
      fromBaselineFiles: false,
      stoppedAtBudget: false,
    });
  }
  // Records of a system the manifest does not list (a merged or hand-made run) are still scored.
  for (const name of new Set(records.map((r) => r.system).filter((n): n is string => typeof n === 'string'))) {
    if (!systems.some((s) => s.name === name))
      systems.push({ name, kind: 'unknown', operations: null, fromBaselineFiles: false, stoppedAtBudget: false });
  }
  if (!systems.some((s) => s.name === INCUMBENT) && hasBaselineFiles) {
    systems.push({
      name: INCUMBENT,
      kind: 'stored',
      operations: ['extract', 'compare'],
      fromBaselineFiles: true,
      stoppedAtBudget: false,
    });
  }
  const configured = (manifest as { reference?: unknown }).reference;
  const reference =
    systems.length < 2
      ? null
      : typeof configured === 'string' && systems.some((s) => s.name === configured)
        ? configured
        : systems.some((s) => s.name === INCUMBENT)
          ? INCUMBENT
          : systems[0]!.name;
  // A system the run called, not the incumbent made of baseline files: the gate and the headline describe it.
  const primary =
    systems.find((s) => s.name !== reference && !s.fromBaselineFiles)?.name ??
    systems.find((s) => s.name !== reference)?.name ??
    systems[0]!.name;
  return { systems, reference, primary };
}

/** Whether any selected document has baseline JSON or markdown (resolveRunSystems' `hasBaselineFiles`). */
export function hasBaselineFiles(selected: readonly DatasetDocument[]): boolean {
  return selected.some((d) => d.baseline.json || d.baseline.markdown);
}

/** Records grouped by system; a record without `system` (version 1) belongs to the run's single system. */
export function groupRecordsBySystem(records: readonly CallRecord[]): Map<string, Map<string, CallRecord[]>> {
  const grouped = new Map<string, Map<string, CallRecord[]>>();
  for (const record of records) {
    const system = record.system;
    const byDocument = grouped.get(system) ?? new Map<string, CallRecord[]>();
    grouped.set(system, byDocument);
    const list = byDocument.get(record.document_id) ?? [];
    list.push(record);
    byDocument.set(record.document_id, list);
  }
  return grouped;
}

/**
 * The incumbent's answers as records, made from the baseline files: extraction in every planned mode (a
 * stored answer is the same whatever the mode) and markdown. A document without a baseline file has no
 * such slot, as a single-system run scored only the documents that had one. Latency 0, attempts 0.
 */
export function recordsFromBaselineFiles(
  document: DatasetDocument,
  planned: readonly PlannedSlot[],
  baseline: { json: JsonObject | null; markdown: string[] | null },
): { slots: PlannedSlot[]; records: CallRecord[] } {
  const slots: PlannedSlot[] = [];
  const records: CallRecord[] = [];
  const common = (endpoint: Endpoint, mode: Mode | null) => ({
    v: 2 as const,
    system: INCUMBENT,
    key: `${INCUMBENT}|${document.id}|${endpoint}|${mode ?? '-'}|0`,
    document_id: document.id,
    repeat: 0,
    status: 'ok' as const,
    attempts: 0,
    latency_ms: 0,
    last_attempt_ms: 0,
    started_at: new Date(0).toISOString(),
    from_cache: false,
  });
  for (const slot of planned) {
    if (slot.endpoint === 'extract' && slot.mode && baseline.json) {
      slots.push(slot);
      records.push({
        ...common('extract', slot.mode),
        endpoint: 'extract',
        mode: slot.mode,
        result: {
          data: baseline.json,
          responseForm: 'object',
          method: null,
          pagesProcessed: null,
          confidence: null,
          confidenceScale: null,
        },
      });
    } else if (slot.endpoint === 'compare' && baseline.markdown) {
      slots.push(slot);
      records.push({
        ...common('compare', null),
        endpoint: 'compare',
        mode: null,
        result: {
          success: true,
          pages: baseline.markdown.map((content) => ({ content, width: null, height: null })),
          dashboardUrl: null,
          comparisonId: null,
          failedPages: 0,
          failedPageList: [],
        },
      });
    }
  }
  return { slots, records };
}
