/**
 * Schema-guided extraction by label matching (the engine behind /extract). Slow mode adds post-processing:
 * type validation with fallback to the next candidate, OCR digit repair, ISO dates, enum snapping, section
 * context, and a confidence score. Fast mode takes the best-matching label's value as printed.
 */
import type { DateLocale, JsonObject, JsonSchema, Json } from '../contract.js';
import type { PointBox } from '../layout/types.js';
import { readCheckBoxes } from './check-box-values.js';
import { continueEnumeratedRow } from './enumerated-row.js';
import { coerceScalar } from './coerce.js';
import { constrainsValue, withFormatCheck } from './field-confidence.js';
import { indexDocument, type DocumentIndex } from './document-index.js';
import { findLabelValues, printsWordsLike, type ValueCandidate } from './find-values.js';
import { documentDateOrder, findByRole } from './find-by-role.js';
import { findParty, isSenderHere } from './find-parties.js';
import { isPartyRole } from './party-roles.js';
import { describeWords, type FieldRole } from './field-roles.js';
import { expandAbbreviations } from './name-abbreviations.js';
import { isValidNpi, type DateOrder } from './typed-values.js';
import { tableCellCandidates } from './table-cells.js';
import { blockContinuation } from './value-block.js';
import { readAddressPart } from './address-parts.js';
import { hintOrder, namePart } from './name-parts.js';
import { readTableItems } from './table-items.js';
import { readPersonRows } from './person-rows.js';
import { explainedCaptions } from './caption-words.js';
import {
  collectFields,
  splitName,
  type FieldSpec,
  type ListSpec,
  type ScalarSpec,
  type TableSpec,
} from './schema-fields.js';
import type { PageLayout } from '../layout/types.js';

/** How one field was filled: what the confidence is built from. */
export interface FieldOutcome {
  path: string;
  required: boolean;
  found: boolean;
  /** 0–1 quality of the evidence (0 when not found). */
  quality: number;
}

export interface ExtractionResult {
  data: JsonObject;
  fields: FieldOutcome[];
  /** 0–100, slow mode only (null in fast mode). */
  confidence: number | null;
}

export interface ExtractOptions {
  /** Fast path: the best label's value as printed, no validation, no second candidates, no confidence. */
  fast: boolean;
  /** The documents' locale when known (US: month first, EU: day first); else guessed from each document. */
  locale?: DateLocale | undefined;
}

/** Penalty when another candidate nearly as good gives a different value. */
const AMBIGUITY_FACTOR = 0.6;
/** Penalty when the value does not fit the schema type. */
const INVALID_FACTOR = 0.5;
/** Candidates below this score are not labels of the field. */
const MIN_SCORE = 0.45;

function setPath(target: JsonObject, path: string[], value: Json): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as JsonObject;
  }
  node[path[path.length - 1]!] = value;
}

/** Builds the empty shape of the schema: objects present, scalars null, arrays empty. */
function skeleton(schema: JsonSchema): JsonObject {
  const out: JsonObject = {};
  for (const field of collectFields(schema)) setPath(out, field.path, field.kind === 'scalar' ? null : []);
  return out;
}

function sectionFactor(spec: { path: string[] }, candidate: ValueCandidate): number {
  if (spec.path.length < 2) return 1;
  const parentWords = expandAbbreviations(splitName(spec.path[spec.path.length - 2]!).split(' ')).filter(
    (w) => w.length > 2,
  );
  const section = candidate.line.section;
  if (!section) return 1;
  return parentWords.some((w) => section.includes(w)) ? 1.1 : 0.92;
}

function ocrFactor(confidence: number): number {
  // Text-layer lines carry 100; OCR words below ~60 are often wrong.
  return Math.min(1, Math.max(0.4, confidence / 90));
}

/** A longer label matched at the same place as a shorter one with at least this share of its score reads it. */
const SAME_CAPTION_SCORE = 0.8;

function labelWidth(candidate: ValueCandidate): number {
  return candidate.labelBox.x1 - candidate.labelBox.x0;
}

