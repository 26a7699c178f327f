/**
 * Configuration, resolved once: defaults → config file → environment → flags, into a `ResolvedConfig` with
 * every field present. Only the CLI calls this; nothing below it reads `process.env`.
 *
 * The API key comes only from the environment (DOCBENCH_API_KEY, or the variable the config names in
 * `apiKeyEnv`), never from a flag or the file, and `describeConfig` leaves it out of everything written.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors.js';
import { lazyRequire } from './lazy.js';
import { ENDPOINTS, MODES, isEndpoint, type Endpoint, type Mode } from './types.js';
import { DEFAULT_AUTH, DEFAULT_RETRY_POLICY, isHttpUrl, type AuthHeader, type RetryPolicy } from './service/index.js';
import { SettingsReader, read, type SectionSchema, type ValueReader } from './settings-reader.js';
import { parseSystemsSection, type SystemSpec } from './systems/index.js';
import {
  RETRY_SCHEMA,
  readConcurrency,
  readRatePerSecond,
  readRetry,
  readTimeoutMs,
  wholeAtLeastOne,
} from './run-settings.js';

// Loaded when a config file is read, not with docbench (CONTRIBUTING.md, Habits).
const yamlPackage = lazyRequire<typeof import('yaml')>('yaml');

export const CONFIG_FILE_NAMES = ['docbench.config.json', 'docbench.config.yaml', 'docbench.config.yml'] as const;

/** Everything a command needs, every field present. */
export interface ResolvedConfig {
  /** The service; null → start the local reference service in-process. */
  baseUrl: string | null;
  /** Secret: never serialised (see `describeConfig`). */
  apiKey: string | null;
  /** The environment variable the key was read from. @default "DOCBENCH_API_KEY" */
  apiKeyEnv: string;
  /** Abort one HTTP attempt after this long. @default 600000 */
  timeoutMs: number;
  retry: RetryPolicy;
  /** Header carrying the key, per endpoint (docs/service-interface.md §5 by default). */
  auth: Record<Endpoint, AuthHeader>;
  /** Largest response read. @default 104857600 */
  maxResponseBytes: number;
  /** /extract modes to run. @default ["slow"] */
  modes: Mode[];
  /** Endpoints to call. @default ["extract", "compare"] */
  endpoints: Endpoint[];
  /** Calls in flight at once, over all endpoints. @default 4 */
  concurrency: number;
  /** Optional per-endpoint caps below `concurrency`. */
  endpointConcurrency: Partial<Record<Endpoint, number>>;
  /** Request starts per second, or null for no cap. */
  ratePerSecond: number | null;
  /** Where runs are written: `<reportsDir>/<run-id>/`. @default "reports" */
  reportsDir: string;
  /** Response cache. @default ".docbench-cache" */
  cacheDir: string;
  /** After this many consecutive outage-like failures, stop starting new calls. @default 10 */
  outageThreshold: number;
  /** Where the config file was, if any. */
  configFile: string | null;
  /** The `systems:` section, validated (docs/systems.md); null when the file has none. */
  systems: SystemSpec[] | null;
  /** `reference:`: the system the others are compared with; null → incumbent when present, else the first. */
  reference: string | null;
}

/** What flags may override (undefined = not given). */
export type ConfigOverrides = Partial<
  Omit<ResolvedConfig, 'apiKey' | 'configFile' | 'retry' | 'auth' | 'systems' | 'reference'>
> & {
  configPath?: string;
  retryAttempts?: number;
};

const DEFAULTS: Omit<ResolvedConfig, 'configFile' | 'systems' | 'reference'> = {
  baseUrl: null,
  apiKey: null,
  apiKeyEnv: 'DOCBENCH_API_KEY',
  timeoutMs: 600_000,
  retry: DEFAULT_RETRY_POLICY,
  auth: { ...DEFAULT_AUTH },
  maxResponseBytes: 100 * 1024 * 1024,
  modes: ['slow'],
  endpoints: ['extract', 'compare'],
  concurrency: 4,
  endpointConcurrency: {},
  ratePerSecond: null,
  reportsDir: 'reports',
  cacheDir: '.docbench-cache',
  outageThreshold: 10,
};

const CONFIG_HINT = 'see "Configuration" in the README';

