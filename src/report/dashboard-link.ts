/**
 * Where a document's "open the comparison view" link goes. A real service's dashboard_url stays as the
 * service returned it (shown as a link only when it is a safe http(s) URL). On the embedded engine, that URL
 * names a port that closed with the run, so the link goes to the page the run wrote beside its reports
 * (`comparisons/<id>.html`, see src/run/comparison-pages.ts), relative to the page that links it.
 */
import { toSafeHref } from '../render/index.js';
import { comparisonPagePath, type SystemDocument } from '../run-dir/index.js';

export interface DashboardLink {
  /** What the CSV and the text show: the service's URL, or the page's path inside the run directory. */
  url: string | null;
  /** What a link points at, or null when the value must stay text. */
  href: string | null;
}

/**
 * @param local whether the run used the embedded engine (run.json `service.local`)
 * @param toRunDir the relative path from the linking page to the run directory: '' or '../'
 */
export function resolveDashboardLink(
  doc: Pick<SystemDocument, 'dashboard_url' | 'comparison_id'>,
  local: boolean,
  toRunDir: '' | '../',
): DashboardLink {
  const page = local ? comparisonPagePath(doc.comparison_id) : null;
  if (page !== null) return { url: page, href: `${toRunDir}${page}` };
  const url = typeof doc.dashboard_url === 'string' ? doc.dashboard_url : null;
  return { url, href: toSafeHref(url) };
}
