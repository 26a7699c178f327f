/**
 * Scores a run's documents one after the other in the dataset's order: each document's truth and full records
 * in, its documents.jsonl line out, and only the numbers aggregation needs kept. evaluateRun drives it over
 * the stored run; during a new run's calls, early-scoring.ts drives it over the documents already recorded.
 */
import type { Dataset, DatasetDocument } from '../types.js';
import {
  readBaselineJson,
  readMarkdownPages,
  readRegionPages,
  readTruthBlocks,
  readTruthJson,
} from '../dataset/index.js';
import {
  createInterner,
  openDocumentsWriter,
  openRecordReader,
  v1SystemName,
  type CallRecord,
  type DocumentEvaluation,
  type RecordLocation,
  type RunManifest,
  type RunSummary,
} from '../run-dir/index.js';
import { planCalls } from '../run/index.js';
import { splitTruthBlocks } from '../score/index.js';
import {
  readComparePages,
  scoreDocument,
  type LoadedTruth,
  type PlannedSlot,
  type ScoredSystemDocument,
  type ScoringOptions,
} from './score-document.js';
import { createScoreKeeper, type DocumentScores } from './kept-scores.js';
import type { CheckResult } from '../checks/index.js';
import { recordsFromBaselineFiles, type RunSystem, type RunSystems } from './run-systems.js';
import { loadDocumentChecks, scoreDocumentChecks } from './document-checks.js';

/** What scoring every document shares: the run's systems, the planned slots, what the dataset lacks. */
export interface ScoringContext {
  run: RunSystems;
  /** The run's systems, the reference first. */
  order: readonly RunSystem[];
  /** Per document, the slots any system may fill. */
  slots: ReadonlyMap<string, PlannedSlot[]>;
  /** Records made from baseline files, per document: they join the others, so the incumbent's call counts are
   * those its stored records would have. */
  madeFromFiles: Map<string, CallRecord[]>;
  /** What the dataset lacks, counted as documents are scored. */
  skipped: RunSummary['skipped'];
  scoringOptions: ScoringOptions;
  /** Plain truth markdown is split into blocks (the dataset's `markdownBlocks`). */
  splitPlainTruth: boolean;
}

/** What scoring one document reads from disk: its truth and the full records of the systems that were called. */
export interface DocumentInputs {
  document: DatasetDocument;
  planned: readonly PlannedSlot[];
  truth: LoadedTruth;
  /** Per system, its records of the document: full for a called system, stubs for a baseline-file one (which
   * reads its files when scored). */
  records: Map<string, CallRecord[]>;
}

/** Where a document's record stubs come from: the stubs of one system, and where each one's full line is. */
export interface DocumentRecords {
  stubs(system: string): readonly CallRecord[];
  locate(stub: CallRecord): RecordLocation;
}

export interface DocumentScorer {
  context: ScoringContext;
  /** The position in `selected` of the next document to score: every one before it is written and kept. */
  readonly next: number;
  /** Reads a document's truth and its records' full lines. */
  read(document: DatasetDocument, records: DocumentRecords): Promise<DocumentInputs>;
  /** Scores the document at `next` (read by `read`), writes its line and keeps its numbers; resolves with the
   * line's JSON text as documents.jsonl holds it. */
  score(inputs: DocumentInputs): Promise<string>;
  /** documents.jsonl written; the kept numbers of every document, in order. */
  commit(): Promise<DocumentScores[]>;
  abort(): Promise<void>;
}

/** The run's systems in scoring order: the reference first (with no truth markdown, the others' drift is
 * measured against its output). */
export function scoringOrder(run: RunSystems): RunSystem[] {
  return [...run.systems].sort((a, b) => Number(b.name === run.reference) - Number(a.name === run.reference));
}