const AUTH_HEADER_SCHEMA = {
  header: ((value, at, reader) =>
    typeof value === 'string' && /^[A-Za-z0-9-]+$/.test(value)
      ? value
      : reader.expected(at, 'an HTTP header name, e.g. "x-api-key"', value)) as ValueReader<string>,
  scheme: read.string,
} satisfies SectionSchema;

const readAuthHeader: ValueReader<AuthHeader> = (value, at, reader) => {
  const spec = reader.section(value, at, AUTH_HEADER_SCHEMA);
  if (spec.header === undefined)
    return reader.fail(`${at}.header`, 'is required, e.g. { "header": "Authorization", "scheme": "Bearer" }');
  return { header: spec.header, ...(spec.scheme ? { scheme: spec.scheme } : {}) };
};

const checkEndpointKey = (key: string): string | null =>
  isEndpoint(key) ? null : `unknown endpoint; expected one of ${ENDPOINTS.join(', ')}`;

/**
 * Every key the config file may hold, with its reader: type and range are checked here, with the key path in
 * the message. Flags and the environment are checked by the same readers (see `checkOverrides`). Sections
 * owned by other modules (the quality gate's `gate`) are read by the readers the caller passes.
 */
const FILE_SCHEMA = {
  baseUrl: ((value, at, reader) =>
    typeof value === 'string' && isHttpUrl(value)
      ? value
      : reader.expected(at, 'an http(s) URL, e.g. "https://api.example.com"', value)) as ValueReader<string>,
  // The value is never quoted back: someone may have put the key itself here by mistake.
  apiKeyEnv: ((value, at, reader) =>
    typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value)
      ? value
      : reader.fail(at, 'expected an environment variable name, e.g. "MY_SERVICE_KEY"')) as ValueReader<string>,
  timeoutMs: readTimeoutMs,
  retry: readRetry,
  auth: ((value, at, reader) => reader.map(value, at, checkEndpointKey, readAuthHeader)) as ValueReader<
    Partial<Record<Endpoint, AuthHeader>>
  >,
  maxResponseBytes: read.number({ min: 1, whole: true, what: 'a whole number of bytes ≥ 1' }),
  modes: read.list(MODES),
  endpoints: read.list(ENDPOINTS),
  concurrency: readConcurrency,
  endpointConcurrency: ((value, at, reader) => reader.map(value, at, checkEndpointKey, wholeAtLeastOne)) as ValueReader<
    Partial<Record<Endpoint, number>>
  >,
  ratePerSecond: readRatePerSecond,
  reportsDir: read.string,
  cacheDir: read.string,
  outageThreshold: wholeAtLeastOne,
  // Read whole by src/systems/config.ts once the run-wide settings they default to are known.
  systems: ((value) => value) as ValueReader<unknown>,
  reference: ((value) => value) as ValueReader<unknown>,
} satisfies SectionSchema;

/** Readers of the sections other modules own, keyed by section name (e.g. `{ gate: readGateSection }`). */
export type ConfigSections = Record<string, ValueReader<unknown>>;

export interface ResolveInput<S extends ConfigSections> {
  cwd: string;
  env: NodeJS.ProcessEnv;
  flags?: ConfigOverrides;
  /** Sections owned by other modules, validated with the rest so a typo stops every command before any call. */
  sections?: S;
}

/**
 * Resolves the configuration. The file is validated whole — its own keys and the `sections` the caller
 * passes readers for — so a typo stops every command before any call. Each section reader is called even
 * when its section is absent (with undefined), so it can return its defaults.
 */
