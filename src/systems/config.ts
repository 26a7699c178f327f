/**
 * The `systems:` and `reference:` sections of the config file (docs/systems.md), and which systems a run
 * takes: the configured ones (`--systems a,b` picks some), or — nothing configured — the local engine
 * (`local`) or `--base-url`'s service (`service`), plus the stored `incumbent` when the dataset has
 * baseline files. Every mistake is a UsageError naming `systems.<name>.<key>` (exit 2, before anything is
 * written or called).
 */
import { UsageError } from '../errors.js';
import { parseRetrySection, type AuthHeader } from '../service/index.js';
import type { Dataset, Endpoint } from '../types.js';
import { OptionReader } from './option-reader.js';
import { findSystemKind, SYSTEM_KINDS } from './registry.js';
import { INCUMBENT } from './kinds/stored.js';
import type { InterfaceOptions } from './kinds/interface.js';
import type { CommonSystemOptions, Price } from './types.js';

/** Safe as a file name part and a CSV column part. */
export const SYSTEM_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

/** One configured system, its options validated by its kind. */
export interface SystemSpec {
  name: string;
  kind: string;
  /** What the kind's `parseOptions` returned (no secrets: those come only from the environment). */
  options: unknown;
  common: CommonSystemOptions;
}

export interface SystemsSection {
  /** Null when the file has no `systems:` section. */
  systems: SystemSpec[] | null;
  reference: string | null;
}

const COMMON_KEYS = ['kind', 'concurrency', 'ratePerSecond', 'timeoutMs', 'retry', 'price'] as const;
const PRICE_KEYS = ['perPage', 'perCall', 'perMillionInputTokens', 'perMillionOutputTokens'] as const;

/**
 * Reads `systems:` and `reference:` of the config file. `defaults` are the run-wide settings (file, then
 * flags): every common option a system leaves out takes the run's value.
 */
export function parseSystemsSection(file: Readonly<Record<string, unknown>>, defaults: CommonSystemOptions): SystemsSection {
  const reference = file.reference ?? null;
  if (reference !== null && (typeof reference !== 'string' || !SYSTEM_NAME.test(reference))) {
    throw new UsageError('reference must be the name of a system', { code: 'CONFIG_INVALID', subject: 'reference', hint: 'e.g. reference: incumbent' });
  }
  const raw = file.systems;
  // Without systems: the reference names one of the default systems, checked once they are known.
  if (raw === undefined || raw === null) return { systems: null, reference };
  if (typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length === 0) {
    throw new UsageError('systems must be an object of name: { kind: …, … }', { code: 'CONFIG_INVALID', subject: 'systems', hint: 'see docs/systems.md' });
  }
  const systems = Object.entries(raw as Record<string, unknown>).map(([name, value]) => parseSystem(name, value, defaults));
  if (reference !== null && !systems.some((s) => s.name === reference)) throw unknownReference('reference', reference, systems.map((s) => s.name));
  return { systems, reference };
}

