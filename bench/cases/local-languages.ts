/**
 * The local engine on invoices and receipts in German, French and Dutch (test/local-engine/invoices-de-fr-nl.ts,
 * docs/multilingual-pages.md): twelve made-up pages printed with their own captions, dates and amounts, read with
 * a schema of neutral English names and with the same schema in each page's language. Prints the share of pages
 * whose issuer, number, date and total the engine reads (docbench's normalised comparison), per field and per
 * language, under each schema. Every page is read from its text layer: no OCR is involved.
 */
import { createEngine } from '@docbench/local-engine/in-process';
import { silentLogger } from '../../src/logger.js';
import { LANGUAGES } from '../../test/local-engine/invoices-de-fr-nl.js';
import { FIELDS, type FieldReading, readInvoicePages } from '../../test/local-engine/read-invoice-pages.js';
import type { BenchCase, BenchFigure } from '../harness.js';

function share(readings: readonly FieldReading[]): { value: number; note: string } {
  const read = readings.filter((r) => r.matches).length;
  return { value: read / readings.length, note: `${read} of ${readings.length} read` };
}

export const cases: BenchCase[] = [
  {
    id: 'local-languages',
    title: 'Local engine on German, French and Dutch invoices and receipts: issuer, number, date and total read',
    async run(): Promise<BenchFigure[]> {
      const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 1, logger: silentLogger });
      let readings: FieldReading[];
      try {
        readings = await readInvoicePages(engine);
      } finally {
        await engine.close();
      }
      const figures: BenchFigure[] = [];
      for (const wording of ['neutral', 'native'] as const) {
        const under = readings.filter((r) => r.wording === wording);
        const label = wording === 'neutral' ? 'neutral English schema' : "schema in the page's language";
        figures.push({ name: `${label}: all four fields`, unit: 'ratio', ...share(under) });
        for (const field of FIELDS)
          figures.push({ name: `${label}: ${field}`, unit: 'ratio', ...share(under.filter((r) => r.field === field)) });
        for (const language of LANGUAGES)
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
