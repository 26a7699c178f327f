/**
 * The review of one run: joins what the run scored (documents.jsonl, streamed) with the dataset's truth as
 * it is on disk now, and applies the reviewer's edits. The dataset is the one run.json names, resolved from
 * the directory `docbench view` was started in, as `docbench score` resolves it.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { finalizeRun } from '../finalize.js';
import type { Logger } from '../logger.js';
import { loadDataset, splitMarkdownPages } from '../dataset/index.js';
import {
  openStoredRun,
  readDocuments,
  readManifest,
  runDirPath,
  type RunManifest,
  type RunSummary,
} from '../run-dir/index.js';
import type { Dataset, Json } from '../types.js';
import { collectSubjects, orderReviewItems, rankSubject, type ReviewItem } from './review-items.js';
import {
  applyTruthEdit,
  readTruthField,
  readTruthSnapshot,
  type TruthChange,
  type TruthEdit,
  type TruthSnapshot,
} from './truth-files.js';

/** A queue item with the ETag of the truth file it would change. */
export type QueueItem = ReviewItem & { etag: string };

/** Headline figures shown beside the queue, before and after a re-score. */
export interface ReviewFigures {
  label: string;
  value: number | null;
}

export interface ReviewQueue {
  run: string;
  dataset: string;
  items: QueueItem[];
  /** Truth files of the run's documents changed after documents.jsonl was written. */
  truth_changed: boolean;
  figures: ReviewFigures[];
}

export interface ReviewRun {
  runDir: string;
  runName: string;
  manifest: RunManifest;
  datasetDir: string;
  dataset: Dataset;
}

export async function openReviewRun(runDir: string, cwd: string, logger: Logger): Promise<ReviewRun> {
  const manifest = await readManifest(runDir);
  const datasetDir = path.resolve(cwd, manifest.dataset.path);
  const dataset = await loadDataset(datasetDir, { logger }).catch((error: unknown) => {
    throw new UsageError(
      `the dataset of run ${manifest.run_id} (${manifest.dataset.path}) cannot be loaded from ${cwd}: ${error instanceof Error ? error.message : String(error)}`,
      {
        code: 'INPUT_INVALID',
        subject: manifest.dataset.path,
        hint: 'start docbench view in the directory the run was made from',
        cause: error,
      },
    );
  });
  return { runDir, runName: path.basename(runDir), manifest, datasetDir, dataset };
}

/** The headline figures of a scored run, as summary.json holds them. */
export function figuresOf(summary: RunSummary): ReviewFigures[] {
  const figures: ReviewFigures[] = [];
  for (const [name, system] of Object.entries(summary.systems)) {
    for (const [mode, block] of Object.entries(system.extraction ?? {}))
      figures.push({ label: `Field F1 (${name}, ${mode})`, value: block?.f1 ?? null });
    if (system.markdown) figures.push({ label: `Markdown similarity (${name})`, value: system.markdown.similarity });
  }
  return figures;
}

async function snapshotOrNull(file: string | undefined): Promise<TruthSnapshot | null> {
  return file === undefined ? null : readTruthSnapshot(file).catch(() => null);
}

async function mtimeOf(file: string | undefined): Promise<number> {
  return file === undefined ? 0 : ((await stat(file).catch(() => null))?.mtimeMs ?? 0);
}

export async function buildReviewQueue(run: ReviewRun): Promise<ReviewQueue> {
  const inputs = await openStoredRun(run.runDir);
  const scoredAt = await mtimeOf(runDirPath(run.runDir, 'documents'));
  const byId = new Map(run.dataset.documents.map((d) => [d.id, d]));
  const items: QueueItem[] = [];
  let truthChanged = false;
  for await (const doc of readDocuments(run.runDir)) {
    const entry = byId.get(doc.document_id);
    if (!entry) continue;
    const [json, markdown] = await Promise.all([
      snapshotOrNull(entry.truth.json),
      snapshotOrNull(entry.truth.markdown),
    ]);
    if (Math.max(await mtimeOf(entry.truth.json), await mtimeOf(entry.truth.markdown)) > scoredAt) truthChanged = true;
    let truthJson: Json | undefined;
    try {
      truthJson = json ? (JSON.parse(json.text) as Json) : undefined;
    } catch {
      truthJson = undefined;
    }
    const subjects = collectSubjects({
      doc,
      modes: inputs.manifest.options.modes,
      truthJson,
      truthPages: markdown ? splitMarkdownPages(markdown.text) : undefined,
      readTruth: (fieldPath) => readTruthField(truthJson, fieldPath),
    });
    for (const subject of subjects) {
      const item = rankSubject(subject);
      const etag = subject.kind === 'field' ? json?.etag : markdown?.etag;
      if (item && etag) items.push({ ...item, etag });
    }
  }
  return {
    run: run.runName,
    dataset: run.manifest.dataset.name,
    items: orderReviewItems(items),
    truth_changed: truthChanged,
    figures: figuresOf(inputs.summary),
  };
}

export async function editTruth(run: ReviewRun, edit: TruthEdit): Promise<{ change: TruthChange; etag: string }> {
  const doc = run.dataset.documents.find((d) => d.id === edit.document);
  if (!doc)
    throw new UsageError(`document ${edit.document} is not in dataset ${run.manifest.dataset.name}`, {
      code: 'INPUT_INVALID',
      subject: 'document',
    });
  return applyTruthEdit(run.datasetDir, doc, edit);
}

/** Re-scores the run from its stored responses and the current truth (the `docbench score` path). */
export async function rescoreRun(run: ReviewRun, logger: Logger): Promise<ReviewFigures[]> {
  const dataset = await loadDataset(run.datasetDir, { logger });
  await finalizeRun(run.runDir, { dataset, logger, print: false });
  return figuresOf((await openStoredRun(run.runDir)).summary);
}
