/** Fragments → lines → rows: the first step of the layout model, shared by the PDF text layer and OCR. */
import { unionBox, type Fragment, type Row, type TextLine } from './types.js';

/** A gap wider than this many font sizes between fragments on one baseline starts a new line (a column). */
const COLUMN_GAP_EM = 1.2;
/** Two fragments share a baseline when their vertical overlap is at least this share of the smaller one. */
const SAME_ROW_OVERLAP = 0.5;

function verticalOverlap(a: { y0: number; y1: number }, b: { y0: number; y1: number }): number {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const smaller = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return smaller <= 0 ? 0 : overlap / smaller;
}

function joinFragments(fragments: Fragment[]): TextLine {
  let text = '';
  let previous: Fragment | null = null;
  for (const fragment of fragments) {
    if (previous) {
      const gap = fragment.box.x0 - previous.box.x1;
      const needsSpace =
        gap > 0.15 * Math.min(previous.fontSize, fragment.fontSize) && !/\s$/.test(text) && !/^\s/.test(fragment.text);
      if (needsSpace) text += ' ';
    }
    text += fragment.text;
    previous = fragment;
  }
  const confidence = fragments.reduce((sum, f) => sum + f.confidence, 0) / fragments.length;
  const fontSize = Math.max(...fragments.map((f) => f.fontSize));
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    box: unionBox(fragments.map((f) => f.box)),
    fontSize,
    confidence,
    fragments,
  };
}

/**
 * The fragment of a row nearest to `fragment` across the page. A fragment joins a row by its neighbour there,
 * not by the row's whole height: a line of another column standing between two tightly spaced lines overlaps
 * both, and the row's union would take the second line into the first ("SocialTaxableSecurity…").
 */
function nearestInRow(row: Fragment[], fragment: Fragment): Fragment {
  const distance = (other: Fragment) => Math.max(0, other.box.x0 - fragment.box.x1, fragment.box.x0 - other.box.x1);
  return row.reduce((best, other) => (distance(other) < distance(best) ? other : best));
}

/** Groups fragments into rows (shared baseline) and each row into lines (split at column gaps). */
export function buildRows(fragments: Fragment[]): Row[] {
  const sorted = fragments
    .filter((f) => f.text.trim() !== '')
    .sort((a, b) => (a.box.y0 + a.box.y1) / 2 - (b.box.y0 + b.box.y1) / 2);
  const rowGroups: { box: { y0: number; y1: number }; fragments: Fragment[] }[] = [];
  for (const fragment of sorted) {
    // Compare with the last few rows only: fragments arrive sorted by vertical centre.
    let target: (typeof rowGroups)[number] | undefined;
    for (let i = rowGroups.length - 1; i >= Math.max(0, rowGroups.length - 3); i--) {
      const group = rowGroups[i]!;
      if (verticalOverlap(nearestInRow(group.fragments, fragment).box, fragment.box) >= SAME_ROW_OVERLAP) {
        target = group;
        break;
      }
    }
    if (target) {
      target.fragments.push(fragment);
      target.box = { y0: Math.min(target.box.y0, fragment.box.y0), y1: Math.max(target.box.y1, fragment.box.y1) };
    } else {
      rowGroups.push({ box: { y0: fragment.box.y0, y1: fragment.box.y1 }, fragments: [fragment] });
    }
  }
  const rows: Row[] = [];
  for (const group of rowGroups) {
    const inRow = group.fragments.sort((a, b) => a.box.x0 - b.box.x0);
    const lines: TextLine[] = [];
    let current: Fragment[] = [];
    for (const fragment of inRow) {
      const last = current[current.length - 1];
      const em = last ? Math.max(last.fontSize, fragment.fontSize) : fragment.fontSize;
      if (last && (fragment.afterRule || fragment.box.x0 - last.box.x1 > COLUMN_GAP_EM * em)) {
        lines.push(joinFragments(current));
        current = [];
      }
      current.push(fragment);
    }
    if (current.length > 0) lines.push(joinFragments(current));
    const kept = lines.filter((line) => line.text !== '');
    if (kept.length > 0) rows.push({ lines: kept, box: unionBox(kept.map((l) => l.box)) });
  }
  return rows.sort((a, b) => a.box.y0 - b.box.y0);
}
