/**
 * The quality gate's thresholds and the diff's settings: the `gate` section of docbench.config.json/.yaml,
 * and the CLI flags that override it. See docs/gate.md. Validated by the configuration's SettingsReader, so
 * messages read like every other setting's: `docbench.config.json: gate.modes.fast.min_f1: expected a number
 * from 0 to 1 (a rate: 0.9 = 90%), got "high"`.
 */
import type { BlockThresholds } from './block-checks.js';
import { SettingsReader, read, type SectionSchema, type ValueReader } from '../settings-reader.js';
import { MODES, isMode, type Mode } from '../types.js';
import type { CheckThresholds } from './check-thresholds.js';

/** The check types olmOCR-bench defines (docs/checks.md). */
const CHECK_TYPE_NAMES = ['present', 'absent', 'order', 'table', 'math', 'baseline', 'format', 'footnote'];

/** Run-level thresholds that can be set for all modes and overridden per mode. */
export interface ModeThresholds {
  /** Micro field F1, normalised pass (summary.extraction.<mode>.f1). */
  min_f1?: number;
  /** Micro field F1, strict pass. */
  min_strict_f1?: number;
  /** Document exact-match (straight-through) rate. */
  min_exact_match?: number;
  /** Expected calibration error of the confidence score (lower is better). */
  max_ece?: number;
  /** Client p95 latency of /extract in this mode, ms. At the top level: of every endpoint and mode. */
  max_p95_ms?: number;
  /** Per document: field F1 below this puts the document in gate.json `document_failures` (junit failures). */
  min_document_f1?: number;
}

/** Thresholds of one field path (indices collapsed, e.g. `codes[].cpt`), applied in every mode run. */
export interface FieldThresholds {
  min_f1?: number;
  min_precision?: number;
  min_recall?: number;
}

/** Thresholds of the documents carrying one tag (`tier=fax`). */
export interface TagThresholds {
  min_f1?: number;
  min_exact_match?: number;
  min_similarity?: number;
}

/** Latency thresholds of one call key (`compare`, `split`, `process`, `extract:fast`). */
export interface LatencyThresholds {
  max_p50_ms?: number;
  max_p95_ms?: number;
  max_p99_ms?: number;
}

/** How `docbench diff` decides a regression (docs/metrics/comparison.md). */
export interface DiffSettings {
  /** A headline metric must drop by more than this (absolute, 0.01 = 1 point). @default 0.01 */
  tolerance: number;
  /**
   * … and the drop must be significant at this level: the primary metric's own p ≤ alpha, a secondary
   * metric's Holm-adjusted p ≤ alpha (docs/metrics/comparison.md "Decision rule"). @default 0.05
   */
  alpha: number;
  /**
   * The primary headline metric, tested alone at `alpha`, e.g. `extraction.slow.f1`, `markdown.similarity`.
   * @default null: field F1 of the first mode both runs made, else markdown similarity
   */
  primary: string | null;
  /** Paired-bootstrap resamples. @default 10000 */
  resamples: number;
  /** Bootstrap seed. @default 1 */
  seed: number;
  /** Also call it a regression when a field path regresses (not only a headline metric). @default false */
  fail_on_fields: boolean;
}

/** The thresholds of one system: `gate.systems.<name>` holds the same keys as `gate` itself, but `diff`. */
export type SystemThresholds = Omit<GateThresholds, 'diff' | 'systems'>;

/** The validated `gate` section. Absent keys mean "no such check". Top-level thresholds apply to the run's primary system. */
export interface GateThresholds extends ModeThresholds, CheckThresholds, BlockThresholds {
  /** Markdown similarity of the service (micro, normalised). */
  min_similarity?: number;
  /**
   * Documents whose calls failed (status failed or partial). junit.xml lists them as failed testcases, so
   * once any threshold is set this defaults to 0: the gate and junit.xml agree.
   */
  max_failed_documents?: number;
  /** Share of documents (0–1) whose outputs differ between repetitions; needs --repeat (docs/gate.md). */
  max_flaky_documents?: number;
  /**
   * Regions' reading order (summary.json `regions.reading_order`): docling-eval's normalised ARD, 1 − ARD / n, so
   * higher is better and 1 is the truth's order (docs/metrics/regions.md "Reading order").
   */
  min_region_reading_order?: number;
  modes: Partial<Record<Mode, ModeThresholds>>;
  fields: Record<string, FieldThresholds>;
  tags: Record<string, TagThresholds>;
  latency: Record<string, LatencyThresholds>;
  /** Per system name (`gate.systems.<name>`): that system's own thresholds. */
  systems: Record<string, SystemThresholds>;
  diff: DiffSettings;
}

/** Flags that override the file's top-level thresholds and diff settings (undefined = not given). */
export interface GateFlags {
  minF1?: number;
  minStrictF1?: number;
  minSimilarity?: number;
  maxP95Ms?: number;
  minExactMatch?: number;
  maxEce?: number;
  minDocumentF1?: number;
  maxFailedDocuments?: number;
  tolerance?: number;
  alpha?: number;
  primary?: string;
}

