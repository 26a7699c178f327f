/**
 * report.html: one self-contained page (inline CSS, one inline script allowed by its CSP hash, inline SVG,
 * the document table's data as escaped JSON). Works from file:// with no network. Drill-downs are separate
 * files (see drilldown-reporter.ts), so 10,000 documents stay a few MB.
 */
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { writeFileAtomic } from '../../fs-utils.js';
import { toScriptJsonHtml } from '../embed-json.js';
import { loadTemplates } from '../templates.js';
import { readColumn } from '../document-row.js';
import type { ReportView } from '../view-types.js';
import type { Reporter } from './reporter.js';

/** What the page's script needs: per row the values of the table's columns, without what only the CSV uses. */
export function toClientData(view: ReportView): unknown {
  return {
    columns: view.documents.columns.map((c) => ({ key: c.key, format: c.format })),
    tag_keys: view.documents.tag_keys,
    rows: view.documents.rows.map((row) => {
      const dashboard = row.systems.find((c) => c.dashboard_url !== null) ?? null;
      return {
        id: row.id,
        status: row.status,
        errors: row.errors,
        tags: row.tags,
        values: Object.fromEntries(view.documents.columns.map((c) => [c.key, readColumn(row, c)])),
        dashboard_url: dashboard?.dashboard_url ?? null,
        dashboard_href: dashboard?.dashboard_href ?? null,
        drilldown: row.drilldown,
        gate_reasons: row.gate_reasons,
      };
    }),
  };
}

export async function renderReportHtml(view: ReportView): Promise<string> {
  // handlebars loads with the first page rendered, not with the report module (CONTRIBUTING.md, Habits).
  const [templates, { default: Handlebars }] = await Promise.all([loadTemplates(), import('handlebars')]);
  return templates.report({
    view,
    data: toScriptJsonHtml(toClientData(view)),
    // Our own static script (not data): placed raw inside <script>, allowed by its hash in the CSP.
    script: new Handlebars.SafeString(templates.script),
    csp: { script_hash: templates.scriptHash },
  });
}

export const htmlReporter: Reporter = {
  format: 'html',
  output: RUN_DIR_FILES.reportHtml,
  async write({ runDir, view }) {
    const file = runDirPath(runDir, 'reportHtml');
    await writeFileAtomic(file, await renderReportHtml(view));
    return [file];
  },
};
