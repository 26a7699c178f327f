/** Escaping of untrusted text (dataset and service strings) for the text outputs: Markdown and CSV. */

/**
 * Text that renders as itself in CommonMark/GFM inside a sentence or a table cell: HTML-significant characters
 * as entities, inline markdown punctuation backslash-escaped, line breaks flattened (they would end a table
 * row). Block markers (`#`, `-`, `1.`) only act at the start of a line, where escaped text never goes.
 */
export function escapeMarkdown(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!)
    .replace(/[\\`*_[\]|~]/g, (ch) => `\\${ch}`);
}

/**
 * Spreadsheets run cells starting with = + - @ (or a tab/CR) as formulas, and document ids, errors and URLs
 * come from the dataset and the service. Such text cells get a leading apostrophe (OWASP "CSV injection").
 * Numbers are written as numbers and never altered.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
