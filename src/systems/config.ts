/**
 * The `systems:` and `reference:` sections of the config file (docs/systems.md), and which systems a run
 * takes: the configured ones (`--systems a,b` picks some), or — nothing configured — the local engine
 * (`local`) or `--base-url`'s service (`service`), plus the stored `incumbent` when the dataset has
 * baseline files. Every mistake is a UsageError naming `systems.<name>.<key>` (exit 2, before anything is
 * written or called).
 */
import { UsageError } from '../errors.js';
import type { AuthHeader, RetryPolicy } from '../service/index.js';
import { SettingsReader, read, type SectionSchema } from '../settings-reader.js';
import { readBudget, readConcurrency, readRatePerSecond, readRetry, readTimeoutMs } from '../run-settings.js';
import type { Dataset, Endpoint } from '../types.js';
import { OptionReader } from './option-reader.js';
import { findSystemKind, SYSTEM_KINDS } from './registry.js';
import { INCUMBENT } from './kinds/stored.js';
import type { InterfaceOptions } from './kinds/interface.js';
import { TRUTH_READER, type PipelineOptions } from './kinds/pipeline-settings.js';
import type { CommonSystemOptions, Price, SystemKind } from './types.js';

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

const SYSTEMS_HINT = 'see docs/systems.md';

const PRICE_SCHEMA = Object.fromEntries(
  (['perPage', 'perCall', 'perMillionInputTokens', 'perMillionOutputTokens'] as const).map((key) => [
    key,
    read.number({ min: 0, what: 'a price in USD ≥ 0' }),
  ]),
) as Record<keyof Price, ReturnType<typeof read.number>>;

/** `estimate:` — tokens per page assumed for token prices (docs/systems.md, "Estimates"). */
const ESTIMATE_SCHEMA = {
  inputTokensPerPage: read.number({ min: 0, what: 'a number of tokens ≥ 0' }),
  outputTokensPerPage: read.number({ min: 0, what: 'a number of tokens ≥ 0' }),
} satisfies SectionSchema;

/** The keys every kind takes (docs/systems.md, "Common options"); `kind` is read first. */
const COMMON_SCHEMA = {
  kind: read.string,
  concurrency: readConcurrency,
  ratePerSecond: readRatePerSecond,
  timeoutMs: readTimeoutMs,
  retry: readRetry,
  price: (value, at, reader) => reader.section(value, at, PRICE_SCHEMA) as Price,
  maxCostUsd: readBudget,
  estimate: (value, at, reader) => reader.section(value, at, ESTIMATE_SCHEMA),
} satisfies SectionSchema;

/**
 * Reads `systems:` and `reference:` of the config file through the file's reader (which names the file in
 * every message). `defaults` are the run-wide settings (file, then flags): every common option a system
 * leaves out takes the run's value.
 */
export function parseSystemsSection(
  file: Readonly<Record<string, unknown>>,
  defaults: CommonSystemOptions,
  settings: SettingsReader,
): SystemsSection {
  const reader = settings.withHint(SYSTEMS_HINT);
  const given = file.reference ?? null;
  if (given !== null && (typeof given !== 'string' || !SYSTEM_NAME.test(given)))
    reader.expected('reference', 'the name of a system, e.g. incumbent', given);
  const reference = given as string | null;
  const raw = file.systems;
  // Without systems: the reference names one of the default systems, checked once they are known.
  if (raw === undefined || raw === null) return { systems: null, reference };
  if (typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length === 0)
    reader.expected('systems', 'an object of name: { kind: …, … }', raw);
  const systems = Object.entries(raw as Record<string, unknown>).map(([name, value]) =>
    parseSystem(name, value, defaults, reader),
  );
  resolveReaders(systems, reader);
  if (reference !== null && !systems.some((s) => s.name === reference))
    throw unknownReference(
      'reference',
      reference,
      systems.map((s) => s.name),
    );
  return { systems, reference };
}

/**
 * Each pipeline's `read:` resolved to the system it names (docs/systems.md, "pipeline"): `truth`, or another
 * system of the section that answers compare; never the pipeline itself, never a cycle of pipelines.
 */
function resolveReaders(systems: readonly SystemSpec[], reader: SettingsReader): void {
  const byName = new Map(systems.map((spec) => [spec.name, spec]));
  const pipelines = systems.filter((spec) => spec.kind === 'pipeline');
  for (const spec of pipelines) {
    const options = spec.options as PipelineOptions;
    const at = `systems.${spec.name}.read`;
    if (options.read === TRUTH_READER) continue;
    if (options.read === spec.name)
      reader.fail(at, 'names the pipeline itself', 'name the system that reads the documents, or truth');
    const target = byName.get(options.read);
    if (!target)
      reader.fail(
        at,
        `"${options.read}" is not a system of this config`,
        `systems: ${systems.map((s) => s.name).join(', ')}, or truth (the truth markdown)`,
      );
    if (!findSystemKind(target.kind)!.operations(target.options).includes('compare'))
      reader.fail(
        at,
        `${target.name} does not answer compare: a reader must give markdown`,
        'name a system that answers compare, or truth',
      );
    options.reader = target;
  }
  for (const spec of pipelines) {
    const chain = [spec.name];
    for (let next = (spec.options as PipelineOptions).reader; next !== null; ) {
      if (chain.includes(next.name))
        reader.fail(
          `systems.${spec.name}.read`,
          `pipelines read in a cycle: ${[...chain, next.name].join(' → ')}`,
          'one of them must read with a system that is not a pipeline, or with truth',
        );
      chain.push(next.name);
      next = next.kind === 'pipeline' ? (next.options as PipelineOptions).reader : null;
    }
  }
}

