/**
 * Reading a public dataset's files: JSON and text read with errors naming the file, and a field reader whose
 * every complaint names the file and the field (docs/datasets-import.md: a malformed file stops the import
 * with exit 2 and nothing written).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';

/** The hint every malformed source file gets. */
function layoutHint(format: string): string {
  return `the file departs from the published ${format} layout (docs/datasets-import.md): fix or remove it`;
}

/** A source file's fields, read with messages naming the file and the field's path in it. */
export class SourceFile {
  constructor(
    readonly file: string,
    readonly format: string,
  ) {}

  fail(at: string, problem: string): never {
    throw new UsageError(`${this.file}: ${at}: ${problem}`, { subject: this.file, hint: layoutHint(this.format) });
  }

  object(value: unknown, at: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(at, 'must be an object');
    return value as Record<string, unknown>;
  }

  array(value: unknown, at: string): unknown[] {
    if (!Array.isArray(value)) this.fail(at, 'must be an array');
    return value;
  }

  string(value: unknown, at: string): string {
    if (typeof value !== 'string') this.fail(at, 'must be a string');
    return value;
  }

  number(value: unknown, at: string): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(at, 'must be a number');
    return value;
  }

  /** `[x0, y0, x1, y1]` with x1 ≥ x0 and y1 ≥ y0. */
  box(value: unknown, at: string): [number, number, number, number] {
    const numbers = this.array(value, at);
    if (numbers.length !== 4) this.fail(at, 'must be [x0, y0, x1, y1]');
    const [x0, y0, x1, y1] = numbers.map((n, i) => this.number(n, `${at}[${i}]`)) as [number, number, number, number];
    if (x1 < x0 || y1 < y0) this.fail(at, 'must be [x0, y0, x1, y1] with x1 ≥ x0 and y1 ≥ y0');
    return [x0, y0, x1, y1];
  }
}

export async function readSourceText(file: string, format: string): Promise<string> {
  const bytes = await readFile(file);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new UsageError(`${file}: not valid UTF-8 text`, { subject: file, hint: layoutHint(format) });
  }
}

export async function readSourceJson(file: string, format: string): Promise<unknown> {
  const text = await readSourceText(file, format);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`, {
      subject: file,
      hint: layoutHint(format),
    });
  }
}

export async function isFolder(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isDirectory();
  } catch {
    return false;
  }
}

/** The files of `folder` (not its subfolders) whose extension is one of `extensions`, by id (name without extension). */
export async function filesById(folder: string, extensions: readonly string[]): Promise<Map<string, string>> {
  const byId = new Map<string, string>();
  if (!(await isFolder(folder))) return byId;
  const names = (await readdir(folder)).filter((name) => !name.startsWith('.')).sort();
  for (const name of names) {
    const extension = path.extname(name).toLowerCase();
    if (!extensions.includes(extension)) continue;
    const id = name.slice(0, -extension.length);
    // A second file of the same id (a.jpg beside a.png) keeps the first, in name order.
    if (!byId.has(id)) byId.set(id, path.join(folder, name));
  }
  return byId;
}

/**
 * The folders to read: the source's split folders (`folders`: split name → folder name, e.g. `train` →
 * `training_data`) when it has them, only `split`'s when given; else the source itself, tagged with `split`.
 */
export async function splitFolders(
  source: string,
  split: string | undefined,
  folders: Readonly<Record<string, string>>,
): Promise<{ folder: string; split?: string }[]> {
  const present: string[] = [];
  for (const [name, folder] of Object.entries(folders))
    if (await isFolder(path.join(source, folder))) present.push(name);
  if (present.length === 0) return [split === undefined ? { folder: source } : { folder: source, split }];
  if (split === undefined) return present.map((name) => ({ folder: path.join(source, folders[name]!), split: name }));
  if (!present.includes(split)) {
    throw new UsageError(`--split ${split}: ${source} has no ${folders[split] ?? split}/ folder`, {
      hint: `it has ${present.map((name) => folders[name]).join(', ')}`,
    });
  }
  return [{ folder: path.join(source, folders[split]!), split }];
}
