/**
 * One drill-down file's page: the sections of up to DRILLDOWN_BUNDLE documents, each named by its anchor. The
 * drill-down reporter writes them after the calls; early-drilldowns.ts writes complete parts during them.
 */
import type { DocumentEvaluation } from '../run-dir/index.js';
import { RUN_DIR_FILES } from '../run-dir/index.js';
import type { Mode } from '../types.js';
import { DOCBENCH_VERSION } from '../version.js';
import { buildDrilldownView } from './drilldown-view.js';
import type { DiffBudget } from './markdown-diff.js';
import { loadTemplates } from './templates.js';
import type { SystemView } from './view-types.js';

/** What a document's table row and drill-down section are made from besides the document and its gate reasons. */
export interface ReportInputs {
  modes: Mode[];
  systems: SystemView[];
  reference: string | null;
  runId: string;
}

export async function renderDrilldownHtml(
  docs: readonly DocumentEvaluation[],
  inputs: ReportInputs,
  gateReasons: ReadonlyMap<string, string[]>,
  budget?: DiffBudget,
): Promise<string> {
  const templates = await loadTemplates();
  const reportHref = `../${RUN_DIR_FILES.reportHtml}`;
  const documents = docs.map((doc) =>
    buildDrilldownView(
      doc,
      inputs.modes,
      inputs.systems,
      inputs.reference,
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
    run_id: inputs.runId,
    report_version: DOCBENCH_VERSION,
  });
}
