/**
 * The report's "reading or extraction" section (docs/metrics/extraction.md "Reading or extraction"): per system
 * and mode, its misses split by whether the truth value was in its own markdown; and, for pipelines
 * (docs/systems.md, "pipeline"), a grid of reader × extractor with each pipeline's field F1 and cost per
 * document, the truth-text reader marked as the ceiling. Formats summary.json and run.json; computes only shares.
 */
import type { RunManifest, RunSummary } from '../run-dir/index.js';
import { formatCount, formatPercent, formatUsd } from '../render/index.js';
import type { ReadingView } from './view-types.js';

export function buildReadingView(summary: RunSummary, manifest: RunManifest): ReadingView {
  const rows = summary.system_names.flatMap((system) =>
    Object.entries(summary.systems[system]?.extraction ?? {}).flatMap(([mode, block]) => {
      const misses = block?.misses;
      if (!misses) return [];
      const total = misses.not_in_text + misses.in_text;
      const share = (n: number) => (total === 0 ? '—' : formatPercent(n / total, 0));
      return [
        {
          system,
          mode,
          misses: formatCount(total),
          not_in_text: formatCount(misses.not_in_text),
          not_in_text_share: share(misses.not_in_text),
          in_text: formatCount(misses.in_text),
          in_text_share: share(misses.in_text),
          // The bar's two parts, in percent of the misses.
          not_in_text_width: total === 0 ? 0 : Math.round((100 * misses.not_in_text) / total),
          in_text_width: total === 0 ? 0 : 100 - Math.round((100 * misses.not_in_text) / total),
          verdict:
            total === 0
              ? 'no misses'
              : misses.not_in_text > misses.in_text
                ? 'mostly reading: the values were not in its text'
                : misses.in_text > misses.not_in_text
                  ? 'mostly extraction: the values were in its text'
                  : 'as much reading as extraction',
        },
      ];
    }),
  );
  return { rows, grids: buildGrids(summary, manifest) };
}

/** Pipelines grouped by mode: readers as rows, extractors as columns. */
function buildGrids(summary: RunSummary, manifest: RunManifest): ReadingView['grids'] {
  const pipelines = (manifest.systems ?? []).flatMap((system) => {
    if (system.kind !== 'pipeline') return [];
    const read = system.options.read;
    const extract = system.options.extract as { kind?: unknown; options?: Record<string, unknown> } | undefined;
    return typeof read === 'string' && extract ? [{ name: system.name, read, extractor: extractorLabel(extract) }] : [];
  });
  if (pipelines.length === 0) return [];
  const readers = [...new Set(pipelines.map((p) => p.read))].sort((a, b) =>
    a === 'truth' ? -1 : b === 'truth' ? 1 : a.localeCompare(b),
  );
  const extractors = [...new Set(pipelines.map((p) => p.extractor))].sort();
  return manifest.options.modes.flatMap((mode) => {
    const cells = (reader: string) =>
      extractors.map((extractor) => {
        const pipeline = pipelines.find((p) => p.read === reader && p.extractor === extractor);
        const system = pipeline ? summary.systems[pipeline.name] : undefined;
        const block = system?.extraction[mode];
        return pipeline && block
          ? { system: pipeline.name, f1: formatPercent(block.f1), cost: formatUsd(system?.cost?.per_document_usd) }
          : null;
      });
    const rows = readers.map((reader) => ({ reader, ceiling: reader === 'truth', cells: cells(reader) }));
    if (rows.every((row) => row.cells.every((cell) => cell === null))) return [];
    return [{ mode, extractors, rows }];
  });
}

/** An extractor as the grid's column names it: its kind and what tells two of a kind apart. */
function extractorLabel(extract: { kind?: unknown; options?: Record<string, unknown> }): string {
  const options = extract.options ?? {};
  if (extract.kind === 'openai' && typeof options.model === 'string') return `openai ${options.model}`;
  if (extract.kind === 'command' && Array.isArray(options.command)) return `command ${options.command.join(' ')}`;
  return String(extract.kind);
}