export const DEFAULT_DIFF_SETTINGS: DiffSettings = {
  tolerance: 0.01,
  alpha: 0.05,
  primary: null,
  resamples: 10_000,
  seed: 1,
  fail_on_fields: false,
};

const GATE_HINT = 'see docs/gate.md for the gate settings';

const unit = read.number({ min: 0, max: 1, what: 'a number from 0 to 1 (a rate: 0.9 = 90%)' });
const ms = read.number({ min: 0, minExclusive: true, what: 'a number of milliseconds > 0' });
const count = read.number({ min: 0, whole: true, what: 'a whole number ≥ 0' });
const alpha = read.number({
  min: 0,
  max: 1,
  minExclusive: true,
  maxExclusive: true,
  what: 'a significance level between 0 and 1 (exclusive), e.g. 0.05',
});

const MODE_SCHEMA = {
  min_f1: unit,
  min_strict_f1: unit,
  min_exact_match: unit,
  max_ece: unit,
  max_p95_ms: ms,
  min_document_f1: unit,
} satisfies Record<keyof ModeThresholds, ValueReader<number>>;
const TOP_SCHEMA = {
  ...MODE_SCHEMA,
  min_similarity: unit,
  max_failed_documents: count,
  max_flaky_documents: unit,
  min_region_reading_order: unit,
  min_check_pass_rate: unit,
  max_text_edit: unit,
  max_reading_order_edit: unit,
  max_formula_edit: unit,
  max_table_edit: unit,
  min_table_teds: unit,
  min_table_teds_structure: unit,
} satisfies SectionSchema;
const FIELD_SCHEMA = { min_f1: unit, min_precision: unit, min_recall: unit } satisfies Record<
  keyof FieldThresholds,
  ValueReader<number>
>;
const TAG_SCHEMA = { min_f1: unit, min_exact_match: unit, min_similarity: unit } satisfies Record<
  keyof TagThresholds,
  ValueReader<number>
>;
const LATENCY_SCHEMA = { max_p50_ms: ms, max_p95_ms: ms, max_p99_ms: ms } satisfies Record<
  keyof LatencyThresholds,
  ValueReader<number>
>;
/** The headline metrics `docbench diff` computes (docs/gate.md section 3). */
const HEADLINE_METRIC =
  /^(extraction\.(fast|slow)\.(f1|exact_match_rate)|markdown\.similarity|regions\.f1_at50|checks\.macro_pass_rate|markdown\.blocks\.((text|reading_order|formula|table)_edit|table_teds(_structure)?))$/;
const headlineMetric: ValueReader<string> = (value, at, reader) =>
  typeof value === 'string' && HEADLINE_METRIC.test(value)
    ? value
    : reader.expected(
        at,
        'a headline metric: extraction.<fast|slow>.f1, extraction.<fast|slow>.exact_match_rate, markdown.similarity, regions.f1_at50, checks.macro_pass_rate, markdown.blocks.<text|reading_order|formula|table>_edit, markdown.blocks.table_teds or markdown.blocks.table_teds_structure',
        value,
      );
const DIFF_SCHEMA = {
  tolerance: unit,
  alpha,
  primary: headlineMetric,
  resamples: read.number({
    min: 100,
    max: 1_000_000,
    whole: true,
    what: 'a whole number from 100 to 1000000 (default 10000)',
  }),
  seed: read.number({ whole: true, what: 'a whole number' }),
  fail_on_fields: read.boolean,
} satisfies Record<keyof DiffSettings, ValueReader<unknown>>;
const LATENCY_CALL_KEY = /^(extract:(fast|slow)|compare|split|process)$/;

/** A map of threshold sets: keys checked by `checkKey`, each value read with `schema`. */
function readSets<S extends SectionSchema>(
  checkKey: (key: string) => string | null,
  schema: S,
): ValueReader<Record<string, { [K in keyof S]?: ReturnType<S[K]> }>> {
  return (value, at, reader) =>
    reader.map(value, at, checkKey, (set, setAt, setReader) => setReader.section(set, setAt, schema));
}

/** What `gate` and each `gate.systems.<name>` hold. */
const SYSTEM_SCHEMA = {
  ...TOP_SCHEMA,
  modes: readSets((key) => (isMode(key) ? null : `unknown mode; expected one of ${MODES.join(', ')}`), MODE_SCHEMA),
  fields: readSets(
    (key) =>
      key.trim() === '' || /\[\d+\]/.test(key)
        ? 'expected a field path with indices collapsed, e.g. "codes[].cpt"'
        : null,
    FIELD_SCHEMA,
  ),
  tags: readSets(
    (key) => (/^[^=]+=.*$/.test(key) ? null : 'expected a tag written key=value, e.g. "tier=fax"'),
    TAG_SCHEMA,
  ),
  latency: readSets(
    (key) =>
      LATENCY_CALL_KEY.test(key) ? null : 'expected a call key: extract:fast, extract:slow, compare, split or process',
    LATENCY_SCHEMA,
  ),
  check_categories: readSets((key) => (key.trim() === '' ? 'expected a check category' : null), {
    min_pass_rate: unit,
  }),
  check_types: readSets(
    (key) => (CHECK_TYPE_NAMES.includes(key) ? null : `expected a check type: ${CHECK_TYPE_NAMES.join(', ')}`),
    { min_pass_rate: unit },
  ),
} satisfies SectionSchema;

