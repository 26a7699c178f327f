/**
 * Validation of a provider kind's own options (`systems.<name>.<key>`). Every reader throws a UsageError naming
 * the key and what was expected, so a bad config stops before any call (exit 2).
 */
import { UsageError } from '../../errors.js';

export class OptionReader {
  constructor(
    private readonly raw: Readonly<Record<string, unknown>>,
    private readonly at: string,
    allowed: readonly string[],
  ) {
    for (const key of Object.keys(raw)) {
      if (!allowed.includes(key)) this.fail(key, `is not an option of this kind (it takes ${allowed.join(', ')})`);
    }
  }

  fail(key: string, problem: string): never {
    throw new UsageError(`${this.at}.${key} ${problem}`, { subject: `${this.at}.${key}`, code: 'CONFIG_INVALID', hint: 'see docs/systems.md for the options of each kind' });
  }

  string(key: string): string {
    const value = this.optionalString(key);
    if (value === undefined) this.fail(key, 'is required');
    return value;
  }

  optionalString(key: string): string | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') this.fail(key, 'must be a non-empty string');
    return value;
  }

  /** The name of an environment variable (never its value: secrets live only in the environment). */
  optionalEnvName(key: string): string | undefined {
    const value = this.optionalString(key);
    if (value !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) this.fail(key, 'must name an environment variable, e.g. OPENAI_API_KEY (not the key itself)');
    return value;
  }

  /** An http(s) URL, returned without a trailing slash. */
  optionalUrl(key: string): string | undefined {
    const value = this.optionalString(key);
    if (value === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      this.fail(key, `must be an http(s) URL, got ${JSON.stringify(value)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') this.fail(key, `must be an http(s) URL, got ${JSON.stringify(value)}`);
    return url.href.replace(/\/+$/, '');
  }

  optionalNumber(key: string, range: { min: number; max: number; integer?: boolean }): number | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < range.min || value > range.max || (range.integer && !Number.isInteger(value))) {
      this.fail(key, `must be ${range.integer ? 'an integer' : 'a number'} from ${range.min} to ${range.max}`);
    }
    return value;
  }

  optionalBoolean(key: string): boolean | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') this.fail(key, 'must be true or false');
    return value;
  }

  optionalEnum<T extends string>(key: string, choices: readonly T[]): T | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) this.fail(key, `must be one of ${choices.join(', ')}`);
    return value as T;
  }

  /** A map of strings to strings, e.g. extra headers or a field mapping. */
  optionalStringMap(key: string): Record<string, string> | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(key, 'must be a map of strings');
    for (const [name, entry] of Object.entries(value)) {
      if (typeof entry !== 'string') this.fail(`${key}.${name}`, 'must be a string');
    }
    return { ...(value as Record<string, string>) };
  }

  optionalStringList(key: string, choices?: readonly string[]): string[] | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || (choices && !choices.includes(entry)))) {
      this.fail(key, choices ? `must be a non-empty list of ${choices.join(', ')}` : 'must be a non-empty list of strings');
    }
    return [...(value as string[])];
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
