/**
 * Writes an imported dataset into a staging folder beside its destination and moves it into place only once
 * the import and its validation succeed, so a failed import leaves nothing half-written.
 */
import { copyFile, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { toJson } from '../../fs-utils.js';
import {
  BASELINE_DIR,
  DOCUMENTS_DIR,
  MANIFEST_FILE,
  README_FILE,
  SAFE_ID,
  SCHEMA_FILE,
  SUPPORTED_EXTENSIONS,
  TRUTH_DIR,
} from '../format.js';
import type { DatasetManifest } from '../manifest.js';

/** The stored system that reads the dataset's baseline/ (docs/systems.md, "stored"). */
export const INCUMBENT = 'incumbent';

export interface DatasetWriter {
  /** The staging folder: every path below is relative to it until `commit`. */
  readonly root: string;
  /** Copies a document in as `documents/<id><extension>`; returns its path relative to the dataset. */
  addDocument(id: string, sourceFile: string): Promise<string>;
  writeTruthJson(id: string, value: unknown): Promise<void>;
  writeTruthMarkdown(id: string, markdown: string): Promise<void>;
  writeTruthRegions(id: string, pages: unknown): Promise<void>;
  /** The ids of the documents added so far, in the order they were added. */
  documentIds(): string[];
  /**
   * A stored system's output (`outputs/<system>/<id><suffix>`, or `baseline/` for the system `incumbent`, as the
   * stored kind reads them: docs/systems.md), e.g. suffix `.md` or `.json`.
   */
  writeStoredOutput(system: string, id: string, suffix: string, content: string): Promise<void>;
  writeSchema(schema: unknown): Promise<void>;
  writeManifest(manifest: DatasetManifest): Promise<void>;
  writeReadme(markdown: string): Promise<void>;
  /** Any other file of the dataset (e.g. `checks.jsonl`), relative to its root. */
  writeText(relativePath: string, content: string): Promise<void>;
}

export interface StagedDataset {
  writer: DatasetWriter;
  /** Moves the staged dataset to its destination (replacing what `force` allowed to replace). */
  commit(): Promise<void>;
  /** Removes the staging folder; the destination is untouched. */
  abandon(): Promise<void>;
}

/** Ids become file names and result keys: the source's name with anything unsafe replaced. */
export function checkDocumentId(id: string, source: string): string {
  if (!SAFE_ID.test(id)) {
    throw new UsageError(`${source}: "${id}" cannot be a document id (letters, digits, ".", "_" and "-" only)`, {
      hint: 'rename the file in the source, or report the layout so the importer can map it',
    });
  }
  return id;
}

async function isNonEmptyFolder(folder: string): Promise<boolean> {
  try {
    return (await readdir(folder)).length > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new UsageError(`--out ${folder}: is a file, not a folder`, { hint: 'name a new or empty folder' });
    }
    throw error;
  }
}

/** Refuses a non-empty destination unless `force`, then opens a staging folder beside it. */
export async function stageDataset(out: string, options: { force: boolean }): Promise<StagedDataset> {
  const destination = path.resolve(out);
  if (!options.force && (await isNonEmptyFolder(destination))) {
    throw new UsageError(`--out ${out}: the folder is not empty`, {
      hint: 'name a new folder, or add --force to replace what is there',
    });
  }
  const root = `${destination}.importing-${process.pid}`;
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });

  const write = async (relativePath: string, content: string): Promise<void> => {
    const file = path.join(root, relativePath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  };
  const ids: string[] = [];
  const writer: DatasetWriter = {
    root,
    documentIds: () => [...ids],
    async addDocument(id, sourceFile) {
      const extension = path.extname(sourceFile).toLowerCase();
      if (!SUPPORTED_EXTENSIONS.includes(extension)) {
        throw new UsageError(`${sourceFile}: "${extension}" is not a document format docbench reads`, {
          hint: `convert it to one of ${SUPPORTED_EXTENSIONS.join(', ')}`,
        });
      }
      const relative = `${DOCUMENTS_DIR}/${id}${extension}`;
      await mkdir(path.join(root, DOCUMENTS_DIR), { recursive: true });
      await copyFile(sourceFile, path.join(root, relative));
      ids.push(id);
      return relative;
    },
    writeTruthJson: (id, value) => write(`${TRUTH_DIR}/${id}.json`, toJson(value)),
    writeTruthMarkdown: (id, markdown) => write(`${TRUTH_DIR}/${id}.md`, markdown),
    writeTruthRegions: (id, pages) => write(`${TRUTH_DIR}/${id}.regions.json`, toJson(pages)),
    writeStoredOutput: (system, id, suffix, content) =>
      write(`${system === INCUMBENT ? BASELINE_DIR : `outputs/${system}`}/${id}${suffix}`, content),
    writeSchema: (schema) => write(SCHEMA_FILE, toJson(schema)),
    writeManifest: (manifest) => write(MANIFEST_FILE, toJson(manifest)),
    writeReadme: (markdown) => write(README_FILE, markdown),
    writeText: (relativePath, content) => write(relativePath, content),
  };
  return {
    writer,
    async commit() {
      // The old dataset is moved aside first and removed last, so that a failed rename keeps it.
      const previous = `${destination}.replaced-${process.pid}`;
      const hadPrevious = await isNonEmptyFolder(destination);
      if (hadPrevious) await rename(destination, previous);
      else await rm(destination, { recursive: true, force: true });
      await rename(root, destination);
      if (hadPrevious) await rm(previous, { recursive: true, force: true });
    },
    abandon: () => rm(root, { recursive: true, force: true }),
  };
}