function candidatesFor(index: DocumentIndex, spec: ScalarSpec | ListSpec, options: ExtractOptions): ValueCandidate[] {
  const all: ValueCandidate[] = [];
  for (const label of spec.labels) {
    if (label.reworded && !printsWordsLike(index, label.text)) continue;
    // Both modes read beside and below labels; only slow mode weighs the section heading the label sits under.
    for (const candidate of findLabelValues(index, label.text, label.weight, true)) {
      if (!options.fast) candidate.score = Math.min(1, candidate.score * sectionFactor(spec, candidate));
      if (candidate.score >= MIN_SCORE) all.push(candidate);
    }
  }
  // A `Label:` caption of the field's own words in other forms (`Submitter:` for "who submitted the report"),
  // read where it is printed as the caption, not where its words stand inside a longer one.
  for (const caption of spec.kind === 'scalar' && spec.description ? explainedCaptions(index, spec.description) : [])
    for (const candidate of findLabelValues(index, caption.text, caption.weight, true))
      if (caption.lines.has(candidate.line) && candidate.score >= MIN_SCORE) all.push(candidate);
  // One candidate per printed place (several label phrasings find the same spot), with the best score. Where a
  // longer phrasing matched more of the printed caption, its reading counts: a shorter one takes the caption's
  // next words for the value ("DIAGNOSIS | OR NATURE OF ILLNESS…") or reads below only under its own width.
  const byPlace = new Map<string, ValueCandidate>();
  for (const c of all) {
    const key = `${c.page}:${Math.round(c.labelBox.x0)}:${Math.round(c.labelBox.y0)}:${c.where}`;
    const existing = byPlace.get(key);
    if (!existing) {
      byPlace.set(key, c);
      continue;
    }
    const [wider, narrower] = labelWidth(c) > labelWidth(existing) ? [c, existing] : [existing, c];
    const better = c.score > existing.score ? c : existing;
    const reader = wider.score >= narrower.score * SAME_CAPTION_SCORE ? wider : better;
    byPlace.set(key, { ...reader, score: better.score });
  }
  const labelled = withoutLabelWords([...byPlace.values()]);
  return spec.kind === 'scalar' ? withTableCells(index, spec, labelled) : labelled.sort((a, b) => b.score - a.score);
}

/**
 * The field's label candidates with the table cells its words name by row and column (table-cells.ts). A cell
 * replaces the candidates matched at its row's label, which read the row's first figure whatever the column;
 * on a tie it comes first, since it explains more of the field's words than a caption matched by part of them.
 */
function withTableCells(index: DocumentIndex, spec: ScalarSpec, labelled: ValueCandidate[]): ValueCandidate[] {
  const cells = tableCellCandidates(index, spec).filter((c) => c.score >= MIN_SCORE);
  const rest = labelled.filter(
    (c) =>
      !cells.some(
        (cell) => cell.line === c.line && cell.labelBox.x0 < c.labelBox.x1 && c.labelBox.x0 < cell.labelBox.x1,
      ),
  );
  return [...cells, ...rest].sort((a, b) => b.score - a.score);
}

/**
 * Drops the words after a short label that a longer label of the same field matched on the same line: they are
 * the printed label's own words ("TAX ID | NUMBER" where "FEDERAL TAX ID NUMBER" is the caption), not a value.
 */
function withoutLabelWords(candidates: ValueCandidate[]): ValueCandidate[] {
  return candidates.filter(
    (c) =>
      c.where !== 'same-line' ||
      !candidates.some((other) => other.line === c.line && other.labelBox.x1 > c.valueBox!.x0 + 1),
  );
}

/** Whether the property holds a National Provider Identifier (its name says NPI). */
function isNpiField(spec: ScalarSpec): boolean {
  return describeWords(spec.path[spec.path.length - 1] ?? '').includes('npi');
}

/**
 * The one number on the pages that carries a valid NPI check digit, when there is exactly one: an NPI field whose
 * printed label the OCR lost ("a. NP!", "ja. NPI") still has its value, which the check digit tells apart from
 * other ten-digit numbers (a random one passes one time in ten, so two candidates are left alone).
 */
function onlyValidNpi(index: DocumentIndex): string | null {
  const found = new Set<string>();
  for (const entry of index.lines)
    for (const m of entry.line.text.matchAll(/(?<!\d)\d{10}(?!\d)/g)) if (isValidNpi(m[0])) found.add(m[0]);
  return found.size === 1 ? [...found][0]! : null;
}

/** Quality of an NPI found by its check digit alone, with no label. */
const NPI_ANYWHERE_QUALITY = 0.5;

