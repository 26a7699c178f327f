/**
 * The quality gate's thresholds and the diff's settings: the `gate` section of docbench.config.json/.yaml,
 * validated here with messages that name the key, and the CLI flags that override it. See docs/gate.md.
 *
 * Hand-validated rather than with ajv: every message must name the offending key path
 * (`gate.modes.fast.min_f1`) and say what is allowed, and the section is small.
 */
import { UsageError } from '../errors.js';
import type { ValueReader } from '../settings-reader.js';
import { MODES, isMode, type Mode } from '../types.js';

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
  /** … and the drop must be significant: Holm-adjusted p ≤ alpha. @default 0.05 */
  alpha: number;
  /** Paired-bootstrap resamples. @default 10000 */
  resamples: number;
  /** Bootstrap seed. @default 1 */
  seed: number;
  /** Also call it a regression when a field path regresses (not only a headline metric). @default false */
  fail_on_fields: boolean;
}

/** The validated `gate` section. Absent keys mean "no such check". */
export interface GateThresholds extends ModeThresholds {
  /** Markdown similarity of the service (micro, normalised). */
  min_similarity?: number;
  /**
   * Documents whose calls failed (status failed or partial). junit.xml lists them as failed testcases, so
   * once any threshold is set this defaults to 0: the gate and junit.xml agree.
   */
  max_failed_documents?: number;
  modes: Partial<Record<Mode, ModeThresholds>>;
  fields: Record<string, FieldThresholds>;
  tags: Record<string, TagThresholds>;
  latency: Record<string, LatencyThresholds>;
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
}

export const DEFAULT_DIFF_SETTINGS: DiffSettings = { tolerance: 0.01, alpha: 0.05, resamples: 10_000, seed: 1, fail_on_fields: false };

type Kind = 'unit' | 'ms' | 'count';
const MODE_KEYS: Record<keyof ModeThresholds, Kind> = {
  min_f1: 'unit',
  min_strict_f1: 'unit',
  min_exact_match: 'unit',
  max_ece: 'unit',
  max_p95_ms: 'ms',
  min_document_f1: 'unit',
};
const TOP_KEYS: Record<string, Kind> = { ...MODE_KEYS, min_similarity: 'unit', max_failed_documents: 'count' };
const FIELD_KEYS: Record<keyof FieldThresholds, Kind> = { min_f1: 'unit', min_precision: 'unit', min_recall: 'unit' };
const TAG_KEYS: Record<keyof TagThresholds, Kind> = { min_f1: 'unit', min_exact_match: 'unit', min_similarity: 'unit' };
const LATENCY_KEYS: Record<keyof LatencyThresholds, Kind> = { max_p50_ms: 'ms', max_p95_ms: 'ms', max_p99_ms: 'ms' };
const SECTIONS = ['modes', 'fields', 'tags', 'latency', 'diff'];
const LATENCY_CALL_KEY = /^(extract:(fast|slow)|compare|split|process)$/;

/** An empty gate: no checks, default diff settings. */
export function createEmptyThresholds(): GateThresholds {
  return { modes: {}, fields: {}, tags: {}, latency: {}, diff: { ...DEFAULT_DIFF_SETTINGS } };
}

/**
 * Validates the raw `gate` section of the config file (`where` names the file in messages).
 * @throws UsageError `CONFIG_INVALID` naming the key path, e.g. `gate.modes.fast.min_f1 must be a number in [0, 1]`.
 */
