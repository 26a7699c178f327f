/**
 * The figures of a set of invoices and receipts in other languages (docs/multilingual-pages.md): the share of
 * fields the local engine reads, over all four, per field and per language, under each schema wording.
 */
import { createEngine, type Engine } from '@docbench/local-engine/in-process';
import { silentLogger } from '../../src/logger.js';
import { FIELDS, type FieldReading, type SchemaWording } from '../../test/local-engine/read-invoice-pages.js';
import type { BenchFigure } from '../harness.js';

function share(readings: readonly FieldReading[]): { value: number; note: string } {
  const read = readings.filter((r) => r.matches).length;
  return { value: readings.length > 0 ? read / readings.length : 0, note: `${read} of ${readings.length} read` };
}

/** Reads the set with a fresh engine (PP-OCR where it loads) and returns its figures, named `<label>: …`. */
export async function languageFigures(
  read: (engine: Engine) => Promise<FieldReading[]>,
  languages: readonly string[],
  labels: Record<SchemaWording, string>,
): Promise<BenchFigure[]> {
  const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 1, logger: silentLogger });
  let readings: FieldReading[];
  try {
    readings = await read(engine);
  } finally {
    await engine.close();
  }
  const figures: BenchFigure[] = [];
  for (const wording of ['neutral', 'native'] as const) {
    const under = readings.filter((r) => r.wording === wording);
    const label = labels[wording];
    figures.push({ name: `${label}: all four fields`, unit: 'ratio', ...share(under) });
    for (const field of FIELDS)
      figures.push({ name: `${label}: ${field}`, unit: 'ratio', ...share(under.filter((r) => r.field === field)) });
    for (const language of languages)
      figures.push({
        name: `${label}: ${language} pages`,
        unit: 'ratio',
        ...share(under.filter((r) => r.page.language === language)),
      });
  }
  return figures;
}
