/**
 * documents.jsonl: one DocumentEvaluation (formats/documents.ts) per line. Written to a temp file renamed at
 * the end, so readers never see a half-written file; read one line at a time (10,000 documents' texts are
 * never in memory together), each line checked, a bad one named by file, line and path.
 */
import { createReadStream } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { UsageError } from '../errors.js';
import { unwritable } from '../fs-utils.js';
import type { DocumentEvaluation } from './evaluation-types.js';
import { upgradeDocumentV1 } from './upgrade-v1.js';
import { v1SystemName } from './manifest.js';
import { readManifest } from './manifest-file.js';
import { checkShape, parseJsonText, type FileRole } from './check-file.js';
import { runDirPath } from './layout.js';

function documentsRole(runDir: string): FileRole {
  return { file: runDirPath(runDir, 'documents'), hint: `re-create it with: docbench score ${runDir}` };
}

/** Where to start reading documents.jsonl. */
export interface ReadDocumentsOptions {
  /** The documents before this position are passed over unread (neither parsed nor checked). @default 0 */
  from?: number;
}

/**
 * Streams documents.jsonl, one checked DocumentEvaluation at a time; schema-1 lines are read as the run's
 * single system and the incumbent. @throws UsageError (exit 2) when missing or damaged.
 */
export async function* readDocuments(
  runDir: string,
  { from = 0 }: ReadDocumentsOptions = {},
): AsyncGenerator<DocumentEvaluation> {
  const role = documentsRole(runDir);
  const stream = createReadStream(role.file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new UsageError(
      `${role.file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): the run has not been scored`,
      { code: 'INPUT_INVALID', subject: role.file, hint: `score it with: docbench score ${runDir}`, cause: error },
    );
  }
  const { checkDocumentLine, checkDocumentLineV1 } = await import('./formats/documents.js');
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  let passedOver = 0;
  // The single system's name of a schema-1 run, read from run.json at its first line.
  let v1System: { primary: string } | null = null;
  try {
    for await (const line of lines) {
      number++;
      if (line.trim() === '') continue;
      if (passedOver < from) {
        passedOver++;
        continue;
      }
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
  /** Appends the document's line; resolves with the line's JSON text as written (without its newline). */
  write(document: DocumentEvaluation): Promise<string>;
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
      const text = JSON.stringify(document);
      batch.push(`${text}\n`);
      batchChars += text.length + 1;
      if (batchChars >= BATCH_CHARS) await flush();
      return text;
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