export function parseGateSection(raw: unknown, where = 'config'): GateThresholds {
  const thresholds = createEmptyThresholds();
  if (raw === undefined || raw === null) return thresholds;
  const section = asObject(raw, 'gate', where);
  for (const [key, value] of Object.entries(section)) {
    if (Object.hasOwn(TOP_KEYS, key)) {
      (thresholds as unknown as Record<string, number>)[key] = readNumber(value, `gate.${key}`, TOP_KEYS[key]!, where);
    } else if (!SECTIONS.includes(key)) {
      // Thresholds are named like the metrics they check (snake_case), unlike the config's top-level keys.
      const snake = key.replace(/([a-z\d])([A-Z])/g, '$1_$2').replace(/([a-z])(\d)/g, '$1_$2').toLowerCase();
      const hint = Object.hasOwn(TOP_KEYS, snake) ? `; write it ${snake}` : ` (known: ${[...Object.keys(TOP_KEYS), ...SECTIONS].join(', ')})`;
      throw invalid(where, `gate.${key}`, `is not a gate setting${hint}`);
    }
  }
  for (const [mode, value] of Object.entries(optionalObject(section.modes, 'gate.modes', where))) {
    if (!isMode(mode)) throw invalid(where, `gate.modes.${mode}`, `is not a mode (${MODES.join(', ')})`);
    thresholds.modes[mode] = readSet(value, `gate.modes.${mode}`, MODE_KEYS, where, 'min_similarity is not per mode; set it at the top level of gate');
  }
  for (const [fieldPath, value] of Object.entries(optionalObject(section.fields, 'gate.fields', where))) {
    if (fieldPath.trim() === '' || /\[\d+\]/.test(fieldPath)) {
      throw invalid(where, `gate.fields.${fieldPath}`, 'must be a field path with indices collapsed, e.g. "codes[].cpt"');
    }
    thresholds.fields[fieldPath] = readSet(value, `gate.fields.${fieldPath}`, FIELD_KEYS, where);
  }
  for (const [tag, value] of Object.entries(optionalObject(section.tags, 'gate.tags', where))) {
    if (!/^[^=]+=.*$/.test(tag)) throw invalid(where, `gate.tags.${tag}`, 'must be written key=value, e.g. "tier=fax"');
    thresholds.tags[tag] = readSet(value, `gate.tags.${tag}`, TAG_KEYS, where);
  }
  for (const [callKey, value] of Object.entries(optionalObject(section.latency, 'gate.latency', where))) {
    if (!LATENCY_CALL_KEY.test(callKey)) throw invalid(where, `gate.latency.${callKey}`, 'is not a call key (extract:fast, extract:slow, compare, split, process)');
    thresholds.latency[callKey] = readSet(value, `gate.latency.${callKey}`, LATENCY_KEYS, where);
  }
  thresholds.diff = readDiff(section.diff, where);
  return thresholds;
}

/** The `gate` section as a config section reader (config.ts validates it with the rest of the file). */
export const readGateSection: ValueReader<GateThresholds> = (value, _at, reader) => parseGateSection(value, reader.where ?? 'config');

/** The file's thresholds with the flags applied on top (flags set the top level; per-scope file values stay). */
export function applyGateFlags(thresholds: GateThresholds, flags: GateFlags): GateThresholds {
  const out: GateThresholds = { ...thresholds, diff: { ...thresholds.diff } };
  const set = (flag: string, key: keyof GateThresholds, value: number | undefined, kind: Kind) => {
    if (value === undefined) return;
    (out as unknown as Record<string, number>)[key] = readNumber(value, flag, kind, 'the command line', true);
  };
  set('--min-f1', 'min_f1', flags.minF1, 'unit');
  set('--min-strict-f1', 'min_strict_f1', flags.minStrictF1, 'unit');
  set('--min-similarity', 'min_similarity', flags.minSimilarity, 'unit');
  set('--max-p95-ms', 'max_p95_ms', flags.maxP95Ms, 'ms');
  set('--min-exact-match', 'min_exact_match', flags.minExactMatch, 'unit');
  set('--max-ece', 'max_ece', flags.maxEce, 'unit');
  set('--min-document-f1', 'min_document_f1', flags.minDocumentF1, 'unit');
  set('--max-failed-documents', 'max_failed_documents', flags.maxFailedDocuments, 'count');
  if (flags.tolerance !== undefined) out.diff.tolerance = readNumber(flags.tolerance, '--tolerance', 'unit', 'the command line', true);
  if (flags.alpha !== undefined) out.diff.alpha = readAlpha(flags.alpha, '--alpha', 'the command line', true);
  return out;
}

