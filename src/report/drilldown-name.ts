/**
 * Where a document's drill-down is: drilldown/part-NNNNN.html holds DRILLDOWN_BUNDLE documents each, in
 * documents.jsonl's order, and a document is the section of its bundle named by its anchor. One file per
 * document made the file system's cost dominate large runs (docs/run-directory.md).
 *
 * Document ids come from the dataset (untrusted, any unicode, possibly `../x` or differing only in case): the
 * anchor keeps a readable ASCII prefix and adds a hash of the exact id, so anchors are unique, safe as ids and
 * need no escaping inside an href.
 */
import { createHash } from 'node:crypto';
import { RUN_DIR_FILES } from '../run-dir/index.js';

/** Documents per drill-down file. */
export const DRILLDOWN_BUNDLE = 100;

export function drilldownAnchor(documentId: string): string {
  const prefix = documentId
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 60)
    .replace(/^_+|_+$/g, '');
  const hash = createHash('sha256').update(documentId, 'utf8').digest('hex').slice(0, 10);
  return `${prefix ? `${prefix}-` : ''}${hash}`;
}

/** The file of the document at `index` (0-based, in documents.jsonl's order). */
export function drilldownFileName(index: number): string {
  return `part-${String(Math.floor(index / DRILLDOWN_BUNDLE) + 1).padStart(5, '0')}.html`;
}

/** The link relative to the run directory (and to report.html), with `/` separators. */
export function drilldownHref(documentId: string, index: number): string {
  return `${RUN_DIR_FILES.drilldownDir}/${drilldownFileName(index)}#${drilldownAnchor(documentId)}`;
}
