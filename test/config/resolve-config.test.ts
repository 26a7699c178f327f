import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeConfig, resolveConfig, type ConfigOverrides } from '../../src/config.js';
import { DEFAULT_AUTH, DEFAULT_RETRY_POLICY } from '../../src/service/index.js';
import { UsageError } from '../../src/errors.js';
import { readGateSection } from '../../src/gate/index.js';

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), 'docbench-config-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function writeConfig(name: string, content: unknown): Promise<void> {
  await writeFile(path.join(cwd, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}
function resolve(env: NodeJS.ProcessEnv = {}, flags: ConfigOverrides = {}) {
  return resolveConfig({ cwd, env, flags });
}
function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('defaults', () => {
  it('resolves every field with no file, no environment and no flags', () => {
    const config = resolve();
    expect(config).toMatchObject({
      baseUrl: null,
      apiKey: null,
      apiKeyEnv: 'DOCBENCH_API_KEY',
      timeoutMs: 600_000,
      retry: DEFAULT_RETRY_POLICY,
      auth: DEFAULT_AUTH,
      maxResponseBytes: 100 * 1024 * 1024,
      modes: ['slow'],
      endpoints: ['extract', 'compare'],
      concurrency: 4,
      endpointConcurrency: {},
      ratePerSecond: null,
      reportsDir: path.join(cwd, 'reports'),
      cacheDir: path.join(cwd, '.docbench-cache'),
      outageThreshold: 10,
      configFile: null,
      sections: {},
    });
  });
});

describe('precedence: flags > environment > file > defaults', () => {
  it('takes baseUrl from each layer in order', async () => {
    expect(resolve().baseUrl).toBeNull();
    await writeConfig('docbench.config.json', { baseUrl: 'https://file.example' });
    expect(resolve().baseUrl).toBe('https://file.example');
    expect(resolve({ DOCBENCH_BASE_URL: 'https://env.example' }).baseUrl).toBe('https://env.example');
    expect(resolve({ DOCBENCH_BASE_URL: 'https://env.example' }, { baseUrl: 'https://flag.example' }).baseUrl).toBe(
      'https://flag.example',
    );
  });

  it('ignores a blank DOCBENCH_BASE_URL', async () => {
    await writeConfig('docbench.config.json', { baseUrl: 'https://file.example' });
    expect(resolve({ DOCBENCH_BASE_URL: '  ' }).baseUrl).toBe('https://file.example');
  });

  it('lets flags override the file for other settings, and keeps the file where no flag is given', async () => {
    await writeConfig('docbench.config.json', {
      concurrency: 8,
      timeoutMs: 1000,
      modes: ['fast'],
      endpoints: 'split, process',
      reportsDir: 'out',
    });
    const fromFile = resolve();
    expect(fromFile).toMatchObject({
      concurrency: 8,
      timeoutMs: 1000,
      modes: ['fast'],
      endpoints: ['split', 'process'],
      reportsDir: path.join(cwd, 'out'),
    });
    const flagged = resolve({}, { concurrency: 2, modes: ['fast', 'slow'], retryAttempts: 2 });
    expect(flagged).toMatchObject({
      concurrency: 2,
      timeoutMs: 1000,
      modes: ['fast', 'slow'],
      endpoints: ['split', 'process'],
    });
    expect(flagged.retry.maxAttempts).toBe(2);
  });
});

describe('config files', () => {
  it('reads docbench.config.yaml', async () => {
    await writeConfig(
      'docbench.config.yaml',
      'baseUrl: https://yaml.example\nconcurrency: 3\nretry:\n  maxAttempts: 6\n  baseDelayMs: 250\nauth:\n  process:\n    header: x-api-key\nendpointConcurrency:\n  extract: 2\ngate:\n  min_f1: 0.9\n',
    );
    const config = resolveConfig({ cwd, env: {}, sections: { gate: readGateSection } });
    expect(config.baseUrl).toBe('https://yaml.example');
    expect(config.concurrency).toBe(3);
    expect(config.retry).toEqual({ ...DEFAULT_RETRY_POLICY, maxAttempts: 6, baseDelayMs: 250 });
    expect(config.auth.process).toEqual({ header: 'x-api-key' });
    expect(config.auth.split).toEqual(DEFAULT_AUTH.split);
    expect(config.endpointConcurrency).toEqual({ extract: 2 });
    expect(config.sections.gate.min_f1).toBe(0.9);
    expect(config.configFile).toBe(path.join(cwd, 'docbench.config.yaml'));
  });

  it('reads a file named with --config, relative to cwd', async () => {
    await writeConfig('other.yml', 'baseUrl: http://127.0.0.1:4010\n');
    expect(resolve({}, { configPath: 'other.yml' }).baseUrl).toBe('http://127.0.0.1:4010');
  });

  it('fails with CONFIG_INVALID naming --config when that file does not exist', () => {
    const error = usageError(() => resolve({}, { configPath: 'missing.json' }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.subject).toBe('--config');
    expect(error.message).toContain('missing.json');
  });

  it('rejects apiKey in the file with CONFIG_INVALID naming it, without repeating the key', async () => {
    await writeConfig('docbench.config.json', { baseUrl: 'https://x.example', apiKey: 'sk-live-should-not-be-here' });
    const error = usageError(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('apiKey');
    expect(error.message).toContain('docbench.config.json');
    expect(error.describe()).not.toContain('sk-live-should-not-be-here');
  });

  it('rejects an unknown key naming the file and the key', async () => {
    await writeConfig('docbench.config.yaml', 'baseURL: https://typo.example\n');
    const error = usageError(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('docbench.config.yaml');
    expect(error.message).toContain('baseURL');
    expect(error.hint).toContain('baseUrl');
    expect(error.message).toBe('docbench.config.yaml: baseURL: unknown setting; did you mean "baseUrl"?');
  });

  it('says what was expected and what was found, with the key path', async () => {
    await writeConfig('docbench.config.yaml', 'concurrency: four\nretry:\n  maxAttempts: 3\n');
    expect(usageError(() => resolve()).message).toBe(
      'docbench.config.yaml: concurrency: expected a whole number ≥ 1, got "four"',
    );
    await writeConfig('docbench.config.yaml', 'retry:\n  maxAttemps: 3\n');
    expect(usageError(() => resolve()).message).toBe(
      'docbench.config.yaml: retry.maxAttemps: unknown setting; did you mean "maxAttempts"?',
    );
  });

  it('refuses a section no module reads (the gate section is read only when its reader is passed)', async () => {
    await writeConfig('docbench.config.json', { gate: { min_f1: 0.9 } });
    expect(usageError(() => resolve()).message).toMatch(/docbench\.config\.json: gate: unknown setting/);
    expect(resolveConfig({ cwd, env: {}, sections: { gate: readGateSection } }).sections.gate.min_f1).toBe(0.9);
  });

  it('rejects a malformed JSON or YAML file with CONFIG_INVALID naming the file and where, without quoting it', async () => {
    await writeConfig(
      'docbench.config.json',
      '{\n  "baseUrl": "https://x.example",\n  "apiKeyEnv": sk-live-secret-in-file\n}',
    );
    const json = usageError(() => resolve());
    expect(json.code).toBe('CONFIG_INVALID');
    expect(json.message).toContain('docbench.config.json');
    expect(json.message).toMatch(/line 3/);
    expect(json.describe()).not.toContain('sk-live');

    await rm(path.join(cwd, 'docbench.config.json'));
    await writeConfig('docbench.config.yaml', 'baseUrl: https://x.example\napiKey: sk-live-secret-in-file\n  bad: [\n');
    const yaml = usageError(() => resolve());
    expect(yaml.code).toBe('CONFIG_INVALID');
    expect(yaml.message).toContain('docbench.config.yaml');
    expect(yaml.message).toMatch(/line \d+/);
    expect(yaml.describe()).not.toContain('sk-live');
  });

  it('fails with CONFIG_INVALID naming the file when --config names something unreadable', async () => {
    const error = usageError(() => resolve({}, { configPath: '.' }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('cannot be read');
  });

  it('rejects a file that is not an object of settings', async () => {
    await writeConfig('docbench.config.json', '[1, 2]');
    expect(usageError(() => resolve()).message).toContain('must hold an object');
  });

  it('treats an empty YAML file as no settings', async () => {
    await writeConfig('docbench.config.yaml', '');
    expect(resolve().configFile).toBe(path.join(cwd, 'docbench.config.yaml'));
  });
});

describe('the API key', () => {
  it('comes from DOCBENCH_API_KEY, trimmed', () => {
    expect(resolve({ DOCBENCH_API_KEY: ' sk-env-1 \n' }).apiKey).toBe('sk-env-1');
    expect(resolve({ DOCBENCH_API_KEY: '' }).apiKey).toBeNull();
  });

  it('comes from the variable named by apiKeyEnv in the file, and only from there', async () => {
    await writeConfig('docbench.config.json', { apiKeyEnv: 'ACME_KEY' });
    const config = resolve({ ACME_KEY: 'sk-acme', DOCBENCH_API_KEY: 'sk-other' });
    expect(config.apiKey).toBe('sk-acme');
    expect(config.apiKeyEnv).toBe('ACME_KEY');
    expect(resolve({ DOCBENCH_API_KEY: 'sk-other' }).apiKey).toBeNull();
  });

  it('is never taken from a flag value', () => {
    const flags = { apiKey: 'sk-from-flag' } as unknown as ConfigOverrides;
    expect(resolve({}, flags).apiKey).toBeNull();
  });

  it('rejects an apiKeyEnv that is not a variable name', async () => {
    await writeConfig('docbench.config.json', { apiKeyEnv: 'sk-looks-like-a-key' });
    const error = usageError(() => resolve());
    expect(error.subject).toBe('apiKeyEnv');
  });

  it('is left out of describeConfig, which says only whether one is set', () => {
    const key = `sk-test-${crypto.randomUUID()}`;
    const config = resolve({ DOCBENCH_API_KEY: key, DOCBENCH_BASE_URL: 'https://svc.example' });
    expect(config.apiKey).toBe(key);
    const described = describeConfig(config);
    expect(JSON.stringify(described)).not.toContain(key);
    expect(described).not.toHaveProperty('apiKey');
    expect(described).toMatchObject({ apiKeySet: true, baseUrl: 'https://svc.example', apiKeyEnv: 'DOCBENCH_API_KEY' });
    expect(describeConfig(resolve())).toMatchObject({ apiKeySet: false });
  });
});

describe('invalid values name the field', () => {
  it.each<[string, ConfigOverrides, string]>([
    ['concurrency 0', { concurrency: 0 }, 'concurrency'],
    ['concurrency 1.5', { concurrency: 1.5 }, 'concurrency'],
    ['unknown mode', { modes: ['turbo' as 'fast'] }, 'modes[0]'],
    ['no mode', { modes: [] }, 'modes'],
    ['unknown endpoint', { endpoints: ['markdown' as 'extract'] }, 'endpoints[0]'],
    ['non-http base URL', { baseUrl: 'ftp://svc.example' }, 'baseUrl'],
    ['base URL not a URL', { baseUrl: 'svc.example' }, 'baseUrl'],
    ['timeout 0', { timeoutMs: 0 }, 'timeoutMs'],
    ['rate 0', { ratePerSecond: 0 }, 'ratePerSecond'],
    ['retries 0', { retryAttempts: 0 }, 'retry.maxAttempts'],
    ['outage threshold 0', { outageThreshold: 0 }, 'outageThreshold'],
  ])('%s', (_name, flags, field) => {
    const error = usageError(() => resolve({}, flags));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.subject).toBe(field);
    expect(error.message).toContain(field);
  });

  it('names a non-http DOCBENCH_BASE_URL from the environment', () => {
    expect(usageError(() => resolve({ DOCBENCH_BASE_URL: 'localhost:4010' })).subject).toBe('baseUrl');
  });

  it.each<[string, unknown, string]>([
    ['a string where a number belongs', { concurrency: 'four' }, 'concurrency'],
    ['an unknown mode in the file', { modes: ['fast', 'turbo'] }, 'modes[1]'],
    ['an unknown retry setting', { retry: { maxAttempt: 3 } }, 'retry.maxAttempt'],
    ['an inherited name as a retry setting', { retry: { toString: 3 } }, 'retry.toString'],
    ['a retry delay that is not a number', { retry: { baseDelayMs: 'soon' } }, 'retry.baseDelayMs'],
    ['a negative retry delay', { retry: { maxDelayMs: -1 } }, 'retry.maxDelayMs'],
    ['retry statuses that are not a list', { retry: { retryStatuses: 503 } }, 'retry.retryStatuses'],
    ['a retry status that is not an HTTP status', { retry: { retryStatuses: [503, 'x'] } }, 'retry.retryStatuses'],
    ['retryTimeouts not a boolean', { retry: { retryTimeouts: 'yes' } }, 'retry.retryTimeouts'],
    ['an auth entry for an unknown endpoint', { auth: { markdown: { header: 'x-api-key' } } }, 'auth.markdown'],
    ['an auth header name with a space', { auth: { split: { header: 'x api key' } } }, 'auth.split.header'],
    ['an auth entry without a header', { auth: { split: { scheme: 'Bearer' } } }, 'auth.split.header'],
    [
      'an unknown key in an auth entry',
      { auth: { split: { header: 'x-api-key', schema: 'Bearer' } } },
      'auth.split.schema',
    ],
    ['an endpoint concurrency of 0', { endpointConcurrency: { extract: 0 } }, 'endpointConcurrency.extract'],
    ['maxResponseBytes 0', { maxResponseBytes: 0 }, 'maxResponseBytes'],
  ])('%s in the file', async (_name, content, field) => {
    await writeConfig('docbench.config.json', content);
    const error = usageError(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.subject).toBe(field);
    expect(error.message).toContain(field);
  });
});