export function resolveConfig<S extends ConfigSections = Record<never, never>>(
  input: ResolveInput<S>,
): ResolvedConfig & { sections: { [K in keyof S]: ReturnType<S[K]> } } {
  const flags = input.flags ?? {};
  const configFile = findConfigFile(input.cwd, flags.configPath);
  const raw = configFile ? readConfigFile(configFile) : {};
  const reader = new SettingsReader(
    configFile ? path.relative(input.cwd, configFile) || configFile : 'config',
    CONFIG_HINT,
  );
  const extra = input.sections ?? ({} as S);
  const { apiKey: _refused, ...own } = raw;
  if (_refused !== undefined) {
    reader.fail(
      'apiKey',
      'is not allowed; the API key must not be stored in a file',
      'remove apiKey; set DOCBENCH_API_KEY in the environment, or name another variable with apiKeyEnv',
    );
  }
  const ownKeys = Object.fromEntries(Object.entries(own).filter(([key]) => !Object.hasOwn(extra, key)));
  const unknown = Object.keys(ownKeys).find((key) => !Object.hasOwn(FILE_SCHEMA, key));
  if (unknown !== undefined) reader.unknownKey(unknown, unknown, [...Object.keys(FILE_SCHEMA), ...Object.keys(extra)]);
  const file = reader.section(ownKeys, '', FILE_SCHEMA);
  const sections = Object.fromEntries(
    Object.entries(extra).map(([key, readSection]) => [key, readSection(raw[key] ?? undefined, key, reader)]),
  );

  const envBaseUrl = input.env.DOCBENCH_BASE_URL?.trim() || undefined;
  checkOverrides(flags, envBaseUrl);
  const apiKeyEnv = flags.apiKeyEnv ?? file.apiKeyEnv ?? DEFAULTS.apiKeyEnv;
  const retry: RetryPolicy = { ...DEFAULTS.retry, ...file.retry };
  if (flags.retryAttempts !== undefined) retry.maxAttempts = flags.retryAttempts;

  const resolved: ResolvedConfig = {
    baseUrl: flags.baseUrl ?? envBaseUrl ?? file.baseUrl ?? DEFAULTS.baseUrl,
    apiKey: input.env[apiKeyEnv]?.trim() || null,
    apiKeyEnv,
    timeoutMs: flags.timeoutMs ?? file.timeoutMs ?? DEFAULTS.timeoutMs,
    retry,
    auth: { ...DEFAULTS.auth, ...file.auth },
    maxResponseBytes: flags.maxResponseBytes ?? file.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    modes: flags.modes ?? file.modes ?? DEFAULTS.modes,
    endpoints: flags.endpoints ?? file.endpoints ?? DEFAULTS.endpoints,
    concurrency: flags.concurrency ?? file.concurrency ?? DEFAULTS.concurrency,
    endpointConcurrency: flags.endpointConcurrency ?? file.endpointConcurrency ?? DEFAULTS.endpointConcurrency,
    ratePerSecond: flags.ratePerSecond ?? file.ratePerSecond ?? DEFAULTS.ratePerSecond,
    reportsDir: path.resolve(input.cwd, flags.reportsDir ?? file.reportsDir ?? DEFAULTS.reportsDir),
    cacheDir: path.resolve(input.cwd, flags.cacheDir ?? file.cacheDir ?? DEFAULTS.cacheDir),
    outageThreshold: flags.outageThreshold ?? file.outageThreshold ?? DEFAULTS.outageThreshold,
    configFile,
    systems: null,
    reference: null,
  };
  const systems = parseSystemsSection(
    { systems: file.systems, reference: file.reference },
    {
      concurrency: resolved.concurrency,
      ratePerSecond: resolved.ratePerSecond,
      timeoutMs: resolved.timeoutMs,
      retry: resolved.retry,
      price: null,
    },
    reader,
  );
  if (systems.systems !== null && resolved.baseUrl !== null) {
    // Two answers to "which service": refuse rather than pick one silently.
    const source =
      flags.baseUrl !== undefined ? '--base-url' : envBaseUrl !== undefined ? 'DOCBENCH_BASE_URL' : 'baseUrl';
    throw new UsageError(`${source} and systems: both say what to benchmark`, {
      code: 'CONFIG_INVALID',
      subject: source,
      hint: `add the service to systems: as { kind: interface, baseUrl: … } and drop ${source}, or run without the systems: section`,
    });
  }
  resolved.systems = systems.systems;
  resolved.reference = systems.reference;
  return { ...resolved, sections: sections as { [K in keyof S]: ReturnType<S[K]> } };
}

/**
 * Values that did not come from the file — flags (or a library caller's overrides) and DOCBENCH_BASE_URL —
 * checked by the same readers, named as the setting they override.
 */
