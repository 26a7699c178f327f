/**
 * The one scorer of the roles the lexicon's roles.json declares (src/lexicon/README.md): where a role's words and
 * phrases name it in a field's words (its readings), and whether a word of a concept that excludes it stands where
 * the exclusion looks, outside the words naming it. party-roles.ts chooses among the parties by place (the field's
 * own words, then its parents', then its description), field-roles.ts among the document's roles by their order;
 * neither holds a word.
 */
import { conceptWords, type Exclusion, lexicon, type PartyRule, type Place } from '../lexicon/lexicon.js';

const wordsOf = new Map<string, string[]>();
/** Every word of some concepts, in every language (kept: the scorer asks for the same lists for every word). */
export function words(concepts: readonly string[]): string[] {
  const key = concepts.join(' ');
  const found = wordsOf.get(key) ?? concepts.flatMap((concept) => conceptWords(concept));
  wordsOf.set(key, found);
  return found;
}
export const has = (list: readonly string[], of: readonly string[]) => list.some((w) => of.includes(w));

/**
 * How roles.json says a role is named: by its concepts' words (`needs`; their `weak` words and a `weak` concept's
 * only weakly), by phrases, by a property name's lead word.
 */
export interface Naming {
  needs: string[];
  weak?: string[];
  unqualified?: boolean;
  phrases: string[][];
  leads?: string[];
}

/** A role some words name: its rule, whether surely or only weakly, and the words that say it. */
export interface Reading<R extends Naming = PartyRule> {
  rule: R;
  sure: boolean;
  start: number;
  end: number;
}

/**
 * Whether the word at `i` is unqualified: first, after a word too short to qualify it, or after a word that
 * leaves it so ("the company", "service provider"); a "mortgage company" or a "billing provider" is someone else.
 */
function unqualified(list: readonly string[], i: number): boolean {
  const before = list[i - 1];
  return before === undefined || !/^[a-z]{3,}$/.test(before) || words(lexicon().party.unqualifying).includes(before);
}

/** The length of the first of `phrases` (runs of concepts, one word of each) that starts at `i`; 0 when none does. */
export function phraseLength(phrases: readonly string[][], list: readonly string[], i: number): number {
  const phrase = phrases.find((slots) => slots.every((slot, k) => conceptWords(slot).includes(list[i + k] ?? '')));
  return phrase?.length ?? 0;
}

/**
 * The readings of some words by some roles, earliest first: at each word a phrase of any role, then a word naming
 * one surely (in the rules' order), then a weak word. `name`: a property name, which a lead word ("from") may start.
 */
export function readingsOf<R extends Naming>(rules: readonly R[], list: readonly string[], name = false): Reading<R>[] {
  const found: Reading<R>[] = [];
  const weakWords = rules.map((rule) => [
    ...rule.needs.flatMap((c) => conceptWords(c, 'weak')),
    ...words(rule.weak ?? []),
  ]);
  for (const [i, word] of list.entries()) {
    for (const rule of rules) {
      const length = phraseLength(rule.phrases, list, i);
      if (length > 0) found.push({ rule, sure: true, start: i, end: i + length });
    }
    for (const rule of rules) {
      if (name && i === 0 && list.length > 1 && words(rule.leads ?? []).includes(word))
        found.push({ rule, sure: true, start: 0, end: 1 });
      if (words(rule.needs).includes(word) && (!rule.unqualified || unqualified(list, i)))
        found.push({ rule, sure: true, start: i, end: i + 1 });
    }
    for (const [r, rule] of rules.entries())
      if (weakWords[r]!.includes(word) && unqualified(list, i)) found.push({ rule, sure: false, start: i, end: i + 1 });
  }
  return found;
}

/** Some words read at a place, and the readings that name the role there (their words exclude nothing). */
export interface PlaceWords {
  place: Place;
  words: readonly string[];
  naming: readonly Reading<Naming>[];
}

/**
 * Whether a word of an excluding concept stands where an exclusion looks, outside the words naming the role (a
 * landlord beside a name, "due" beside a date), unless the description holds a word of its `unless`.
 */
export function excludes(
  exclusions: readonly Exclusion[],
  places: readonly PlaceWords[],
  description: readonly string[],
) {
  return exclusions.some(
    (exclusion) =>
      !has(description, words(exclusion.unless ?? [])) &&
      places.some(
        ({ place, words: list, naming }) =>
          exclusion.in.includes(place) &&
          list.some(
            (word, k) => words(exclusion.concepts).includes(word) && !naming.some((r) => k >= r.start && k < r.end),
          ),
      ),
  );
}
