/**
 * Reads what `docbench diff` needs of a scored run: run.json, summary.json and, from documents.jsonl, each
 * document's numbers (per-mode counts, per-field-path counts, exact match, similarity, latency) — never the
 * texts, so two runs of 10,000 documents fit in memory.
 */
import type { CategoryCounts } from '../checks/index.js';
import { readCheckCounts } from './diff-checks.js';
import { UsageError } from '../errors.js';
import {
  type RunSummary,
  checkRunDirectory,
  readDocuments,
  readManifest,
  readScoredSummary,
  type RunManifest,
} from '../run-dir/index.js';
import { MODES, type Mode } from '../types.js';
import {
  BLOCK_EDIT_FIGURES,
  type BlockEditFigure,
  countFieldPaths,
  type PageSum,
  pageSum,
  tableTedsSum,
  TABLE_TEDS_FIGURES,
  type TableTedsFigure,
  type PathCounts,
} from '../score/index.js';

export { collapseFieldPath, type PathCounts } from '../score/index.js';

/** One document's numbers. */
export interface DiffDocument {
  id: string;
  status: 'ok' | 'partial' | 'failed';
  extraction: Partial<
    Record<
      Mode,
      { f1: number; exactMatch: boolean; tp: number; fp: number; fn: number; paths: Map<string, PathCounts> }
    >
  >;
  similarity: number | null;
  /** Σ edits and Σ max length of the document's pages, so micro similarity can be recomputed on resamples. */
  markdownCounts: { edits: number; length: number } | null;
  regionsF1: number | null;
  latency: Record<string, number>;
  /** Rule checks decided, per category (null: the document has none for this system). */
  checks?: CategoryCounts | null;
  /** Each block edit distance summed over the document's pages that have it (null: none has it). */
  blockEdits?: Record<BlockEditFigure, PageSum | null> | null;
  /** Table TEDS and TEDS-S, each summed over the document's truth tables, and how many (null: it has none). */
  tableTeds?: Record<TableTedsFigure, PageSum | null> | null;
}

/** A scored run, loaded for comparison: the documents of one of its systems. */
export interface DiffRun {
  dir: string;
  manifest: RunManifest;
  summary: RunSummary;
  /** The system compared (`--system`, else the run's primary system). */
  system: string;
  documents: Map<string, DiffDocument>;
}

/**
 * @param system the system whose answers are compared; default the run's primary system.
 * @throws UsageError naming the run and its systems when it has no such system.
 */
export async function readDiffRun(dir: string, label: string, system?: string): Promise<DiffRun> {
  await checkRunDirectory(dir);
  const manifest = await readManifest(dir);
  const summary = await readScoredSummary(dir);
  const name = system ?? summary.primary;
  if (!summary.systems[name]) {
    throw new UsageError(
      `${label} run ${dir} has no system named ${name} (it has ${summary.system_names.join(', ')})`,
      { code: 'INPUT_INVALID', subject: dir, hint: 'pick one of its systems with --system NAME' },
    );
  }
  const documents = new Map<string, DiffDocument>();
  for await (const line of readDocuments(dir)) {
    const doc = line.systems[name];
    if (!doc) continue;
    const extraction: DiffDocument['extraction'] = {};
    for (const mode of MODES) {
      const score = doc.extraction?.[mode];
      if (!score) continue;
      const paths = countFieldPaths(score.fields ?? []);
      extraction[mode] = {
        f1: score.f1,
        exactMatch: score.exact_match,
        tp: score.tp,
        fp: score.fp,
        fn: score.fn,
        paths,
      };
    }
    if (documents.has(line.document_id)) {
      throw new UsageError(`${label} run ${dir}: document ${line.document_id} appears twice in documents.jsonl`, {
        code: 'INPUT_INVALID',
        subject: dir,
        hint: 'the run directory is damaged; rescore it with docbench run --resume',
      });
    }
    documents.set(line.document_id, {
      id: line.document_id,
      status: doc.status,
      extraction,
      similarity: doc.markdown?.similarity ?? null,
      markdownCounts:
        doc.markdown && typeof doc.markdown.edits === 'number'
          ? { edits: doc.markdown.edits, length: doc.markdown.length }
          : null,
      regionsF1: doc.regions?.f1_at50 ?? null,
      latency: doc.latency_ms ?? {},
      checks: readCheckCounts(doc.checks),
      blockEdits: readFigureSums(doc.markdown?.blocks?.pages, BLOCK_EDIT_FIGURES, pageSum),
      tableTeds: readFigureSums(doc.markdown?.blocks?.pages, TABLE_TEDS_FIGURES, tableTedsSum),
    });
  }
  return { dir, manifest, summary, system: name, documents };
}

/**
 * Each figure summed over the document's pages (the edit distances) or tables (TEDS), which the paired block
 * comparison resamples (docs/gate.md §3); null when the document has no block metrics.
 */
function readFigureSums<F extends string, P>(
  pages: readonly P[] | undefined,
  figures: readonly F[],
  sumOf: (pages: readonly P[], figure: F) => PageSum | null,
): Record<F, PageSum | null> | null {
  if (!pages) return null;
  return Object.fromEntries(figures.map((figure) => [figure, sumOf(pages, figure)])) as Record<F, PageSum | null>;
}
