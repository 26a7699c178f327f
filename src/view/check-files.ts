/**
 * Adds a rule check to a dataset's `checks.jsonl` from the review (docs/view.md, "Adding a rule check"; the
 * line's format in docs/checks.md). As for a truth edit: the caller's ETag must match the file's current bytes
 * (an absent file has the ETag of empty text), the check must pass `parseCheck` before anything is written,
 * the file is rewritten atomically (temp + rename, never through a symbolic link), and one line is appended to
 * `<dataset>/truth-changes.jsonl`.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../fs-utils.js';
import type { DatasetDocument, JsonObject } from '../types.js';
import { parseCheck } from '../checks/index.js';
import { CHECKS_FILE, checkDocumentPath } from '../dataset/index.js';
import { etagOf, serialise, StaleTruthError, TRUTH_CHANGES_FILE } from './truth-files.js';

/** The check types the review authors: text present or absent on a page, and one text before another. */
export const AUTHORED_CHECK_TYPES = ['present', 'absent', 'order'] as const;
export type AuthoredCheckType = (typeof AUTHORED_CHECK_TYPES)[number];

export interface CheckAddition {
  document: string;
  /** 1-based page of the document's markdown. */
  page: number;
  type: string;
  /** For present/absent. */
  text?: unknown;
  /** For order. */
  before?: unknown;
  after?: unknown;
  category?: unknown;
  /** Whose markdown the text was selected in: `truth` or a system's name. */
  source: string;
  note: string;
  run: string;
  /** The ETag checks.jsonl was read with. */
  ifMatch: string;
}

/** The line truth-changes.jsonl records for an added check: `check` is its id, `new` the line written. */
export interface CheckChange {
  time: string;
  document: string;
  check: string;
  page: number;
  old: null;
  new: JsonObject;
  source: string;
  note: string;
  run: string;
}

function refuse(field: string, problem: string): never {
  throw new UsageError(`check: field "${field}" ${problem}`, {
    code: 'INPUT_INVALID',
    subject: field,
    hint: 'select the text in a markdown page of the review, then choose present, absent or before-after',
  });
}

/** The ids of checks.jsonl's lines (lines that are not JSON objects are `docbench dataset validate`'s to report). */
function idsOf(text: string): Set<string> {
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    try {
      const value = JSON.parse(line) as { id?: unknown } | null;
      if (typeof value?.id === 'string') ids.add(value.id);
    } catch {
      // not a check line
    }
  }
  return ids;
}

/** `<document>-<type>-<6 hex digits>`, drawn again until no line of the file has it. */
function freshId(document: string, type: string, taken: ReadonlySet<string>): string {
  for (;;) {
    const id = `${document}-${type}-${randomBytes(3).toString('hex')}`;
    if (!taken.has(id)) return id;
  }
}

/** The check's line in olmOCR-bench's format, before validation. */
function checkLine(root: string, doc: DatasetDocument, addition: CheckAddition, id: string): JsonObject {
  const pdf = checkDocumentPath(root, doc);
  if (pdf === undefined) refuse('pdf', `cannot name ${doc.id}: it has no document file under documents/`);
  if (!(AUTHORED_CHECK_TYPES as readonly string[]).includes(addition.type))
    refuse('type', `must be one of ${AUTHORED_CHECK_TYPES.join(', ')}, got ${JSON.stringify(addition.type)}`);
  if (typeof doc.pages === 'number' && addition.page > doc.pages)
    refuse('page', `is ${addition.page}, but ${pdf} has ${doc.pages} page${doc.pages === 1 ? '' : 's'}`);
  const texts =
    addition.type === 'order' ? { before: addition.before, after: addition.after } : { text: addition.text };
  const category = addition.category === undefined || addition.category === '' ? {} : { category: addition.category };
  // Values not yet checked (a number as text …) are parseCheck's to refuse, naming the field.
  const line: Record<string, unknown> = { pdf, page: addition.page, id, type: addition.type, ...texts };
  return { ...line, max_diffs: 0, checked: 'verified', ...category } as JsonObject;
}

/** Appends one check to `<datasetDir>/checks.jsonl`; resolves to the change logged and the file's new ETag. */
export function addCheck(
  datasetDir: string,
  doc: DatasetDocument,
  addition: CheckAddition,
): Promise<{ change: CheckChange; etag: string }> {
  const file = path.join(datasetDir, CHECKS_FILE);
  return serialise(file, async () => {
    const info = await lstat(file).catch(() => null);
    if (info !== null && !info.isFile())
      throw new UsageError(`${file} is not a regular file`, {
        code: 'INPUT_INVALID',
        subject: file,
        hint: 'the review appends only to a checks.jsonl that is a plain file of the dataset',
      });
    const current = info === null ? '' : await readFile(file, 'utf8');
    if (etagOf(current) !== addition.ifMatch) throw new StaleTruthError(doc.id, etagOf(current), file);
    const line = checkLine(datasetDir, doc, addition, freshId(doc.id, addition.type, idsOf(current)));
    // Validated as `docbench dataset validate` reads the line; a UsageError names the field.
    parseCheck(line);
    const text = `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${JSON.stringify(line)}\n`;
    await writeFileAtomic(file, text);
    const change: CheckChange = {
      time: new Date().toISOString(),
      document: doc.id,
      check: line.id as string,
      page: addition.page,
      old: null,
      new: line,
      source: addition.source,
      note: addition.note,
      run: addition.run,
    };
    await appendFile(path.join(datasetDir, TRUTH_CHANGES_FILE), `${JSON.stringify(change)}\n`);
    return { change, etag: etagOf(text) };
  });
}

/** checks.jsonl's ETag (that of empty text when the dataset has none): what an addition must send in If-Match. */
export async function checksEtag(datasetDir: string): Promise<string> {
  const text = await readFile(path.join(datasetDir, CHECKS_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return etagOf(text);
}
