/**
 * Scores a stored run: reads run.json and results.jsonl, loads each document's truth from the dataset,
 * scores it, streams documents.jsonl, and writes summary.json. Never calls the service, so it can run again
 * after a scorer change or with other comparators (`docbench score`).
 */
import type { Dataset, DatasetDocument } from '../types.js';
import type { Logger } from '../logger.js';
import { readBaselineJson, readMarkdownPages, readRegionPages, readTruthJson } from '../dataset/index.js';
import { openDocumentsWriter, readFinalRecords, readManifest, runDirPath, writeSummary, type ReadIssue } from '../run-dir/index.js';
import { primarySystem, v1SystemName } from '../run/manifest.js';
import { planCalls, selectDocuments } from '../run/plan.js';
import type { CallRecord } from '../run/record.js';
import { scoreDocument, type DocumentScores, type LoadedTruth, type PlannedSlot } from './score-document.js';
import { aggregateRun } from './aggregate.js';
import type { RunSummary } from './types.js';

export interface EvaluateOptions {
  dataset: Dataset;
  logger: Logger;
  /** Target field F1 for the auto-accept threshold. @default 0.95 */
  autoAcceptTarget?: number;
}

export async function evaluateRun(runDir: string, options: EvaluateOptions): Promise<RunSummary> {
  const { dataset, logger } = options;
  const manifest = await readManifest(runDir);
  if (manifest.dataset.content_hash !== dataset.contentHash) {
    logger.warn(`the dataset changed since run ${manifest.run_id} (content hash differs): scoring with its current truth files and comparators`);
  }
  const issues: ReadIssue[] = [];
  // Until every system is scored (issue 14, parts 4–5), this scores the run's first live system as runs were
  // scored before systems existed; the incumbent is still scored from the dataset's baseline files.
  const primary = primarySystem(manifest);
  const records = (await readFinalRecords(runDir, v1SystemName(manifest), issues)).filter((record) => record.system === primary.name);
  for (const issue of issues) logger.warn(`${runDirPath(runDir, 'results')} line ${issue.line}: ${issue.problem}`);

  const byDocument = new Map<string, CallRecord[]>();
  for (const record of records) byDocument.set(record.document_id, [...(byDocument.get(record.document_id) ?? []), record]);
  const selected = selectDocuments(dataset.documents, manifest.options.selection);
  const plan = planCalls(selected, { ...manifest.options, repeat: 1, systems: [{ name: primary.name, operations: new Set(primary.operations) }] });
  const slots = new Map<string, PlannedSlot[]>();
  for (const call of plan) slots.set(call.document.id, [...(slots.get(call.document.id) ?? []), { endpoint: call.endpoint, mode: call.mode }]);

  const skipped: RunSummary['skipped'] = { truth_json: 0, truth_markdown: 0, truth_regions: 0, baseline_markdown: 0, baseline_json: 0 };
  const scoringOptions = { schema: dataset.schema, comparators: dataset.comparators, locale: dataset.locale };
  const scores: DocumentScores[] = [];
  const writer = await openDocumentsWriter(runDir);
  try {
    for (const document of selected) {
      const planned = slots.get(document.id) ?? [];
      const truth = await loadTruth(document, planned, skipped);
      const scored = scoreDocument(document, planned, byDocument.get(document.id) ?? [], truth, scoringOptions);
      await writer.write(scored.evaluation);
      // The texts are written; only the numbers stay in memory for aggregation.
      delete scored.evaluation.texts;
      delete scored.evaluation.region_pages;
      scores.push(scored);
    }
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }

  const summary = aggregateRun({ manifest, documents: scores, records, skipped, ...(options.autoAcceptTarget !== undefined ? { autoAcceptTarget: options.autoAcceptTarget } : {}) });
  await writeSummary(runDir, summary);
  return summary;
}

/** Loads what scoring this document needs, counting what the dataset lacks. */
async function loadTruth(document: DatasetDocument, planned: readonly PlannedSlot[], skipped: RunSummary['skipped']): Promise<LoadedTruth> {
  const truth: LoadedTruth = {};
  const wants = (endpoint: PlannedSlot['endpoint']) => planned.some((s) => s.endpoint === endpoint);
  if (wants('extract')) {
    const json = await readTruthJson(document);
    if (json) truth.json = json;
    else skipped.truth_json++;
    const baseline = await readBaselineJson(document);
    if (baseline) truth.baselineJson = baseline;
    else skipped.baseline_json++;
  }
  if (wants('compare')) {
    if (document.truth.markdown) truth.markdown = await readMarkdownPages(document.truth.markdown);
    else skipped.truth_markdown++;
    if (document.baseline.markdown) truth.baselineMarkdown = await readMarkdownPages(document.baseline.markdown);
    else skipped.baseline_markdown++;
  }
  if (wants('split')) {
    if (document.truth.regions) truth.regions = await readRegionPages(document.truth.regions);
    else skipped.truth_regions++;
  }
  return truth;
}
