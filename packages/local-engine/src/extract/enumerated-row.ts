/**
 * The items of an enumerated list printed along one row of a form's box (`A. J06.9   B. K21.9   C. I10` under
 * `21. DIAGNOSIS OR NATURE OF ILLNESS OR INJURY`): the layout splits the row into lines at its wide gaps, and the
 * value read under the caption is only the items that start under the caption's words (docs/reference.md,
 * "Forms").
 */
import type { DocumentIndex, IndexedLine } from './document-index.js';

/** An item of a list: it starts with its item letter (`B.`, `c)`) or is one token holding a digit (a code). */
const ITEM = /^(?:[A-La-l][.)]|[^\s]*\d[^\s]*$)/;

/**
 * The text of `value` (a list's value read under its caption) continued with the lines after it on its row that
 * are items of the list, up to the next box: a line that starts after a rule, or one that is no item, ends it.
 * The value itself must be items (codes), else it is returned as read.
 */
export function continueEnumeratedRow(index: DocumentIndex, value: IndexedLine, text: string): string {
  const items = text
    .replace(/(^|\s)[A-La-l][.)]/g, '$1')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (items.length === 0 || !items.every((item) => /\d/.test(item))) return text;
  const after = index.lines
    .filter((l) => l.page === value.page && l.rowIndex === value.rowIndex && l.line.box.x0 >= value.line.box.x1)
    .sort((a, b) => a.line.box.x0 - b.line.box.x0);
  const parts = [text];
  for (const next of after) {
    if (next.line.fragments[0]?.afterRule || !ITEM.test(next.line.text.trim())) break;
    parts.push(next.line.text);
  }
  return parts.join(' ');
}
