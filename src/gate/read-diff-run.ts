/**
 * Reads what `docbench diff` needs of a scored run: run.json, summary.json and, from documents.jsonl, each
 * document's numbers (per-mode counts, per-field-path counts, exact match, similarity, latency) — never the
 * texts, so two runs of 10,000 documents fit in memory.
 */
import { UsageError } from '../errors.js';
import type { RunSummary } from '../run-dir/index.js';
import { MODES, type Mode } from '../types.js';
import { checkRunDirectory, readDocuments, readManifest, readScoredSummary, type RunManifest } from '../run-dir/index.js';

/** tp, fp, fn of one field path in one document. */
export type PathCounts = [tp: number, fp: number, fn: number];

/** One document's numbers. */
export interface DiffDocument {
  id: string;
  status: 'ok' | 'partial' | 'failed';
  extraction: Partial<Record<Mode, { f1: number; exactMatch: boolean; tp: number; fp: number; fn: number; paths: Map<string, PathCounts> }>>;
  similarity: number | null;
  /** Σ edits and Σ max length of the document's pages, so micro similarity can be recomputed on resamples. */
  markdownCounts: { edits: number; length: number } | null;
  regionsF1: number | null;
  latency: Record<string, number>;
}

/** A scored run, loaded for comparison. */
export interface DiffRun {
  dir: string;
  manifest: RunManifest;
  summary: RunSummary;
  documents: Map<string, DiffDocument>;
}

/**
 * `codes[1].units` → `codes[].units`: the per-path aggregation key of docs/metrics/extraction.md ("per field path with
 * indices collapsed"). documents.jsonl keeps the indexed path for the drill-down.
 */
export function collapseFieldPath(fieldPath: string): string {
  return fieldPath.replace(/\[\d+\]/g, '[]');
}

export async function readDiffRun(dir: string, label: string): Promise<DiffRun> {
  await checkRunDirectory(dir);
  const manifest = await readManifest(dir);
  const summary = await readScoredSummary(dir);
  const documents = new Map<string, DiffDocument>();
  for await (const doc of readDocuments(dir)) {
    const extraction: DiffDocument['extraction'] = {};
    for (const mode of MODES) {
      const score = doc.extraction?.[mode];
      if (!score) continue;
      const paths = new Map<string, PathCounts>();
      for (const field of score.fields ?? []) {
        const key = collapseFieldPath(field.path);
        const counts = paths.get(key) ?? [0, 0, 0];
        if (field.verdict === 'tp') counts[0]++;
        if (field.verdict === 'fp' || field.verdict === 'fp+fn') counts[1]++;
        if (field.verdict === 'fn' || field.verdict === 'fp+fn') counts[2]++;
        paths.set(key, counts);
      }
      extraction[mode] = { f1: score.f1, exactMatch: score.exact_match, tp: score.tp, fp: score.fp, fn: score.fn, paths };
    }
    if (documents.has(doc.document_id)) {
      throw new UsageError(`${label} run ${dir}: document ${doc.document_id} appears twice in documents.jsonl`, { code: 'INPUT_INVALID', subject: dir, hint: 'the run directory is damaged; rescore it with docbench run --resume' });
    }
    documents.set(doc.document_id, {
      id: doc.document_id,
      status: doc.status,
      extraction,
      similarity: doc.markdown?.service?.similarity ?? null,
      markdownCounts: doc.markdown?.service && typeof doc.markdown.service.edits === 'number' ? { edits: doc.markdown.service.edits, length: doc.markdown.service.length } : null,
      regionsF1: doc.regions?.f1_at50 ?? null,
      latency: doc.latency_ms ?? {},
    });
  }
  return { dir, manifest, summary, documents };
}
