/**
 * Reads and writes a dataset's truth files for the review (docs/view.md, The review). Every write: the document must be in
 * the dataset, its truth file must exist as a regular file inside the dataset's truth/ directory (no
 * symbolic link out), the caller's ETag must match the file's current bytes (a stale tab is refused), then
 * the file is replaced atomically (temp + rename) and one line is appended to
 * `<dataset>/truth-changes.jsonl`. Documents themselves are never opened for writing.
 */
import { createHash } from 'node:crypto';
import { appendFile, lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { DocbenchError, UsageError } from '../errors.js';
import { writeFileAtomic } from '../fs-utils.js';
import { PAGE_BREAK, type DatasetDocument, type Json, type JsonObject } from '../types.js';
import { splitMarkdownPages } from '../dataset/index.js';
import { getAtPath, parseFieldPath, setAtPath } from './field-path.js';

export const TRUTH_CHANGES_FILE = 'truth-changes.jsonl';

/** One line of truth-changes.jsonl. */
export interface TruthChange {
  time: string;
  document: string;
  /** The field path, or null for a markdown page. */
  field_path: string | null;
  /** The 1-based markdown page, or null for a field. */
  page: number | null;
  old: Json;
  new: Json;
  /** The system whose value was accepted, `edit` for a typed value, `undo` for a reverted change. */
  source: string;
  note: string;
  /** The run the reviewer was looking at. */
  run: string;
}

export interface TruthEdit {
  document: string;
  kind: 'field' | 'page';
  path: string | null;
  page: number | null;
  value: Json;
  source: string;
  note: string;
  run: string;
  /** The ETag the editor's copy was loaded with. */
  ifMatch: string;
}

/** A write refused because the file changed since the editor loaded it. */
export class StaleTruthError extends DocbenchError {
  constructor(
    readonly document: string,
    readonly etag: string,
    what = `the truth of ${document}`,
  ) {
    super('TRUTH_STALE', `${what} changed since this page loaded it (in another tab or program): nothing was written`, {
      hint: 'reload the review to see the current truth, then decide again',
    });
  }
}

export function etagOf(bytes: Uint8Array | string): string {
  return `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
}

/** A truth file's current content and its ETag. */
export interface TruthSnapshot {
  text: string;
  etag: string;
}

export async function readTruthSnapshot(file: string): Promise<TruthSnapshot> {
  const bytes = await readFile(file);
  return { text: bytes.toString('utf8'), etag: etagOf(bytes) };
}

/** The field's value in a truth JSON text; undefined for a path the scorer could not have written or that is absent. */
export function readTruthField(truth: Json | undefined, fieldPath: string): Json | undefined {
  try {
    return getAtPath(truth, parseFieldPath(fieldPath));
  } catch {
    return undefined;
  }
}

/** Serialises with the file's own indentation, so a one-value change stays a one-line diff. */
function formatLike(original: string, value: JsonObject): string {
  const indent = /\n(\t|[ ]+)"/.exec(original)?.[1] ?? (original.includes('\n') ? '  ' : '');
  return `${JSON.stringify(value, null, indent)}${original.endsWith('\n') ? '\n' : ''}`;
}

function joinPages(pages: readonly string[]): string {
  return `${pages.join(`\n\n${PAGE_BREAK}\n\n`)}\n`;
}

/**
 * Checks that `file` is a regular file (not a link) whose real location is inside `root`: a dataset may be
 * shared, and a link planted in it must not turn a review into a write elsewhere.
 */
async function confineTruthFile(root: string, file: string): Promise<void> {
  const info = await lstat(file).catch(() => null);
  const realRoot = await realpath(root);
  const realDir = await realpath(path.dirname(file)).catch(() => null);
  if (!info?.isFile() || realDir === null || (realDir !== realRoot && !realDir.startsWith(`${realRoot}${path.sep}`))) {
    throw new UsageError(`${file} is not a regular truth file inside ${root}`, {
      code: 'INPUT_INVALID',
      subject: file,
      hint: 'the review edits only existing truth files of the dataset',
    });
  }
}

/** One write at a time per file inside this process, so the ETag check and the rename are not interleaved. */
const queues = new Map<string, Promise<unknown>>();

export function serialise<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

/** Applies one edit to the dataset at `datasetDir`; resolves to the change logged and the file's new ETag. */
export function applyTruthEdit(
  datasetDir: string,
  doc: DatasetDocument,
  edit: TruthEdit,
): Promise<{ change: TruthChange; etag: string }> {
  const file = edit.kind === 'field' ? doc.truth.json : doc.truth.markdown;
  if (file === undefined) {
    return Promise.reject(
      new UsageError(`${doc.id} has no truth ${edit.kind === 'field' ? 'JSON' : 'markdown'} file to edit`, {
        code: 'INPUT_INVALID',
        subject: doc.id,
        hint: 'create the truth file first; the review corrects existing truth',
      }),
    );
  }
  return serialise(file, async () => {
    await confineTruthFile(path.join(datasetDir, 'truth'), file);
    const current = await readTruthSnapshot(file);
    if (current.etag !== edit.ifMatch) throw new StaleTruthError(doc.id, current.etag);
    let oldValue: Json;
    let text: string;
    if (edit.kind === 'field') {
      const steps = parseFieldPath(edit.path ?? '');
      let root: Json;
      try {
        root = JSON.parse(current.text) as Json;
      } catch (error) {
        throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`, {
          code: 'DATASET_INVALID',
          subject: file,
          cause: error,
        });
      }
      if (root === null || typeof root !== 'object' || Array.isArray(root))
        throw new UsageError(`${file} must hold a JSON object`, { code: 'DATASET_INVALID', subject: file });
      oldValue = getAtPath(root, steps) ?? null;
      setAtPath(root, steps, edit.value);
      text = formatLike(current.text, root);
    } else {
      const pages = splitMarkdownPages(current.text);
      const index = (edit.page ?? 0) - 1;
      if (!Number.isInteger(index) || index < 0 || index > pages.length)
        throw new UsageError(`page ${String(edit.page)} is outside ${file} (${pages.length} pages)`, {
          code: 'INPUT_INVALID',
          subject: 'page',
        });
      if (typeof edit.value !== 'string')
        throw new UsageError('a markdown page must be text', { code: 'INPUT_INVALID', subject: 'value' });
      oldValue = pages[index] ?? '';
      pages[index] = edit.value;
      text = joinPages(pages);
    }
    await writeFileAtomic(file, text);
    const change: TruthChange = {
      time: new Date().toISOString(),
      document: doc.id,
      field_path: edit.kind === 'field' ? edit.path : null,
      page: edit.kind === 'page' ? edit.page : null,
      old: oldValue,
      new: edit.value,
      source: edit.source,
      note: edit.note,
      run: edit.run,
    };
    await appendFile(path.join(datasetDir, TRUTH_CHANGES_FILE), `${JSON.stringify(change)}\n`);
    return { change, etag: etagOf(text) };
  });
}
