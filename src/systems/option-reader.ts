/**
 * Reads the options of one system (`systems.<name>.<key>`) for its kind, in the project's one settings style
 * (src/settings-reader.ts): every message names the file, the key path, what was expected and what was
 * found — `docbench.config.yaml: systems.ocr.psm: expected a whole number from 0 to 13, got 14`. The keys
 * were checked against the kind's option names before (src/systems/config.ts), so a typo never gets here.
 */
import { read, type SettingsReader, type ValueReader } from '../settings-reader.js';
import type { FieldMap, FieldMapEntry } from './providers/field-map.js';

/** Environment variable names: what `apiKeyEnv`-like options and `passEnv` hold. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface NumberRange {
  min: number;
  max?: number;
  /** `min` itself is refused (e.g. a rate > 0). */
  minExclusive?: boolean;
  integer?: boolean;
}

export class OptionReader {
  /**
   * @param values the kind's own keys of the system's object (the common ones are read by the caller).
   * @param at the system's key path, e.g. `systems.gpt`.
   */
  constructor(
    private readonly values: Readonly<Record<string, unknown>>,
    readonly at: string,
    private readonly settings: SettingsReader,
  ) {}

  /** The error for the option `key` (a path below the system, e.g. `headers.Authorization`). */
  fail(key: string, problem: string, hint?: string): never {
    return this.settings.fail(`${this.at}.${key}`, problem, hint);
  }

  /**
   * A reader of the object option `key` (a pipeline's `extract:`), given the keys it may hold: any other key
   * besides `ignored` is refused, with the closest known one as a suggestion.
   */
  nested(key: string, raw: Readonly<Record<string, unknown>>, ignored: readonly string[]) {
    return (known: readonly string[]): OptionReader => {
      for (const name of Object.keys(raw))
        if (!ignored.includes(name) && !known.includes(name))
          this.settings.unknownKey(`${this.at}.${key}.${name}`, name, [...ignored, ...known]);
      const own = Object.fromEntries(Object.entries(raw).filter(([name]) => known.includes(name)));
      return new OptionReader(own, `${this.at}.${key}`, this.settings);
    };
  }

  /** The option as written, for kinds that check a shape of their own (e.g. the command's argv). */
  value(key: string): unknown {
    return this.values[key] ?? undefined;
  }

  private get<T>(key: string, reader: ValueReader<T>): T | undefined {
    const value = this.values[key];
    return value === undefined || value === null ? undefined : reader(value, `${this.at}.${key}`, this.settings);
  }

  string(key: string, example: string): string {
    return this.optionalString(key) ?? this.fail(key, `is required, e.g. ${example}`);
  }

  optionalString(key: string): string | undefined {
    return this.get(key, (value, at, reader) =>
      typeof value === 'string' && value.trim() !== '' ? value : reader.expected(at, 'a non-empty string', value),
    );
  }

  /** The name of an environment variable (never its value: secrets live only in the environment). */
  optionalEnvName(key: string): string | undefined {
    // The value is not quoted back: someone may have put the secret itself here by mistake.
    return this.get(key, (value, at, reader) =>
      typeof value === 'string' && ENV_NAME.test(value)
        ? value
        : reader.fail(at, 'expected the name of an environment variable, e.g. MY_SERVICE_KEY (not the key itself)'),
    );
  }

  /** A list of environment variable names (values not quoted back, as above). */
  envNames(key: string): string[] {
    return (
      this.get(key, (value, at, reader) =>
        Array.isArray(value) && value.every((item) => typeof item === 'string' && ENV_NAME.test(item))
          ? (value as string[])
          : reader.fail(at, 'expected a list of environment variable names, e.g. [MY_OCR_KEY]'),
      ) ?? []
    );
  }

  /** An object of environment entries, `NAME: "value"` (numbers and booleans are written as text). */
  envMap(key: string): Record<string, string> {
    return (
      this.get(key, (value, at, reader) =>
        reader.map(
          value,
          at,
          (name) => (ENV_NAME.test(name) ? null : 'is not an environment variable name'),
          (item, itemAt) =>
            typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean'
              ? String(item)
              : reader.expected(itemAt, 'a string', item),
        ),
      ) ?? {}
    );
  }

  /** An http(s) URL, returned without a trailing slash. */
  optionalUrl(key: string): string | undefined {
    return this.get(key, (value, at, reader) => {
      let url: URL | undefined;
      try {
        url = typeof value === 'string' ? new URL(value) : undefined;
      } catch {
        url = undefined;
      }
      return url && (url.protocol === 'http:' || url.protocol === 'https:')
        ? url.href.replace(/\/+$/, '')
        : reader.expected(at, 'an http(s) URL', value);
    });
  }

  optionalNumber(key: string, range: NumberRange): number | undefined {
    return this.get(
      key,
      read.number({
        min: range.min,
        max: range.max,
        minExclusive: range.minExclusive,
        whole: range.integer,
        what: describeRange(range),
      }),
    );
  }

  optionalBoolean(key: string): boolean | undefined {
    return this.get(key, read.boolean);
  }

  optionalEnum<T extends string>(key: string, choices: readonly T[]): T | undefined {
    return this.get(key, (value, at, reader) =>
      (choices as readonly unknown[]).includes(value)
        ? (value as T)
        : reader.expected(at, `one of ${choices.join(', ')}`, value),
    );
  }

  /** A non-empty list of allowed names, as an array or a comma-separated string; duplicates dropped. */
  optionalStringList<T extends string>(key: string, choices: readonly T[]): T[] | undefined {
    const list = this.get(key, read.list(choices));
    return list && [...new Set(list)];
  }

  /** A map of names to strings, e.g. extra headers or a field mapping. */
  optionalStringMap(key: string): Record<string, string> | undefined {
    return this.get(key, (value, at, reader) => reader.map(value, at, () => null, read.string));
  }

  /**
   * A field map (providers/field-map.ts): dataset path → the provider's field name, or, for an array of
   * objects, `{from: <repeated field>, items: {<item property>: <the provider's sub-field name>}}`.
   */
  optionalFieldMap(key: string): FieldMap | undefined {
    return this.get(key, (value, at, reader) => reader.map(value, at, () => null, readFieldMapEntry));
  }
}

const readFieldMapEntry: ValueReader<FieldMapEntry> = (value, at, reader) => {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return reader.expected(at, 'a field name or {from, items}', value);
  const entry = reader.section(value, at, {
    from: read.string,
    items: (items, itemsAt, r) => r.map(items, itemsAt, () => null, read.string),
  });
  if (entry.from === undefined)
    return reader.fail(`${at}.from`, 'is required: the name of the repeated field whose items fill this array');
  return entry.items === undefined ? { from: entry.from } : { from: entry.from, items: entry.items };
};

/** "a whole number from 0 to 13", "a number > 0", "a whole number ≥ 1". */
function describeRange(range: NumberRange): string {
  const noun = range.integer ? 'a whole number' : 'a number';
  if (range.max !== undefined) return `${noun} from ${range.min} to ${range.max}`;
  return `${noun} ${range.minExclusive ? '>' : '≥'} ${range.min}`;
}
