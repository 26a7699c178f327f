/**
 * Captions the schema's own words explain: a user asks for "the name of the person who submitted the report"
 * where the form prints `Submitter:`, for "the date the report was closed" where it prints `Close Date:`, for "the
 * solution carried out" where it prints `Solutions:`. A `Label:` caption whose every word is, by its stem, a word
 * of the field's description is a label of the field, less surely the fewer words it has
 * (docs/reference.md, "Extraction: label matching"). Only a description that says what the field is in a
 * phrase of its own (four words or more) explains captions: a short one ("Invoice Number"), like the property's
 * name, is the field's caption itself, matched as a whole, and a caption holding one of its words (`Invoice for:`)
 * is another field's.
 */
import { conceptWords } from '../lexicon/lexicon.js';
import { BOX_NUMBER, FUNCTION_WORDS, type DocumentIndex, type IndexedLine } from './document-index.js';

/** Words that carry no meaning of their own in a caption. */
const FILLER = new Set([...FUNCTION_WORDS, ...conceptWords('particle-or'), ...conceptWords('number-sign')]);

/**
 * Words that alone name nothing in particular: a caption of only these (`Date:`, `Name:`, `Total:`) names the
 * field of any description that mentions them.
 */
export const BARE_CAPTION_WORDS = new Set(conceptWords('bare-caption'));

/**
 * A word's stem, so that the forms of one word meet: closed/close/closing, submitted/submitter,
 * solutions/solution, reported/report. Light suffix stripping, one suffix at most; both sides are stemmed alike.
 */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  for (const [suffix, keep] of [
    ['ing', 3],
    ['ed', 3],
    ['er', 5],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= keep) {
      w = w.slice(0, -suffix.length);
      // submitt → submit, stopp → stop
      if (/([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}'’]+/u)
    .map((w) => w.replace(/^['’]+|['’]+$/g, ''))
    .filter((w) => w !== '' && !FILLER.has(w));
}

/** The caption a line starts with: up to four words before a colon, box numbers skipped, no digits; else null. */
function leadingCaption(entry: IndexedLine): string | null {
  const tokens = entry.tokens;
  let first = 0;
  while (first < tokens.length && BOX_NUMBER.test(tokens[first]!.raw)) first++;
  const colonAt = tokens.findIndex((t, j) => j >= first && t.raw.endsWith(':'));
  if (colonAt < 0 || colonAt - first >= 4) return null;
  const caption = entry.line.text.slice(tokens[first]!.start, tokens[colonAt]!.end - 1).trim();
  return /\d/.test(caption) || !/\p{L}/u.test(caption) ? null : caption;
}

/** A caption the field's words explain, the lines it starts, and the label weight it gets. */
export interface ExplainedCaption {
  text: string;
  weight: number;
  lines: Set<IndexedLine>;
}

/** The label weight of a caption explained by one, two, three or more of the field's words. */
const WEIGHT_BY_WORDS = [0, 0.6, 0.7, 0.75];

/** Fewer words than this name a field rather than describe it. */
const DESCRIBING_WORDS = 4;

/** The `Label:` captions printed in `index` whose every word is a word of the field's `description`. */
export function explainedCaptions(index: DocumentIndex, description: string): ExplainedCaption[] {
  if (description.trim().split(/\s+/).length < DESCRIBING_WORDS) return [];
  const own = new Set(wordsOf(description).map(stem));
  const found = new Map<string, ExplainedCaption>();
  for (const entry of index.lines) {
    const caption = leadingCaption(entry);
    if (!caption) continue;
    const words = wordsOf(caption);
    if (words.length === 0 || words.every((w) => BARE_CAPTION_WORDS.has(w)) || !words.every((w) => own.has(stem(w))))
      continue;
    const key = caption.toLowerCase();
    const known = found.get(key);
    if (known) known.lines.add(entry);
    else
      found.set(key, {
        text: caption,
        weight: WEIGHT_BY_WORDS[Math.min(words.length, WEIGHT_BY_WORDS.length - 1)]!,
        lines: new Set([entry]),
      });
  }
  return [...found.values()];
}
