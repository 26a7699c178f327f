/**
 * Enum and boolean fields read from check boxes (docs/reference.md, "Check boxes"). Each box's option is
 * the word printed beside it (on the side its row of boxes prints options on, else the nearer side; parenthesised
 * hints skipped) or, failing that, just above it. An enum takes the option of the marked box among the boxes
 * whose options are its values: those under or beside its caption when the caption is found, else the one group
 * of boxes on a row that offers more of its values than any other; where several groups answer, those with the
 * most of the field's own words printed over them come first (`SEX` of the patient, `SEX` of the insured). A boolean takes YES/NO boxes under or beside
 * its caption, or the one box whose option word is the caption's own (marked = true, empty = false).
 */
import levenshtein from 'fast-levenshtein';
import type { CheckBox, Fragment, PageLayout, PointBox } from '../layout/types.js';
import { conceptWords, fold } from '../lexicon/lexicon.js';
import { stem } from './caption-words.js';
import { coerceScalar, NO_WORDS, YES_WORDS } from './coerce.js';
import { fragmentBox, tokenise } from './document-index.js';
import { captionAfter } from './box-captions.js';
import { wholeCaptionSimilarity, type ValueCandidate } from './find-values.js';
import { printedRelation } from './person-rows.js';
import { askingQuestions, type CaptionPlace, contentStems, fieldStems } from './question-captions.js';
import type { ScalarSpec } from './schema-fields.js';

interface LabelledBox extends CheckBox {
  page: number;
  /** The option word beside the box, '' when none. */
  option: string;
  /** Where the option word is printed; null when none. */
  optionBox: PointBox | null;
  /** The word just above the box, '' when none: an enum's option when the words beside the box are none of its values. */
  above: string;
  /** The whole caption after the box, over the lines it wraps onto (box-captions.ts); the option when it is left of the box. */
  caption: string;
}

/** How far (in box sides) an option word may sit from its box. */
const OPTION_REACH = 2.5;

/** A word beside a box and how far it is from it, in points. */
interface Neighbour {
  word: Fragment;
  gap: number;
}

/** The nearest words to a box's left and right on its line, and the nearest just above it, within reach. */
interface Neighbours {
  left: Neighbour | null;
  right: Neighbour | null;
  above: Neighbour | null;
}

function nearer(a: Neighbour | null, b: Neighbour): Neighbour {
  return a && a.gap <= b.gap ? a : b;
}

/**
 * The words of a page that are no hint in parentheses: `(Medicare#)`, and every word of `(Member ID#)` that the
 * OCR read as two (`ID#)` alone would pass for the option of the box beside it).
 */
function optionWords(page: PageLayout): Fragment[] {
  return page.lines.flatMap((line) => {
    let depth = 0;
    return line.fragments.filter((word) => {
      const opens = (word.text.match(/\(/g) ?? []).length;
      const closes = (word.text.match(/\)/g) ?? []).length;
      const inHint = depth > 0 || opens > 0 || closes > 0;
      depth = Math.max(0, depth + opens - closes);
      return !inHint;
    });
  });
}

function neighboursOf(box: CheckBox, words: Fragment[]): Neighbours {
  const side = box.box.y1 - box.box.y0;
  const cy = (box.box.y0 + box.box.y1) / 2;
  const reach = side * OPTION_REACH * 2;
  const found: Neighbours = { left: null, right: null, above: null };
  for (const word of words) {
    const wy = (word.box.y0 + word.box.y1) / 2;
    if (Math.abs(wy - cy) <= side * 0.8) {
      // A word may overlap its box a little: its place was interpolated across a word the box split.
      const wx = (word.box.x0 + word.box.x1) / 2;
      const rightGap = Math.max(0, word.box.x0 - box.box.x1);
      const leftGap = Math.max(0, box.box.x0 - word.box.x1);
      if (wx > box.box.x1 && word.box.x0 >= box.box.x0 && rightGap <= reach)
        found.right = nearer(found.right, { word, gap: rightGap });
      else if (wx < box.box.x0 && word.box.x1 <= box.box.x1 && leftGap <= reach)
        found.left = nearer(found.left, { word, gap: leftGap });
    } else if (
      word.box.y1 <= box.box.y0 + 2 &&
      word.box.y1 >= box.box.y0 - side * 1.5 &&
      word.box.x0 >= box.box.x0 - side &&
      word.box.x0 <= box.box.x1 + side
    ) {
      // An option printed above its box (the CMS-1500's item 1): second to a word on the box's line.
      const gap = side * OPTION_REACH + (box.box.y0 - word.box.y1);
      if (gap <= reach) found.above = nearer(found.above, { word, gap });
    }
  }
  return found;
}

