/**
 * Validation of a provider kind's own options (`systems.<name>.<key>`), in the project's one settings style
 * (src/settings-reader.ts): every message names the key path, what was expected and what was found; a key
 * the kind does not know is refused with the closest known one as a suggestion. A bad option stops before
 * any call (exit 2).
 */
import { UsageError } from '../../errors.js';
import { SettingsReader, read, type ValueReader } from '../../settings-reader.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class KindOptions {
  private readonly settings = new SettingsReader(null, 'see docs/providers.md for the options of each kind');
  private readonly values: Record<string, unknown>;

  /** `at` is the system's key, e.g. `systems.gpt`; `known` the kind's option names. */
  constructor(
    raw: Readonly<Record<string, unknown>>,
    private readonly at: string,
    known: readonly string[],
  ) {
    this.values = this.settings.section(raw, at, Object.fromEntries(known.map((key) => [key, (value: unknown) => value])));
  }

  fail(key: string, problem: string): never {
    return this.settings.fail(`${this.at}.${key}`, problem);
  }

  private get<T>(key: string, reader: ValueReader<T>): T | undefined {
    const value = this.values[key];
    return value === undefined ? undefined : reader(value, `${this.at}.${key}`, this.settings);
  }

  string(key: string, example: string): string {
    return this.optionalString(key) ?? this.fail(key, `required, e.g. ${example}`);
  }

  optionalString(key: string): string | undefined {
    return this.get(key, (value, at, reader) => (typeof value === 'string' && value.trim() !== '' ? value : reader.expected(at, 'a non-empty string', value)));
  }

  /** The name of an environment variable (never its value: secrets live only in the environment). */
  optionalEnvName(key: string): string | undefined {
    // The value is not quoted back: someone may have put the secret itself here by mistake.
    return this.get(key, (value, at, reader) => (typeof value === 'string' && ENV_NAME.test(value) ? value : reader.fail(at, 'expected the name of an environment variable, e.g. OPENAI_API_KEY (not the key itself)')));
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
      return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href.replace(/\/+$/, '') : reader.expected(at, 'an http(s) URL', value);
    });
  }

  optionalNumber(key: string, range: { min: number; max: number; integer?: boolean }): number | undefined {
    return this.get(key, read.number({ min: range.min, max: range.max, whole: range.integer, what: `${range.integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}` }));
  }

  optionalBoolean(key: string): boolean | undefined {
    return this.get(key, read.boolean);
  }

  optionalEnum<T extends string>(key: string, choices: readonly T[]): T | undefined {
    return this.get(key, (value, at, reader) => ((choices as readonly unknown[]).includes(value) ? (value as T) : reader.expected(at, `one of ${choices.join(', ')}`, value)));
  }

  optionalStringList<T extends string>(key: string, choices: readonly T[]): T[] | undefined {
    return this.get(key, read.list(choices));
  }

  /** A map of names to strings, e.g. extra headers or a field mapping. */
  optionalStringMap(key: string): Record<string, string> | undefined {
    return this.get(key, (value, at, reader) => reader.map(value, at, () => null, read.string));
  }
}

/**
 * The secret in an environment variable: the one an option names (`option`), or a provider's standard one
 * (`option` null, e.g. AWS_SECRET_ACCESS_KEY). Unset or empty stops that system before any call, naming the
 * variable (never a value).
 */
export function readSecret(env: Readonly<Record<string, string | undefined>>, system: string, option: string | null, variable: string): string {
  const value = env[variable];
  if (value === undefined || value === '') {
    const subject = option === null ? `systems.${system}` : `systems.${system}.${option}`;
    throw new UsageError(option === null ? `${variable}, which ${subject} reads, is not set` : `${variable}, named by ${subject}, is not set`, {
      subject,
      code: 'CONFIG_INVALID',
      hint: `export ${variable}=… before the run, or leave the system out with --systems`,
    });
  }
  return value;
}
