/**
 * drilldown/part-NNNNN.html: self-contained pages (no script at all) of DRILLDOWN_BUNDLE documents each, a
 * section per document, streamed from documents.jsonl a bundle at a time. Written into a fresh staging directory that then replaces the
 * old one, so a rebuilt report never mixes old and new pages and a failure leaves the previous set intact.
 * Parts rendered during the calls (early-reports.ts) are kept where they are the pages this would render.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isDocbenchError } from '../../errors.js';
import { unwritable } from '../../fs-utils.js';
import type { DocumentEvaluation } from '../../run-dir/index.js';
import { DRILLDOWN_BUNDLE, drilldownFileName } from '../drilldown-name.js';
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { renderDrilldownHtml, type ReportInputs } from '../drilldown-html.js';
import { reportInputs, sameReportInputs, type EarlyReportWork } from '../early-reports.js';
import { createDiffBudget } from '../markdown-diff.js';
import type { Reporter } from './reporter.js';

/** Files rendered and written at once (each up to DRILLDOWN_BUNDLE documents). */
const MAX_WRITES_IN_FLIGHT = 4;

/** The early parts this report may keep: those rendered from its own inputs (renderReports removes the others). */
function adoptable(early: EarlyReportWork | undefined, inputs: ReportInputs) {
  return early?.drilldowns && sameReportInputs(early.inputs, inputs) ? early.drilldowns : null;
}

export const drilldownReporter: Reporter = {
  format: 'drilldown',
  output: `${RUN_DIR_FILES.drilldownDir}/`,
  async write({ runDir, inputs: stored, view, documents, early: earlyWork }) {
    const target = runDirPath(runDir, 'drilldownDir');
    const suffix = randomBytes(4).toString('hex');
    const inputs = reportInputs(stored);
    const early = adoptable(earlyWork, inputs);
    const staging = early?.dir ?? path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${suffix}.tmp`);
    const old = path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${suffix}.old`);
    // The table's rows are documents.jsonl's documents in order, with each one's gate reasons named by system.
    const rows = view.documents.rows;
    const gateReasons = new Map(rows.map((row) => [row.id, row.gate_reasons]));
    const budget = early?.budget ?? createDiffBudget();
    // An early part is the page only if it holds the documents of its places and none of them has a gate reason
    // (the early parts were rendered before the gate).
    const kept = (first: number): boolean => {
      const ids = early?.parts.get(drilldownFileName(first));
      return (
        ids !== undefined &&
        ids.length === Math.min(DRILLDOWN_BUNDLE, rows.length - first) &&
        ids.every((id, i) => rows[first + i]!.id === id && rows[first + i]!.gate_reasons.length === 0)
      );
    };
    // The documents of the kept parts that open the file need not be read again.
    let from = 0;
    while (from < rows.length && kept(from)) from += DRILLDOWN_BUNDLE;
    const files = new Set<string>();
    try {
      await mkdir(staging, { recursive: true });
      // Writes overlap with rendering the next pages: a few in flight at once, never an unbounded backlog.
      const inFlight = new Set<Promise<void>>();
      let failure: unknown = null;
      const write = (docs: readonly DocumentEvaluation[], first: number): void => {
        const file = drilldownFileName(first);
        files.add(file);
        if (kept(first)) return;
        const written: Promise<void> = renderDrilldownHtml(docs, inputs, gateReasons, budget)
          .then((html) => writeFile(path.join(staging, file), html))
          .then(
            () => void inFlight.delete(written),
            (error: unknown) => {
              inFlight.delete(written);
              failure ??= error;
            },
          );
        inFlight.add(written);
      };
      for (let first = 0; first < from; first += DRILLDOWN_BUNDLE) files.add(drilldownFileName(first));
      let bundle: DocumentEvaluation[] = [];
      let first = from;
      for await (const doc of documents({ from })) {
        bundle.push(doc);
        if (bundle.length < DRILLDOWN_BUNDLE) continue;
        write(bundle, first);
        first += bundle.length;
        bundle = [];
        if (inFlight.size >= MAX_WRITES_IN_FLIGHT) await Promise.race(inFlight);
        if (failure !== null) throw failure;
      }
      if (bundle.length > 0) write(bundle, first);
      await Promise.all(inFlight);
      if (failure !== null) throw failure;
      // An early part of a place the documents do not reach is no page of this report.
      for (const file of early?.parts.keys() ?? []) if (!files.has(file)) await rm(path.join(staging, file));
      const moved = await rename(target, old).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw error;
        },
      );
      await rename(staging, target).catch(async (error: unknown) => {
        if (moved) await rename(old, target);
        throw error;
      });
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw isDocbenchError(error) ? error : unwritable(target, error);
    } finally {
      await rm(old, { recursive: true, force: true });
    }
    return [`${target}${path.sep}`];
  },
};
