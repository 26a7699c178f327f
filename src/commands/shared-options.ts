/** Flag definitions and parsing shared by commands that talk to a service or read a config. */
import type { Options } from 'yargs';
import { UsageError } from '../errors.js';
import { ENDPOINTS, MODES, isEndpoint, isMode, type Endpoint, type Mode } from '../types.js';

export const serviceOptions = {
  'base-url': { type: 'string', describe: 'The service to benchmark (default: DOCBENCH_BASE_URL, then the config file, else the local reference service)' },
  config: { type: 'string', describe: 'Config file (default: ./docbench.config.json, .yaml or .yml)' },
  timeout: { type: 'number', describe: 'Abort one HTTP attempt after this many ms (default 600000)' },
  retries: { type: 'number', describe: 'Attempts per call including the first (default 4)' },
} as const satisfies Record<string, Options>;

/** `--modes fast,slow` → ['fast', 'slow'], naming the flag and the bad value otherwise. */
export function parseModes(text: string | undefined): Mode[] | undefined {
  return parseList(text, '--modes', MODES, isMode);
}

export function parseEndpoints(text: string | undefined): Endpoint[] | undefined {
  return parseList(text, '--endpoints', ENDPOINTS, isEndpoint);
}

function parseList<T extends string>(text: string | undefined, flag: string, allowed: readonly T[], guard: (v: string) => v is T): T[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((item) => !guard(item));
  if (items.length === 0 || bad.length > 0) {
    throw new UsageError(`${flag} ${JSON.stringify(text)}: ${bad.length ? `unknown ${bad.map((b) => JSON.stringify(b)).join(', ')}` : 'empty'}`, {
      subject: flag,
      hint: `use a comma-separated list of ${allowed.join(', ')}`,
    });
  }
  return [...new Set(items)] as T[];
}

/** A whole number ≥ min, or a UsageError naming the flag. */
export function wholeNumber(value: number | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min) {
    throw new UsageError(`${flag} ${Number.isNaN(value) ? 'is not a number' : `is ${value}`}; it must be a whole number ≥ ${min}`, { subject: flag, hint: `e.g. ${flag} ${Math.max(min, 1) * 4}` });
  }
  return value;
}