/** Document-wide facts the reading and coercion of single values need. */
interface DocumentContext {
  dateOrder: DateOrder;
  /** A field's label candidates (candidatesFor), searched once per field: the captions, the check boxes and the
   * value reading all start from them. */
  candidates: (spec: ScalarSpec | ListSpec) => ValueCandidate[];
  /** Where the schema's fields' captions are printed alone on their lines (slow mode; empty in fast mode). */
  captions: Set<string>;
}

/** A score at which a label printed alone on its line is taken for a field's caption. */
const CAPTION_SCORE = 0.85;

function placeKey(page: number, box: PointBox): string {
  return `${page}:${Math.round(box.x0)}:${Math.round(box.y0)}`;
}

/**
 * The lines that print some field's caption alone: on a form whose box the OCR found empty (or whose value it
 * lost), the line below a caption is the next box's caption (`CITY` over `ZIP CODE`), and so is the line beside
 * it (`Home Phone` | `E-mail Address`): never a value.
 */
function captionPlaces(specs: FieldSpec[], candidates: DocumentContext['candidates']): Set<string> {
  const places = new Set<string>();
  for (const spec of specs) {
    if (spec.kind === 'table') continue;
    for (const c of candidates(spec))
      if (c.where !== 'same-line' && c.score >= CAPTION_SCORE) places.add(placeKey(c.page, c.line.line.box));
  }
  return places;
}

/**
 * A box caption as forms number them: a box number with its stop or an item letter (`9.`, `10.IS`, `a.`, `b`),
 * then three words or more without digits (`a. OTHER INSURED'S POLICY OR GROUP NUMBER`, `b RESERVED FOR NUCC USE`).
 */
const NUMBERED_CAPTION = /^(?:\d{1,2}[a-z]?[.,)]\s*|[a-z][.)]\s*|[a-z]\s+)(?:[^\d\s]+\s+){2,}[^\d\s]+$/i;

/**
 * Whether the line read under a caption is the next box's caption, though no field's: a numbered caption that
 * starts at a box's rule, under a box the OCR found empty (`a. OTHER INSURED'S POLICY OR GROUP NUMBER` under
 * `9. OTHER INSURED'S NAME`).
 */
function readsABoxCaption(candidate: ValueCandidate): boolean {
  const value = candidate.valueLine?.line;
  if (candidate.where !== 'below' || !value) return false;
  return value.fragments[0]?.afterRule === true && NUMBERED_CAPTION.test(value.text.trim());
}

/** Whether a candidate's value is read from a line (below or beside its label) that prints another field's caption. */
function readsACaption(candidate: ValueCandidate, context: DocumentContext): boolean {
  return (
    ((candidate.where === 'below' || candidate.where === 'right') &&
      candidate.valueBox !== null &&
      context.captions.has(placeKey(candidate.page, candidate.valueBox))) ||
    readsABoxCaption(candidate)
  );
}

/**
 * A free-text value with the rest of its block (the address lines under `To:`, a table cell's second line), up to
 * a line that prints another field's caption; a typed value (number, date, enum, pattern, format) stays one line.
 */
function withBlock(
  index: DocumentIndex,
  candidate: ValueCandidate,
  spec: ScalarSpec,
  context: DocumentContext,
): string {
  if (constrainsValue(spec) || spec.format) return candidate.text!;
  const block = blockContinuation(index, candidate);
  const caption = block.findIndex((l) => context.captions.has(placeKey(l.page.page, l.line.box)));
  const lines = caption < 0 ? block : block.slice(0, caption);
  return [candidate.text!, ...lines.map((l) => l.line.text.trim())].join(' ');
}

/**
 * Whether a label was matched at a check box's option (`☐ Landlord` among "How did you hear about us?"), read with
 * a value from another line: an option is no caption, and the lines under it and beside it are the next options.
 */
function isBoxOption(index: DocumentIndex, candidate: ValueCandidate): boolean {
  const { labelBox, valueBox } = candidate;
  // A value on the option's own printed line is the option's (`☒ Rent $2000`, `☐ Other: ____`).
  const line = candidate.line.line.box;
  if (candidate.where === 'same-line' || !valueBox || (valueBox.x0 >= line.x0 && valueBox.x1 <= line.x1 + 1))
    return false;
  const boxes = index.pages.find((p) => p.page === candidate.page)?.checkBoxes ?? [];
  return boxes.some((b) => {
    const side = b.box.y1 - b.box.y0;
    const cy = (b.box.y0 + b.box.y1) / 2;
    return (
      cy >= labelBox.y0 &&
      cy <= labelBox.y1 &&
      b.box.x1 <= labelBox.x0 + side / 2 &&
      labelBox.x0 - b.box.x1 <= side * BOX_OPTION_GAP
    );
  });
}

