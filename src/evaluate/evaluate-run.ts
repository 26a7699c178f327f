/**
 * Scores a stored run: reads run.json and results.jsonl, loads each document's truth from the dataset,
 * scores every system's answers with the same scorers, streams documents.jsonl (one line per document, every
 * system in it), and writes summary.json. Never calls a system, so it can run again after a scorer change or
 * with other comparators (`docbench score`).
 */
import type { Dataset, DatasetDocument } from '../types.js';
import type { Logger } from '../logger.js';
import { startPhase, type PhaseListener } from '../phases.js';
import { mapAhead, readBaselineJson, readMarkdownPages, readRegionPages, readTruthJson } from '../dataset/index.js';
import {
  createInterner,
  indexFinalRecords,
  openDocumentsWriter,
  openRecordReader,
  readManifest,
  runDirPath,
  writeSummary,
  type ReadIssue,
  type ReadRecordIndex,
  type RecordLocation,
  type RunManifest,
  v1SystemName,
  type CallRecord,
  type DocumentEvaluation,
  type RunSummary,
} from '../run-dir/index.js';
import { planCalls, selectDocuments } from '../run/index.js';
import {
  readComparePages,
  scoreDocument,
  type LoadedTruth,
  type PlannedSlot,
  type ScoredSystemDocument,
  type ScoringOptions,
} from './score-document.js';
import { aggregateRun } from './aggregate.js';
import { createScoreKeeper, type DocumentScores } from './kept-scores.js';
import {
  groupRecordsBySystem,
  recordsFromBaselineFiles,
  resolveRunSystems,
  type RunSystem,
  type RunSystems,
} from './run-systems.js';

export interface EvaluateOptions {
  dataset: Dataset;
  logger: Logger;
  /** Target field F1 for the auto-accept threshold. @default 0.95 */
  autoAcceptTarget?: number;
  /** Told of the scoring phase (one step per document) and of the statistics phase. */
  onPhase?: PhaseListener;
  /** results.jsonl's index as the caller just read it (`docbench run` after its calls); read here otherwise. */
  recordIndex?: ReadRecordIndex;
}

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
  const run = resolveRunSystems(
    manifest,
    records,
    selected.some((d) => d.baseline.json || d.baseline.markdown),
  );
  const recordsBySystem = groupRecordsBySystem(records);
  const context: ScoringContext = {
    run,
    // The reference is scored first: with no truth markdown, the others' drift is measured against its output.
    order: [...run.systems].sort((a, b) => Number(b.name === run.reference) - Number(a.name === run.reference)),
    slots: plannedSlotsByDocument(selected, manifest),
    recordsBySystem,
    madeFromFiles: new Map(),
    skipped: { truth_json: 0, truth_markdown: 0, truth_regions: 0 },
    scoringOptions: { schema: dataset.schema, comparators: dataset.comparators, locale: dataset.locale },
  };
  const scores = await scoreAllDocuments(runDir, manifest, selected, locations, context, options.onPhase);

  for (const system of run.systems.filter((s) => s.fromBaselineFiles))
    recordsBySystem.set(system.name, context.madeFromFiles);
  const statistics = startPhase('statistics', null, options.onPhase);
  const summary = aggregateRun({
    manifest,
    run,
    documents: scores,
    records: recordsBySystem,
    skipped: context.skipped,
    ...(options.autoAcceptTarget !== undefined ? { autoAcceptTarget: options.autoAcceptTarget } : {}),
  });
  await writeSummary(runDir, summary);
  statistics.end();
  return summary;
}

