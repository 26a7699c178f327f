/**
 * Enum and boolean fields read from check boxes (docs/local-service.md, "Check boxes"). Each box's option is
 * the word printed beside it (left or right on its line, parenthesised hints skipped) or, failing that, just
 * above it. An enum takes the option of the marked box among the boxes whose options are its values: those
 * under or beside its caption when the caption is found, else the one group of boxes on a row that offers
 * more of its values than any other. A boolean takes YES/NO boxes under or beside its caption, or the one box
 * printed right before or after the caption itself (marked = true).
 */
import type { CheckBox, Fragment, PageLayout } from '../layout/types.js';
import { coerceScalar } from './coerce.js';
import type { ValueCandidate } from './find-values.js';
import type { ScalarSpec } from './schema-fields.js';

interface LabelledBox extends CheckBox {
  page: number;
  /** The option word beside the box, '' when none. */
  option: string;
}

/** How far (in box sides) an option word may sit from its box. */
const OPTION_REACH = 2.5;

function optionBeside(box: CheckBox, words: Fragment[]): string {
  const side = box.box.y1 - box.box.y0;
  const cy = (box.box.y0 + box.box.y1) / 2;
  let best: { text: string; gap: number } | null = null;
  for (const word of words) {
    if (word.text.startsWith('(')) continue;
    const wy = (word.box.y0 + word.box.y1) / 2;
    let gap = Infinity;
    if (Math.abs(wy - cy) <= side * 0.8) {
      if (word.box.x0 >= box.box.x1 - 1) gap = word.box.x0 - box.box.x1;
      else if (word.box.x1 <= box.box.x0 + 1) gap = box.box.x0 - word.box.x1;
    } else if (
      word.box.y1 <= box.box.y0 + 2 &&
      word.box.y1 >= box.box.y0 - side * 1.5 &&
      word.box.x0 >= box.box.x0 - side &&
      word.box.x0 <= box.box.x1 + side
    ) {
      // An option printed above its box (the CMS-1500's item 1): second to a word on the box's line.
      gap = side * OPTION_REACH + (box.box.y0 - word.box.y1);
    }
    if (gap <= side * OPTION_REACH * 2 && (!best || gap < best.gap)) best = { text: word.text, gap };
  }
  return best?.text.replace(/[^\p{L}\p{N}]+$/u, '') ?? '';
}

function labelledBoxes(pages: PageLayout[]): LabelledBox[] {
  return pages.flatMap((page) => {
    const words = page.lines.flatMap((line) => line.fragments);
    return (page.checkBoxes ?? []).map((box) => ({ ...box, page: page.page, option: optionBeside(box, words) }));
  });
}

/** Boxes under or beside a caption: its line or the first row below it within a few caption heights. */
function boxesNear(label: ValueCandidate, boxes: LabelledBox[]): LabelledBox[] {
  const { labelBox } = label;
  const height = Math.max(5, labelBox.y1 - labelBox.y0);
  const near = boxes.filter(
    (b) =>
      b.page === label.page &&
      b.box.y0 >= labelBox.y0 - height &&
      b.box.y0 <= labelBox.y1 + height * 3 &&
      b.box.x1 >= labelBox.x0 - 36 &&
      b.box.x0 <= Math.max(labelBox.x1, labelBox.x0 + 144) + 72,
  );
  // Only the first row of boxes: the next caption's boxes may be as close below.
  const top = Math.min(...near.map((b) => b.box.y0));
  return near.filter((b) => b.box.y0 <= top + (b.box.y1 - b.box.y0));
}

/** The value the marked boxes give among `boxes` mapped to values; null when none or several differ. */
function markedValue<T>(boxes: { box: LabelledBox; value: T }[]): T | null {
  const marked = [...new Set(boxes.filter((b) => b.box.marked).map((b) => b.value))];
  return marked.length === 1 ? marked[0]! : null;
}

function enumOptions(spec: ScalarSpec, boxes: LabelledBox[]): { box: LabelledBox; value: string }[] {
  return boxes.flatMap((box) => {
    if (!box.option) return [];
    const coerced = coerceScalar(box.option, spec, true);
    return coerced.valid && typeof coerced.value === 'string' ? [{ box, value: coerced.value }] : [];
  });
}

/** Rows of boxes: boxes within a box side of each other vertically, on one page. */
function rowsOf<T extends { box: LabelledBox }>(items: T[]): T[][] {
  const rows: T[][] = [];
  for (const item of [...items].sort((a, b) => a.box.page - b.box.page || a.box.box.y0 - b.box.box.y0)) {
    const row = rows.find(
      (r) =>
        r[0]!.box.page === item.box.page &&
        Math.abs(r[0]!.box.box.y0 - item.box.box.y0) <= item.box.box.y1 - item.box.box.y0,
    );
    if (row) row.push(item);
    else rows.push([item]);
  }
  return rows;
}

export interface CheckBoxReading {
  value: string | boolean;
  /** 0–1, like a label match's score. */
  score: number;
}

function readEnum(spec: ScalarSpec, boxes: LabelledBox[], labels: ValueCandidate[]): CheckBoxReading | null {
  for (const label of labels) {
    const options = enumOptions(spec, boxesNear(label, boxes));
    if (new Set(options.map((o) => o.value)).size < 2) continue;
    const value = markedValue(options);
    if (value !== null) return { value, score: label.score };
  }
  // No caption found: the one row of boxes offering the most of the enum's values (at least two).
  const rows = rowsOf(enumOptions(spec, boxes)).map((row) => ({ row, offered: new Set(row.map((o) => o.value)).size }));
  const most = Math.max(0, ...rows.map((r) => r.offered));
  const best = rows.filter((r) => r.offered === most);
  if (most < 2 || best.length !== 1) return null;
  const value = markedValue(best[0]!.row);
  return value === null ? null : { value, score: 0.8 };
}

function readBoolean(boxes: LabelledBox[], labels: ValueCandidate[]): CheckBoxReading | null {
  for (const label of labels) {
    const near = boxesNear(label, boxes);
    const yesNo = near.flatMap((box) => {
      const coerced = coerceScalar(box.option, { type: 'boolean' }, true);
      return coerced.valid && /^(yes|no|y|n)$/i.test(box.option) ? [{ box, value: coerced.value as boolean }] : [];
    });
    if (yesNo.length >= 2) {
      const value = markedValue(yesNo);
      if (value !== null) return { value, score: label.score };
      continue;
    }
    // One box right before or after the caption: the caption is its option.
    const side = (b: LabelledBox) => b.box.y1 - b.box.y0;
    const cy = (label.labelBox.y0 + label.labelBox.y1) / 2;
    const own = near.filter(
      (b) =>
        Math.abs((b.box.y0 + b.box.y1) / 2 - cy) <= side(b) &&
        (Math.abs(b.box.x1 - label.labelBox.x0) <= side(b) * 2 ||
          Math.abs(b.box.x0 - label.labelBox.x1) <= side(b) * 2),
    );
    if (own.length === 1) return { value: own[0]!.marked, score: label.score };
  }
  return null;
}

/** An enum or boolean field read from check boxes, or null when the boxes do not answer it. */
export function readCheckBoxes(
  pages: PageLayout[],
  spec: ScalarSpec,
  labels: ValueCandidate[],
): CheckBoxReading | null {
  if (spec.type !== 'boolean' && !spec.enum) return null;
  const boxes = labelledBoxes(pages);
  if (boxes.length === 0) return null;
  return spec.type === 'boolean' ? readBoolean(boxes, labels) : readEnum(spec, boxes, labels);
}
