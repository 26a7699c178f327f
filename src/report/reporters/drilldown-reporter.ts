/**
 * drilldown/<name>.html: one self-contained page per document (no script at all), streamed from
 * documents.jsonl one document at a time. Written into a fresh staging directory that then replaces the
 * old one, so a rebuilt report never mixes old and new pages and a failure leaves the previous set intact.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isDocbenchError } from '../../errors.js';
import { unwritable } from '../../fs-utils.js';
import type { DocumentEvaluation } from '../../run-dir/index.js';
import { DOCBENCH_VERSION } from '../../version.js';
import { drilldownFileName } from '../drilldown-name.js';
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { buildDrilldownView } from '../drilldown-view.js';
import { createDiffBudget, type DiffBudget } from '../markdown-diff.js';
import { loadTemplates } from '../templates.js';
import type { ReportView } from '../view-types.js';
import type { Reporter } from './reporter.js';

const MAX_WRITES_IN_FLIGHT = 16;

export async function renderDrilldownHtml(doc: DocumentEvaluation, view: Pick<ReportView, 'modes' | 'systems' | 'reference'>, gateReasons: string[], runId: string, budget?: DiffBudget): Promise<string> {
  const templates = await loadTemplates();
  return templates.drilldown({ view: buildDrilldownView(doc, view.modes, view.systems, view.reference, gateReasons, `../${RUN_DIR_FILES.reportHtml}`, budget), run_id: runId, report_version: DOCBENCH_VERSION });
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
      for await (const doc of documents()) {
        const html = await renderDrilldownHtml(doc, view, gateReasons.get(doc.document_id) ?? [], view.header.run_id, budget);
        const write: Promise<void> = writeFile(path.join(staging, drilldownFileName(doc.document_id)), html).then(
          () => void inFlight.delete(write),
          (error: unknown) => {
            inFlight.delete(write);
            failure ??= error;
          },
        );
        inFlight.add(write);
        if (inFlight.size >= MAX_WRITES_IN_FLIGHT) await Promise.race(inFlight);
        if (failure !== null) throw failure;
      }
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
