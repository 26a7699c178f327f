/**
 * Property names built the way data dictionaries build element names: a standard's (ASC X12, UBL, EN 16931) or an
 * incumbent system's export names a field by its object, its property and a representation term saying how the
 * value is stored (ISO/IEC 11179: `GenderCode`, `RelationshipCode`, `FilingIndicatorCode`, `AddressInformation`,
 * `ChargeAmount`), and names alternatives with `or` between (`StateOrProvinceCode`, `PostalZoneOrZipCode`,
 * `GroupOrPolicyNumber`). A page prints what the value is, not how it is stored: "SEX", "STATE", "ZIP CODE".
 * So a name is also looked for without its representation term and as each of its alternatives
 * (CHANGELOG.md, "An incumbent's field names"). Names only, never descriptions: a description's "or"
 * is prose.
 */
import { conceptWords } from '../lexicon/lexicon.js';

/**
 * Representation terms no caption prints after what it names. Not a list's plural ("diagnosis codes"): such a
 * list is looked for without it only with its items read as codes (schema-fields.ts, `itemsAreCodes`).
 */
const STORAGE_TERMS = new Set(conceptWords('storage-term'));
/** A representation term a caption may print, dropped only when two words or more name the thing before it. */
const AMOUNT_TERMS = new Set(conceptWords('amount'));
/** The document itself, qualifying a name's middle: `total claim charge` is the claim's total charge. */
const DOCUMENT_WORDS = new Set(conceptWords('document-noun'));

/** The name without its trailing representation term; null when it has none or nothing would remain. */
function withoutStorageTerm(words: readonly string[]): string[] | null {
  const last = words[words.length - 1]!;
  if (words.length >= 2 && STORAGE_TERMS.has(last)) return words.slice(0, -1);
  if (words.length >= 3 && AMOUNT_TERMS.has(last)) return words.slice(0, -1);
  return null;
}

/**
 * The name without a document word between two other words; null when it has none. Beside another document
 * word it is part of a compound ("invoice receipt date": an invoice's or a receipt's date).
 */
function withoutDocumentWord(words: readonly string[]): string[] | null {
  const qualifies = (i: number) =>
    i > 0 &&
    i < words.length - 1 &&
    DOCUMENT_WORDS.has(words[i]!) &&
    !DOCUMENT_WORDS.has(words[i - 1]!) &&
    !DOCUMENT_WORDS.has(words[i + 1]!);
  const kept = words.filter((_, i) => !qualifies(i));
  return kept.length < words.length ? kept : null;
}

/**
 * Each alternative a name with `or` names: the words before it, those before it with the shared last word
 * ("state or province code" → "state code"), and the words after it ("postal zone or zip code" → "zip code").
 */
function alternatives(words: readonly string[]): string[][] {
  const at = words.indexOf('or');
  if (at <= 0 || at >= words.length - 1) return [];
  const before = words.slice(0, at);
  const after = words.slice(at + 1);
  const shared = after[after.length - 1]!;
  return [before, ...(after.length > 1 ? [[...before, shared]] : []), after];
}

/**
 * Shorter labels a data-element name (split into lower-case words and spelled out) also stands for, without
 * the name itself: "gender code" → "gender"; "state or province code" → "state", "state code", "province
 * code", "province"; "total claim charge amount" → "total charge".
 */
export function dataElementLabels(name: string): string[] {
  const words = name.split(' ').filter(Boolean);
  const found = new Set<string>();
  const reduce = (from: readonly string[]) => {
    const stripped = withoutStorageTerm(from);
    if (stripped) found.add(stripped.join(' '));
    const plain = withoutDocumentWord(stripped ?? from);
    if (plain) {
      found.add(plain.join(' '));
      const again = withoutStorageTerm(plain);
      if (again) found.add(again.join(' '));
    }
  };
  reduce(words);
  for (const alternative of alternatives(words)) {
    found.add(alternative.join(' '));
    reduce(alternative);
  }
  found.delete(name);
  return [...found];
}
