/**
 * An address block's lines written out on one line, as addresses are quoted (docs/reference.md, roles):
 * the punctuation OCR misreads at line ends and around commas, and OCR slips in the street words every
 * address uses. Also what makes text read as an address at all.
 */
import { conceptWords, wordingPattern } from '../lexicon/lexicon.js';

/** A postcode before a place name, starting the line or after a comma ("47400 PETALING JAYA", "D-10115 Berlin"). */
export const POSTCODE_TOWN = /(^|,\s*)([A-Z]{1,2}-)?\d{4,6}\s*,?\s*\p{L}{3,}/u;

/** Street words (the lexicon's `street` captions), in the languages of the documents seen. */
export const STREET_WORDS = new RegExp(wordingPattern(conceptWords('street', 'pageWords')), 'iu');

/**
 * Whole words of addresses, long enough that one misread letter leaves them recognisable and with no common
 * word one letter away (so not `level`/`lever`, `tower`/`power`, `floor`/`flour`): street, building and
 * district words in English, German, Spanish, Italian and Malay (`Kawasan Perindustrian` is an industrial
 * estate, `Taman` a housing estate, `Menara` a tower, `Bangunan` a building).
 */
const LONG_ADDRESS_WORDS = [
  'street',
  'avenue',
  'building',
  'industrial',
  'strasse',
  'straße',
  'avenida',
  'piazza',
  'jalan',
  'taman',
  'lorong',
  'persiaran',
  'kawasan',
  'perindustrian',
  'bandar',
  'seksyen',
  'menara',
  'bangunan',
  'kampung',
];

/** Whether `word` is `known` with one letter replaced (same length, one position differs). */
function oneLetterOff(word: string, known: string): boolean {
  if (word.length !== known.length) return false;
  let differences = 0;
  for (let i = 0; i < word.length; i++) if (word[i] !== known[i] && ++differences > 1) return false;
  return differences === 1;
}

/** The known word written in the case of the word it replaces (`TAMAR` → `TAMAN`, `Tamar` → `Taman`). */
function inCaseOf(known: string, word: string): string {
  if (word === word.toUpperCase()) return known.toUpperCase();
  if (word[0] === word[0]!.toUpperCase()) return known[0]!.toUpperCase() + known.slice(1);
  return known;
}

/**
 * One misread letter in a street word put back (`Perindustrlan` → `Perindustrian`, `Tamar` → `Taman`). Only
 * words of five letters or more, one letter off a known word and not known themselves: a shorter word is too
 * easily another real word.
 */
export function repairAddressWords(text: string): string {
  return text.replace(/\p{L}{5,}/gu, (word) => {
    const lower = word.toLowerCase();
    if (LONG_ADDRESS_WORDS.includes(lower)) return word;
    const known = LONG_ADDRESS_WORDS.find((candidate) => oneLetterOff(lower, candidate));
    return known ? inCaseOf(known, word) : word;
  });
}

/**
 * The block's lines on one line. A full stop ending a line that is not the last is the line break's comma
 * misread (`SETAPAK.` / `53200 KUALA LUMPUR`), unless it ends an abbreviation (`SEL.`, `JLN.`: four letters or
 * fewer; German `…str.`); no space before a comma and one after it (`27,JALAN` → `27, JALAN`).
 */
export function joinAddressLines(lines: readonly string[]): string {
  return lines
    .map((line, i) => (i < lines.length - 1 ? line.replace(/(\d|\p{L}{5,})(?<!str)\.$/iu, '$1,') : line))
    .join(' ')
    .replace(/\s+,/g, ',')
    .replace(/,(?=\S)/g, ', ')
    .replace(/\s+/g, ' ');
}

/**
 * Spaces the OCR lost in an address line set in capitals: a house number glued to the street ("475ANY…"), a
 * street word glued to the word before it ("ANYAVENUE"), a ZIP code glued to the state or country
 * ("USA12345").
 */
export function repairGluedAddress(text: string): string {
  return text
    .replace(/^(\d{1,5})([A-Z]{3,})/, '$1 $2')
    .replace(/\b([A-Z]{2,})(STREET|AVENUE)\b/g, '$1 $2')
    .replace(/\b([A-Z]{2,})(\d{5})\s*$/, '$1 $2');
}
