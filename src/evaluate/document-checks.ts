/**
 * Rule checks joined with a stored run (docs/checks.md, "Scoring"): each document's checks (checks.jsonl, and
 * a baseline check where the document has none, as olmOCR-bench adds) decided on every repeat of each system's
 * markdown, and the run's pass rates per system with a bootstrap interval over documents.
 */
import { checkDocumentPath, readDatasetChecks } from '../dataset/index.js';
import type { Dataset, DatasetDocument } from '../types.js';
import type { CallRecord, SystemDocument } from '../run-dir/index.js';
import {
  type Check,
  type CheckResult,
  countCategories,
  decideCheck,
  macroOver,
  summarizeChecks,
  withBaselineChecks,
} from '../checks/index.js';
import { pairedBootstrap } from '../score/index.js';

type DocumentChecks = NonNullable<SystemDocument['checks']>;

/** The checks of each selected document, by document id; empty when the dataset has no checks.jsonl. */
export async function loadDocumentChecks(
  dataset: Dataset,
  selected: readonly DatasetDocument[],
): Promise<Map<string, Check[]>> {
  const byDocument = new Map<string, Check[]>();
  if (dataset.checksFile === undefined) return byDocument;
  const idByPath = new Map<string, string>();
  for (const document of selected) {
    const relative = checkDocumentPath(dataset.root, document);
    if (relative !== undefined) idByPath.set(relative, document.id);
  }
  const checks = withBaselineChecks(await readDatasetChecks(dataset), [...idByPath.keys()]);
  for (const check of checks) {
    const id = idByPath.get(check.pdf);
    if (id === undefined) continue; // a document outside the run's selection
    byDocument.set(id, [...(byDocument.get(id) ?? []), check]);
  }
  return byDocument;
}

/**
 * One system's checks on one document, from its /compare records of every repeat (a failed call is a repeat
 * without output); undefined when the system made no /compare call for it.
 */
export function scoreDocumentChecks(
  checks: readonly Check[],
  records: readonly CallRecord[],
): (DocumentChecks & { results: CheckResult[] }) | undefined {
  const compare = records.filter((r) => r.endpoint === 'compare');
  if (compare.length === 0 || checks.length === 0) return undefined;
  const repeats = Math.max(...compare.map((r) => r.repeat)) + 1;
  const pages: Array<string[] | null> = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    const record = compare.find((r) => r.repeat === repeat);
    pages.push(
      record?.status === 'ok' && record.endpoint === 'compare' && record.result
        ? record.result.pages.map((p) => p.content)
        : null,
    );
  }
  const results = checks.map((check) => decideCheck(check, pages));
  const decided = results.filter((r) => r.status !== 'unsupported');
  const passed = decided.filter((r) => r.status === 'passed').length;
  return {
    total: decided.length,
    passed,
    pass_rate: decided.length === 0 ? null : passed / decided.length,
    results,
  };
}

/** summary.json's `checks` block of one system, from its documents' results (in the run's document order). */
export function checksBlock(perDocument: ReadonlyArray<readonly CheckResult[]>, seed: number) {
  const summary = summarizeChecks(perDocument.flat());
  const counts = perDocument.map(countCategories);
  const macro = (indices: Uint32Array): number => macroOver(counts, indices);
  const ci =
    perDocument.length >= 2 && summary.macro_pass_rate !== null
      ? pairedBootstrap(perDocument.length, macro, { seed }).interval
      : null;
  return { ...summary, macro_ci95: ci };
}
