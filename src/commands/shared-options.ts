/**
 * Flags shared by several commands, each declared once here: commands spread the groups they take into
 * their builder, and the handler's argument types follow from these declarations.
 */
import type { InferredOptionTypes, Options } from 'yargs';
import { resolveConfig, type ConfigOverrides } from '../config.js';
import { readGateSection } from '../gate/index.js';
import type { CliContext } from './context.js';
import { UsageError } from '../errors.js';
import { ENDPOINTS, MODES, isEndpoint, isMode, type Endpoint, type Mode } from '../types.js';
import { SYSTEM_NAME, type SystemChoice } from '../systems/index.js';

export const configOption = {
  config: { type: 'string', describe: 'Config file (default: ./docbench.config.json, .yaml or .yml)' },
} as const satisfies Record<string, Options>;

export const reportsDirOption = {
  'reports-dir': {
    type: 'string',
    describe: 'Directory of run directories and baselines.json (default: reportsDir of the config, else reports)',
  },
} as const satisfies Record<string, Options>;

/** How to reach the service and how hard to try: the configuration's flags. */
export const serviceOptions = {
  ...configOption,
  'base-url': {
    type: 'string',
    describe:
      'The service to benchmark (default: DOCBENCH_BASE_URL, then the config file, else the local reference service)',
  },
  timeout: { type: 'number', describe: 'Abort one HTTP attempt after this many ms (default 600000)' },
  retries: { type: 'number', describe: 'Attempts per call including the first (default 4)' },
  concurrency: { type: 'number', describe: 'Calls in flight at once (default 4)' },
  rate: { type: 'number', describe: 'At most this many call starts per second' },
} as const satisfies Record<string, Options>;

export type ServiceArgs = InferredOptionTypes<typeof serviceOptions>;

/** `--modes fast,slow` → ['fast', 'slow'], naming the flag and the bad value otherwise. */
export function parseModes(text: string | undefined): Mode[] | undefined {
  return parseList(text, '--modes', MODES, isMode);
}

export function parseEndpoints(text: string | undefined): Endpoint[] | undefined {
  return parseList(text, '--endpoints', ENDPOINTS, isEndpoint);
}

function parseList<T extends string>(
  text: string | undefined,
  flag: string,
  allowed: readonly T[],
  guard: (v: string) => v is T,
): T[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((item) => !guard(item));
  if (items.length === 0 || bad.length > 0) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)}: ${bad.length ? `unknown ${bad.map((b) => JSON.stringify(b)).join(', ')}` : 'empty'}`,
      {
        subject: flag,
        hint: `use a comma-separated list of ${allowed.join(', ')}`,
      },
    );
  }
  return [...new Set(items)] as T[];
}

/** `--systems a,b` and `--reference NAME`, each name checked for its spelling (membership is checked with the config). */
export function parseSystemChoice(systems: string | undefined, reference: string | undefined): SystemChoice {
  const choice: SystemChoice = {};
  const check = (name: string, flag: string) => {
    if (!SYSTEM_NAME.test(name))
      throw new UsageError(`${flag}: ${JSON.stringify(name)} is not a system name`, {
        subject: flag,
        hint: 'names are lower-case: a letter, then a-z, 0-9, _ or -',
      });
    return name;
  };
  if (systems !== undefined) {
    const names = systems
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (names.length === 0)
      throw new UsageError('--systems is empty', { subject: '--systems', hint: 'e.g. --systems local,incumbent' });
    choice.names = names.map((name) => check(name, '--systems'));
  }
  if (reference !== undefined) choice.reference = check(reference, '--reference');
  return choice;
}

/** A whole number ≥ min, or a UsageError naming the flag. */
export function wholeNumber(value: number | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min) {
    throw new UsageError(
      `${flag} ${Number.isNaN(value) ? 'is not a number' : `is ${value}`}; it must be a whole number ≥ ${min}`,
      { subject: flag, hint: `e.g. ${flag} ${Math.max(min, 1) * 4}` },
    );
  }
  return value;
}

/** The service flags given, as configuration overrides (whole numbers checked here, ranges in resolveConfig). */
export function readServiceFlags(argv: ServiceArgs): ConfigOverrides {
  return {
    ...(argv['base-url'] !== undefined ? { baseUrl: argv['base-url'] } : {}),
    ...(argv.config !== undefined ? { configPath: argv.config } : {}),
    ...(argv.timeout !== undefined ? { timeoutMs: argv.timeout } : {}),
    ...(argv.retries !== undefined ? { retryAttempts: wholeNumber(argv.retries, '--retries', 1) } : {}),
    ...(argv.concurrency !== undefined ? { concurrency: wholeNumber(argv.concurrency, '--concurrency', 1) } : {}),
    ...(argv.rate !== undefined ? { ratePerSecond: argv.rate } : {}),
  };
}

/** Config sections owned by other modules: every command validates all of them, whichever it uses. */
const CONFIG_SECTIONS = { gate: readGateSection };

/** The configuration of a command: its environment, the flags given, and every section validated. */
export function loadConfig(context: CliContext, flags: ConfigOverrides = {}) {
  return resolveConfig({ cwd: context.cwd, env: context.env, flags, sections: CONFIG_SECTIONS });
}
