/**
 * Reads what scoring left in a run directory. Reports never re-score: they read run.json, summary.json,
 * gate.json (when present) and stream documents.jsonl one line at a time, so 10,000 documents' texts are
 * never in memory together.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { UsageError } from '../errors.js';
import type { DocumentEvaluation, GateResult, RunSummary } from '../evaluate/types.js';
import { SUMMARY_SCHEMA_VERSION } from '../evaluate/types.js';
import { readManifest, type RunManifest } from '../run/manifest.js';

export const SUMMARY_FILE = 'summary.json';
export const DOCUMENTS_FILE = 'documents.jsonl';
export const GATE_FILE = 'gate.json';

/** The small files of a scored run, read whole. */
export interface RunInputs {
  runDir: string;
  manifest: RunManifest;
  summary: RunSummary;
  gate: GateResult | null;
}

/** Checks that `runDir` is a directory, naming it otherwise. */
export async function checkRunDirectory(runDir: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(runDir)).isDirectory();
  } catch {
    throw new UsageError(`run directory ${runDir} not found`, { code: 'INPUT_INVALID', subject: runDir, hint: 'pass a directory written by docbench run (reports/<run-id>)' });
  }
  if (!isDirectory) throw new UsageError(`${runDir} is not a directory`, { code: 'INPUT_INVALID', subject: runDir, hint: 'pass a directory written by docbench run (reports/<run-id>)' });
}

export async function readRunInputs(runDir: string): Promise<RunInputs> {
  await checkRunDirectory(runDir);
  const manifest = await readManifest(runDir);
  const summary = await readJsonFile<RunSummary>(path.join(runDir, SUMMARY_FILE), 'the run has not been scored; rerun docbench run --resume on it');
  if (summary === null) {
    throw new UsageError(`${path.join(runDir, SUMMARY_FILE)} not found: the run has not been scored`, { code: 'INPUT_INVALID', subject: runDir, hint: `finish the run with: docbench run --resume ${runDir}` });
  }
  if (summary.schema_version !== SUMMARY_SCHEMA_VERSION) {
    throw new UsageError(`${path.join(runDir, SUMMARY_FILE)} has schema_version ${String(summary.schema_version)}; this docbench reads ${SUMMARY_SCHEMA_VERSION}`, { code: 'INPUT_INVALID', subject: SUMMARY_FILE, hint: 'use the docbench version that wrote the run' });
  }
  const gate = await readJsonFile<GateResult>(path.join(runDir, GATE_FILE), 'the gate result is damaged; rerun the gate');
  return { runDir, manifest, summary, gate };
}

/** Parsed JSON, or null when the file does not exist. */
async function readJsonFile<T>(file: string, hint: string): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, { code: 'INPUT_INVALID', subject: file, hint, cause: error });
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON (${(error as Error).message})`, { code: 'INPUT_INVALID', subject: file, hint, cause: error });
  }
}

/** Streams documents.jsonl, one DocumentEvaluation at a time, naming the file and line of a bad one. */
export async function* readDocuments(runDir: string): AsyncGenerator<DocumentEvaluation> {
  const file = path.join(runDir, DOCUMENTS_FILE);
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new UsageError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): the run has not been scored`, { code: 'INPUT_INVALID', subject: file, hint: `finish the run with: docbench run --resume ${runDir}`, cause: error });
  }
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      let value: DocumentEvaluation;
      try {
        value = JSON.parse(line) as DocumentEvaluation;
      } catch (error) {
        throw new UsageError(`${file}:${lineNumber} is not valid JSON (${(error as Error).message})`, { code: 'INPUT_INVALID', subject: file, hint: 'the run directory is damaged; rescore the run' });
      }
      if (typeof value !== 'object' || value === null || typeof value.document_id !== 'string' || !['ok', 'partial', 'failed'].includes(value.status)) {
        throw new UsageError(`${file}:${lineNumber} is not a document evaluation (document_id and status are required)`, { code: 'INPUT_INVALID', subject: file, hint: 'the run directory is damaged; rescore the run' });
      }
      yield value;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
