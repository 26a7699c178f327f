/**
 * File names for drill-down pages. Document ids come from the dataset (untrusted, any unicode, possibly
 * `../x` or differing only in case): the name keeps a readable ASCII prefix and adds a hash of the exact id,
 * so names are unique, safe on every file system, and need no escaping inside an href.
 */
import { createHash } from 'node:crypto';
import { RUN_DIR_FILES } from '../run-dir/index.js';

export function drilldownFileName(documentId: string): string {
  const prefix = documentId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60).replace(/^_+|_+$/g, '');
  const hash = createHash('sha256').update(documentId, 'utf8').digest('hex').slice(0, 10);
  return `${prefix ? `${prefix}-` : ''}${hash}.html`;
}

/** The path relative to the run directory (and to report.html), with `/` separators. */
export function drilldownHref(documentId: string): string {
  return `${RUN_DIR_FILES.drilldownDir}/${drilldownFileName(documentId)}`;
}