/** True when at least one check is configured (diff settings alone are not a gate). */
export function hasGateChecks(thresholds: GateThresholds): boolean {
  const top = Object.keys(TOP_KEYS).some((key) => (thresholds as unknown as Record<string, unknown>)[key] !== undefined);
  const scoped = [thresholds.modes, thresholds.fields, thresholds.tags, thresholds.latency].some((section) =>
    Object.values(section).some((set) => Object.values(set as Record<string, unknown>).some((v) => v !== undefined)),
  );
  return top || scoped;
}

function readSet<K extends string>(raw: unknown, field: string, keys: Record<K, Kind>, where: string, extraHint = ''): Partial<Record<K, number>> {
  const object = asObject(raw, field, where);
  const out: Partial<Record<K, number>> = {};
  for (const [key, value] of Object.entries(object)) {
    if (!Object.hasOwn(keys, key)) {
      throw invalid(where, `${field}.${key}`, `is not a threshold here (known: ${Object.keys(keys).join(', ')})${extraHint && key === 'min_similarity' ? `; ${extraHint}` : ''}`);
    }
    out[key as K] = readNumber(value, `${field}.${key}`, keys[key as K], where);
  }
  return out;
}

function readDiff(raw: unknown, where: string): DiffSettings {
  const settings = { ...DEFAULT_DIFF_SETTINGS };
  for (const [key, value] of Object.entries(optionalObject(raw, 'gate.diff', where))) {
    const field = `gate.diff.${key}`;
    switch (key) {
      case 'tolerance':
        settings.tolerance = readNumber(value, field, 'unit', where);
        break;
      case 'alpha':
        settings.alpha = readAlpha(value, field, where);
        break;
      case 'resamples':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 100 || value > 1_000_000) throw invalid(where, field, 'must be a whole number from 100 to 1000000 (default 10000)');
        settings.resamples = value;
        break;
      case 'seed':
        if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(where, field, 'must be a whole number');
        settings.seed = value;
        break;
      case 'fail_on_fields':
        if (typeof value !== 'boolean') throw invalid(where, field, 'must be true or false');
        settings.fail_on_fields = value;
        break;
      default:
        throw invalid(where, field, 'is not a diff setting (known: tolerance, alpha, resamples, seed, fail_on_fields)');
    }
  }
  return settings;
}

function readAlpha(value: unknown, field: string, where: string, flag = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value >= 1) throw invalid(where, field, `must be a significance level in (0, 1), e.g. 0.05${describeValue(value)}`, flag);
  return value;
}

function readNumber(value: unknown, field: string, kind: Kind, where: string, flag = false): number {
  const ok = typeof value === 'number' && Number.isFinite(value);
  if (kind === 'unit' && !(ok && value >= 0 && value <= 1)) throw invalid(where, field, `must be a number in [0, 1] (a rate: 0.9 = 90%)${describeValue(value)}`, flag);
  if (kind === 'ms' && !(ok && value > 0)) throw invalid(where, field, `must be a number of milliseconds > 0${describeValue(value)}`, flag);
  if (kind === 'count' && !(ok && Number.isInteger(value) && value >= 0)) throw invalid(where, field, `must be a whole number ≥ 0${describeValue(value)}`, flag);
  return value as number;
}

function describeValue(value: unknown): string {
  if (typeof value === 'number') return `, not ${value}`;
  if (typeof value === 'string') return ` (got the string ${JSON.stringify(value.slice(0, 40))}: write it without quotes)`;
  return `, not ${value === null ? 'null' : typeof value}`;
}

function asObject(raw: unknown, field: string, where: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(where, field, 'must be an object of settings');
  return raw as Record<string, unknown>;
}

function optionalObject(raw: unknown, field: string, where: string): Record<string, unknown> {
  return raw === undefined || raw === null ? {} : asObject(raw, field, where);
}

function invalid(where: string, field: string, problem: string, flag = false): UsageError {
  return new UsageError(flag ? `${field} ${problem}` : `${where}: ${field} ${problem}`, {
    code: flag ? 'USAGE' : 'CONFIG_INVALID',
    subject: field,
    hint: 'see docs/gate.md for the gate settings',
  });
}
