/**
 * The local engine on HELD-OUT invoices and receipts in German, French, Dutch, Spanish and Italian
 * (test/local-engine/invoices-held-out.ts): twenty made-up pages written without reading the engine's lexicon or
 * rules, read with a schema of neutral English names and with the same schema in each page's language. Prints the
 * share of issuer, number, date and total the engine reads (docbench's normalised comparison), for all fields, per
 * field and per language, under each wording. Its misses are not printed, so that no rule is written from them.
 * Every page is read from its text layer: no OCR is involved. No targets: the figure is measured, not tuned for.
 */
import { createEngine } from '@docbench/local-engine/in-process';
import { silentLogger } from '../../src/logger.js';
import { HELD_OUT_FIELDS, HELD_OUT_LANGUAGES } from '../../test/local-engine/invoices-held-out.js';
import { type HeldOutReading, readHeldOutPages } from '../../test/local-engine/read-held-out-pages.js';
import type { BenchCase, BenchFigure } from '../harness.js';

function share(readings: readonly HeldOutReading[]): { value: number; note: string } {
  const read = readings.filter((r) => r.read).length;
  return { value: readings.length > 0 ? read / readings.length : 0, note: `${read} of ${readings.length} read` };
}

export const cases: BenchCase[] = [
  {
    id: 'local-languages-held-out',
    title: 'Local engine on held-out de/fr/nl/es/it invoices and receipts: issuer, number, date and total read',
    async run(): Promise<BenchFigure[]> {
      const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 1, logger: silentLogger });
      let readings: HeldOutReading[];
      try {
        readings = await readHeldOutPages(engine);
      } finally {
        await engine.close();
      }
      const figures: BenchFigure[] = [];
      for (const wording of ['neutral', 'native'] as const) {
        const under = readings.filter((r) => r.wording === wording);
        const label =
          wording === 'neutral' ? 'held-out, neutral English schema' : "held-out, schema in page's language";
        figures.push({ name: `${label}: all four fields`, unit: 'ratio', ...share(under) });
        for (const field of HELD_OUT_FIELDS)
          figures.push({ name: `${label}: ${field}`, unit: 'ratio', ...share(under.filter((r) => r.field === field)) });
        for (const language of HELD_OUT_LANGUAGES)
          figures.push({
            name: `${label}: ${language} pages`,
            unit: 'ratio',
            ...share(under.filter((r) => r.page.language === language)),
          });
      }
      return figures;
    },
  },
];