/** Opens documents.jsonl (a temp file until `commit`) and results.jsonl's reader for scoring `selected`. */
export async function openDocumentScorer(
  runDir: string,
  manifest: RunManifest,
  selected: readonly DatasetDocument[],
  run: RunSystems,
  dataset: Dataset,
): Promise<DocumentScorer> {
  const context: ScoringContext = {
    run,
    order: scoringOrder(run),
    slots: plannedSlotsByDocument(selected, manifest),
    madeFromFiles: new Map(),
    skipped: { truth_json: 0, truth_markdown: 0, truth_regions: 0 },
    scoringOptions: { schema: dataset.schema, comparators: dataset.comparators, locale: dataset.locale },
    splitPlainTruth: dataset.markdownBlocks === true,
  };
  const writer = await openDocumentsWriter(runDir);
  const reader = openRecordReader(runDir, v1SystemName(manifest));
  const keeper = createScoreKeeper(createInterner());
  const checks = await loadDocumentChecks(dataset, selected);
  const scores: DocumentScores[] = [];
  const close = async (end: () => Promise<void>) => {
    try {
      await end();
    } finally {
      await reader.close();
    }
  };
  return {
    context,
    get next() {
      return scores.length;
    },
    async read(document, records) {
      const planned = context.slots.get(document.id) ?? [];
      const readFull = (system: RunSystem) => {
        const stubs = records.stubs(system.name);
        return system.fromBaselineFiles
          ? Promise.resolve([...stubs])
          : Promise.all(stubs.map((stub) => reader.read(records.locate(stub))));
      };
      const [truth, full] = await Promise.all([
        loadTruth(document, planned, context),
        Promise.all(context.order.map(readFull)),
      ]);
      return { document, planned, truth, records: new Map(context.order.map((system, i) => [system.name, full[i]!])) };
    },
    async score(inputs) {
      const { document, truth } = inputs;
      if (selected[scores.length] !== document) throw new Error(`document ${document.id} scored out of order`);
      const scored = await scoreSystemsOnDocument(inputs, context);
      const checked = new Map<string, CheckResult[]>();
      for (const [name, result] of scored) {
        const own = scoreDocumentChecks(checks.get(document.id) ?? [], inputs.records.get(name) ?? []);
        if (!own) continue;
        result.evaluation.checks = own;
        checked.set(name, own.results);
      }
      const line = await writer.write(toDocumentLine(document, scored, context.run.systems, truth));
      // The texts and values are written; only the numbers stay in memory for aggregation.
      scores.push({
        document_id: document.id,
        tags: document.tags,
        systems: new Map([...scored].map(([name, result]) => [name, keeper.keep(result)])),
        ...(checked.size > 0 ? { checks: checked } : {}),
      });
      return line;
    },
    async commit() {
      await close(() => writer.commit());
      return scores;
    },
    abort: () => close(() => writer.abort()),
  };
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

/** Every system's scores on one document, the reference's first (the others' drift may be measured against
 * its output). */
async function scoreSystemsOnDocument(
  inputs: DocumentInputs,
  context: ScoringContext,
): Promise<Map<string, ScoredSystemDocument>> {
  const { document, planned, truth, records } = inputs;
  const { run, madeFromFiles, scoringOptions } = context;
  const scored = new Map<string, ScoredSystemDocument>();
  let referencePages: string[] | null = null;
  for (const system of context.order) {
    const { slots: systemSlots, records: systemRecords } = await systemAnswers(
      system,
      document,
      planned,
      records.get(system.name)!,
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
  { skipped, splitPlainTruth }: Pick<ScoringContext, 'skipped' | 'splitPlainTruth'>,
): Promise<LoadedTruth> {
  const truth: LoadedTruth = {};
  const wants = (endpoint: PlannedSlot['endpoint']) => planned.some((s) => s.endpoint === endpoint);
  if (wants('extract')) {
    const json = await readTruthJson(document);
    if (json) truth.json = json;
    else skipped.truth_json++;
  }
  if (wants('compare')) {
    if (document.truth.markdown) {
      truth.markdown = await readMarkdownPages(document.truth.markdown);
      // Plain truth is split into blocks as a system's markdown is, once for every system, where the dataset asks
      // for it (docs/metrics.md "Blocks").
      if (document.truth.blocks) truth.blocks = await readTruthBlocks(document.truth.blocks);
      else if (splitPlainTruth) truth.blocks = truth.markdown.map(splitTruthBlocks);
    } else skipped.truth_markdown++;
  }
  if (wants('split')) {
    if (document.truth.regions) truth.regions = await readRegionPages(document.truth.regions);
    else skipped.truth_regions++;
  }
  return truth;
}