function checkOverrides(flags: ConfigOverrides, envBaseUrl: string | undefined): void {
  const reader = new SettingsReader('flags', 'check the flag or option given for this setting');
  for (const [key, value] of Object.entries(flags)) {
    if (value !== undefined && Object.hasOwn(FILE_SCHEMA, key))
      (FILE_SCHEMA as SectionSchema)[key]!(value, key, reader);
  }
  if (flags.retryAttempts !== undefined) RETRY_SCHEMA.maxAttempts(flags.retryAttempts, 'retry.maxAttempts', reader);
  if (envBaseUrl !== undefined)
    FILE_SCHEMA.baseUrl(
      envBaseUrl,
      'baseUrl',
      new SettingsReader('DOCBENCH_BASE_URL', 'set DOCBENCH_BASE_URL to an http(s) URL, or unset it'),
    );
}

/** The config as recorded in run.json: everything but the key (and whether one was set). */
export function describeConfig(config: ResolvedConfig): Record<string, unknown> {
  const { apiKey, ...rest } = config;
  return { ...rest, apiKeySet: apiKey !== null };
}

function findConfigFile(cwd: string, explicit: string | undefined): string | null {
  if (explicit !== undefined) {
    const file = path.resolve(cwd, explicit);
    if (!existsSync(file))
      throw new UsageError(`config file ${explicit} does not exist`, {
        code: 'CONFIG_INVALID',
        subject: '--config',
        hint: 'check the path given to --config',
      });
    return file;
  }
  for (const name of CONFIG_FILE_NAMES) {
    const file = path.join(cwd, name);
    if (existsSync(file)) return file;
  }
  return null;
}

function readConfigFile(file: string): Record<string, unknown> {
  const name = path.basename(file);
  const json = file.endsWith('.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`config file ${name} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, {
      code: 'CONFIG_INVALID',
      subject: name,
      hint: `check the permissions of ${name}`,
    });
  }
  let parsed: unknown;
  try {
    parsed = json ? JSON.parse(text) : yamlPackage().parse(text);
  } catch (error) {
    // The parsers' own messages quote the offending line, and the offending line may hold a secret someone
    // pasted into the file: report only where the problem is.
    const where = json ? locateJsonError(text) : yamlErrorPosition(error);
    throw new UsageError(`config file ${name} is not valid ${json ? 'JSON' : 'YAML'}${where ? ` at ${where}` : ''}`, {
      code: 'CONFIG_INVALID',
      subject: name,
      hint: `fix the ${json ? 'JSON' : 'YAML'} syntax of ${name}`,
    });
  }
  if (json) rejectDuplicateJsonKeys(text, name);
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`config file ${name} must hold an object of settings`, {
      code: 'CONFIG_INVALID',
      subject: name,
      hint: 'see "Configuration" in the README',
    });
  }
  return parsed as Record<string, unknown>;
}

/**
 * JSON.parse keeps the last of two equal keys without a word, so two systems of one name would silently be
 * one. The YAML parser (JSON is YAML) reports duplicates; its other complaints do not matter here.
 */
function rejectDuplicateJsonKeys(text: string, name: string): void {
  const duplicate = yamlPackage()
    .parseDocument(text, { uniqueKeys: true })
    .errors.find((error) => error.code === 'DUPLICATE_KEY');
  if (!duplicate) return;
  const where = duplicate.linePos ? ` at line ${duplicate.linePos[0].line}, column ${duplicate.linePos[0].col}` : '';
  throw new UsageError(`config file ${name} holds the same key twice${where}`, {
    code: 'CONFIG_INVALID',
    subject: name,
    hint: 'every setting and every system name may appear once',
  });
}

/** "line L, column C" of the first character that no valid JSON document can have there. */
function locateJsonError(text: string): string | undefined {
  // JSON.parse reports no position for some errors (and words them differently across Node versions), but
  // every prefix of a valid document is either valid or "ends too early". Binary search for the longest
  // such prefix: the next character is the error.
  const viable = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return true;
    } catch (error) {
      const message = (error as Error).message;
      const position = /at position (\d+)/.exec(message);
      return /end of JSON input/.test(message) || (position !== null && Number(position[1]) >= length);
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (viable(middle)) low = middle;
    else high = middle - 1;
  }
  if (low >= text.length) return 'the end of the file';
  const before = text.slice(0, low).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

function yamlErrorPosition(error: unknown): string | undefined {
  if (!(error instanceof yamlPackage().YAMLParseError) || !error.linePos) return undefined;
  const [start] = error.linePos;
  return `line ${start.line}, column ${start.col} (${error.code})`;
}