/** How far (in box sides) after a check box its option word starts. */
const BOX_OPTION_GAP = 1.5;

interface ScalarResult {
  value: Json;
  outcome: FieldOutcome;
  /** Whether the value fits the field's type and format. */
  valid: boolean;
}

function extractByLabel(
  index: DocumentIndex,
  spec: ScalarSpec,
  options: ExtractOptions,
  context: DocumentContext,
): ScalarResult {
  const path = spec.path.join('.');
  const candidates = context
    .candidates(spec)
    .filter((c) => c.text !== null && !readsACaption(c, context) && !isBoxOption(index, c))
    .map((c) => ({ ...c, text: withBlock(index, c, spec, context) }));
  if (options.fast) {
    const top = candidates[0];
    const coerced = top ? coerceScalar(top.text!, spec, false, context.dateOrder) : null;
    const value = coerced?.value ?? null;
    return {
      value,
      valid: coerced?.valid ?? false,
      outcome: { path, required: spec.required, found: value !== null, quality: top ? top.score : 0 },
    };
  }
  let chosen: { candidate: ValueCandidate; value: Json; valid: boolean } | null = null;
  for (const candidate of candidates) {
    const coerced = coerceScalar(candidate.text!, spec, true, context.dateOrder);
    if (coerced.value === null) continue;
    // An NPI with a wrong check digit is a misread (or another number): try the next candidate.
    if (coerced.valid && (!isNpiField(spec) || isValidNpi(String(coerced.value)))) {
      chosen = { candidate, value: coerced.value, valid: true };
      break;
    }
    chosen ??= { candidate, value: coerced.value, valid: false };
  }
  if (!chosen)
    return { value: null, valid: false, outcome: { path, required: spec.required, found: false, quality: 0 } };
  const rival = candidates.find((c) => {
    if (c === chosen!.candidate || c.score < chosen!.candidate.score * 0.95) return false;
    const other = coerceScalar(c.text!, spec, true, context.dateOrder);
    return other.valid && other.value !== chosen!.value;
  });
  const quality =
    chosen.candidate.score *
    (chosen.valid ? 1 : INVALID_FACTOR) *
    (rival ? AMBIGUITY_FACTOR : 1) *
    ocrFactor(chosen.candidate.confidence);
  return { value: chosen.value, valid: chosen.valid, outcome: { path, required: spec.required, found: true, quality } };
}

/**
 * Below these qualities a role finder's guess is left out: a wrong name or address costs a false positive and
 * a false negative, an empty one only the false negative (measured on the dev set: receipts F1 +0.02).
 */
const ABSTAIN_BELOW: Partial<Record<FieldRole, number>> = { issuer: 0.25, 'issuer-address': 0.3 };

/** A role as the issuer finders answer it: a provider found is the sender (find-parties.ts). */
function senderRole(role: FieldRole): FieldRole {
  return role === 'provider' ? 'issuer' : role === 'provider-address' ? 'issuer-address' : role;
}

/**
 * A role finder's answer below this quality is a guess from the layout alone (no wording: the largest amount on
 * the page for a total); a value read at the field's own printed label that passes its type or format check (an
 * amount, a date) is better evidence. Free text passes any check, so a name or address keeps the finder's guess.
 */
const GUESS_BELOW = 0.5;

/** Roles whose printed label, when found and valid, beats the layout finder (a labelled date is the date). */
const LABEL_FIRST: ReadonlySet<FieldRole> = new Set(['document-date']);

/**
 * The label quality from which a caption counts as printed for a party that is the sender here: "Remit To:" for a
 * `remit_to` scores 0.95, while the field's words only resembling a caption scored at most 0.72 on the dev set's
 * receipts ("Supplier" at "Total 0% supplies: 23.64" 0.62, "Store" at "…OF PURCHASE WITHIN" 0.72).
 */
const SENDER_CAPTION_QUALITY = 0.9;

