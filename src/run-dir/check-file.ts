/**
 * Reading a run directory's JSON files without trusting them: parse, check the shape against a small JSON
 * Schema (ajv), and on any mismatch throw an INPUT_INVALID UsageError (exit 2) naming the file, the path
 * inside it and what was expected. A damaged or foreign file must never surface as a TypeError later.
 */
import { readFile } from 'node:fs/promises';
import type { ErrorObject } from 'ajv';
import { UsageError } from '../errors.js';
import { defineSchemaCheck, type SchemaCheck } from '../schema-check.js';

/** A shape check of a run file; the type parameter is what a passing value is read as. */
export type FileCheck<T> = SchemaCheck<T>;

/**
 * The check of a run file against `schema`, named `name` (its precompiled file, see src/schema-check.ts).
 * Loaded or compiled when a file is first checked: importing a reader (the library's main entry imports them
 * all) neither loads ajv nor compiles a schema (CONTRIBUTING.md, Habits). verbose: errors carry the offending value, so a
 * message can say what was found.
 */
export function defineFileCheck<T>(name: string, schema: object): FileCheck<T> {
  return defineSchemaCheck<T>(name, schema, { allErrors: false, verbose: true });
}

/** What a file is, for messages: `summary.json` and how to re-create it. */
export interface FileRole {
  /** The file's absolute path (named in every error). */
  file: string;
  /** What to do about a damaged file, one sentence. */
  hint: string;
}

/** `file` or, for a JSON Lines file, `file:line`. */
function locate(role: FileRole, line?: number): string {
  return line === undefined ? role.file : `${role.file}:${line}`;
}

/** The error for a damaged file: `<file>[:line] is damaged: at <JSON path>: expected …`. */
export function damagedFile(role: FileRole, where: string, expected: string, line?: number): UsageError {
  return new UsageError(`${locate(role, line)} is damaged: at ${where}: ${expected}`, {
    code: 'INPUT_INVALID',
    subject: role.file,
    hint: role.hint,
  });
}

/** Parses JSON text, naming the file (and line, for JSON Lines) when it is not JSON. */
export function parseJsonText(text: string, role: FileRole, line?: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${locate(role, line)} is not valid JSON (${(error as Error).message})`, {
      code: 'INPUT_INVALID',
      subject: role.file,
      hint: role.hint,
      cause: error,
    });
  }
}

/** Checks `value` (the whole file, or one line of a JSON Lines file) against `check`, returning it typed. */
export function checkShape<T>(value: unknown, fileCheck: FileCheck<T>, role: FileRole, line?: number): T {
  const check = fileCheck();
  if (check(value)) return value;
  const error = check.errors?.[0];
  if (!error) throw damagedFile(role, '$', 'an unreadable value', line);
  const { where, expected } = describeAjvError(error);
  throw damagedFile(role, `$${where}`, expected, line);
}

/** Reads and parses a JSON file; `found: false` when it does not exist. */
export async function readJsonFile(role: FileRole): Promise<{ found: false } | { found: true; value: unknown }> {
  let text: string;
  try {
    text = await readFile(role.file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { found: false };
    throw new UsageError(`cannot read ${role.file}: ${(error as Error).message}`, {
      code: 'INPUT_INVALID',
      subject: role.file,
      hint: 'check its permissions',
      cause: error,
    });
  }
  return { found: true, value: parseJsonText(text, role) };
}

/** `/extraction/fast/f1` → `.extraction.fast.f1`; indices as `[3]`; odd keys quoted. */
function toJsonPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) =>
      /^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_][\w-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`,
    )
    .join('');
}

/** Where the first mismatch is and what was expected there, in words. */
function describeAjvError(error: ErrorObject): { where: string; expected: string } {
  const where = toJsonPath(error.instancePath);
  const found = describeValue(error.data);
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      return { where: `${where}${toJsonPath(`/${missing}`)}`, expected: 'expected a value, found none (required)' };
    }
    case 'type':
      return {
        where,
        expected: `expected ${[(error.params as { type: string | string[] }).type].flat().join(' or ')}, found ${found}`,
      };
    case 'enum':
      return {
        where,
        expected: `expected one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}, found ${found}`,
      };
    case 'const':
      return {
        where,
        expected: `expected ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}, found ${found}`,
      };
    default:
      return { where, expected: `${error.message ?? error.keyword}, found ${found}` };
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
}
