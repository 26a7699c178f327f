/**
 * A person's name asked for in parts (`lastName`, `first_name`, `given_name`, `surname`), where a form prints it whole
 * under one caption ("Name (Last, First, Middle)"): the parts are taken in the order the caption's hint lists them,
 * else as names are written, "Last, First" with a comma and "First Middle Last" without (docs/reference.md,
 * "Other users' words").
 */

/** A part of a person's name. */
export type NamePart = 'first' | 'middle' | 'last';

/** Words that name each part, in property names and in a caption's hint. */
const PART_WORDS: Readonly<Record<NamePart, readonly string[]>> = {
  first: ['first', 'given', 'fore', 'forename'],
  middle: ['middle', 'mi', 'initial'],
  last: ['last', 'sur', 'surname', 'family'],
};

function partOfWord(word: string): NamePart | null {
  const bare = word.toLowerCase().replace(/[^a-z]/g, '');
  for (const part of ['first', 'middle', 'last'] as const) if (PART_WORDS[part].includes(bare)) return part;
  return null;
}

/**
 * The part of a name a property asks for (its name's words, lower case): a part word before `name`, or a surname or
 * forename alone; null otherwise (`last_updated` asks for no name).
 */
export function namePartOf(words: readonly string[]): NamePart | null {
  const at = words.findIndex((word, i) => partOfWord(word) !== null && (words[i + 1] === 'name' || /name$/.test(word)));
  return at < 0 ? null : partOfWord(words[at]!);
}

/** A property's name (its words, lower case) for the whole name it asks a part of: "client last name" → "client name". */
export function wholeNameOf(words: readonly string[]): string {
  return [...words.filter((word) => partOfWord(word) === null || word === 'name'), 'name']
    .filter((word, i, all) => word !== 'name' || i === all.length - 1)
    .join(' ');
}

/** The order of the parts a caption's hint lists ("(Last, First, Middle)"), or null when it lists fewer than two. */
export function hintOrder(caption: string): NamePart[] | null {
  for (const hint of caption.matchAll(/\(([^)]*)\)/g)) {
    const parts = hint[1]!
      .split(/[\s,/]+/)
      .map(partOfWord)
      .filter((part): part is NamePart => part !== null);
    if (parts.length >= 2) return parts;
  }
  return null;
}

/**
 * One part of a name as printed: in the hint's order when the caption gives one, else "Last, First Middle" when a
 * comma follows the first word, else "First Middle Last". With fewer words than parts the middle name is the one
 * left out; with more, the words left over are middle names (or the first name's: "Mary Ann"). Null when the name
 * has no such part.
 */
export function namePart(name: string, part: NamePart, order: NamePart[] | null): string | null {
  const comma = name.indexOf(',');
  const words = name.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  const parts: NamePart[] = order ?? (comma > 0 ? ['last', 'first', 'middle'] : ['first', 'middle', 'last']);
  const used = words.length >= parts.length ? parts : parts.filter((p) => p !== 'middle').slice(0, words.length);
  const at = used.indexOf(part);
  if (at < 0) return null;
  const wider = used.includes('middle') ? used.indexOf('middle') : used.indexOf('first');
  const sizes = used.map((_, i) => 1 + (i === wider ? words.length - used.length : 0));
  const from = sizes.slice(0, at).reduce((sum, n) => sum + n, 0);
  return words.slice(from, from + sizes[at]!).join(' ') || null;
}