/** System names as run.json allows them (docs/systems.md). */
const SYSTEM_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

/** One system's thresholds with every scope present. */
function completeScopes<
  T extends {
    modes?: SystemThresholds['modes'];
    fields?: SystemThresholds['fields'];
    tags?: SystemThresholds['tags'];
    latency?: SystemThresholds['latency'];
  },
>(set: T) {
  return { ...set, modes: set.modes ?? {}, fields: set.fields ?? {}, tags: set.tags ?? {}, latency: set.latency ?? {} };
}

const GATE_SCHEMA = {
  ...SYSTEM_SCHEMA,
  systems: readSets(
    (key) =>
      SYSTEM_NAME.test(key)
        ? null
        : 'expected a system name: lower-case letters, digits, - and _, starting with a letter',
    SYSTEM_SCHEMA,
  ),
  diff: ((value, at, reader) => reader.section(value, at, DIFF_SCHEMA)) as ValueReader<Partial<DiffSettings>>,
} satisfies SectionSchema;

/** An empty gate: no checks, default diff settings. */
export function createEmptyThresholds(): GateThresholds {
  return { modes: {}, fields: {}, tags: {}, latency: {}, systems: {}, diff: { ...DEFAULT_DIFF_SETTINGS } };
}

/**
 * Validates the raw `gate` section of the config file (`where` names the file in messages).
 * @throws UsageError `CONFIG_INVALID` naming the key path, e.g. `gate.modes.fast.min_f1: expected a number from 0 to 1 …`.
 */
export function parseGateSection(raw: unknown, where = 'config'): GateThresholds {
  return readGateSection(raw, 'gate', new SettingsReader(where, GATE_HINT));
}

/** The `gate` section as a config section reader (config.ts validates it with the rest of the file). */
export const readGateSection: ValueReader<GateThresholds> = (value, at, reader) => {
  const { systems, diff, ...own } = reader.section(value, at, GATE_SCHEMA);
  return {
    ...completeScopes(own),
    systems: Object.fromEntries(Object.entries(systems ?? {}).map(([name, set]) => [name, completeScopes(set)])),
    diff: { ...DEFAULT_DIFF_SETTINGS, ...diff },
  };
};

/** The file's thresholds with the flags applied on top (flags set the top level; per-scope file values stay). */
export function applyGateFlags(thresholds: GateThresholds, flags: GateFlags): GateThresholds {
  const out: GateThresholds = { ...thresholds, diff: { ...thresholds.diff } };
  const reader = new SettingsReader(null, GATE_HINT);
  const set = (flag: string, key: keyof typeof TOP_SCHEMA, value: number | undefined) => {
    if (value !== undefined) out[key] = TOP_SCHEMA[key](value, flag, reader);
  };
  set('--min-f1', 'min_f1', flags.minF1);
  set('--min-strict-f1', 'min_strict_f1', flags.minStrictF1);
  set('--min-similarity', 'min_similarity', flags.minSimilarity);
  set('--max-p95-ms', 'max_p95_ms', flags.maxP95Ms);
  set('--min-exact-match', 'min_exact_match', flags.minExactMatch);
  set('--max-ece', 'max_ece', flags.maxEce);
  set('--min-document-f1', 'min_document_f1', flags.minDocumentF1);
  set('--max-failed-documents', 'max_failed_documents', flags.maxFailedDocuments);
  if (flags.tolerance !== undefined) out.diff.tolerance = unit(flags.tolerance, '--tolerance', reader);
  if (flags.alpha !== undefined) out.diff.alpha = alpha(flags.alpha, '--alpha', reader);
  if (flags.primary !== undefined) out.diff.primary = headlineMetric(flags.primary, '--primary', reader);
  return out;
}

/** True when at least one check is configured (diff settings alone are not a gate). */
export function hasGateChecks(thresholds: SystemThresholds | GateThresholds): boolean {
  if ('systems' in thresholds && Object.values(thresholds.systems).some(hasGateChecks)) return true;
  const top = Object.keys(TOP_SCHEMA).some(
    (key) => (thresholds as unknown as Record<string, unknown>)[key] !== undefined,
  );
  const scoped = [
    thresholds.modes,
    thresholds.fields,
    thresholds.tags,
    thresholds.latency,
    thresholds.check_categories ?? {},
    thresholds.check_types ?? {},
  ].some((section) =>
    Object.values(section).some((set) => Object.values(set as Record<string, unknown>).some((v) => v !== undefined)),
  );
  return top || scoped;
}
