/**
 * Why a document fell below the quality gate, as its table row and its drill-down both show it: gate.json's
 * reasons per system, read from the stored run alone (so the drill-downs can be written without the view).
 */
import type { DocumentEvaluation, GateResult, RunSummary } from '../run-dir/index.js';
import type { SystemView } from './view-types.js';

/** gate.json's document failures by `${system}\u0000${document id}`; a schema-1 gate.json names no system: its reasons are the primary system's. */
export function gateReasonsBySystem(summary: RunSummary, gate: GateResult | null): Map<string, string[]> {
  return new Map(
    (gate?.document_failures ?? []).map((f) => [`${f.system ?? summary.primary}\u0000${f.document_id}`, f.reasons]),
  );
}

/** One system's reasons for `doc` (none when it passed or the run has no gate). */
export function systemGateReasons(
  reasons: ReadonlyMap<string, string[]>,
  system: string,
  doc: Pick<DocumentEvaluation, 'document_id'>,
): string[] {
  return reasons.get(`${system}\u0000${doc.document_id}`) ?? [];
}

/** Every reason of the systems that have `doc`, in the run's system order; named by system when there are several. */
export function documentGateReasons(
  doc: DocumentEvaluation,
  systems: readonly Pick<SystemView, 'name'>[],
  reasons: ReadonlyMap<string, string[]>,
): string[] {
  const present = systems.filter((system) => doc.systems?.[system.name]);
  return present.flatMap((system) =>
    systemGateReasons(reasons, system.name, doc).map((reason) =>
      present.length > 1 ? `${system.name}: ${reason}` : reason,
    ),
  );
}
