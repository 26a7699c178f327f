/**
 * Blanks a form prints for a value to be written in: the brackets of an area code (`( ) 314-8888`), a rule of
 * underscores (`Rent $____`), a lone `$`. The OCR reads them as words of their own, so an unfilled one must not
 * be taken for the value, and a filled one's brackets are no part of it (docs/reference.md, "Option groups
 * of check boxes").
 */

/** Text with no letter or digit: a blank as printed (`(`, `( )`, `____`, `$`), never a value. */
export function isPrintedBlank(text: string): boolean {
  return !/[\p{L}\p{N}]/u.test(text);
}

/**
 * The value without the blanks printed around it: empty brackets before it, or the closing one of a pair whose
 * opening one the OCR read into the line before (`) 314-8888`), and underscore rules at either end.
 */
export function withoutPrintedBlanks(text: string): string {
  return text
    .replace(/^\s*(\(\s*\)|\))\s*/, '')
    .replace(/^_+\s*|\s*_+$/g, '')
    .trim();
}
