/**
 * Text helpers that make the checks decide as olmOCR-bench's Python does (docs/checks.md, "Semantics"):
 * positions and lengths count code points, as Python's `str` does, and whitespace is Python's `\s`.
 */

/** Python's `\s` for `str` patterns (JavaScript's differs: it has U+FEFF and lacks U+001C–U+001F and U+0085). */
export const PY_SPACE =
  '[\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const SPACE_RUNS = new RegExp(`${PY_SPACE}+`, 'g');
const EDGE_SPACE = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

/** Collapses every run of whitespace to one space. */
export function collapseSpaces(text: string): string {
  return text.replace(SPACE_RUNS, ' ');
}

/** Python's `str.strip()`. */
export function pyStrip(text: string): string {
  return text.replace(EDGE_SPACE, '');
}

/** Python's `str.isalnum()` for one character: a letter or any kind of number. */
const ALNUM = /[\p{L}\p{N}]/u;
export function isAlnum(char: string): boolean {
  return ALNUM.test(char);
}

/** The characters of `text` (code points). */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/** Code-point length. */
export function cpLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Replacements of typographic characters by their ASCII forms, and micro by mu, as olmOCR-bench normalises. */
const REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['\u2018', "'"],
  ['\u2019', "'"],
  ['\u201a', "'"],
  ['\u201c', '"'],
  ['\u201d', '"'],
  ['\u201e', '"'],
  ['\uff3f', '_'],
  ['\u2013', '-'],
  ['\u2014', '-'],
  ['\u2011', '-'],
  ['\u2012', '-'],
  ['\u2212', '-'],
  ['\u00b5', '\u03bc'],
];

/**
 * The text a check compares, as olmOCR-bench's `normalize_text` makes it, step by step: `<br>` becomes a
 * space; bold (`**`, `__`, `<b>`) and italic (`<i>`, then `*` / `_` pairs on one line) markers are dropped;
 * whitespace runs become one space; Unicode NFC; typographic quotes and dashes become ASCII.
 */
export function normalizeCheckText(text: string): string {
  let out = text.replace(/<br\/?>/g, ' ');
  out = out.replace(/\*\*([^\n]*?)\*\*/g, '$1');
  out = out.replace(/__([^\n]*?)__/g, '$1');
  out = out.replace(/<\/?b>/g, '');
  out = out.replace(/<\/?i>/g, '');
  out = out.replace(/(\*\*|__)([^\n]*?)\1/g, '$2');
  out = out.replace(/(\*|_)([^\n]*?)\1/g, '$2');
  out = collapseSpaces(out);
  out = out.normalize('NFC');
  for (const [from, to] of REPLACEMENTS) out = out.split(from).join(to);
  return out;
}
