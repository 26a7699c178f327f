/**
 * Reads one `systems.<name>` object of the config file: every problem is a UsageError naming the key
 * (`systems.my-ocr.command`), and a key nobody reads is an error too, so a typo never passes silently.
 */
import { UsageError } from '../errors.js';
import { ENDPOINTS, isEndpoint } from '../types.js';
import type { Operation } from './types.js';

/** Environment variable names: also what `apiKeyEnv`-like options must hold. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class OptionReader {
  private readonly used = new Set<string>();

  /** `at` is the key of the whole object, e.g. `systems.candidate`. */
  constructor(
    readonly raw: Readonly<Record<string, unknown>>,
    readonly at: string,
  ) {}

  fail(key: string, problem: string, hint = 'see docs/systems.md'): never {
    const subject = `${this.at}.${key}`;
    throw new UsageError(`${subject} ${problem}`, { code: 'CONFIG_INVALID', subject, hint });
  }

  private take(key: string): unknown {
    this.used.add(key);
    return this.raw[key] ?? undefined;
  }

  optionalString(key: string): string | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || value.trim() === '') this.fail(key, 'must be a non-empty string');
    return value;
  }

  string(key: string, example: string): string {
    const value = this.optionalString(key);
    if (value === undefined) this.fail(key, 'is required', `e.g. ${key}: ${example}`);
    return value;
  }

  /** A number > 0 (or ≥ min), finite. */
  optionalNumber(key: string, options: { min?: number; integer?: boolean } = {}): number | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) return undefined;
    const min = options.min ?? 0;
    const ok = typeof value === 'number' && Number.isFinite(value) && (options.min === undefined ? value > 0 : value >= min) && (!options.integer || Number.isInteger(value));
    if (!ok) this.fail(key, `must be ${options.integer ? 'a whole number' : 'a number'} ${options.min === undefined ? '> 0' : `≥ ${min}`}`);
    return value as number;
  }

  optionalEnvName(key: string): string | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) return undefined;
    // The value is not quoted back: someone may have put the secret itself here by mistake.
    if (typeof value !== 'string' || !ENV_NAME.test(value)) this.fail(key, 'is not an environment variable name', `e.g. ${key}: MY_SERVICE_KEY`);
    return value;
  }

  /** A list of environment variable names. */
  envNames(key: string): string[] {
    const value = this.take(key);
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && ENV_NAME.test(item))) {
      this.fail(key, 'must be a list of environment variable names', `e.g. ${key}: [MY_OCR_KEY]`);
    }
    return value as string[];
  }

  /** An object of string values, e.g. `env: { OMP_THREAD_LIMIT: "1" }`. */
  stringMap(key: string): Record<string, string> {
    const value = this.take(key);
    if (value === undefined || value === null) return {};
    if (typeof value !== 'object' || Array.isArray(value)) this.fail(key, 'must be an object of NAME: "value"');
    const map: Record<string, string> = {};
    for (const [name, item] of Object.entries(value)) {
      if (!ENV_NAME.test(name)) this.fail(`${key}.${name}`, 'is not an environment variable name');
      if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') this.fail(`${key}.${name}`, 'must be a string');
      map[name] = String(item);
    }
    return map;
  }

  optionalObject(key: string): Record<string, unknown> | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) this.fail(key, 'must be an object');
    return value as Record<string, unknown>;
  }

  optionalOperations(key: string): Operation[] | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === 'string' && isEndpoint(item))) {
      this.fail(key, `must be a non-empty list of ${ENDPOINTS.join(', ')}`);
    }
    return [...new Set(value as Operation[])];
  }

  /** Marks a key as read by someone else (the common options), so `rejectUnknown` accepts it. */
  skip(key: string): void {
    this.used.add(key);
  }

  /** Throws for the first key nothing read. */
  rejectUnknown(known: string): void {
    for (const key of Object.keys(this.raw)) {
      if (!this.used.has(key)) this.fail(key, 'is not an option of this kind', `known: ${known}`);
    }
  }
}
