/**
 * documents.jsonl: one DocumentEvaluation (evaluation-types.ts) per line. Written to a temp file renamed at
 * the end, so readers never see a half-written file; read one line at a time (10,000 documents' texts are
 * never in memory together), each line checked, a bad one named by file, line and path.
 */
import { createReadStream } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { UsageError } from '../errors.js';
import { unwritable } from '../fs-utils.js';
import { ENDPOINTS, MODES } from '../types.js';
import type { DocumentEvaluation } from './evaluation-types.js';
import type { DocumentEvaluationV1 } from './summary-v1.js';
import { upgradeDocumentV1 } from './upgrade-v1.js';
import { v1SystemName } from './manifest.js';
import { readManifest } from './manifest-file.js';
import { checkShape, defineFileCheck, parseJsonText, type FileRole } from './check-file.js';
import { count, modeKeys, nullableNum, num, share } from './schema-parts.js';
import { runDirPath } from './layout.js';

const verdict = { enum: ['tp', 'fp', 'fn', 'fp+fn', 'tn'] };

const documentExtraction = {
  type: 'object',
  required: ['f1', 'precision', 'recall', 'strict_f1', 'exact_match', 'tp', 'fp', 'fn', 'parse_failure', 'confidence', 'fields'],
  properties: {
    f1: share, precision: share, recall: share, strict_f1: share, exact_match: { type: 'boolean' }, tp: count, fp: count, fn: count,
    parse_failure: { type: 'boolean' }, confidence: nullableNum,
    fields: { type: 'array', items: { type: 'object', required: ['path', 'verdict', 'strict_verdict'], properties: { path: { type: 'string' }, verdict, strict_verdict: verdict } } },
  },
};

const documentMarkdown = {
  type: 'object',
  required: ['similarity', 'edits', 'length', 'raw_similarity', 'pages'],
  properties: {
    similarity: share, edits: count, length: count, raw_similarity: share,
    pages: { type: 'array', items: { type: 'object', required: ['page', 'similarity'], properties: { page: count, similarity: share } } },
  },
};

const pageTexts = { type: ['array', 'null'], items: { type: 'string' } };

/** A line of documents.jsonl as summary.json schema 1 wrote it: one service, the incumbent beside it. */
const DOCUMENT_LINE_V1 = {
  type: 'object',
  required: ['document_id', 'tags', 'status', 'errors', 'dashboard_url', 'comparison_id', 'pages', 'extraction', 'latency_ms'],
  properties: {
    document_id: { type: 'string' },
    tags: { type: 'object', additionalProperties: { type: 'string' } },
    status: { enum: ['ok', 'partial', 'failed'] },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['endpoint', 'mode', 'code', 'message'], properties: { endpoint: { enum: [...ENDPOINTS] }, mode: { enum: [...MODES, null] }, code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } },
    },
    dashboard_url: { type: ['string', 'null'] },
    comparison_id: { type: ['string', 'null'] },
    pages: { type: ['integer', 'null'], minimum: 0 },
    extraction: { type: 'object', ...modeKeys, additionalProperties: documentExtraction },
    extraction_baseline: documentExtraction,
    markdown: { type: 'object', properties: { service: documentMarkdown, baseline: documentMarkdown, delta: num, drift: share, teds: { type: ['number', 'null'] } } },
    regions: { type: 'object', required: ['f1_at50', 'f1_at75', 'mean_iou', 'char_accuracy'], properties: { f1_at50: share, f1_at75: share, mean_iou: { type: ['number', 'null'] }, char_accuracy: num } },
    latency_ms: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
    texts: { type: 'object', required: ['truth', 'service', 'baseline'], properties: { truth: pageTexts, service: pageTexts, baseline: pageTexts } },
    region_pages: { type: 'object', required: ['truth', 'predicted'], properties: { truth: { type: 'array' }, predicted: { type: 'array' } } },
  },
} as const;

const checkDocumentLineV1 = defineFileCheck<DocumentEvaluationV1>('document-line-v1', DOCUMENT_LINE_V1);

const v1 = DOCUMENT_LINE_V1.properties;

