/**
 * Applies the gate to a scored run directory: reads summary.json and documents.jsonl, evaluates the
 * thresholds and writes gate.json, which the reports then show. `docbench run` calls it between scoring and
 * reporting; `docbench gate <run-dir>` calls it on a stored run and rebuilds the reports.
 */
import { silentLogger, type Logger } from '../logger.js';
import type { GateResult, SystemDocument } from '../run-dir/index.js';
import { MODES } from '../types.js';
import { checkRunDirectory, readDocuments, readManifest, readScoredSummary, writeGate } from '../run-dir/index.js';
import { evaluateGate, type GateDocument } from './evaluate-gate.js';
import type { GateThresholds } from './thresholds.js';

export interface ApplyGateOptions {
  logger?: Logger;
}

/** Evaluates `thresholds` on the run in `runDir`, writes gate.json and returns the result. */
export async function applyGate(
  runDir: string,
  thresholds: GateThresholds,
  options: ApplyGateOptions = {},
): Promise<GateResult> {
  const logger = options.logger ?? silentLogger;
  await checkRunDirectory(runDir);
  await readManifest(runDir);
  const summary = await readScoredSummary(runDir);
  const documents: GateDocument[] = [];
  // Only each system's per-mode F1 is kept: documents.jsonl also holds texts, which need not stay in memory.
  for await (const doc of readDocuments(runDir)) {
    const systems: GateDocument['systems'] = {};
    for (const [name, system] of Object.entries(doc.systems)) {
      const extraction: SystemDocument['extraction'] = {};
      for (const mode of MODES) {
        const score = system.extraction?.[mode];
        if (score) extraction[mode] = { ...score, fields: [] };
      }
      systems[name] = { status: system.status, extraction };
    }
    documents.push({ document_id: doc.document_id, systems });
  }
  const { result, notes } = evaluateGate(summary, documents, thresholds);
  for (const note of notes) logger.warn(note);
  await writeGate(runDir, result);
  return result;
}

/** The verdict line and one line per failed check, for the terminal. */
export function formatGateVerdict(result: GateResult): string {
  const failed = result.checks.filter((c) => !c.passed);
  const head = result.passed
    ? `quality gate: passed (${result.checks.length} checks)`
    : `quality gate: FAILED (${failed.length} of ${result.checks.length} checks)`;
  return [head, ...formatGateFailures(result)].join('\n');
}

/** Only what failed (empty when the gate passed): printed under the summary that already has the verdict line. */
export function formatGateFailures(result: GateResult): string[] {
  const lines: string[] = [];
  for (const check of result.checks.filter((c) => !c.passed)) lines.push(`  ✗ ${check.message}`);
  if (result.document_failures.length > 0) {
    const shown = result.document_failures.slice(0, 5).map((f) => f.document_id);
    lines.push(
      `  ${result.document_failures.length} documents below the per-document thresholds: ${shown.join(', ')}${result.document_failures.length > shown.length ? ', …' : ''} (see junit.xml)`,
    );
  }
  return lines;
}
