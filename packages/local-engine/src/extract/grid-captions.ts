/**
 * A grid's caption that prints only what a number or code is of. A pay statement heads its codes with a row of
 * one-word captions over a row of values ("CO.  FILE  DEPT.  CLOCK" over "ABC  126543  123456  12345"): the column
 * of a `fileNumber` is captioned "FILE", a `companyCode`'s "CO.", a `departmentNumber`'s "DEPT.". A field whose
 * name is one word and a number, code or id word is read at such a caption, in a grid only (grid-cells.ts: a row of
 * captions whose values stand under them column by column), where one printed word names one column
 * (CHANGELOG.md, "A grid's one-word captions").
 */
import type { DocumentIndex } from './document-index.js';
import { describeWords } from './field-roles.js';
import { findLabelValues, type ValueCandidate } from './find-values.js';
import { ID_WORDS } from './grid-cells.js';

/**
 * How captions abbreviate a word in a row of narrow columns, besides printing it whole. General office
 * abbreviations; `co` and `dept` only ever count at a grid's caption, never as a label elsewhere.
 */
const CAPTION_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  company: ['co'],
  department: ['dept'],
  employee: ['emp'],
  account: ['acct'],
  location: ['loc'],
  division: ['div'],
};

/** The label weight of a grid's caption that prints only what the field's number or code is of. */
const GRID_WORD_WEIGHT = 0.85;

/** The word a field named "<word> <number | code | id>" is a number of, or null for any other name. */
function numberedWord(name: string): string | null {
  const words = describeWords(name);
  return words.length === 2 && ID_WORDS.has(words[1]!) && words[0]!.length > 1 ? words[0]! : null;
}

/** The grid cells under a one-word caption naming what the field (`path`'s last name) is a number or code of. */
export function gridCaptionCandidates(index: DocumentIndex, path: readonly string[]): ValueCandidate[] {
  const word = numberedWord(path[path.length - 1] ?? '');
  if (!word) return [];
  return [word, ...(CAPTION_ABBREVIATIONS[word] ?? [])].flatMap((caption) =>
    findLabelValues(index, caption, GRID_WORD_WEIGHT, true).filter(
      (candidate) => candidate.inGrid && candidate.text !== null && candidate.line.tokens.length <= 3,
    ),
  );
}