function parseSystem(name: string, value: unknown, defaults: CommonSystemOptions, reader: SettingsReader): SystemSpec {
  const at = `systems.${name}`;
  // YAML and JSON objects cannot hold a key twice (the parsers reject or merge it), so uniqueness of names
  // holds by construction; only their spelling needs checking.
  if (!SYSTEM_NAME.test(name))
    reader.fail(
      at,
      `"${name}" is not a usable system name`,
      'names are 1–40 characters: a lower-case letter, then a-z, 0-9, _ or -',
    );
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    reader.expected(at, `an object with a kind, e.g. ${name}: { kind: command, command: [...] }`, value);
  const raw = value as Record<string, unknown>;
  const kind = typeof raw.kind === 'string' ? findSystemKind(raw.kind) : undefined;
  if (!kind) return reader.expected(`${at}.kind`, `one of ${[...SYSTEM_KINDS.keys()].join(', ')}`, raw.kind ?? null);
  const options = parseKindOptions(kind, raw, at, reader);
  const common = reader.section(pick(raw, Object.keys(COMMON_SCHEMA)), at, COMMON_SCHEMA);
  const retry: RetryPolicy = { ...defaults.retry, ...common.retry };
  // A budget is kept by pricing each call; a system without a price has nothing to count it in.
  if (common.maxCostUsd !== undefined && common.price === undefined)
    reader.fail(
      `${at}.maxCostUsd`,
      'is a budget, and this system has no price to count it in',
      `give systems.${name} a price (e.g. price: { perPage: 0.01 }), or remove maxCostUsd`,
    );
  return {
    name,
    kind: kind.kind,
    options,
    common: {
      concurrency: common.concurrency ?? defaults.concurrency,
      ratePerSecond: common.ratePerSecond ?? defaults.ratePerSecond,
      timeoutMs: common.timeoutMs ?? defaults.timeoutMs,
      retry,
      price: common.price ?? null,
      maxCostUsd: common.maxCostUsd ?? null,
      estimate: common.estimate ?? null,
    },
  };
}

/**
 * A kind's options from a system's object: a key neither common nor the kind's is refused with the closest
 * known one as a suggestion; the kind then reads its own keys. Exported for tests of one kind.
 */
export function parseKindOptions<Options>(
  kind: Pick<SystemKind<Options>, 'kind' | 'optionNames' | 'docs' | 'parseOptions'>,
  raw: Readonly<Record<string, unknown>>,
  at: string,
  settings = new SettingsReader(null, SYSTEMS_HINT),
): Options {
  const known = [...Object.keys(COMMON_SCHEMA), ...kind.optionNames];
  for (const key of Object.keys(raw)) if (!known.includes(key)) settings.unknownKey(`${at}.${key}`, key, known);
  return kind.parseOptions(
    new OptionReader(
      pick(raw, kind.optionNames),
      at,
      settings.withHint(`the options of kind "${kind.kind}": ${kind.docs}`),
    ),
  );
}

function pick(raw: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([key]) => keys.includes(key)));
}

function unknownReference(subject: string, name: string, names: readonly string[]): UsageError {
  return new UsageError(`${subject} "${name}" is not a system of this run`, {
    code: 'CONFIG_INVALID',
    subject,
    hint:
      names.length > 0
        ? `systems: ${names.join(', ')}`
        : 'configure systems: in the config file, or leave the reference out',
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
export function selectSystems(
  section: SystemsSection,
  settings: DefaultSystemSettings,
  dataset: Dataset,
  choice: SystemChoice = {},
): { systems: SystemSpec[]; reference: string | null } {
  const hasBaseline = dataset.documents.some(
    (document) => document.baseline.json !== undefined || document.baseline.markdown !== undefined,
  );
  let available = section.systems;
  if (available === null) {
    const live: SystemSpec =
      settings.baseUrl === null
        ? { name: 'local', kind: 'local', options: {}, common: settings.common }
        : {
            name: 'service',
            kind: 'interface',
            options: {
              baseUrl: settings.baseUrl,
              apiKeyEnv: settings.apiKeyEnv,
              auth: settings.auth,
              maxResponseBytes: settings.maxResponseBytes,
            } satisfies InterfaceOptions,
            common: settings.common,
          };
    available = hasBaseline
      ? [live, { name: INCUMBENT, kind: 'stored', options: {}, common: settings.common }]
      : [live];
  }
  let systems = available;
  if (choice.names !== undefined) {
    const byName = new Map(available.map((spec) => [spec.name, spec]));
    systems = [...new Set(choice.names)].map((name) => {
      const spec = byName.get(name);
      if (!spec)
        throw new UsageError(`--systems: "${name}" is not a configured system`, {
          subject: '--systems',
          hint: `systems: ${available!.map((s) => s.name).join(', ')}`,
        });
      return spec;
    });
  }
  const names = systems.map((s) => s.name);
  const requested = choice.reference ?? section.reference;
  if (requested !== undefined && requested !== null) {
    if (!names.includes(requested))
      throw unknownReference(choice.reference !== undefined ? '--reference' : 'reference', requested, names);
    return { systems, reference: requested };
  }
  // None named: the incumbent when the run has one (scoring makes it of the baseline files where no system
  // is named so), else the first.
  return { systems, reference: names.includes(INCUMBENT) || hasBaseline ? INCUMBENT : (names[0] ?? null) };
}