/** What scoring every document shares: the run's systems, the planned slots, the stored record stubs. */
interface ScoringContext {
  run: RunSystems;
  /** The run's systems, the reference first. */
  order: readonly RunSystem[];
  /** Per document, the slots any system may fill. */
  slots: ReadonlyMap<string, PlannedSlot[]>;
  /** Per system, per document, the stored record stubs. */
  recordsBySystem: Map<string, Map<string, CallRecord[]>>;
  /** Records made from baseline files, per document: they join the others, so the incumbent's call counts are
   * those its stored records would have. */
  madeFromFiles: Map<string, CallRecord[]>;
  /** What the dataset lacks, counted as documents are scored. */
  skipped: RunSummary['skipped'];
  scoringOptions: ScoringOptions;
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

/** The slots any system may fill, per document (each system's own operations narrow them): planned for one
 * pseudo-system that answers every endpoint the run planned. */
function plannedSlotsByDocument(
  selected: readonly DatasetDocument[],
  manifest: RunManifest,
): Map<string, PlannedSlot[]> {
  const plan = planCalls(selected, {
    ...manifest.options,
    repeat: 1,
    systems: [{ name: 'any', operations: new Set(manifest.options.endpoints) }],
  });
  const slots = new Map<string, PlannedSlot[]>();
  for (const call of plan)
    slots.set(call.document.id, [...(slots.get(call.document.id) ?? []), { endpoint: call.endpoint, mode: call.mode }]);
  return slots;
}

/**
 * Documents whose truth and stored records are read while earlier ones are scored: each needs a few small reads
 * (one per record, one per truth file), and made one after the other they left the scoring phase waiting on the
 * disk most of its time (docs/performance.md, "Runner").
 */
const DOCUMENTS_READ_AHEAD = 16;

/** What scoring one document reads from disk: its truth and the full records of the systems that were called. */
interface DocumentInputs {
  document: DatasetDocument;
  planned: readonly PlannedSlot[];
  truth: LoadedTruth;
  /** Per called system, its full records of the document (baseline-file systems read theirs when scored). */
  called: Map<string, CallRecord[]>;
}

/** Scores every document, streaming documents.jsonl; returns only the numbers aggregation needs. */
async function scoreAllDocuments(
  runDir: string,
  manifest: RunManifest,
  selected: readonly DatasetDocument[],
  locations: RecordLocations,
  context: ScoringContext,
  onPhase: PhaseListener | undefined,
): Promise<DocumentScores[]> {
  const scores: DocumentScores[] = [];
  const writer = await openDocumentsWriter(runDir);
  const reader = openRecordReader(runDir, v1SystemName(manifest));
  // Each record is read back once, so its location is let go as it is read.
  const readFull = (stubs: readonly CallRecord[]) =>
    Promise.all(
      stubs.map((stub) => {
        const at = locations.get(stub)!;
        locations.delete(stub);
        return reader.read(at);
      }),
    );
  const called = context.order.filter((system) => !system.fromBaselineFiles);
  const readInputs = async (document: DatasetDocument): Promise<DocumentInputs> => {
    const planned = context.slots.get(document.id) ?? [];
    const [truth, records] = await Promise.all([
      loadTruth(document, planned, context.skipped),
      Promise.all(called.map((system) => readFull(context.recordsBySystem.get(system.name)?.get(document.id) ?? []))),
    ]);
    return { document, planned, truth, called: new Map(called.map((system, i) => [system.name, records[i]!])) };
  };
  const keeper = createScoreKeeper(createInterner());
  const scoring = startPhase('scoring', selected.length, onPhase);
  try {
    for await (const inputs of mapAhead(selected, DOCUMENTS_READ_AHEAD, readInputs)) {
      const { document, truth } = inputs;
      const scored = await scoreSystemsOnDocument(inputs, context);
      await writer.write(toDocumentLine(document, scored, context.run.systems, truth));
      // The texts and values are written; only the numbers stay in memory for aggregation.
      scores.push({
        document_id: document.id,
        tags: document.tags,
        systems: new Map([...scored].map(([name, result]) => [name, keeper.keep(result)])),
      });
      scoring.step();
    }
    await writer.commit();
    scoring.end();
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await reader.close();
  }
  return scores;
}

/** Every system's scores on one document, the reference's first (the others' drift may be measured against
 * its output). */
async function scoreSystemsOnDocument(
  inputs: DocumentInputs,
  context: ScoringContext,
): Promise<Map<string, ScoredSystemDocument>> {
  const { document, planned, truth, called } = inputs;
  const { run, recordsBySystem, madeFromFiles, scoringOptions } = context;
  const scored = new Map<string, ScoredSystemDocument>();
  let referencePages: string[] | null = null;
  for (const system of context.order) {
    const { slots: systemSlots, records: systemRecords } = await systemAnswers(
      system,
      document,
      planned,
      system.fromBaselineFiles ? (recordsBySystem.get(system.name)?.get(document.id) ?? []) : called.get(system.name)!,
    );
    // Kept for the call counts, like the stored records: without the baseline's texts.
    if (system.fromBaselineFiles)
      madeFromFiles.set(
        document.id,
        (systemRecords as (CallRecord & { result?: unknown })[]).map(
          ({ result: _result, ...stub }) => stub as CallRecord,
        ),
      );
    if (systemSlots.length === 0) continue;
    const isReference = system.name === run.reference;
    const result = scoreDocument(
      systemSlots,
      systemRecords,
      truth,
      isReference ? null : referencePages,
      scoringOptions,
    );
    if (isReference) referencePages = readComparePages(systemRecords);
    scored.set(system.name, result);
  }
  return scored;
}

/** A system's planned slots and records for one document: the operations it answers, or its baseline files. */
async function systemAnswers(
  system: RunSystem,
  document: DatasetDocument,
  planned: readonly PlannedSlot[],
  records: CallRecord[],
): Promise<{ slots: PlannedSlot[]; records: CallRecord[] }> {
  if (system.fromBaselineFiles) {
    const wants = (endpoint: PlannedSlot['endpoint']) => planned.some((s) => s.endpoint === endpoint);
    const json = wants('extract') ? await readBaselineJson(document) : null;
    const markdown =
      wants('compare') && document.baseline.markdown ? await readMarkdownPages(document.baseline.markdown) : null;
    return recordsFromBaselineFiles(document, planned, { json: json ?? null, markdown });
  }
  const operations = system.operations;
  const slots = operations ? planned.filter((s) => operations.includes(s.endpoint)) : [...planned];
  // A stored system is planned only where it has a file (its `answers`): a slot without a record is "no
  // output on disk", as a document without a baseline file was before systems, not a call the run missed.
  // So is a system its budget stopped: the calls it did not make were held back, not failed.
  if (system.kind === 'stored' || system.stoppedAtBudget)
    return { slots: slots.filter((s) => records.some((r) => r.endpoint === s.endpoint && r.mode === s.mode)), records };
  return { slots, records };
}

/** documents.jsonl's line for one document: every system's evaluation, in run order, and the texts once. */
function toDocumentLine(
  document: DatasetDocument,
  scored: ReadonlyMap<string, ScoredSystemDocument>,
  systems: readonly RunSystem[],
  truth: LoadedTruth,
): DocumentEvaluation {
  const line: DocumentEvaluation = { document_id: document.id, tags: document.tags, systems: {} };
  const present = systems.filter((s) => scored.has(s.name));
  for (const system of present) line.systems[system.name] = scored.get(system.name)!.evaluation;
  if (present.some((s) => scored.get(s.name)!.pages !== undefined)) {
    line.texts = {
      truth: truth.markdown ?? null,
      systems: Object.fromEntries(
        present.flatMap((s) => {
          const pages = scored.get(s.name)!.pages;
          return pages === undefined ? [] : [[s.name, pages]];
        }),
      ),
    };
  }
  if (truth.regions && present.some((s) => scored.get(s.name)!.regionPages)) {
    line.region_pages = {
      truth: truth.regions,
      systems: Object.fromEntries(
        present.flatMap((s) => {
          const pages = scored.get(s.name)!.regionPages;
          return pages ? [[s.name, pages]] : [];
        }),
      ),
    };
  }
  return line;
}

/** Loads the truth scoring this document needs, counting what the dataset lacks. */
async function loadTruth(
  document: DatasetDocument,
  planned: readonly PlannedSlot[],
  skipped: RunSummary['skipped'],
): Promise<LoadedTruth> {
  const truth: LoadedTruth = {};
  const wants = (endpoint: PlannedSlot['endpoint']) => planned.some((s) => s.endpoint === endpoint);
  if (wants('extract')) {
    const json = await readTruthJson(document);
    if (json) truth.json = json;
    else skipped.truth_json++;
  }
  if (wants('compare')) {
    if (document.truth.markdown) truth.markdown = await readMarkdownPages(document.truth.markdown);
    else skipped.truth_markdown++;
  }
  if (wants('split')) {
    if (document.truth.regions) truth.regions = await readRegionPages(document.truth.regions);
    else skipped.truth_regions++;
  }
  return truth;
}
