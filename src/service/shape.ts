/**
 * Boundary checks for service responses: each reader says which field was wrong and how, so a record of a
 * malformed response is actionable ("field `pages[2].content` is a number, expected a string").
 */
import { ServiceError } from './errors.js';
import type { Endpoint } from '../types.js';

export type Obj = Record<string, unknown>;

export class ShapeReader {
  constructor(
    readonly endpoint: Endpoint,
    private readonly bodyExcerpt: string,
  ) {}

  fail(field: string, problem: string): never {
    throw new ServiceError('SERVICE_RESPONSE_INVALID', `response field \`${field}\` ${problem}`, {
      endpoint: this.endpoint,
      bodyExcerpt: this.bodyExcerpt,
      retryable: false,
      hint: 'the service answered with an unexpected shape; check that --base-url points at the right service and version',
    });
  }

  object(value: unknown, field: string): Obj {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, `is ${describe(value)}, expected an object`);
    return value as Obj;
  }

  optionalObject(value: unknown, field: string): Obj | undefined {
    return value === undefined || value === null ? undefined : this.object(value, field);
  }

  array(value: unknown, field: string): unknown[] {
    if (!Array.isArray(value)) this.fail(field, `is ${describe(value)}, expected an array`);
    return value;
  }

  optionalArray(value: unknown, field: string): unknown[] | undefined {
    return value === undefined || value === null ? undefined : this.array(value, field);
  }

  string(value: unknown, field: string): string {
    if (typeof value !== 'string') this.fail(field, `is ${describe(value)}, expected a string`);
    return value;
  }

  optionalString(value: unknown, field: string): string | null {
    return value === undefined || value === null ? null : this.string(value, field);
  }

  /** A finite number; numeric strings are accepted since several providers quote their numbers. */
  number(value: unknown, field: string): number {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) this.fail(field, `is ${describe(value)}, expected a finite number`);
    return n;
  }

  optionalNumber(value: unknown, field: string): number | null {
    return value === undefined || value === null ? null : this.number(value, field);
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === 'number') return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