function parseSystem(name: string, value: unknown, defaults: CommonSystemOptions): SystemSpec {
  const at = `systems.${name}`;
  // YAML and JSON objects cannot hold a key twice (the parsers reject or merge it), so uniqueness of names
  // holds by construction; only their spelling needs checking.
  if (!SYSTEM_NAME.test(name)) {
    throw new UsageError(`${at}: "${name}" is not a usable system name`, { code: 'CONFIG_INVALID', subject: at, hint: 'names are 1–40 characters: a lower-case letter, then a-z, 0-9, _ or -' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${at} must be an object with a kind`, { code: 'CONFIG_INVALID', subject: at, hint: `e.g. ${name}: { kind: command, command: [...] }` });
  }
  const raw = value as Record<string, unknown>;
  const reader = new OptionReader(raw, at);
  const kindName = raw.kind;
  const kind = typeof kindName === 'string' ? findSystemKind(kindName) : undefined;
  if (!kind) return reader.fail('kind', `is ${JSON.stringify(kindName ?? null)}; known kinds: ${[...SYSTEM_KINDS.keys()].join(', ')}`);
  const common = readCommon(reader, defaults);
  const own = Object.fromEntries(Object.entries(raw).filter(([key]) => !(COMMON_KEYS as readonly string[]).includes(key)));
  return { name, kind: kind.kind, options: kind.parseOptions(own, at), common };
}

function readCommon(reader: OptionReader, defaults: CommonSystemOptions): CommonSystemOptions {
  const retrySection = reader.optionalObject('retry');
  const retry = parseRetrySection(retrySection, defaults.retry, (key, problem) => reader.fail(`retry.${key}`, problem));
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) reader.fail('retry.maxAttempts', 'must be a whole number ≥ 1');
  reader.skip('kind');
  return {
    concurrency: reader.optionalNumber('concurrency', { min: 1, integer: true }) ?? defaults.concurrency,
    ratePerSecond: reader.optionalNumber('ratePerSecond') ?? defaults.ratePerSecond,
    timeoutMs: reader.optionalNumber('timeoutMs') ?? defaults.timeoutMs,
    retry,
    price: readPrice(reader),
  };
}

function readPrice(reader: OptionReader): Price | null {
  const section = reader.optionalObject('price');
  if (section === undefined) return null;
  const prices = new OptionReader(section, `${reader.at}.price`);
  const price: Price = {};
  for (const key of PRICE_KEYS) {
    const value = prices.optionalNumber(key, { min: 0 });
    if (value !== undefined) price[key] = value;
  }
  prices.rejectUnknown(`${PRICE_KEYS.join(', ')} (USD)`);
  return price;
}

function unknownReference(subject: string, name: string, names: readonly string[]): UsageError {
  return new UsageError(`${subject} "${name}" is not a system of this run`, {
    code: 'CONFIG_INVALID',
    subject,
    hint: names.length > 0 ? `systems: ${names.join(', ')}` : 'configure systems: in the config file, or leave the reference out',
  });
}

/** The run-wide settings `--base-url` alone (no `systems:`) turns into one interface system. */
export interface DefaultSystemSettings {
  baseUrl: string | null;
  apiKeyEnv: string;
  auth: Record<Endpoint, AuthHeader>;
  maxResponseBytes: number;
  common: CommonSystemOptions;
}

export interface SystemChoice {
  /** `--systems a,b`: pick these (in this order). */
  names?: readonly string[];
  /** `--reference NAME`. */
  reference?: string;
}

/**
 * The systems a run takes and its reference. Nothing configured: `service` (with a base URL) or `local`,
 * plus the stored `incumbent` when the dataset has baseline files.
 */
export function selectSystems(section: SystemsSection, settings: DefaultSystemSettings, dataset: Dataset, choice: SystemChoice = {}): { systems: SystemSpec[]; reference: string | null } {
  let available = section.systems;
  if (available === null) {
    const live: SystemSpec =
      settings.baseUrl === null
        ? { name: 'local', kind: 'local', options: {}, common: settings.common }
        : {
            name: 'service',
            kind: 'interface',
            options: { baseUrl: settings.baseUrl, apiKeyEnv: settings.apiKeyEnv, auth: settings.auth, maxResponseBytes: settings.maxResponseBytes } satisfies InterfaceOptions,
            common: settings.common,
          };
    const hasBaseline = dataset.documents.some((document) => document.baseline.json !== undefined || document.baseline.markdown !== undefined);
    available = hasBaseline ? [live, { name: INCUMBENT, kind: 'stored', options: {}, common: settings.common }] : [live];
  }
  let systems = available;
  if (choice.names !== undefined) {
    const byName = new Map(available.map((spec) => [spec.name, spec]));
    systems = [...new Set(choice.names)].map((name) => {
      const spec = byName.get(name);
      if (!spec) throw new UsageError(`--systems: "${name}" is not a configured system`, { subject: '--systems', hint: `systems: ${available!.map((s) => s.name).join(', ')}` });
      return spec;
    });
  }
  const names = systems.map((s) => s.name);
  const requested = choice.reference ?? section.reference;
  if (requested !== undefined && requested !== null) {
    if (!names.includes(requested)) throw unknownReference(choice.reference !== undefined ? '--reference' : 'reference', requested, names);
    return { systems, reference: requested };
  }
  return { systems, reference: names.includes(INCUMBENT) ? INCUMBENT : (names[0] ?? null) };
}
