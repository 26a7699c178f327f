/**
 * Data for the page's inline script, as JSON inside `<script type="application/json">`. The HTML parser ends
 * a script element at the first `</script` whatever the JSON says, so `<` (and `>`, `&` for good measure)
 * are written as `\u003c`-style escapes, which JSON.parse reads back unchanged. U+2028/U+2029 are escaped too
 * so the text is also valid JavaScript source.
 */
import type Handlebars from 'handlebars';
import { lazyRequire } from '../lazy.js';

// Loaded by the first page rendered, not with the report module (CONTRIBUTING.md, Habits).
const handlebarsPackage = lazyRequire<typeof Handlebars>('handlebars');

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON text safe to place verbatim between `<script type="application/json">` and `</script>`. */
export function toScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => ESCAPES[ch]!);
}

/**
 * The same, wrapped so a template can place it with `{{ }}` without HTML-escaping it (entities are not
 * decoded inside a script element). This is the only SafeString the report makes from data.
 */
export function toScriptJsonHtml(value: unknown): Handlebars.SafeString {
  return new (handlebarsPackage().SafeString)(toScriptJson(value));
}