/** The side a box's nearer word on its line is on; null when only one is or neither is nearer. */
function nearerSide(n: Neighbours): 'left' | 'right' | null {
  if (!n.left || !n.right) return null;
  if (Math.abs(n.left.gap - n.right.gap) < 1) return null;
  return n.left.gap < n.right.gap ? 'left' : 'right';
}

/**
 * The side options are printed on in a row of boxes: the side most of its boxes have their nearer word on. A
 * form prints a row's options all on one side (`☐ House ☐ Apartment`, `M ☐ F ☐`), so a box spaced as near to the
 * next option as to its own (`☐ Travel Trailer ☐ Other`) takes its option from the row's side.
 */
function rowSide(row: Neighbours[]): 'left' | 'right' | null {
  const sides = row.map(nearerSide);
  const left = sides.filter((s) => s === 'left').length;
  const right = sides.filter((s) => s === 'right').length;
  return left === right ? null : left > right ? 'left' : 'right';
}

function optionOf(n: Neighbours, side: 'left' | 'right' | null): Neighbour | null {
  const onSide = side ? n[side] : null;
  if (onSide) return onSide;
  return [n.left, n.right, n.above].reduce<Neighbour | null>((best, o) => (o ? nearer(best, o) : best), null);
}

function optionText(neighbour: Neighbour): string {
  return neighbour.word.text.replace(/[^\p{L}\p{N}]+$/u, '');
}

/**
 * Which box each option word belongs to: the nearest of the boxes that take it. A word is one box's option; where
 * the OCR lost a box's own word (`M ☒  F ☐` read without the `M`), the box would otherwise take its neighbour's.
 */
function optionOwners(options: (Neighbour | null)[]): Map<Fragment | null, number> {
  const owners = new Map<Fragment | null, number>();
  options.forEach((option, i) => {
    if (!option) return;
    const owner = owners.get(option.word);
    if (owner === undefined || options[owner]!.gap > option.gap) owners.set(option.word, i);
  });
  return owners;
}

function labelledBoxes(pages: PageLayout[]): LabelledBox[] {
  return pages.flatMap((page) => {
    const words = optionWords(page);
    const boxes = page.checkBoxes ?? [];
    const neighbours = boxes.map((box) => neighboursOf(box, words));
    // Boxes on one line: centres within half a box side.
    const sideOf = boxes.map((box) => {
      const side = box.box.y1 - box.box.y0;
      const cy = (box.box.y0 + box.box.y1) / 2;
      return rowSide(neighbours.filter((_, j) => Math.abs((boxes[j]!.box.y0 + boxes[j]!.box.y1) / 2 - cy) <= side / 2));
    });
    const options = boxes.map((_, i) => optionOf(neighbours[i]!, sideOf[i]!));
    const owners = optionOwners(options);
    return boxes.map((box, i) => {
      const option = owners.get(options[i]?.word ?? null) === i ? options[i]! : null;
      const after = option !== null && option.word.box.x0 >= box.box.x1 - 1;
      return {
        ...box,
        page: page.page,
        option: option ? optionText(option) : '',
        optionBox: option?.word.box ?? null,
        above: neighbours[i]!.above ? optionText(neighbours[i]!.above!) : '',
        caption: option ? (after ? captionAfter(box, option.word, page, boxes) : option.word.text) : '',
      };
    });
  });
}