/**
 * A party printed under a caption of the field's own wording ("Customer: …", "PATIENT'S NAME") is read there;
 * the party finders read the layout where no caption names it. The issuer's name and address keep their finder
 * first (as a provider's do, the issuer where the page names no provider): a receipt's name at the top beats any
 * caption the schema's words happen to match.
 */
function captionFirst(index: DocumentIndex, role: FieldRole, captionQuality: number): boolean {
  const sender = senderRole(role);
  if (!isPartyRole(role) || sender === 'issuer' || sender === 'issuer-address') return false;
  // A payee on a receipt or an invoice is its sender (a payer on a payslip): there its caption comes first only when
  // the page prints it ("Remit To:"), not where the field's words resemble another caption.
  const detail = role.split('-')[1];
  const sendersName = (detail === undefined || detail === 'address') && isSenderHere(index, role);
  return !sendersName || captionQuality >= SENDER_CAPTION_QUALITY;
}

/**
 * A scalar: from a marked check box, else by its printed label, or for a well-known role (issuer, total…) by
 * the role's finder, which reads the layout. Agreement of the two raises the quality; disagreement lowers it;
 * a value that passes its field's format check counts that as further evidence (field-confidence.ts).
 */
function extractScalar(
  index: DocumentIndex,
  spec: ScalarSpec,
  options: ExtractOptions,
  context: DocumentContext,
): ScalarResult {
  // A check box's mark answers an enum or a boolean better than the words the OCR read around it.
  const fromBoxes = readCheckBoxes(index.pages, spec, context.candidates(spec));
  if (fromBoxes) {
    const path = spec.path.join('.');
    return {
      value: fromBoxes.value,
      valid: true,
      outcome: { path, required: spec.required, found: true, quality: fromBoxes.score },
    };
  }
  const read = readScalarText(index, spec, options, context);
  if (options.fast || !read.valid || !constrainsValue(spec)) return read;
  return { ...read, outcome: { ...read.outcome, quality: withFormatCheck(read.outcome.quality) } };
}

/** The share of the party finder's quality a part read from its address block keeps. */
const ADDRESS_PART_FACTOR = 0.9;

/**
 * A part of a party's address read from the party's block (the sender's under its name, the recipient's under "Bill
 * to:" or over a postal line); null when the finder finds no block or the block no such part.
 */
function readAddressPartOf(index: DocumentIndex, spec: ScalarSpec): ScalarResult | null {
  const { role, part } = spec.addressPart!;
  const address = findParty(index, role);
  if (!address?.lines || address.quality < (ABSTAIN_BELOW[senderRole(role)] ?? 0)) return null;
  const text = readAddressPart(address.lines, part);
  const coerced = text === null ? null : coerceScalar(text, spec, true);
  if (!coerced?.valid || coerced.value === null) return null;
  const quality = address.quality * ADDRESS_PART_FACTOR;
  return {
    value: coerced.value,
    valid: true,
    outcome: { path: spec.path.join('.'), required: spec.required, found: true, quality },
  };
}

/** A person's name to take parts of: two to four words of letters ("Doe, John A.", "Mary-Ann O'Neil"). */
const PERSON_NAME = /^\p{L}[\p{L}'’.-]*,?(?:\s+\p{L}[\p{L}'’.-]*,?){1,3}$/u;

/**
 * A part of a person's name: at a caption of its own ("Last Name:"), else the part of the whole name, read by its
 * caption or as its party, in the order the caption's hint gives ("Name (Last, First, Middle)"; name-parts.ts).
 */
function readNamePart(
  index: DocumentIndex,
  spec: ScalarSpec,
  options: ExtractOptions,
  context: DocumentContext,
): ScalarResult {
  const { wholeName, ...own } = spec;
  const byOwn = readScalarText(index, own, options, context);
  if (byOwn.valid || !wholeName) return byOwn;
  const whole = readScalarText(index, wholeName, options, context);
  if (!whole.valid || typeof whole.value !== 'string' || !PERSON_NAME.test(whole.value.trim())) return byOwn;
  const order = context
    .candidates(wholeName)
    .map((c) => hintOrder(c.line.line.text))
    .find((o) => o !== null);
  const text = namePart(whole.value, spec.namePart!, order ?? null);
  const coerced = text === null ? null : coerceScalar(text, spec, !options.fast);
  if (!coerced?.valid || coerced.value === null) return byOwn;
  return { value: coerced.value, valid: true, outcome: { ...whole.outcome, path: spec.path.join('.') } };
}

