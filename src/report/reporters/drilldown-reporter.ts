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
import type { DocumentEvaluation, StoredRun } from '../../run-dir/index.js';
import { DOCBENCH_VERSION } from '../../version.js';
import { DRILLDOWN_BUNDLE, drilldownFileName } from '../drilldown-name.js';
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { selectModes } from '../build-view.js';
import { buildDrilldownView } from '../drilldown-view.js';
import { documentGateReasons, gateReasonsBySystem } from '../gate-reasons.js';
import { buildSystemViews } from '../leaderboard-view.js';
import { createDiffBudget, type DiffBudget } from '../markdown-diff.js';
import { loadTemplates } from '../templates.js';
import type { ReportView } from '../view-types.js';
import type { Reporter } from './reporter.js';

/** Files rendered and written at once (each up to DRILLDOWN_BUNDLE documents). */
const MAX_WRITES_IN_FLIGHT = 4;

/** What every drill-down page shows beside its documents: from the stored run alone, not the report's view. */
export interface DrilldownRun extends Pick<ReportView, 'modes' | 'systems' | 'reference'> {
  runId: string;
  /** gate.json's reasons by system and document (gateReasonsBySystem). */
  gateReasons: ReadonlyMap<string, string[]>;
}

export function describeDrilldownRun(inputs: Pick<StoredRun, 'manifest' | 'summary' | 'gate'>): DrilldownRun {
  return {
    modes: selectModes(inputs),
    systems: buildSystemViews(inputs.summary),
    reference: inputs.summary.reference,
    runId: inputs.manifest.run_id,
    gateReasons: gateReasonsBySystem(inputs.summary, inputs.gate),
  };
}

/**
 * One drill-down file: the pages of up to DRILLDOWN_BUNDLE documents, each a section named by its anchor.
 * `first` is the position of the first document in documents.jsonl (for the page title).
 */
export async function renderDrilldownHtml(
  docs: readonly DocumentEvaluation[],
  run: DrilldownRun,
  budget?: DiffBudget,
): Promise<string> {
  const templates = await loadTemplates();
  const reportHref = `../${RUN_DIR_FILES.reportHtml}`;
  const documents = docs.map((doc) =>
    buildDrilldownView(
      doc,
      run.modes,
      run.systems,
      run.reference,
      documentGateReasons(doc, run.systems, run.gateReasons),
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
    run_id: run.runId,
    report_version: DOCBENCH_VERSION,
  });
}

export const drilldownReporter: Reporter = {
  format: 'drilldown',
  output: `${RUN_DIR_FILES.drilldownDir}/`,
  write: ({ runDir, inputs, documents }) => writeDrilldowns(runDir, inputs, documents),
};

/** Writes one drill-down file. */
export type DrilldownFileWriter = (file: string, html: string) => Promise<void>;

/**
 * drilldown/ of a stored run, from `inputs` and its documents alone (no report view), so that it can be written
 * on a thread of its own beside the other reports (drilldown-thread.ts). Resolves to the directory written.
 * `writeHtml` writes each file (node:fs' thread pool by default; the thread writes its own, see there).
 */
export async function writeDrilldowns(
  runDir: string,
  inputs: Pick<StoredRun, 'manifest' | 'summary' | 'gate'>,
  documents: () => AsyncIterable<DocumentEvaluation>,
  writeHtml: DrilldownFileWriter = writeFile,
): Promise<string[]> {
  const run = describeDrilldownRun(inputs);
  const target = runDirPath(runDir, 'drilldownDir');
  const suffix = randomBytes(4).toString('hex');
  const staging = path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${suffix}.tmp`);
  const old = path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${suffix}.old`);
  const budget = createDiffBudget();
  try {
    await mkdir(staging, { recursive: true });
    // Writes overlap with rendering the next pages: a few in flight at once, never an unbounded backlog.
    const inFlight = new Set<Promise<void>>();
    let failure: unknown = null;
    const write = (docs: readonly DocumentEvaluation[], file: string): void => {
      const written: Promise<void> = renderDrilldownHtml(docs, run, budget)
        .then((html) => writeHtml(path.join(staging, file), html))
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
}