/** Boxes under or beside a caption: its line or the first row below it within a few caption heights. */
function boxesNear(label: CaptionPlace, boxes: LabelledBox[]): LabelledBox[] {
  const { labelBox } = label;
  const height = Math.max(5, labelBox.y1 - labelBox.y0);
  const near = boxes.filter(
    (b) =>
      b.page === label.page &&
      // Not the row above: its boxes may sit within a caption height of a tall caption line.
      (b.box.y0 + b.box.y1) / 2 >= labelBox.y0 &&
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

/**
 * The enum value a box's whole caption names, or null: a caption wrapped over two lines (`☒ Safety` over
 * `Recognition`) whose first word alone would snap to whichever value starts with it (`Safety Suggestion`).
 */
function captionValue(spec: ScalarSpec, box: LabelledBox): string | null {
  let best: string | null = null;
  let bestScore = 0;
  for (const value of spec.enum ?? []) {
    const score = wholeCaptionSimilarity(value, box.caption);
    if (score > bestScore) [best, bestScore] = [value, score];
  }
  return best;
}

function enumOptions(spec: ScalarSpec, boxes: LabelledBox[]): { box: LabelledBox; value: string }[] {
  return boxes.flatMap((box) => {
    const named = captionValue(spec, box);
    if (named !== null) return [{ box, value: named }];
    // A word beside the box that is none of the enum's values (a hint the OCR read without its parentheses:
    // `meter D` for `(Member ID#)`) leaves the word above it, where forms print options over their boxes.
    for (const option of [box.option, box.above]) {
      if (!option) continue;
      const coerced = coerceScalar(option, spec, true);
      if (coerced.valid && typeof coerced.value === 'string') return [{ box, value: coerced.value }];
    }
    return [];
  });
}

/**
 * How like an enum value a garbled option word is: letters alike, the first the same (`Ser`, `One`, `c`); 0 when
 * not, and for a code of one or two letters, which a word only names exactly (`MFO` is two boxes read as letters).
 */
function optionLikeness(word: string, value: string): number {
  const a = word.toLowerCase().replace(/[^\p{L}]/gu, '');
  const b = value.toLowerCase().replace(/[^\p{L}]/gu, '');
  if (!a || b.length < 3 || a[0] !== b[0]) return 0;
  return Math.max(0.01, 1 - levenshtein.get(a, b) / Math.max(a.length, b.length));
}

/**
 * A caption's row of boxes with one box for each of the enum's values prints the whole list: its options are
 * matched to the values one to one, best pair first, so a word the OCR garbled (`Ser`, `One`, `c`) takes the
 * value it is most like that no other word reads, and a box whose word was lost takes the one value left.
 * Null when the row is not the whole list.
 */
function wholeListOptions(spec: ScalarSpec, boxes: LabelledBox[]): { box: LabelledBox; value: string }[] | null {
  const values = spec.enum ?? [];
  if (values.length < 2 || boxes.length !== values.length) return null;
  const read = enumOptions(spec, boxes);
  const pairs = boxes.flatMap((box) =>
    values.map((value) => ({
      box,
      value,
      score: read.some((r) => r.box === box && r.value === value) ? 1 : optionLikeness(box.option, value),
    })),
  );
  const taken = new Map<LabelledBox, string>();
  const used = new Set<string>();
  const take = (box: LabelledBox, value: string) => {
    taken.set(box, value);
    used.add(value);
  };
  for (const pair of pairs.sort((a, b) => b.score - a.score))
    if (pair.score > 0 && !taken.has(pair.box) && !used.has(pair.value)) take(pair.box, pair.value);
  const boxesLeft = boxes.filter((b) => !taken.has(b));
  const valuesLeft = values.filter((v) => !used.has(v));
  if (boxesLeft.length === 1 && valuesLeft.length === 1) take(boxesLeft[0]!, valuesLeft[0]!);
  return [...taken].map(([box, value]) => ({ box, value }));
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

/** How far apart (in points) two boxes of one question may be on their row: an inch. */
const QUESTION_GAP = 72;

/** A row's boxes in runs left to right, a run ending where the next box is more than QUESTION_GAP away. */
function questionsOf(row: LabelledBox[]): LabelledBox[][] {
  const runs: LabelledBox[][] = [];
  for (const box of [...row].sort((a, b) => a.box.x0 - b.box.x0)) {
    const run = runs[runs.length - 1];
    if (run && box.box.x0 - run[run.length - 1]!.box.x1 <= QUESTION_GAP) run.push(box);
    else runs.push([box]);
  }
  return runs;
}

/**
 * Each row of boxes with its options: a run of boxes that is an enum's whole list matched one to one
 * (wholeListOptions), every other box by its own word.
 */
function rowOptions(spec: ScalarSpec, boxes: LabelledBox[]): { box: LabelledBox; value: string }[][] {
  return rowsOf(boxes.map((box) => ({ box }))).map((row) =>
    questionsOf(row.map((r) => r.box)).flatMap((run) => wholeListOptions(spec, run) ?? enumOptions(spec, run)),
  );
}

export interface CheckBoxReading {
  value: string | boolean;
  /** 0–1, like a label match's score. */
  score: number;
}

/** Words of at least four letters, normalised for matching ("INSURED'S" → "insured"; "3.PATIENT'S" → "patient"). */
function contentTokens(text: string): string[] {
  return tokenise(text)
    .map((t) => t.norm)
    .filter((t) => t.length >= 4);
}

/**
 * How many of the field's own words (its labels': `patient`, `insured`, `sex`) are printed over a group of boxes
 * and left of it, or beside it on its line: the captions of its box. A caption printed twice (`SEX` for the patient
 * in one box, for the insured in another) is told apart by the caption beside it (`3. PATIENT'S BIRTH DATE`,
 * `a. INSURED'S DATE OF BIRTH`).
 */
function contextHits(spec: ScalarSpec, options: { box: LabelledBox }[], pages: PageLayout[]): number {
  const group = options.map((o) => o.box);
  const wanted = new Set(spec.labels.flatMap((l) => contentTokens(l.text)));
  const page = pages.find((p) => p.page === group[0]!.page);
  if (!page || wanted.size === 0) return 0;
  const side = group[0]!.box.y1 - group[0]!.box.y0;
  const top = Math.min(...group.map((b) => b.box.y0));
  const x0 = Math.min(...group.map((b) => b.box.x0));
  const x1 = Math.max(...group.map((b) => b.box.x1));
  const over = page.lines.filter(
    ({ box }) => box.y1 <= top + side / 2 && box.y1 >= top - side * 3 && box.x1 >= x0 - CONTEXT_LEFT && box.x0 <= x1,
  );
  // Only the nearest row of text over the boxes: a box's caption. The caption of the box above (`10. IS PATIENT'S
  // CONDITION RELATED TO` over `a. INSURED'S DATE OF BIRTH  SEX`) may be within reach too.
  const nearest = Math.max(...over.map((l) => l.box.y1));
  // And a caption printed beside the boxes, on their line to their left ("Dwelling Type: ☐ House ☐ Apartment").
  const beside = page.lines.filter(
    ({ box }) => box.y0 < top + side && box.y1 > top && box.x1 <= x0 + 1 && box.x1 >= x0 - CONTEXT_LEFT,
  );
  const seen = new Set<string>();
  let besideSeen = false;
  for (const line of [...over.filter((l) => l.box.y1 >= nearest - side), ...beside])
    for (const token of contentTokens(line.text)) {
      // One letter off in a long word is an OCR slip (`NSURED'S`), and so is a long word run into the next
      // (`INSURED'SDATE`).
      const word = [...wanted].find(
        (w) => w === token || (w.length >= 5 && (levenshtein.get(w, token) <= 1 || token.startsWith(w))),
      );
      if (!word) continue;
      seen.add(word);
      if (beside.includes(line)) besideSeen = true;
    }
  // A caption on the boxes' own line is theirs before the row of boxes it also stands over.
  return seen.size + (besideSeen ? BESIDE_BONUS : 0);
}

/** What a caption beside a group of boxes adds to its hits: less than a word, more than a tie. */
const BESIDE_BONUS = 0.5;

/** How far left of a group of boxes its context is read, in points (two inches: a form box's width). */
const CONTEXT_LEFT = 144;

function readEnum(
  spec: ScalarSpec,
  boxes: LabelledBox[],
  labels: ValueCandidate[],
  pages: PageLayout[],
): CheckBoxReading | null {
  // The groups that answer: under or beside a caption found, in caption order; then the rows of boxes
  // offering the most of the enum's values (at least two).
  const groups: { options: { box: LabelledBox; value: string }[]; score: number; row: boolean }[] = [];
  for (const label of labels) {
    const near = boxesNear(label, boxes);
    const options = wholeListOptions(spec, near) ?? enumOptions(spec, near);
    if (new Set(options.map((o) => o.value)).size >= 2) groups.push({ options, score: label.score, row: false });
  }
  const rows = rowOptions(spec, boxes).map((row) => ({ row, offered: new Set(row.map((o) => o.value)).size }));
  const most = Math.max(0, ...rows.map((r) => r.offered));
  if (most >= 2)
    for (const r of rows.filter((r) => r.offered === most)) groups.push({ options: r.row, score: 0.8, row: true });
  // A caption's group answers when one of its boxes is marked; rows that tie answer nothing.
  const scored = groups
    .map((g) => ({ ...g, value: markedValue(g.options), hits: contextHits(spec, g.options, pages) }))
    .filter((g) => g.row || g.value !== null);
  // The groups with the most of the field's words printed over them; a caption's first, else the one row.
  const best = Math.max(0, ...scored.map((g) => g.hits));
  const chosen = scored.filter((g) => g.hits === best);
  const pick = chosen.find((g) => !g.row) ?? (chosen.length === 1 ? chosen[0] : undefined);
  return pick && pick.value !== null ? { value: pick.value, score: pick.score } : null;
}

/** Whether a word's centre lies in a caption's box (a little wider: caption boxes are interpolated). */
function within(word: PointBox, caption: PointBox): boolean {
  const cx = (word.x0 + word.x1) / 2;
  const cy = (word.y0 + word.y1) / 2;
  return cx >= caption.x0 - 2 && cx <= caption.x1 + 2 && cy >= caption.y0 && cy <= caption.y1;
}

/**
 * A YES or NO option as the OCR reads it: the small capitals of a form's `YES` come out as `ves`, `YFS` or `es`
 * (one letter off); `NO` as `N0` (the lexicon holds it).
 */
function yesOrNo(option: string): boolean | null {
  const word = fold(option);
  if (YES_WORDS.has(word) || (word.length >= 2 && levenshtein.get(word, 'yes') <= 1)) return true;
  return NO_WORDS.has(word) ? false : null;
}

/**
 * The one box whose whole caption a label of the field names, as a reading of the field's own box. The label search
 * reads a line at a time, so it finds no caption that wraps inside its cell (`☒ Hazardous` over `Condition`); the
 * box's caption put together from its lines is compared instead. The whole caption, not a part: `Safety` alone
 * names neither `Safety Suggestion` nor `Safety Recognition`.
 */
function readByCaption(spec: ScalarSpec, boxes: LabelledBox[]): CheckBoxReading | null {
  const named = boxes
    .map((box) => ({
      box,
      score: Math.max(0, ...spec.labels.map((l) => wholeCaptionSimilarity(l.text, box.caption) * l.weight)),
    }))
    .filter((n) => n.score > 0);
  return named.length === 1 ? { value: named[0]!.box.marked, score: named[0]!.score } : null;
}

/** Words of a choice left open: no caption of only these is a field's own box, no field with one of them is a box's. */
const OPEN_OPTIONS = new Set(conceptWords('open-option').map(stem));

/** The score of a box whose caption the field's own words explain (below a caption the field's label names). */
const EXPLAINED_BOX = 0.6;

/**
 * The box whose caption's words are all the field's own (its name's and description's, by stem): `pays_rent` is
 * the box `☒ Rent $2000`, `owns_home` ("dwelling cost: own") the box `☐ Own`. Of several, the caption with the most
 * words (`subsidized_rent` is `Subsidized Rent`, not `Rent`); none on a tie.
 */
function readByExplainedCaption(spec: ScalarSpec, boxes: LabelledBox[]): CheckBoxReading | null {
  const own = fieldStems(spec);
  // A field of the choice left open ("other housing") is none of the named boxes, though it shares their words.
  if ([...own].some((w) => OPEN_OPTIONS.has(w))) return null;
  const explained = boxes
    .map((box) => ({ box, words: contentStems(box.caption) }))
    .filter(
      ({ words }) =>
        words.size > 0 && [...words].every((w) => own.has(w)) && ![...words].every((w) => OPEN_OPTIONS.has(w)),
    );
  const most = Math.max(0, ...explained.map((e) => e.words.size));
  const best = explained.filter((e) => e.words.size === most);
  return best.length === 1 ? { value: best[0]!.box.marked, score: EXPLAINED_BOX } : null;
}

/** The least score of a label matched at a box's option for that box to answer the field. */
const OWN_OPTION_SCORE = 0.75;

/** The share of its caption's score a yes/no answer keeps when only its own box was found. */
const ONE_BOX = 0.9;

function readBoolean(
  spec: ScalarSpec,
  boxes: LabelledBox[],
  labels: CaptionPlace[],
  pages: PageLayout[],
): CheckBoxReading | null {
  const group = spec.path.length > 1 ? spec.path[spec.path.length - 2]! : '';
  const relation = group ? printedRelation(group) : null;
  for (const label of labels) {
    const near = boxesNear(label, boxes);
    const besideBoxes = near.flatMap((box) => {
      const value = yesOrNo(box.option);
      return value === null ? [] : [{ box, value }];
    });
    // Boxes read by the YES/NO words over their columns, where none has its answer printed beside it.
    const yesNo = besideBoxes.length > 0 ? besideBoxes : columnAnswers(label, boxes, pages, relation);
    // A pair of boxes with one read YES or NO: the other is the other answer (its word lost or garbled).
    const other =
      near.length === 2 && besideBoxes.length === 1 ? near.find((b) => b !== besideBoxes[0]!.box) : undefined;
    if (other) yesNo.push({ box: other, value: !yesNo[0]!.value });
    if (yesNo.length >= 2) {
      const value = markedValue(yesNo);
      if (value !== null) return { value, score: label.score };
      continue;
    }
    // The box whose option word is the caption's own: the caption is its option.
    // Only for a label matched well: "owns home" matches "Townhome" as words the OCR ran together, at 0.68.
    const own = boxes.filter((b) => b.page === label.page && b.optionBox && within(b.optionBox, label.labelBox));
    if (own.length === 1 && label.score >= OWN_OPTION_SCORE) return { value: own[0]!.marked, score: label.score };
    // Else one answer box found, marked (its pair's box the OCR read as a glyph: "rent??YES ☒ NO"): the mark answers.
    if (yesNo.length === 1 && yesNo[0]!.box.marked) return { value: yesNo[0]!.value, score: label.score * ONE_BOX };
  }
  return readByCaption(spec, boxes) ?? readByExplainedCaption(spec, boxes);
}

/** How far below a caption (in its heights) the YES/NO words over its column of boxes may be. */
const COLUMN_WORDS_REACH = 5;

/**
 * A caption over a table's Yes/No columns ("Disabled" over "Yes | No", the cells of each person's row under them):
 * the first row of boxes under the YES and NO words printed below the caption and within its width, each box
 * answered by the word over it; for a relation's field (`spouse.is_disabled`) the row of boxes on the line that
 * prints the relation ("Doe Jane | Spouse"). Empty when the caption heads no such columns.
 */
function columnAnswers(
  label: CaptionPlace,
  boxes: LabelledBox[],
  pages: PageLayout[],
  relation: ((text: string) => boolean) | null,
): { box: LabelledBox; value: boolean }[] {
  const page = pages.find((p) => p.page === label.page);
  if (!page) return [];
  const { labelBox } = label;
  const height = Math.max(5, labelBox.y1 - labelBox.y0);
  const bandBottom = labelBox.y1 + height * COLUMN_WORDS_REACH;
  const words = page.lines
    // Only the lines in reach are split into words.
    .filter((line) => line.box.y1 >= labelBox.y0 && line.box.y0 <= bandBottom)
    .flatMap((line) => tokenise(line.text).map((t) => ({ text: t.raw, box: fragmentBox(line, t.start, t.end) })))
    .flatMap((word) => {
      const value = yesOrNo(word.text.replace(/[^\p{L}\d]+$/u, ''));
      const under =
        word.box.y0 >= labelBox.y0 &&
        word.box.y0 <= bandBottom &&
        word.box.x0 >= labelBox.x0 - height &&
        word.box.x1 <= labelBox.x1 + height;
      return value !== null && under ? [{ word, value }] : [];
    });
  if (!words.some((w) => w.value) || !words.some((w) => !w.value)) return [];
  const bottom = Math.max(...words.map((w) => w.word.box.y1));
  const answered = boxes.flatMap((box) => {
    const cx = (box.box.x0 + box.box.x1) / 2;
    const over = words.find((w) => cx >= w.word.box.x0 - 1 && cx <= w.word.box.x1 + 1);
    return box.page === label.page && box.box.y0 >= bottom - 1 && over ? [{ box, value: over.value }] : [];
  });
  if (answered.length === 0) return [];
  const row = relation
    ? page.lines.find((line) => line.box.y0 >= bottom && relation(line.text))?.box
    : answered.map((a) => a.box.box).sort((a, b) => a.y0 - b.y0)[0];
  if (!row) return [];
  return answered.filter((a) => {
    const cy = (a.box.box.y0 + a.box.box.y1) / 2;
    return cy >= row.y0 - 1 && cy <= row.y1 + 1;
  });
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
  // A yes/no field's printed question may share its words without their order (question-captions.ts): tried after
  // its labels.
  return spec.type === 'boolean'
    ? readBoolean(spec, boxes, [...labels, ...askingQuestions(pages, spec)], pages)
    : readEnum(spec, boxes, labels, pages);
}
