/**
 * Configuration, resolved once: defaults → config file → environment → flags, into a `ResolvedConfig` with
 * every field present. Only the CLI calls this; nothing below it reads `process.env`.
 *
 * The API key comes only from the environment (DOCBENCH_API_KEY, or the variable the config names in
 * `apiKeyEnv`), never from a flag or the file, and `describeConfig` leaves it out of everything written.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { YAMLParseError, parse as parseYaml } from 'yaml';
import { UsageError } from './errors.js';
import { ENDPOINTS, MODES, isEndpoint, isMode, type Endpoint, type Mode } from './types.js';
import { parseGateSection, type GateThresholds } from './gate/thresholds.js';
import { DEFAULT_AUTH, DEFAULT_RETRY_POLICY, type AuthHeader, type RetryPolicy } from './service/index.js';

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
}

/** What flags may override (undefined = not given). */
export type ConfigOverrides = Partial<Omit<ResolvedConfig, 'apiKey' | 'configFile' | 'retry' | 'auth'>> & {
  configPath?: string;
  retryAttempts?: number;
};

const DEFAULTS: Omit<ResolvedConfig, 'configFile'> = {
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

/** Keys the config file may hold; anything else is an error naming the key (typos must not pass silently). */
const FILE_KEYS = new Set([
  'baseUrl',
  'apiKeyEnv',
  'timeoutMs',
  'retry',
  'auth',
  'maxResponseBytes',
  'modes',
  'endpoints',
  'concurrency',
  'endpointConcurrency',
  'ratePerSecond',
  'reportsDir',
  'cacheDir',
  'outageThreshold',
  'gate',
]);

export interface ResolveInput {
  cwd: string;
  env: NodeJS.ProcessEnv;
  flags?: ConfigOverrides;
}

/**
 * Resolves the configuration. Also validates the file's `gate` section (docs/gate.md) so a typo in a
 * threshold stops every command before any call, and returns it parsed as `gate` (flags are applied by the
 * commands that take them).
 */
export function resolveConfig(input: ResolveInput): ResolvedConfig & { fileSections: Record<string, unknown>; gate: GateThresholds } {
  const flags = input.flags ?? {};
  const configFile = findConfigFile(input.cwd, flags.configPath);
  const file = configFile ? readConfigFile(configFile) : {};
  const where = configFile ? path.relative(input.cwd, configFile) || configFile : 'config';
  const check = new FieldChecker(where);

  const apiKeyEnv = flags.apiKeyEnv ?? check.optionalString(file, 'apiKeyEnv') ?? DEFAULTS.apiKeyEnv;
  const envBaseUrl = input.env.DOCBENCH_BASE_URL?.trim() || undefined;
  const retryFile = check.optionalObject(file, 'retry');
  const retry = readRetry(retryFile, check);
  if (flags.retryAttempts !== undefined) retry.maxAttempts = flags.retryAttempts;

  const resolved: ResolvedConfig = {
    baseUrl: flags.baseUrl ?? envBaseUrl ?? check.optionalString(file, 'baseUrl') ?? DEFAULTS.baseUrl,
    apiKey: input.env[apiKeyEnv]?.trim() || null,
    apiKeyEnv,
    timeoutMs: flags.timeoutMs ?? check.optionalNumber(file, 'timeoutMs') ?? DEFAULTS.timeoutMs,
    retry,
    auth: readAuth(check.optionalObject(file, 'auth'), check),
    maxResponseBytes: check.optionalNumber(file, 'maxResponseBytes') ?? DEFAULTS.maxResponseBytes,
    modes: flags.modes ?? check.optionalList(file, 'modes', MODES) ?? DEFAULTS.modes,
    endpoints: flags.endpoints ?? check.optionalList(file, 'endpoints', ENDPOINTS) ?? DEFAULTS.endpoints,
    concurrency: flags.concurrency ?? check.optionalNumber(file, 'concurrency') ?? DEFAULTS.concurrency,
    endpointConcurrency: flags.endpointConcurrency ?? readEndpointConcurrency(check.optionalObject(file, 'endpointConcurrency'), check),
    ratePerSecond: flags.ratePerSecond ?? check.optionalNumber(file, 'ratePerSecond') ?? DEFAULTS.ratePerSecond,
    reportsDir: path.resolve(input.cwd, flags.reportsDir ?? check.optionalString(file, 'reportsDir') ?? DEFAULTS.reportsDir),
    cacheDir: path.resolve(input.cwd, flags.cacheDir ?? check.optionalString(file, 'cacheDir') ?? DEFAULTS.cacheDir),
    outageThreshold: flags.outageThreshold ?? check.optionalNumber(file, 'outageThreshold') ?? DEFAULTS.outageThreshold,
    configFile,
  };
  validateResolved(resolved, where);
  const { gate } = file as { gate?: unknown };
  return { ...resolved, fileSections: gate === undefined ? {} : { gate }, gate: parseGateSection(gate, where) };
}

/** The config as recorded in run.json: everything but the key (and whether one was set). */
export function describeConfig(config: ResolvedConfig): Record<string, unknown> {
  const { apiKey, ...rest } = config;
  return { ...rest, apiKeySet: apiKey !== null };
}

function findConfigFile(cwd: string, explicit: string | undefined): string | null {
  if (explicit !== undefined) {
    const file = path.resolve(cwd, explicit);
    if (!existsSync(file)) throw new UsageError(`config file ${explicit} does not exist`, { code: 'CONFIG_INVALID', subject: '--config', hint: 'check the path given to --config' });
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
    throw new UsageError(`config file ${name} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, { code: 'CONFIG_INVALID', subject: name, hint: `check the permissions of ${name}` });
  }
  let parsed: unknown;
  try {
    parsed = json ? JSON.parse(text) : parseYaml(text);
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
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`config file ${name} must hold an object of settings`, { code: 'CONFIG_INVALID', subject: name, hint: 'see "Configuration" in the README' });
  }
  for (const key of Object.keys(parsed)) {
    if (key === 'apiKey') {
      throw new UsageError(`config file ${name}: apiKey is not allowed; the API key must not be stored in a file`, {
        code: 'CONFIG_INVALID',
        subject: `${name}: apiKey`,
        hint: 'remove apiKey; set DOCBENCH_API_KEY in the environment, or name another variable with apiKeyEnv',
      });
    }
    if (!FILE_KEYS.has(key)) {
      throw new UsageError(`config file ${name}: unknown setting "${key}"`, { code: 'CONFIG_INVALID', subject: `${name}: ${key}`, hint: `known settings: ${[...FILE_KEYS].join(', ')}` });
    }
  }
  return parsed as Record<string, unknown>;
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
  if (!(error instanceof YAMLParseError) || !error.linePos) return undefined;
  const [start] = error.linePos;
  return `line ${start.line}, column ${start.col} (${error.code})`;
}

class FieldChecker {
  constructor(private readonly where: string) {}

  error(field: string, problem: string): UsageError {
    return new UsageError(`${this.where}: ${field} ${problem}`, { code: 'CONFIG_INVALID', subject: field, hint: 'see "Configuration" in the README' });
  }

  optionalString(source: Record<string, unknown>, key: string): string | undefined {
    const value = source[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw this.error(key, 'must be a string');
    return value;
  }

  optionalNumber(source: Record<string, unknown>, key: string): number | undefined {
    const value = source[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw this.error(key, 'must be a number');
    return value;
  }

  optionalObject(source: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
    const value = source[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw this.error(key, 'must be an object');
    return value as Record<string, unknown>;
  }

  optionalList<T extends string>(source: Record<string, unknown>, key: string, allowed: readonly T[]): T[] | undefined {
    const value = source[key];
    if (value === undefined || value === null) return undefined;
    const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
    if (!Array.isArray(items)) throw this.error(key, `must be a list of ${allowed.join(', ')}`);
    for (const item of items) {
      if (typeof item !== 'string' || !(allowed as readonly string[]).includes(item)) throw this.error(key, `has ${JSON.stringify(item)}; allowed: ${allowed.join(', ')}`);
    }
    return items as T[];
  }
}

/** The `retry` section: each key must be a retry setting of the right type. */
function readRetry(section: Record<string, unknown> | undefined, check: FieldChecker): RetryPolicy {
  const retry: RetryPolicy = { ...DEFAULTS.retry };
  for (const [key, value] of Object.entries(section ?? {})) {
    const field = `retry.${key}`;
    switch (key) {
      case 'maxAttempts':
        // Range (≥ 1) is checked with the flag's value in validateResolved.
        if (typeof value !== 'number') throw check.error(field, 'must be a number');
        retry.maxAttempts = value;
        break;
      case 'baseDelayMs':
      case 'maxDelayMs':
      case 'rateLimitDelayMs':
      case 'maxRetryAfterMs':
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw check.error(field, 'must be a number of milliseconds ≥ 0');
        retry[key] = value;
        break;
      case 'retryStatuses':
        if (!Array.isArray(value) || !value.every((status) => Number.isInteger(status) && status >= 400 && status <= 599)) {
          throw check.error(field, 'must be a list of HTTP error statuses, e.g. [429, 500, 502, 503, 504]');
        }
        retry.retryStatuses = value as number[];
        break;
      case 'retryTimeouts':
        if (typeof value !== 'boolean') throw check.error(field, 'must be true or false');
        retry.retryTimeouts = value;
        break;
      default:
        // Known names only: a `key in retry` test would accept inherited names such as toString or __proto__.
        throw check.error(field, `is not a retry setting (known: ${Object.keys(DEFAULTS.retry).join(', ')})`);
    }
  }
  return retry;
}

function readAuth(section: Record<string, unknown> | undefined, check: FieldChecker): Record<Endpoint, AuthHeader> {
  const auth = { ...DEFAULTS.auth };
  for (const [endpoint, value] of Object.entries(section ?? {})) {
    if (!isEndpoint(endpoint)) throw check.error(`auth.${endpoint}`, `is not an endpoint (${ENDPOINTS.join(', ')})`);
    const spec = value as { header?: unknown; scheme?: unknown };
    if (typeof spec !== 'object' || spec === null || typeof spec.header !== 'string' || !/^[A-Za-z0-9-]+$/.test(spec.header)) {
      throw check.error(`auth.${endpoint}`, 'must be { "header": "<name>", "scheme"?: "Bearer" }');
    }
    if (spec.scheme !== undefined && typeof spec.scheme !== 'string') throw check.error(`auth.${endpoint}.scheme`, 'must be a string');
    auth[endpoint] = { header: spec.header, ...(spec.scheme ? { scheme: spec.scheme } : {}) };
  }
  return auth;
}

function readEndpointConcurrency(section: Record<string, unknown> | undefined, check: FieldChecker): Partial<Record<Endpoint, number>> {
  const limits: Partial<Record<Endpoint, number>> = {};
  for (const [endpoint, value] of Object.entries(section ?? {})) {
    if (!isEndpoint(endpoint)) throw check.error(`endpointConcurrency.${endpoint}`, `is not an endpoint (${ENDPOINTS.join(', ')})`);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw check.error(`endpointConcurrency.${endpoint}`, 'must be a whole number ≥ 1');
    limits[endpoint] = value;
  }
  return limits;
}

function validateResolved(config: ResolvedConfig, where: string): void {
  const fail = (field: string, problem: string, hint: string) => {
    throw new UsageError(`${field} ${problem}`, { code: 'CONFIG_INVALID', subject: field, hint: `${hint} (set by a flag, the environment or ${where})` });
  };
  if (!Number.isInteger(config.concurrency) || config.concurrency < 1) fail('concurrency', `is ${config.concurrency}; it must be a whole number ≥ 1`, 'e.g. --concurrency 4');
  if (config.ratePerSecond !== null && !(config.ratePerSecond > 0 && Number.isFinite(config.ratePerSecond))) {
    fail('ratePerSecond', `is ${config.ratePerSecond}; it must be > 0 requests per second`, 'e.g. --rate 2');
  }
  if (!(config.timeoutMs > 0 && Number.isFinite(config.timeoutMs))) fail('timeoutMs', `is ${config.timeoutMs}; it must be > 0 ms`, 'e.g. --timeout 600000');
  if (!Number.isInteger(config.maxResponseBytes) || config.maxResponseBytes < 1) fail('maxResponseBytes', `is ${config.maxResponseBytes}; it must be a whole number of bytes ≥ 1`, 'e.g. "maxResponseBytes": 104857600');
  if (!Number.isInteger(config.outageThreshold) || config.outageThreshold < 1) fail('outageThreshold', `is ${config.outageThreshold}; it must be a whole number ≥ 1`, 'e.g. "outageThreshold": 10');
  if (!Number.isInteger(config.retry.maxAttempts) || config.retry.maxAttempts < 1) fail('retry.maxAttempts', `is ${config.retry.maxAttempts}; it must be ≥ 1`, 'e.g. --retries 3');
  if (config.modes.length === 0 || config.modes.some((m) => !isMode(m))) fail('modes', `is ${JSON.stringify(config.modes)}; use fast, slow or both`, 'e.g. --modes fast,slow');
  if (config.endpoints.length === 0 || config.endpoints.some((e) => !isEndpoint(e))) fail('endpoints', `is ${JSON.stringify(config.endpoints)}; use ${ENDPOINTS.join(', ')}`, 'e.g. --endpoints extract,compare');
  if (config.baseUrl !== null) {
    let ok = false;
    try {
      const url = new URL(config.baseUrl);
      ok = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok) fail('baseUrl', `${JSON.stringify(config.baseUrl)} is not an http(s) URL`, 'e.g. --base-url https://api.example.com or DOCBENCH_BASE_URL');
  }
  // The value is not quoted back: someone may have put the key itself here by mistake.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(config.apiKeyEnv)) fail('apiKeyEnv', 'is not an environment variable name', 'e.g. "apiKeyEnv": "MY_SERVICE_KEY"');
}