/** One system's scores of one document (schema 2). */
const systemDocument = {
  type: 'object',
  required: ['status', 'errors', 'dashboard_url', 'comparison_id', 'pages', 'extraction', 'latency_ms', 'cost_usd'],
  properties: {
    status: v1.status,
    errors: v1.errors,
    dashboard_url: v1.dashboard_url,
    comparison_id: v1.comparison_id,
    pages: v1.pages,
    extraction: v1.extraction,
    markdown: { ...documentMarkdown, properties: { ...documentMarkdown.properties, teds: { type: ['number', 'null'] } } },
    markdown_drift: share,
    regions: v1.regions,
    latency_ms: v1.latency_ms,
    cost_usd: { type: ['number', 'null'], minimum: 0 },
  },
};

/**
 * One line of documents.jsonl, summary.json schema 2 (the line has no version of its own: a line with
 * `systems` is schema 2, one with `status` schema 1).
 */
const DOCUMENT_LINE = {
  type: 'object',
  required: ['document_id', 'tags', 'systems'],
  properties: {
    document_id: v1.document_id,
    tags: v1.tags,
    systems: { type: 'object', additionalProperties: systemDocument },
    texts: { type: 'object', required: ['truth', 'systems'], properties: { truth: pageTexts, systems: { type: 'object', additionalProperties: pageTexts } } },
    region_pages: { type: 'object', required: ['truth', 'systems'], properties: { truth: { type: 'array' }, systems: { type: 'object', additionalProperties: { type: 'array' } } } },
  },
} as const;

const checkDocumentLine = defineFileCheck<DocumentEvaluation>('document-line', DOCUMENT_LINE);

function documentsRole(runDir: string): FileRole {
  return { file: runDirPath(runDir, 'documents'), hint: `re-create it with: docbench score ${runDir}` };
}

/**
 * Streams documents.jsonl, one checked DocumentEvaluation at a time; schema-1 lines are read as the run's
 * single system and the incumbent. @throws UsageError (exit 2) when missing or damaged.
 */
export async function* readDocuments(runDir: string): AsyncGenerator<DocumentEvaluation> {
  const role = documentsRole(runDir);
  const stream = createReadStream(role.file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new UsageError(`${role.file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): the run has not been scored`, { code: 'INPUT_INVALID', subject: role.file, hint: `score it with: docbench score ${runDir}`, cause: error });
  }
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  // The single system's name of a schema-1 run, read from run.json at its first line.
  let v1System: { primary: string } | null = null;
  try {
    for await (const line of lines) {
      number++;
      if (line.trim() === '') continue;
      const value = parseJsonText(line, role, number);
      if (typeof value === 'object' && value !== null && !('systems' in value) && 'status' in value) {
        v1System ??= { primary: v1SystemName(await readManifest(runDir)) };
        yield upgradeDocumentV1(checkShape(value, checkDocumentLineV1, role, number), v1System);
      } else {
        yield checkShape(value, checkDocumentLine, role, number);
      }
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** Writes documents.jsonl line by line into a temp file; `commit` renames it into place, `abort` removes it. */
export interface DocumentsWriter {
  write(document: DocumentEvaluation): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Lines are gathered up to this many characters and written together: one write per line cost a thread-pool
 * round trip per document (~0.1 s of waiting per 2,000 documents), while a bounded batch keeps memory flat
 * however long the texts are.
 */
const BATCH_CHARS = 1 << 20;

export async function openDocumentsWriter(runDir: string): Promise<DocumentsWriter> {
  const file = runDirPath(runDir, 'documents');
  const temp = `${file}.tmp`;
  let handle: FileHandle;
  try {
    handle = await open(temp, 'w');
  } catch (error) {
    throw unwritable(file, error);
  }
  let batch: string[] = [];
  let batchChars = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const text = batch.join('');
    batch = [];
    batchChars = 0;
    // writeFile, unlike write, goes on until the whole text is written (a long batch may need several writes).
    await handle.writeFile(text).catch((error: unknown) => {
      throw unwritable(file, error);
    });
  };
  return {
    write: async (document) => {
      const line = `${JSON.stringify(document)}\n`;
      batch.push(line);
      batchChars += line.length;
      if (batchChars >= BATCH_CHARS) await flush();
    },
    commit: async () => {
      await flush();
      try {
        await handle.close();
        await rename(temp, file);
      } catch (error) {
        throw unwritable(file, error);
      }
    },
    abort: async () => {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
    },
  };
}
