/**
 * Captions found by a field's words rather than as a phrase (docs/reference.md, "Questions, boxes and contact
 * boxes by their words").
 *
 * The printed question a yes/no field asks: a user's `hasAdditionalOccupants` ("whether more people live in the
 * home than are listed") is the form's "Are there additional people in your home?", and `livesInSubsidizedHousing`
 * its "Do you reside in subsidized housing where heating and electric are included in the rent?". A question on the
 * page (its words up to a "?") whose content words are, by stem, mostly words of the field's name and description,
 * or that holds most of those, is a caption of the field; its YES/NO boxes answer it (check-box-values.ts).
 */
import type { PageLayout, PointBox } from '../layout/types.js';
import { conceptWords } from '../lexicon/lexicon.js';
import { stem } from './caption-words.js';
import { FUNCTION_WORDS, fragmentBox } from './document-index.js';
import { splitName } from './schema-fields.js';

/** Where a caption is printed and how well it names the field: all a check-box reading needs of a label. */
export interface CaptionPlace {
  page: number;
  labelBox: PointBox;
  score: number;
}

/** Words that ask rather than say what is asked about. */
const ASKING_WORDS = new Set([...FUNCTION_WORDS, ...conceptWords('question-opener'), ...conceptWords('asking-word')]);

/** Fewest of the field's words a question must print to be its caption: one word is any question's. */
const MIN_SHARED = 2;
/** Share of the question's words, or of the field's, the shared words must reach. */
const MIN_SHARE = 0.6;
/** The score of a question matched by all its words; a share below that scales it down. */
const FULL_SCORE = 0.8;

/** The stems of a text's words that say what it is about (no asking words, no amounts: "Rent $2000" is "rent"). */
export function contentStems(text: string): Set<string> {
  return new Set(
    text
      .replace(/[$€£¥]\s*[\d.,]*/gu, ' ')
      .toLowerCase()
      .split(/[^\p{L}\d]+/u)
      .filter((word) => word.length > 1 && !ASKING_WORDS.has(word))
      .map(stem),
  );
}

/** The questions printed on a page: each line's words up to a "?", from the line's start or the last sentence end. */
function questionsOn(page: PageLayout): { text: string; box: PointBox }[] {
  const found: { text: string; box: PointBox }[] = [];
  for (const line of page.lines) {
    let from = 0;
    for (const mark of line.text.matchAll(/\?+/g)) {
      const start = Math.max(
        from,
        line.text.lastIndexOf('. ', mark.index) + 1,
        line.text.lastIndexOf(': ', mark.index) + 1,
      );
      const text = line.text.slice(start, mark.index).trim();
      if (text) found.push({ text, box: fragmentBox(line, start, mark.index + mark[0].length) });
      from = mark.index + mark[0].length;
    }
  }
  return found;
}

/** A field as far as its own words go: its property's name and its description. */
interface WordedField {
  path: string[];
  description?: string | undefined;
}

/** The stems of a field's own words (its name's and its description's). */
export function fieldStems(spec: WordedField): Set<string> {
  return contentStems(`${splitName(spec.path.at(-1) ?? '')} ${spec.description ?? ''}`);
}

/** The questions on the pages that ask what a yes/no field says, best first. */
export function askingQuestions(pages: PageLayout[], spec: WordedField): CaptionPlace[] {
  const own = fieldStems(spec);
  if (own.size < MIN_SHARED) return [];
  const places: CaptionPlace[] = [];
  for (const page of pages)
    for (const question of questionsOn(page)) {
      const asked = contentStems(question.text);
      const shared = [...asked].filter((word) => own.has(word)).length;
      const share = Math.max(shared / Math.max(1, asked.size), shared / own.size);
      if (shared >= MIN_SHARED && share >= MIN_SHARE)
        places.push({ page: page.page, labelBox: question.box, score: FULL_SCORE * share });
    }
  return places.sort((a, b) => b.score - a.score);
}
