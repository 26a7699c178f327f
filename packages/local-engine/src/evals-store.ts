/**
 * The /compare store: one JSON file per comparison under <dataDir>/evals/, so /evals pages survive a
 * restart. Ids are checked against a strict pattern before any path is built: nothing outside the store is
 * ever read.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HttpProblem } from './http-problem.js';

/** A stored comparison. */
export interface ComparisonRecord {
  id: string;
  filename: string;
  created_at: string;
  document_hash: string;
  pages: { content: string; width: number; height: number }[];
  /** The caller's markdown; null when none was sent. */
  baseline: string | null;
}

/** Letters, digits and dashes, starting with a letter or digit: no separators, no dots, no traversal. */
const ID_PATTERN = /^[a-z0-9][a-z0-9-]{7,99}$/;

export function isComparisonId(value: string): boolean {
  return ID_PATTERN.test(value);
}

function slug(filename: string): string {
  const base = filename
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return base.slice(0, 40) || 'document';
}

export interface EvalsStore {
  readonly dir: string;
  save(record: Omit<ComparisonRecord, 'id' | 'created_at'>): Promise<ComparisonRecord>;
  /** Throws HttpProblem 400 for a malformed id and 404 for an unknown one. */
  load(id: string): Promise<ComparisonRecord>;
  /** Every stored comparison, oldest first, without page contents. */
  list(): Promise<{ id: string; filename: string; created_at: string }[]>;
}

export function createEvalsStore(dataDir: string): EvalsStore {
  const dir = path.join(dataDir, 'evals');
  const fileOf = (id: string) => path.join(dir, `${id}.json`);
  return {
    dir,
    async save(record) {
      await mkdir(dir, { recursive: true });
      const id = `${slug(record.filename)}-${record.document_hash.slice(0, 10)}-${randomBytes(5).toString('hex')}`;
      const full: ComparisonRecord = { id, created_at: new Date().toISOString(), ...record };
      // Write then rename, so a reader never sees half a file.
      const temp = `${fileOf(id)}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(full));
      await rename(temp, fileOf(id));
      return full;
    },
    async load(id) {
      if (!isComparisonId(id))
        throw new HttpProblem(
          400,
          'invalid_filename',
          'filename must be a comparison id returned by /compare (letters, digits and dashes)',
        );
      try {
        return JSON.parse(await readStoredFile(fileOf(id))) as ComparisonRecord;
      } catch (error) {
        // ELOOP: a symbolic link in the store, refused like a missing file.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ELOOP')
          throw new HttpProblem(404, 'not_found', `No comparison "${id}" in this service's store`);
        throw error;
      }
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return [];
      }
      const records: { id: string; filename: string; created_at: string }[] = [];
      for (const name of names) {
        const id = name.replace(/\.json$/, '');
        if (!name.endsWith('.json') || !isComparisonId(id)) continue;
        try {
          const record = JSON.parse(await readStoredFile(fileOf(id))) as ComparisonRecord;
          records.push({ id: record.id, filename: record.filename, created_at: record.created_at });
        } catch {
          // A file being written or damaged: skip it rather than fail the page.
        }
      }
      return records.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    },
  };
}

/**
 * Reads a file of the store, refusing a symbolic link (O_NOFOLLOW → ELOOP): a link planted in the data
 * directory must not let /evals serve a file from elsewhere.
 */
async function readStoredFile(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
