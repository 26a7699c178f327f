/**
 * The reports' per-document work done while a run's calls go on (docs/performance.md, "The tail"): early scoring
 * hands over each document's documents.jsonl line as it writes it, parsed here as a reader of documents.jsonl
 * parses it; the documents table's row is made of it, and every complete drill-down part of DRILLDOWN_BUNDLE
 * documents is rendered into a staging directory of the run. This happens before there is a summary or a gate
 * verdict, so it assumes the modes, systems, reference and run id the run started with and no gate reason: the
 * report keeps the rows only when its view has those same inputs and its gate no document failure
 * (usableEarlyRows), and the drill-down reporter keeps a part only when it is the page it would render
 * (drilldown-reporter.ts); everything else is made from the stored run as before.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { RUN_DIR_FILES, type DocumentEvaluation, type RunManifest, type StoredRun } from '../run-dir/index.js';
import { createDocumentRows, selectModes, type DocumentRows } from './build-view.js';
import { DRILLDOWN_BUNDLE, drilldownFileName } from './drilldown-name.js';
import { renderDrilldownHtml, type ReportInputs } from './drilldown-html.js';
import { buildSystemViews, type SystemsOutline } from './leaderboard-view.js';
import { createDiffBudget, type DiffBudget } from './markdown-diff.js';

export type { ReportInputs } from './drilldown-html.js';

/**
 * Rows made during the calls are held through scoring and statistics, which the rows made after them are not:
 * only the first documents' are made early (~2 KB a row), so a run of 100,000 documents holds at most ~40 MB
 * more at its peak; the view makes the rest from documents.jsonl.
 */
const MAX_EARLY_ROWS = 20_000;

/** Drill-down parts already written into a staging directory of the run. */
export interface RenderedDrilldowns {
  /** The staging directory (inside the run directory), which the drill-down reporter may adopt. */
  dir: string;
  /** Per part file name, the ids of its documents in order. */
  parts: ReadonlyMap<string, readonly string[]>;
  /** The markdown diffs' time budget, as far as these parts spent it. */
  budget: DiffBudget;
}

/** What was made during the calls, and from which inputs. */
export interface EarlyReportWork {
  inputs: ReportInputs;
  /** The rows of documents.jsonl's first documents; null when none could be made. */
  rows: DocumentRows | null;
  drilldowns: RenderedDrilldowns | null;
}

export interface EarlyReports {
  /** The document at `position` of documents.jsonl's order: its line as written. */
  add(position: number, line: string): Promise<void>;
  /** Stops taking documents and waits for the parts being written; null (and nothing left on disk) when nothing
   * was made. A part that failed to render or write leaves every part to the reporter. */
  finish(): Promise<EarlyReportWork | null>;
}

/** The inputs the report's view will have, as far as they are known when the calls start. */
export function earlyReportInputs(manifest: RunManifest, systems: SystemsOutline): ReportInputs {
  return {
    // No summary yet: the modes run.json plans.
    modes: selectModes({ manifest, summary: { systems: {} } }),
    systems: buildSystemViews(systems),
    reference: systems.reference,
    runId: manifest.run_id,
  };
}

/** The inputs of the stored run's report: what its view's rows and drill-downs are made from. */
export function reportInputs(inputs: Pick<StoredRun, 'manifest' | 'summary'>): ReportInputs {
  return {
    modes: selectModes(inputs),
    systems: buildSystemViews(inputs.summary),
    reference: inputs.summary.reference,
    runId: inputs.manifest.run_id,
  };
}

/** True when what was made from `a` is what `b` would make (the same documents given). */
export function sameReportInputs(a: ReportInputs, b: ReportInputs): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The early rows, when they are the rows the stored run's view would make of its first documents. */
export function usableEarlyRows(early: EarlyReportWork | undefined, inputs: StoredRun): DocumentRows | null {
  if (!early?.rows || (inputs.gate?.document_failures.length ?? 0) > 0) return null;
  return sameReportInputs(early.inputs, reportInputs(inputs)) ? early.rows : null;
}

export function startEarlyReports(
  runDir: string,
  inputs: ReportInputs,
  { maxRows = MAX_EARLY_ROWS }: { maxRows?: number } = {},
): EarlyReports {
  const dir = path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${randomBytes(4).toString('hex')}.tmp`);
  const budget = createDiffBudget();
  const parts = new Map<string, readonly string[]>();
  const writes = new Set<Promise<void>>();
  const noReasons = new Map<string, string[]>();
  const rows = createDocumentRows(inputs.modes, inputs.systems, inputs.reference, noReasons);
  let rowsValid = true;
  let created: Promise<unknown> | null = null;
  let bundle: DocumentEvaluation[] = [];
  let partsFailed = false;
  let finished = false;

  const render = async (docs: DocumentEvaluation[], file: string): Promise<void> => {
    created ??= mkdir(dir, { recursive: true });
    await created;
    const html = await renderDrilldownHtml(docs, inputs, noReasons, budget);
    const ids = docs.map((doc) => doc.document_id);
    const written = writeFile(path.join(dir, file), html).then(
      () => void parts.set(file, ids),
      () => {
        partsFailed = true;
      },
    );
    writes.add(written);
    void written.finally(() => writes.delete(written));
  };

  const addRow = (position: number, doc: DocumentEvaluation): void => {
    // The rows are those of the first documents, every one of them.
    if (!rowsValid || rows.rows.length >= maxRows) return;
    if (position !== rows.rows.length) {
      rowsValid = false;
      return;
    }
    try {
      rows.add(doc);
    } catch {
      rowsValid = false;
    }
  };

  const addToPart = async (position: number, doc: DocumentEvaluation): Promise<void> => {
    if (partsFailed) return;
    // A part holds the documents of its places only: one handed over out of turn leaves its part to the
    // reporter.
    const start = position - (position % DRILLDOWN_BUNDLE);
    if (position !== start + bundle.length) bundle = [];
    if (position !== start + bundle.length) return;
    bundle.push(doc);
    if (bundle.length < DRILLDOWN_BUNDLE) return;
    const docs = bundle;
    bundle = [];
    await render(docs, drilldownFileName(position)).catch(() => {
      partsFailed = true;
    });
  };

  return {
    async add(position, line) {
      if (finished) return;
      const doc = JSON.parse(line) as DocumentEvaluation;
      addRow(position, doc);
      await addToPart(position, doc);
    },
    async finish() {
      finished = true;
      while (writes.size > 0) await Promise.all(writes);
      const drilldowns = !partsFailed && parts.size > 0 ? { dir, parts, budget } : null;
      if (!drilldowns && created) await rm(dir, { recursive: true, force: true });
      const made = rowsValid && rows.rows.length > 0 ? { rows: rows.rows, errorCodes: rows.errorCodes } : null;
      return made || drilldowns ? { inputs, rows: made, drilldowns } : null;
    },
  };
}
