/**
 * `--predictions <dir> --as <name>`: a system's outputs already on disk, one file per document, copied in as the
 * stored system `<name>` (docs/datasets-import.md, "Predictions from files"; docs/systems.md, "stored"), so that
 * `docbench run` scores them beside any live system.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import type { DatasetWriter } from './dataset-writer.js';
import { isFolder, readSourceJson, readSourceText } from './source-file.js';

/** A system's name becomes part of file names and CSV columns (docs/systems.md, "Names"). */
const SYSTEM_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

/** The file endings a stored system reads, longest first so that `.regions.json` is not taken for `.json`. */
const SUFFIXES = ['.regions.json', '.meta.json', '.json', '.md'] as const;

export interface PredictionsSummary {
  system: string;
  /** Files copied in. */
  files: number;
  /** Files naming no imported document (left out by --limit, skipped, or of another source). */
  unmatched: number;
}

function splitName(name: string): { id: string; suffix: (typeof SUFFIXES)[number] } | null {
  const suffix = SUFFIXES.find((candidate) => name.endsWith(candidate) && name.length > candidate.length);
  return suffix ? { id: name.slice(0, -suffix.length), suffix } : null;
}

/** `--as <name>`: refused unless it can name a stored system. */
export function checkSystemName(system: string): void {
  if (!SYSTEM_NAME.test(system)) {
    throw new UsageError(`--as ${system}: not a system name`, {
      hint: 'a lower-case letter then up to 39 of a-z, 0-9, "_" and "-"',
    });
  }
}

export async function importPredictions(
  folder: string,
  system: string,
  writer: DatasetWriter,
  format: string,
): Promise<PredictionsSummary> {
  checkSystemName(system);
  if (!(await isFolder(folder))) {
    throw new UsageError(`--predictions ${folder}: no such folder`, {
      hint: 'name the folder of one file per document',
    });
  }
  const ids = new Set(writer.documentIds());
  let files = 0;
  let unmatched = 0;
  for (const name of (await readdir(folder)).filter((entry) => !entry.startsWith('.')).sort()) {
    const parts = splitName(name);
    if (parts === null || !ids.has(parts.id)) {
      unmatched += 1;
      continue;
    }
    const file = path.join(folder, name);
    if (parts.suffix === '.md') {
      await writer.writeStoredOutput(system, parts.id, parts.suffix, await readSourceText(file, format));
    } else {
      const value = await readSourceJson(file, format);
      // The stored kind reads an extraction as an object; a mistake is cheaper to name now than in every run.
      if (parts.suffix === '.json' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
        throw new UsageError(`${file}: must hold a JSON object (the extraction of document ${parts.id})`, {
          subject: file,
          hint: 'write one extraction object per document, or leave the file out',
        });
      }
      await writer.writeStoredOutput(system, parts.id, parts.suffix, `${JSON.stringify(value, null, 2)}\n`);
    }
    files += 1;
  }
  if (files === 0) {
    throw new UsageError(`--predictions ${folder}: no file names an imported document`, {
      hint: 'name each file <id>.json (extraction) or <id>.md (markdown), <id> the document id',
    });
  }
  return { system, files, unmatched };
}
