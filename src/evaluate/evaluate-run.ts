/**
 * Scores a stored run: reads run.json and results.jsonl, loads each document's truth from the dataset,
 * scores every system's answers with the same scorers, streams documents.jsonl (one line per document, every
 * system in it), and writes summary.json. Never calls a system, so it can run again after a scorer change or
 * with other comparators (`docbench score`). `docbench run` may have scored the first documents during its
 * calls (early-scoring.ts): scoring then goes on from there.
 */
import { createHash } from 'node:crypto';
import type { Dataset, DatasetDocument } from '../types.js';
import type { Logger } from '../logger.js';
import { startPhase, type PhaseListener } from '../phases.js';
import { mapAhead } from '../dataset/index.js';
import {
  indexFinalRecords,
  readManifest,
  runDirPath,
  writeSummary,
  type ReadIssue,
  type ReadRecordIndex,
  type RecordLocation,
  type RunManifest,
  v1SystemName,
  type CallRecord,
  type RunSummary,
} from '../run-dir/index.js';
import { selectDocuments } from '../run/index.js';
import { aggregateRun } from './aggregate.js';
import type { DocumentScores } from './kept-scores.js';
import { groupRecordsBySystem, hasBaselineFiles, resolveRunSystems } from './run-systems.js';
import { openDocumentScorer, type DocumentRecords, type DocumentScorer } from './document-scorer.js';
import type { EarlyScoring } from './early-scoring.js';

export interface EvaluateOptions {
  dataset: Dataset;
  logger: Logger;
  /** Target field F1 for the auto-accept threshold. @default 0.95 */
  autoAcceptTarget?: number;
  /** Told of the scoring phase (one step per document) and of the statistics phase. */
  onPhase?: PhaseListener;
  /** results.jsonl's index as the caller just read it (`docbench run` after its calls); read here otherwise. */
  recordIndex?: ReadRecordIndex;
  /** The documents `docbench run` scored during its calls (startEarlyScoring); scoring goes on after them. */
  scoredEarly?: EarlyScoring;
}

type RecordsBySystem = ReturnType<typeof groupRecordsBySystem>;

export async function evaluateRun(runDir: string, options: EvaluateOptions): Promise<RunSummary> {
  const { dataset, logger } = options;
  const manifest = await readManifest(runDir);
  if (manifest.dataset.content_hash !== dataset.contentHash) {
    logger.warn(
      `the dataset changed since run ${manifest.run_id} (content hash differs): scoring with its current truth files and comparators`,
    );
  }
  const { records, locations } = await readRecordStubs(runDir, manifest, logger, options.recordIndex);

  const selected = selectDocuments(dataset.documents, manifest.options.selection);
  const run = resolveRunSystems(manifest, records, hasBaselineFiles(selected));
  const recordsBySystem = groupRecordsBySystem(records);
  const scorer =
    (await options.scoredEarly?.handOver(run)) ?? (await openDocumentScorer(runDir, manifest, selected, run, dataset));
  const scores = await scoreRemainingDocuments(scorer, selected, { locations, recordsBySystem }, options.onPhase);

  const { context } = scorer;
  for (const system of run.systems.filter((s) => s.fromBaselineFiles))
    recordsBySystem.set(system.name, context.madeFromFiles);
  const statistics = startPhase('statistics', null, options.onPhase);
  const summary = aggregateRun({
    manifest,
    run,
    documents: scores,
    records: recordsBySystem,
    skipped: context.skipped,
    scoring: {
      locale: options.dataset.locale,
      comparators: options.dataset.comparators,
      schema_sha256: createHash('sha256').update(JSON.stringify(options.dataset.schema)).digest('hex'),
    },
    ...(options.autoAcceptTarget !== undefined ? { autoAcceptTarget: options.autoAcceptTarget } : {}),
  });
  await writeSummary(runDir, summary);
  statistics.end();
  return summary;
}

type RecordLocations = Map<CallRecord, RecordLocation>;

/** The run's final records without their responses (a document's full records are read back when it is
 * scored), and where each is in results.jsonl; warns of the lines it could not read. */
async function readRecordStubs(
  runDir: string,
  manifest: RunManifest,
  logger: Logger,
  known: ReadRecordIndex | undefined,
): Promise<{ records: CallRecord[]; locations: RecordLocations }> {
  const issues: ReadIssue[] = known?.issues ?? [];
  const index = known?.index ?? (await indexFinalRecords(runDir, v1SystemName(manifest), issues));
  const records = [...index.values()].map((entry) => entry.record);
  const locations = new Map([...index.values()].map((entry) => [entry.record, entry.at]));
  index.clear();
  for (const issue of issues) logger.warn(`${runDirPath(runDir, 'results')} line ${issue.line}: ${issue.problem}`);
  return { records, locations };
}

/**
 * Documents whose truth and stored records are read while earlier ones are scored: each needs a few small reads
 * (one per record, one per truth file), and made one after the other they left the scoring phase waiting on the
 * disk most of its time (docs/performance.md, "Runner").
 */
const DOCUMENTS_READ_AHEAD = 16;

/** Scores every document the scorer has not yet scored, streaming documents.jsonl; returns only the numbers
 * aggregation needs, of every document. */
async function scoreRemainingDocuments(
  scorer: DocumentScorer,
  selected: readonly DatasetDocument[],
  { locations, recordsBySystem }: { locations: RecordLocations; recordsBySystem: RecordsBySystem },
  onPhase: PhaseListener | undefined,
): Promise<DocumentScores[]> {
  const remaining = selected.slice(scorer.next);
  const records = (document: DatasetDocument): DocumentRecords => ({
    stubs: (system) => recordsBySystem.get(system)?.get(document.id) ?? [],
    // Each record is read back once, so its location is let go as it is read.
    locate: (stub) => {
      const at = locations.get(stub)!;
      locations.delete(stub);
      return at;
    },
  });
  const scoring = startPhase('scoring', remaining.length, onPhase);
  try {
    for await (const inputs of mapAhead(remaining, DOCUMENTS_READ_AHEAD, (document) =>
      scorer.read(document, records(document)),
    )) {
      await scorer.score(inputs);
      scoring.step();
    }
    const scores = await scorer.commit();
    scoring.end();
    return scores;
  } catch (error) {
    await scorer.abort();
    throw error;
  }
}
