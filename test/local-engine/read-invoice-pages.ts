/**
 * Reads the German, French and Dutch pages of invoices-de-fr-nl.ts through the local engine and scores each field as
 * docbench scores a run (normalised pass, the dataset's comparators, EU dates), under the neutral schema and under
 * the schema in the page's own language. Shared by the test and `npm run bench -- --only local-languages`.
 */
import { buildExtractResult, type Engine } from '@docbench/local-engine/in-process';
import { scoreExtraction } from '../../src/score/index.js';
import type { Json, JsonSchema } from '../../src/types.js';
import {
  INVOICE_PAGES,
  INVOICES_COMPARATORS,
  INVOICES_SCHEMA,
  type InvoicePage,
  type InvoiceTruth,
  NATIVE_NAMES,
  nativeSchema,
  nativeTruth,
  renderInvoicePage,
} from './invoices-de-fr-nl.js';

export type FieldName = keyof InvoiceTruth;
export const FIELDS = Object.keys(INVOICES_SCHEMA.properties) as FieldName[];
/** The schema a page is read with: neutral English names, or the names of the page's language. */
export type SchemaWording = 'neutral' | 'native';

/** One field of one page under one schema: what the engine read and whether it matches the truth. */
export interface FieldReading {
  page: InvoicePage;
  wording: SchemaWording;
  field: FieldName;
  read: Json | undefined;
  matches: boolean;
}

/** Each page read once, its fields extracted under both schemas (slow mode, as a run asks). */
export async function readInvoicePages(engine: Engine): Promise<FieldReading[]> {
  const readings: FieldReading[] = [];
  for (const page of INVOICE_PAGES) {
    const { pages } = await engine.analyse({
      bytes: await renderInvoicePage(page),
      format: 'pdf',
      filename: `${page.id}.pdf`,
    });
    for (const wording of ['neutral', 'native'] as const) {
      const names = (field: FieldName) => (wording === 'native' ? NATIVE_NAMES[page.language][field].name : field);
      const schema = (wording === 'native' ? nativeSchema(page.language) : INVOICES_SCHEMA) as JsonSchema;
      const truth = (wording === 'native' ? nativeTruth(page.language, page.truth) : page.truth) as Json;
      const comparators = Object.fromEntries(FIELDS.map((field) => [names(field), INVOICES_COMPARATORS[field]]));
      const response = buildExtractResult(pages, schema, false, 'EU').response as string;
      const predicted = JSON.parse(response) as Record<string, Json>;
      const score = scoreExtraction(truth, predicted, { schema, comparators, locale: 'EU' });
      for (const field of FIELDS) {
        const result = score.fields.find((f) => f.collapsedPath === names(field));
        readings.push({ page, wording, field, read: predicted[names(field)], matches: result?.verdict === 'tp' });
      }
    }
  }
  return readings;
}
