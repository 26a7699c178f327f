/**
 * drilldown/part-NNNNN.html: self-contained pages (no script at all) of DRILLDOWN_BUNDLE documents each, a
 * section per document, streamed from documents.jsonl a bundle at a time. Written into a fresh staging directory that then replaces the
 * old one, so a rebuilt report never mixes old and new pages and a failure leaves the previous set intact.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isDocbenchError } from '../../errors.js';
import { unwritable } from '../../fs-utils.js';
import type { DocumentEvaluation } from '../../run-dir/index.js';
import { DOCBENCH_VERSION } from '../../version.js';
import { DRILLDOWN_BUNDLE, drilldownFileName } from '../drilldown-name.js';
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { buildDrilldownView } from '../drilldown-view.js';
import { createDiffBudget, type DiffBudget } from '../markdown-diff.js';
import { loadTemplates } from '../templates.js';
import type { ReportView } from '../view-types.js';
import type { Reporter } from './reporter.js';

/** Files rendered and written at once (each up to DRILLDOWN_BUNDLE documents). */
const MAX_WRITES_IN_FLIGHT = 4;

/**
 * One drill-down file: the pages of up to DRILLDOWN_BUNDLE documents, each a section named by its anchor.
 * `first` is the position of the first document in documents.jsonl (for the page title).
 */
export async function renderDrilldownHtml(
  docs: readonly DocumentEvaluation[],
  view: Pick<ReportView, 'modes' | 'systems' | 'reference'>,
  gateReasons: ReadonlyMap<string, string[]>,
  runId: string,
  budget?: DiffBudget,
): Promise<string> {
  const templates = await loadTemplates();
  const reportHref = `../${RUN_DIR_FILES.reportHtml}`;
  const documents = docs.map((doc) =>
    buildDrilldownView(
      doc,
      view.modes,
      view.systems,
      view.reference,
      gateReasons.get(doc.document_id) ?? [],
      reportHref,
      budget,
    ),
  );
  const title =
    documents.length === 1
      ? documents[0]!.title
      : `${documents[0]?.id ?? ''} … ${documents.at(-1)?.id ?? ''}: docbench drill-downs`;
  return templates.drilldown({
    documents,
    title,
    report_href: reportHref,
    run_id: runId,
    report_version: DOCBENCH_VERSION,
  });
}

export const drilldownReporter: Reporter = {
  format: 'drilldown',
  output: `${RUN_DIR_FILES.drilldownDir}/`,
  async write({ runDir, view, documents }) {
    const target = runDirPath(runDir, 'drilldownDir');
    const suffix = randomBytes(4).toString('hex');
    const staging = path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${suffix}.tmp`);
    const old = path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${suffix}.old`);
    // The table's rows already hold each document's gate reasons, named by system.
    const gateReasons = new Map(view.documents.rows.map((row) => [row.id, row.gate_reasons]));
    const budget = createDiffBudget();
    try {
      await mkdir(staging, { recursive: true });
      // Writes overlap with rendering the next pages: a few in flight at once, never an unbounded backlog.
      const inFlight = new Set<Promise<void>>();
      let failure: unknown = null;
      const write = (docs: readonly DocumentEvaluation[], file: string): void => {
        const written: Promise<void> = renderDrilldownHtml(docs, view, gateReasons, view.header.run_id, budget)
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
      let bundle: DocumentEvaluation[] = [];
      let index = 0;
      for await (const doc of documents()) {
        bundle.push(doc);
        index++;
        if (bundle.length < DRILLDOWN_BUNDLE) continue;
        write(bundle, drilldownFileName(index - 1));
        bundle = [];
        if (inFlight.size >= MAX_WRITES_IN_FLIGHT) await Promise.race(inFlight);
        if (failure !== null) throw failure;
      }
      if (bundle.length > 0) write(bundle, drilldownFileName(index - 1));
      await Promise.all(inFlight);
      if (failure !== null) throw failure;
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