/** A scalar read from text, by label or role; its quality is the selection's, before the format check counts. */
function readScalarText(
  index: DocumentIndex,
  spec: ScalarSpec,
  options: ExtractOptions,
  context: DocumentContext,
): ScalarResult {
  if (spec.wholeName) return readNamePart(index, spec, options, context);
  const fromAddress = spec.addressPart ? readAddressPartOf(index, spec) : null;
  if (fromAddress) return fromAddress;
  const byLabel = extractByLabel(index, spec, options, context);
  if (!options.fast && isNpiField(spec) && !(byLabel.valid && isValidNpi(String(byLabel.value)))) {
    const npi = onlyValidNpi(index);
    const coerced = npi === null ? null : coerceScalar(npi, spec, true);
    if (coerced?.valid) {
      const outcome = {
        path: spec.path.join('.'),
        required: spec.required,
        found: true,
        quality: NPI_ANYWHERE_QUALITY,
      };
      return { value: coerced.value, valid: true, outcome };
    }
  }
  if (!spec.role || (LABEL_FIRST.has(spec.role) && byLabel.valid)) return byLabel;
  if ((spec.captionFirst || captionFirst(index, spec.role, byLabel.outcome.quality)) && byLabel.valid) return byLabel;
  const byRole = isPartyRole(spec.role) ? findParty(index, spec.role) : findByRole(index, spec.role);
  if (!byRole || byRole.quality < (ABSTAIN_BELOW[senderRole(spec.role)] ?? 0)) return byLabel;
  if (byLabel.valid && constrainsValue(spec) && byRole.quality < GUESS_BELOW) return byLabel;
  const coerced = coerceScalar(String(byRole.value), spec, !options.fast, context.dateOrder);
  if (coerced.value === null || !coerced.valid) return byLabel;
  const agrees = byLabel.valid && byLabel.value === coerced.value;
  const quality = agrees
    ? Math.min(1, Math.max(byRole.quality, byLabel.outcome.quality) + 0.1)
    : byRole.quality * (byLabel.valid ? 0.85 : 1);
  return {
    value: coerced.value,
    valid: true,
    outcome: { path: spec.path.join('.'), required: spec.required, found: true, quality },
  };
}

function splitList(raw: string): string[] {
  // Enumerated lists print "A. R05.9  B. I10": drop the letters (the OCR may glue them to a code: "A.E11.9").
  const text = raw.replace(/(^|\s)[A-La-l][.)](\s+|(?=[A-Z]?\d))/g, '$1').trim();
  const parts = text.split(/\s*[,;|]\s*/).filter(Boolean);
  if (parts.length > 1) return parts;
  // Codes printed in a row separated by spaces: "E11.9  I10  Z79.4" (a stray mark between them is no code).
  const tokens = text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (tokens.length > 1 && tokens.every((t) => /\d/.test(t) && t.length <= 10)) return tokens;
  return [text];
}

/**
 * The code an item starts with ("J06.9 Acute upper respiratory infection" → "J06.9", "99213-25" as printed): a
 * token of letters and digits, with a digit, three to ten characters long; null when the item starts with none.
 */
function leadingCode(item: string): string | null {
  const first = item.trim().split(/\s+/)[0] ?? '';
  return /^(?=.*\d)[\p{L}\d][\p{L}\d.-]{2,9}$/u.test(first) ? first.replace(/[.-]$/, '') : null;
}

