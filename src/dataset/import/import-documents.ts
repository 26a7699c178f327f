/**
 * What every format's import shares once it has listed the source's documents: documents whose annotation
 * (or page file) is missing are skipped and counted, `--limit` draws from the rest, each document is copied
 * in and its truth written by the format, then dataset.json lists the documents with their tags and the
 * README names the source, its licence and the mapping (docs/datasets-import.md).
 */
import type { DatasetManifest, ManifestDocument } from '../manifest.js';
import { checkDocumentId, type DatasetWriter } from './dataset-writer.js';
import { drawDocuments } from './draw.js';
import type { ImportOptions, ImportSummary } from './formats.js';

export interface SourceDocument {
  /** The source's file name without extension. */
  id: string;
  /** The page file (image or PDF); null when the source lacks it. */
  file: string | null;
  /** Why the document cannot be imported (no annotation …); null when it can. */
  missing: string | null;
  tags: Record<string, string>;
}

export interface DatasetDescription {
  name: string;
  /** One line for dataset.json. */
  description: string;
  /** The README: what the source is, where it comes from, its licence, how it was mapped. */
  readme: (summary: ImportSummary) => string;
}

/**
 * Imports `candidates` in the source's order: `write` writes one document's truth (the document itself is
 * already copied) and returns what the format needs afterwards (e.g. the truth, for the schema).
 */
export async function importDocuments<C extends SourceDocument, T>(
  candidates: readonly C[],
  writer: DatasetWriter,
  options: ImportOptions,
  write: (candidate: C & { file: string }) => Promise<T>,
): Promise<{ summary: ImportSummary; written: T[]; manifest: ManifestDocument[] }> {
  const skipped: ImportSummary['skipped'] = [];
  const importable: (C & { file: string })[] = [];
  for (const candidate of candidates) {
    const why = candidate.missing ?? (candidate.file === null ? 'no page image or PDF' : null);
    if (why !== null) skipped.push({ id: candidate.id, reason: why });
    else importable.push(candidate as C & { file: string });
  }
  const drawn = drawDocuments(importable, options.limit, options.seed);
  const written: T[] = [];
  const manifest: ManifestDocument[] = [];
  for (const candidate of drawn) {
    const id = checkDocumentId(candidate.id, candidate.file);
    const file = await writer.addDocument(id, candidate.file);
    written.push(await write(candidate));
    manifest.push({ id, file, tags: candidate.tags });
  }
  return { summary: { documents: drawn.length, skipped }, written, manifest };
}

/** dataset.json and README.md of an imported dataset. */
export async function writeDatasetFiles(
  writer: DatasetWriter,
  description: DatasetDescription,
  documents: ManifestDocument[],
  summary: ImportSummary,
): Promise<void> {
  const manifest: DatasetManifest = { name: description.name, description: description.description, documents };
  await writer.writeManifest(manifest);
  await writer.writeReadme(description.readme(summary));
}

/** The README's closing part every format shares: what was imported and skipped. */
export function importedCounts(summary: ImportSummary, options: ImportOptions): string {
  const drawn = options.limit === undefined ? '' : ` (at most ${options.limit}, drawn with seed ${options.seed})`;
  const lines = [`## This import`, '', `- ${summary.documents} documents imported${drawn}.`];
  if (summary.skipped.length > 0) {
    lines.push(`- ${summary.skipped.length} skipped:`);
    for (const { id, reason } of summary.skipped) lines.push(`  - \`${id}\`: ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}
