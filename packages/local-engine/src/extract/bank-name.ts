/**
 * A bank's name printed without a caption in an invoice's remittance block: "ANZ Bank" over "ACC # 1234 1234" and
 * "BSB # 4321 432". A field that asks for a bank's name (`remit_to_bank_name`, `bankName`, `bank`) reads the short
 * line naming a bank (the word "bank", "banque" or "Bank" in a name, no figure, no caption) printed right over the
 * account's own lines (CHANGELOG.md, "Questions, boxes and contact boxes by their words").
 */
import type { DocumentIndex, IndexedLine } from './document-index.js';
import { describeWords } from './field-roles.js';
import type { ValueCandidate } from './find-values.js';

/** A name that says it is a bank's. */
const BANK_WORD = /\b(?:bank|banque|banco|banca|sparkasse|credit union)\b/i;
/** Captions of a bank account's lines. */
const ACCOUNT_LINE = /\b(?:acc(?:ount)?|a\/c|iban|bsb|sort\s*code|routing|swift|bic|aba)\b/i;
/** Most words a bank's name line has. */
const MAX_NAME_WORDS = 5;
/** How many lines under the name the account's lines may start. */
const ACCOUNT_REACH = 2;
/** How sure a bank's name read so is: below a caption's reading. */
const BANK_NAME_SCORE = 0.6;

/** Whether a field asks for a bank's name: its name's words are "bank" and, at most, "name" and a party's. */
function asksForBankName(path: string[]): boolean {
  const words = describeWords(path.at(-1) ?? '');
  return words.includes('bank') && (words.at(-1) === 'name' || words.at(-1) === 'bank');
}

function isNameLine(line: IndexedLine): boolean {
  const text = line.line.text.trim();
  return (
    BANK_WORD.test(text) && !/\d|:/.test(text) && text.split(/\s+/).length <= MAX_NAME_WORDS && !ACCOUNT_LINE.test(text)
  );
}

/** The lines naming a bank right over its account's lines, as candidates of a field asking for a bank's name. */
export function bankNameCandidates(index: DocumentIndex, path: string[]): ValueCandidate[] {
  if (!asksForBankName(path)) return [];
  return index.lines.flatMap((line, i) => {
    if (!isNameLine(line)) return [];
    const below = index.lines
      .slice(i + 1)
      .filter((l) => l.page === line.page && l.line.box.y0 >= line.line.box.y1 - 1)
      .slice(0, ACCOUNT_REACH);
    if (!below.some((l) => ACCOUNT_LINE.test(l.line.text))) return [];
    const { box } = line.line;
    return [
      {
        score: BANK_NAME_SCORE,
        text: line.line.text.trim(),
        where: 'same-line' as const,
        confidence: line.line.confidence,
        page: line.page.page,
        // No caption: an empty one where the name starts.
        labelBox: { ...box, x1: box.x0 },
        valueBox: box,
        valueLine: null,
        line,
      },
    ];
  });
}
