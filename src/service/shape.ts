/**
 * Boundary checks for service responses: each reader says which field was wrong and how, so a record of a
 * malformed response is actionable ("field `pages[2].content` is a number, expected a string").
 */
import { ServiceError } from './errors.js';
import type { Endpoint } from '../types.js';
import type { Redactor } from './redact.js';

export type Obj = Record<string, unknown>;

export interface ShapeReaderOptions {
  /** HTTP status of the response being read, carried into the error. */
  status?: number;
  /** Removes secrets from quoted values: a service may echo the key in any field. @default identity */
  redact?: Redactor;
}

export class ShapeReader {
  private readonly redact: Redactor;
  private readonly status: number | undefined;

  /**
   * `bodyExcerpt` may be a function: it is then computed only when a field is wrong, so a large valid body
   * is not serialised again just in case.
   */
  constructor(
    readonly endpoint: Endpoint,
    private readonly bodyExcerpt: string | (() => string),
    options: ShapeReaderOptions = {},
  ) {
    this.redact = options.redact ?? ((text) => text);
    this.status = options.status;
  }

  fail(field: string, problem: string): never {
    throw new ServiceError('SERVICE_RESPONSE_INVALID', this.redact(`response field \`${field}\` ${problem}`), {
      endpoint: this.endpoint,
      ...(this.status === undefined ? {} : { status: this.status }),
      bodyExcerpt: typeof this.bodyExcerpt === 'function' ? this.bodyExcerpt() : this.bodyExcerpt,
      retryable: false,
      hint: 'the service answered with an unexpected shape; check that --base-url points at the right service and version',
    });
  }

  /** `describe` with secrets removed before the value is cut short (a cut key would escape redaction). */
  describe(value: unknown): string {
    return describe(value, this.redact);
  }

  object(value: unknown, field: string): Obj {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(field, `is ${this.describe(value)}, expected an object`);
    return value as Obj;
  }

  optionalObject(value: unknown, field: string): Obj | undefined {
    return value === undefined || value === null ? undefined : this.object(value, field);
  }

  array(value: unknown, field: string): unknown[] {
    if (!Array.isArray(value)) this.fail(field, `is ${this.describe(value)}, expected an array`);
    return value;
  }

  optionalArray(value: unknown, field: string): unknown[] | undefined {
    return value === undefined || value === null ? undefined : this.array(value, field);
  }

  string(value: unknown, field: string): string {
    if (typeof value !== 'string') this.fail(field, `is ${this.describe(value)}, expected a string`);
    return value;
  }

  optionalString(value: unknown, field: string): string | null {
    return value === undefined || value === null ? null : this.string(value, field);
  }

  /** A finite number; numeric strings are accepted since several providers quote their numbers. */
  number(value: unknown, field: string): number {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n))
      this.fail(field, `is ${this.describe(value)}, expected a finite number`);
    return n;
  }

  optionalNumber(value: unknown, field: string): number | null {
    return value === undefined || value === null ? null : this.number(value, field);
  }
}

/** A short phrase for a value in an error message; strings are quoted, cut to 40 characters after `redact`. */
export function describe(value: unknown, redact: Redactor = (text) => text): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const text = redact(value);
    return `a string (${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)})`;
  }
  if (typeof value === 'number') return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
