/**
 * `checks.jsonl` at a dataset's root: one check per line in olmOCR-bench's format (docs/checks.md). Read and
 * checked line by line, each problem naming its line and field; a check must name a document of the dataset
 * (its path relative to documents/) and a page the document has.
 */
import path from 'node:path';
import { isDocbenchError, UsageError } from '../errors.js';
import type { DatasetDocument } from '../types.js';
import { parseCheck, type Check } from '../checks/index.js';
import { DOCUMENTS_DIR } from './format.js';
import { readUtf8File } from './read.js';

export const CHECKS_FILE = 'checks.jsonl';

/** A problem of one line of checks.jsonl. */
export interface CheckLineProblem {
  line: number;
  message: string;
}

/** A document's path relative to documents/, as a check's `pdf` names it (POSIX separators). */
export function checkDocumentPath(root: string, document: Pick<DatasetDocument, 'file'>): string | undefined {
  if (document.file === undefined) return undefined;
  return path.relative(path.join(root, DOCUMENTS_DIR), document.file).split(path.sep).join('/');
}

/**
 * The checks of `text` (checks.jsonl's content), and every problem: a line that is not JSON or not a valid
 * check, a repeated id, a document or page the dataset does not have. Blank lines are skipped.
 */
export function parseChecksFile(
  text: string,
  root: string,
  documents: readonly DatasetDocument[],
): { checks: Check[]; problems: CheckLineProblem[] } {
  const byPath = new Map<string, DatasetDocument>();
  for (const document of documents) {
    const relative = checkDocumentPath(root, document);
    if (relative !== undefined) byPath.set(relative, document);
  }
  const checks: Check[] = [];
  const problems: CheckLineProblem[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ line, message: `is not valid JSON: ${(error as Error).message}` });
      return;
    }
    let check: Check;
    try {
      check = parseCheck(value);
    } catch (error) {
      if (!isDocbenchError(error)) throw error;
      problems.push({ line, message: error.message });
      return;
    }
    const first = seen.get(check.id);
    if (first !== undefined) {
      problems.push({ line, message: `check "${check.id}": field "id" repeats the id of line ${first}` });
      return;
    }
    seen.set(check.id, line);
    const document = byPath.get(check.pdf);
    if (!document) {
      problems.push({
        line,
        message: `check "${check.id}": field "pdf" names "${check.pdf}", not a document of documents/`,
      });
      return;
    }
    if (typeof document.pages === 'number' && check.page > document.pages) {
      problems.push({
        line,
        message: `check "${check.id}": field "page" is ${check.page}, but ${check.pdf} has ${document.pages} page${document.pages === 1 ? '' : 's'}`,
      });
      return;
    }
    checks.push(check);
  });
  return { checks, problems };
}

/**
 * The dataset's checks, read again after validation (which has reported every problem): for scoring.
 * @throws UsageError naming the file and line, if the file changed since.
 */
export async function readDatasetChecks(dataset: {
  root: string;
  checksFile?: string;
  documents: readonly DatasetDocument[];
}): Promise<Check[]> {
  if (dataset.checksFile === undefined) return [];
  const { checks, problems } = parseChecksFile(
    (await readUtf8File(dataset.checksFile)).replace(/^\uFEFF/, ''),
    dataset.root,
    dataset.documents,
  );
  const first = problems[0];
  if (first) {
    throw new UsageError(`${dataset.checksFile} line ${first.line}: ${first.message}`, {
      code: 'DATASET_INVALID',
      hint: 'run `docbench dataset validate` on the dataset and fix every line it names',
    });
  }
  return checks;
}
