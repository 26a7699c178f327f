/**
 * One way to validate settings read from a file (docbench.config.*) or given as flags: every message names
 * where the value came from and its key path, says what was expected and what was found —
 * `docbench.config.yaml: gate.min_f1: expected a number from 0 to 1, got "high"` — the style of the dataset
 * validator. A section is a schema: one reader per key; a key the schema lacks is refused with the closest
 * known key as a suggestion (a typo must not pass silently). A new section (e.g. a `systems` map) is one more
 * schema entry.
 */
import { UsageError } from './errors.js';
import { lazyRequire } from './lazy.js';

// Loaded for the first misspelt key, not with docbench: it builds an Intl.Collator when it loads (CONTRIBUTING.md, Habits).
const levenshteinPackage = lazyRequire<typeof import('fast-levenshtein')>('fast-levenshtein');

/** Reads one value at `at` (its key path), or throws through `reader`. */
export type ValueReader<T> = (value: unknown, at: string, reader: SettingsReader) => T;

/** A section's keys and their readers. */
export type SectionSchema = Record<string, ValueReader<unknown>>;

/** What a schema reads: each key's reader's result, absent when the key was absent (or null). */
export type SectionOf<S extends SectionSchema> = { [K in keyof S]?: ReturnType<S[K]> };

export class SettingsReader {
  /**
   * @param where the file the settings came from (its name), or null for flags, whose path is the flag.
   * @param hint where the settings are documented, e.g. 'see "Configuration" in the README'.
   */
  constructor(
    readonly where: string | null,
    private readonly hint: string,
  ) {}

  /** The same source, with another documentation hint (e.g. a section documented in its own page). */
  withHint(hint: string): SettingsReader {
    return new SettingsReader(this.where, hint);
  }

  /** The error for the value at `at`: `where: at: problem`. */
  fail(at: string, problem: string, hint: string = this.hint): never {
    throw new UsageError(`${this.where === null ? '' : `${this.where}: `}${at}: ${problem}`, {
      code: this.where === null ? 'USAGE' : 'CONFIG_INVALID',
      subject: at,
      hint,
    });
  }

  /** Fails with "expected …, got …". */
  expected(at: string, what: string, value: unknown): never {
    return this.fail(at, `expected ${what}, got ${describeValue(value)}`);
  }

  object(value: unknown, at: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.expected(at, 'an object of settings', value);
    return value as Record<string, unknown>;
  }

  /** Reads `value` with `schema`: unknown keys refused with a suggestion; null reads as absent. */
  section<S extends SectionSchema>(value: unknown, at: string, schema: S): SectionOf<S> {
    const object = value === undefined || value === null ? {} : this.object(value, at || '(top level)');
    const out: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(object)) {
      const path = at ? `${at}.${key}` : key;
      if (!Object.hasOwn(schema, key)) this.unknownKey(path, key, Object.keys(schema));
      if (raw === undefined || raw === null) continue;
      out[key] = schema[key]!(raw, path, this);
    }
    return out as SectionOf<S>;
  }

  /** A map whose keys are checked by `checkKey` (it returns a problem or null) and whose values by `read`. */
  map<T>(
    value: unknown,
    at: string,
    checkKey: (key: string) => string | null,
    read: ValueReader<T>,
  ): Record<string, T> {
    const object = value === undefined || value === null ? {} : this.object(value, at);
    const out: Record<string, T> = {};
    for (const [key, raw] of Object.entries(object)) {
      const problem = checkKey(key);
      if (problem !== null) this.fail(`${at}.${key}`, problem);
      out[key] = read(raw, `${at}.${key}`, this);
    }
    return out;
  }

  unknownKey(at: string, key: string, known: readonly string[]): never {
    const suggestion = suggestKey(key, known);
    return this.fail(
      at,
      `unknown setting${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
      `known settings here: ${known.join(', ')}`,
    );
  }
}

/** Readers of the common kinds of value; each names the expectation in its message. */
export const read = {
  string: ((value, at, reader) =>
    typeof value === 'string' ? value : reader.expected(at, 'a string', value)) as ValueReader<string>,
  boolean: ((value, at, reader) =>
    typeof value === 'boolean' ? value : reader.expected(at, 'true or false', value)) as ValueReader<boolean>,
  /** A finite number within [min, max] (either may be open with `exclusive`). */
  number(options: {
    min?: number;
    max?: number;
    minExclusive?: boolean;
    maxExclusive?: boolean;
    whole?: boolean;
    what: string;
  }): ValueReader<number> {
    return (value, at, reader) => {
      const ok =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (!options.whole || Number.isInteger(value)) &&
        (options.min === undefined || (options.minExclusive ? value > options.min : value >= options.min)) &&
        (options.max === undefined || (options.maxExclusive ? value < options.max : value <= options.max));
      return ok ? (value as number) : reader.expected(at, options.what, value);
    };
  },
  /** A list of allowed names, as an array or a comma-separated string. */
  list<T extends string>(allowed: readonly T[]): ValueReader<T[]> {
    return (value, at, reader) => {
      const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
      const what = `a non-empty list of ${allowed.join(', ')}`;
      if (!Array.isArray(items) || items.length === 0) return reader.expected(at, what, value);
      items.forEach((item, i) => {
        if (typeof item !== 'string' || !(allowed as readonly string[]).includes(item))
          reader.expected(`${at}[${i}]`, `one of ${allowed.join(', ')}`, item);
      });
      return items as T[];
    };
  },
};

/** A short phrase for a value: strings quoted (cut to 40 characters), other kinds named. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The known key closest to `key`: same name in another case or spelling (camelCase vs snake_case), or ≤ 2 edits. */
function suggestKey(key: string, known: readonly string[]): string | undefined {
  const squash = (s: string) => s.replace(/[_-]/g, '').toLowerCase();
  const same = known.find((k) => squash(k) === squash(key));
  if (same) return same;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = levenshteinPackage().get(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}