function extractList(
  index: DocumentIndex,
  spec: ListSpec,
  options: ExtractOptions,
  context: DocumentContext,
): { value: Json; outcome: FieldOutcome } {
  const path = spec.path.join('.');
  const itemsOf = (candidate: ValueCandidate): string[] => {
    const text =
      candidate.where === 'below' && candidate.valueLine
        ? continueEnumeratedRow(index, candidate.valueLine, candidate.text!)
        : candidate.text!;
    const parts = splitList(text);
    return spec.itemsAreCodes ? parts.flatMap((part) => leadingCode(part) ?? []) : parts;
  };
  // A list of codes is where codes are: the words after its caption on the caption's line are its instructions.
  let top: ValueCandidate | undefined;
  let parts: string[] = [];
  for (const candidate of context.candidates(spec)) {
    if (candidate.text === null || readsACaption(candidate, context)) continue;
    parts = itemsOf(candidate);
    if (!spec.itemsAreCodes || parts.length > 0) {
      top = candidate;
      break;
    }
  }
  if (!top) return { value: [], outcome: { path, required: spec.required, found: false, quality: 0 } };
  const items = parts.map((part) => coerceScalar(part, spec.item, !options.fast));
  const values = items.filter((i) => i.value !== null && (options.fast || i.valid)).map((i) => i.value as Json);
  const validShare = items.length === 0 ? 0 : items.filter((i) => i.valid).length / items.length;
  return {
    value: values,
    outcome: {
      path,
      required: spec.required,
      found: values.length > 0,
      quality: top.score * validShare * ocrFactor(top.confidence),
    },
  };
}

function extractTable(
  pages: PageLayout[],
  spec: TableSpec,
  options: ExtractOptions,
): { value: Json; outcome: FieldOutcome } {
  const path = spec.path.join('.');
  const { rows, score } = readTableItems(pages, spec, options);
  const cells = rows.reduce((sum, row) => sum + row.cells, 0);
  const validCells = rows.reduce((sum, row) => sum + row.validCells, 0);
  const confidenceSum = rows.reduce((sum, row) => sum + row.confidenceSum, 0);
  const found = rows.length > 0;
  const quality = found ? score * (validCells / Math.max(1, cells)) * ocrFactor(confidenceSum / Math.max(1, cells)) : 0;
  return {
    value: rows.map((row) => row.item),
    outcome: { path, required: spec.required, found, quality: Math.min(1, quality) },
  };
}

/** How sure a value read from its person's row of a table of people is (person-rows.ts). */
const PERSON_ROW_QUALITY = 0.8;

function personRowResult(spec: FieldSpec, value: Json): { value: Json; outcome: FieldOutcome } {
  return {
    value,
    outcome: { path: spec.path.join('.'), required: spec.required, found: true, quality: PERSON_ROW_QUALITY },
  };
}

/**
 * Confidence (slow mode): 100 × Σ w·q / Σ w over fields, where q is the field's evidence quality (0 when not
 * found) and w is 2 for required fields, 1 for optional fields found, 0.25 for optional fields not found (a
 * document often lacks optional fields: weak evidence of a bad read). See docs/reference.md.
 */
export function scoreConfidence(fields: FieldOutcome[]): number {
  if (fields.length === 0) return 0;
  let weighted = 0;
  let weights = 0;
  for (const field of fields) {
    const w = field.required ? 2 : field.found ? 1 : 0.25;
    weighted += w * (field.found ? field.quality : 0);
    weights += w;
  }
  return Math.round((1000 * weighted) / weights) / 10;
}

/** Extracts every field of `schema` from the analysed pages. */
export function extractFields(pages: PageLayout[], schema: JsonSchema, options: ExtractOptions): ExtractionResult {
  const index = indexDocument(pages, options.locale);
  const specs = collectFields(schema);
  const found = new Map<ScalarSpec | ListSpec, ValueCandidate[]>();
  const candidates = (spec: ScalarSpec | ListSpec) => {
    const known = found.get(spec);
    if (known) return known;
    const list = candidatesFor(index, spec, options);
    found.set(spec, list);
    return list;
  };
  const captions = options.fast ? new Set<string>() : captionPlaces(specs, candidates);
  const context: DocumentContext = { dateOrder: documentDateOrder(index), captions, candidates };
  const data = skeleton(schema);
  const fields: FieldOutcome[] = [];
  const fromPersonRows = readPersonRows(pages, schema, options);
  for (const spec of specs) {
    const fromRow = spec.kind === 'scalar' ? fromPersonRows.get(spec.path.join('.')) : undefined;
    const result =
      fromRow !== undefined
        ? personRowResult(spec, fromRow)
        : spec.kind === 'scalar'
          ? extractScalar(index, spec, options, context)
          : spec.kind === 'list'
            ? extractList(index, spec, options, context)
            : extractTable(pages, spec, options);
    setPath(data, spec.path, result.value);
    fields.push(result.outcome);
  }
  return { data, fields, confidence: options.fast ? null : scoreConfidence(fields) };
}
