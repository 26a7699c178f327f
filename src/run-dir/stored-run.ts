/**
 * The read-only view of a scored run that gate/ and report/ work from: run.json, summary.json and gate.json
 * read whole and checked, documents.jsonl streamed. Nothing here writes.
 */
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import type { DocumentEvaluation, GateResult, RunSummary } from './evaluation-types.js';
import type { RunManifest } from './manifest.js';
import { readDocuments, type ReadDocumentsOptions } from './documents-file.js';
import { readGate } from './gate-file.js';
import { readManifest } from './manifest-file.js';
import { readScoredSummary } from './summary-file.js';

/** A scored run as its readers see it. */
export interface StoredRun {
  runDir: string;
  manifest: RunManifest;
  summary: RunSummary;
  /** Null when no gate was applied. */
  gate: GateResult | null;
  /** Streams documents.jsonl again at each call, from the start or from the `from`th document. */
  documents: (options?: ReadDocumentsOptions) => AsyncGenerator<DocumentEvaluation>;
}

/** Checks that `runDir` is a directory, naming it otherwise. */
export async function checkRunDirectory(runDir: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(runDir)).isDirectory();
  } catch {
    throw new UsageError(`run directory ${runDir} not found`, {
      code: 'INPUT_INVALID',
      subject: runDir,
      hint: 'pass a directory written by docbench run (reports/<run-id>)',
    });
  }
  if (!isDirectory)
    throw new UsageError(`${runDir} is not a directory`, {
      code: 'INPUT_INVALID',
      subject: runDir,
      hint: 'pass a directory written by docbench run (reports/<run-id>)',
    });
}

/** Opens a scored run. @throws UsageError (exit 2) when it is not a run, not scored, or a file is damaged. */
export async function openStoredRun(runDir: string): Promise<StoredRun> {
  await checkRunDirectory(runDir);
  const manifest = await readManifest(runDir);
  const summary = await readScoredSummary(runDir);
  const gate = await readGate(runDir);
  return { runDir, manifest, summary, gate, documents: (options) => readDocuments(runDir, options) };
}
