/**
 * `parseCheck`: one line of checks.jsonl → a Check, rejecting what olmOCR-bench's own loader rejects (unknown
 * type or field, empty text, max_diffs out of range …) with an error naming the field (docs/checks.md, "Format").
 */
import { UsageError } from '../errors.js';
import { normalizeCheckText, pyStrip, cpLength } from './text.js';
import { CHECK_TYPES, type Check, type CheckType, type FormatCheck } from './types.js';

const COMMON = ['pdf', 'page', 'id', 'type', 'max_diffs', 'checked', 'url', 'category'];
const FIELDS: Record<CheckType, readonly string[]> = {
  present: ['text', 'case_sensitive', 'first_n', 'last_n'],
  absent: ['text', 'case_sensitive', 'first_n', 'last_n'],
  order: ['before', 'after'],
  table: ['cell', 'up', 'down', 'left', 'right', 'top_heading', 'left_heading', 'ignore_markdown_tables'],
  math: ['math', 'ignore_dollar_delimited'],
  baseline: ['max_length', 'max_length_skips_image_alt_tags', 'max_repeats', 'check_disallowed_characters'],
  format: ['text', 'format', 'case_sensitive'],
  footnote: ['marker', 'appears_before_marker', 'appears_after_marker'],
};

/** Reads one field of a check definition, each reader failing with the field's name. */
class FieldReader {
  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly label: string,
  ) {}

  fail(field: string, problem: string): never {
    throw new UsageError(`${this.label}: field "${field}" ${problem}`, {
      code: 'INPUT_INVALID',
      subject: field,
      hint: 'Fix the check as olmOCR-bench defines it (docs/checks.md, "Format").',
    });
  }

  string(field: string, required = true): string {
    const value = this.raw[field];
    if (value === undefined || value === null) {
      if (required) this.fail(field, 'is required');
      return '';
    }
    if (typeof value !== 'string') this.fail(field, `must be a string, got ${JSON.stringify(value)}`);
    return value;
  }

  /** A text field, normalised; a required one must keep some non-space character. */
  text(field: string): string {
    const value = normalizeCheckText(this.string(field));
    if (pyStrip(value) === '') this.fail(field, 'cannot be empty');
    return value;
  }

  boolean(field: string, fallback: boolean): boolean {
    const value = this.raw[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') this.fail(field, `must be true or false, got ${JSON.stringify(value)}`);
    return value;
  }

  integer(field: string, min: number): number | null {
    const value = this.raw[field];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      this.fail(field, `must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
    }
    return value;
  }
}

type Base = Pick<Check, 'pdf' | 'page' | 'id' | 'max_diffs' | 'checked' | 'url' | 'category'>;

/** The fields a check of each type adds to the common ones. */
const READERS: Record<CheckType, (r: FieldReader, base: Base, type: CheckType) => Check> = {
  present: readPresence,
  absent: readPresence,
  order: (r, base) => {
    const before = r.text('before');
    const after = r.text('after');
    if (base.max_diffs > Math.floor(cpLength(before) / 2) || base.max_diffs > Math.floor(cpLength(after) / 2)) {
      r.fail('max_diffs', 'is more than half the length of "before" or "after"');
    }
    return { ...base, type: 'order', before, after };
  },
  table: (r, base) => {
    const optional = (field: string): string => normalizeCheckText(r.string(field, false));
    return {
      ...base,
      type: 'table',
      cell: normalizeCheckText(r.string('cell')),
      up: optional('up'),
      down: optional('down'),
      left: optional('left'),
      right: optional('right'),
      top_heading: optional('top_heading'),
      left_heading: optional('left_heading'),
      ignore_markdown_tables: r.boolean('ignore_markdown_tables', false),
    };
  },
  math: (r, base) => {
    const math = r.string('math');
    if (pyStrip(math) === '') r.fail('math', 'cannot be empty');
    return { ...base, type: 'math', math, ignore_dollar_delimited: r.boolean('ignore_dollar_delimited', false) };
  },
  baseline: (r, base) => ({
    ...base,
    type: 'baseline',
    max_length: r.integer('max_length', 0),
    max_length_skips_image_alt_tags: r.boolean('max_length_skips_image_alt_tags', false),
    max_repeats: r.integer('max_repeats', 0) ?? 30,
    check_disallowed_characters: r.boolean('check_disallowed_characters', true),
  }),
  format: (r, base) => {
    const text = r.text('text');
    const format = r.string('format') as FormatCheck['format'];
    if (format !== 'heading' && format !== 'bold' && format !== 'italic') {
      r.fail('format', `must be heading, bold or italic, got ${JSON.stringify(format)}`);
    }
    return { ...base, type: 'format', text, format, case_sensitive: r.boolean('case_sensitive', true) };
  },
  footnote: readFootnote,
};

function readPresence(r: FieldReader, base: Base, type: CheckType): Check {
  return {
    ...base,
    type: type as 'present' | 'absent',
    text: r.text('text'),
    case_sensitive: r.boolean('case_sensitive', true),
    first_n: r.integer('first_n', 0),
    last_n: r.integer('last_n', 0),
  };
}

function readFootnote(r: FieldReader, base: Base): Check {
  const marker = r.string('marker');
  if (marker === '') r.fail('marker', 'is required');
  if (marker.includes(' ')) r.fail('marker', 'cannot contain whitespace');
  const around = (field: string): string | null => {
    const value = r.string(field, false);
    if (value === '') return null;
    const normalized = normalizeCheckText(value);
    if (pyStrip(normalized) === '') r.fail(field, 'cannot be empty if given');
    return normalized;
  };
  return {
    ...base,
    type: 'footnote',
    marker,
    appears_before_marker: around('appears_before_marker'),
    appears_after_marker: around('appears_after_marker'),
  };
}

/**
 * A check from its JSON object (one line of checks.jsonl). Text fields come back normalised as the check
 * compares them. Throws a UsageError (code INPUT_INVALID, `subject` = the field) for an invalid definition.
 */
export function parseCheck(raw: unknown): Check {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UsageError(`check: expected a JSON object, got ${JSON.stringify(raw)}`, {
      code: 'INPUT_INVALID',
      hint: 'Each line of checks.jsonl is one JSON object (docs/checks.md).',
    });
  }
  const obj = raw as Record<string, unknown>;
  const label = typeof obj.id === 'string' && obj.id !== '' ? `check "${obj.id}"` : 'check';
  const r: FieldReader = new FieldReader(obj, label);
  const pdf = r.string('pdf');
  if (pdf === '') r.fail('pdf', 'cannot be empty');
  const id = r.string('id');
  if (id === '') r.fail('id', 'cannot be empty');
  const page = r.integer('page', 1);
  if (page === null) r.fail('page', 'is required (1-based)');
  const type = obj.type;
  if (typeof type !== 'string' || !(CHECK_TYPES as readonly string[]).includes(type)) {
    r.fail('type', `must be one of ${CHECK_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
  }
  const checkType = type as CheckType;
  for (const field of Object.keys(obj)) {
    if (!COMMON.includes(field) && !FIELDS[checkType].includes(field))
      r.fail(field, `is not a field of a ${checkType} check`);
  }
  const checked = obj.checked ?? null;
  if (checked !== null && checked !== 'verified' && checked !== 'rejected') {
    r.fail('checked', `must be "verified", "rejected" or null, got ${JSON.stringify(checked)}`);
  }
  const base: Base = {
    pdf,
    page,
    id,
    max_diffs: r.integer('max_diffs', 0) ?? 0,
    checked,
    url: r.string('url', false) || null,
    category: r.string('category', false) || checkType,
  };
  return READERS[checkType](r, base, checkType);
}
