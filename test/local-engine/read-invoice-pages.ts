/**
 * Reads pages of invoices and receipts in other languages through the local engine and scores each field as
 * docbench scores a run (normalised pass, the dataset's comparators, EU dates), under the neutral schema and under
 * the schema in the page's own language: the German, French and Dutch pages of invoices-de-fr-nl.ts and the
 * held-out pages of invoices-held-out.ts. Shared by their tests and `npm run bench -- --only local-languages` and
 * `local-languages-held-out`.
 */
import { buildExtractResult, type Engine } from '@docbench/local-engine/in-process';
import { scoreExtraction } from '../../src/score/index.js';
import type { Json, JsonSchema } from '../../src/types.js';
import {
  INVOICE_PAGES,
  INVOICES_COMPARATORS,
  INVOICES_SCHEMA,
  type InvoiceTruth,
  NATIVE_NAMES,
  type NativeNames,
  nativeSchema,
  nativeTruth,
  renderInvoicePage,
} from './invoices-de-fr-nl.js';

export type FieldName = keyof InvoiceTruth;
export const FIELDS = Object.keys(INVOICES_SCHEMA.properties) as FieldName[];
/** The schema a page is read with: neutral English names, or the names of the page's language. */
export type SchemaWording = 'neutral' | 'native';

/** What a page of either set holds that the reading needs. */
export interface LanguagePage {
  id: string;
  language: string;
  truth: InvoiceTruth;
}

/** One field of one page under one schema: what the engine read and whether it matches the truth. */
export interface FieldReading<Page extends LanguagePage = LanguagePage> {
  page: Page;
  wording: SchemaWording;
  field: FieldName;
  read: Json | undefined;
  matches: boolean;
}

/** Each page read once, its fields extracted under both schemas (slow mode, as a run asks). */
export async function readLanguagePages<Page extends LanguagePage>(
  engine: Pick<Engine, 'analyse'>,
  pages: readonly Page[],
  render: (page: Page) => Promise<Buffer>,
  native: Readonly<Record<Page['language'], NativeNames>>,
): Promise<FieldReading<Page>[]> {
  const readings: FieldReading<Page>[] = [];
  for (const page of pages) {
    const { pages: analysed } = await engine.analyse({
      bytes: await render(page),
      format: 'pdf',
      filename: `${page.id}.pdf`,
    });
    const names: NativeNames = native[page.language as Page['language']];
    for (const wording of ['neutral', 'native'] as const) {
      const key = (field: FieldName) => (wording === 'native' ? names[field].name : field);
      const schema = (wording === 'native' ? nativeSchema(names) : INVOICES_SCHEMA) as JsonSchema;
      const truth = (wording === 'native' ? nativeTruth(names, page.truth) : page.truth) as Json;
      const comparators = Object.fromEntries(FIELDS.map((field) => [key(field), INVOICES_COMPARATORS[field]]));
      const response = buildExtractResult(analysed, schema, false, 'EU').response as string;
      const predicted = JSON.parse(response) as Record<string, Json>;
      const score = scoreExtraction(truth, predicted, { schema, comparators, locale: 'EU' });
      for (const field of FIELDS) {
        const result = score.fields.find((f) => f.collapsedPath === key(field));
        readings.push({ page, wording, field, read: predicted[key(field)], matches: result?.verdict === 'tp' });
      }
    }
  }
  return readings;
}

/** The German, French and Dutch pages read. */
export function readInvoicePages(engine: Pick<Engine, 'analyse'>) {
  return readLanguagePages(engine, INVOICE_PAGES, renderInvoicePage, NATIVE_NAMES);
}
