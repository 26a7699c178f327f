/**
 * Reads the held-out pages (invoices-held-out.ts) with the local engine and scores issuer, number, date and total
 * under two wordings of the same schema: neutral English names, and the names a user writing in the page's
 * language would give (HELD_OUT_NATIVE_NAMES). Uses only the engine's public in-process API and docbench's scorer.
 */
import { buildExtractResult, type createEngine } from '@docbench/local-engine/in-process';
import { scoreExtraction } from '../../src/score/index.js';
import type { ComparatorSpec, ComparatorType, Json, JsonSchema } from '../../src/types.js';
import {
  HELD_OUT_FIELDS,
  HELD_OUT_NATIVE_NAMES,
  HELD_OUT_PAGES,
  type HeldOutField,
  type HeldOutPage,
  renderHeldOutPage,
} from './invoices-held-out.js';

export type HeldOutWording = 'neutral' | 'native';

export interface HeldOutReading {
  page: HeldOutPage;
  wording: HeldOutWording;
  field: HeldOutField;
  /** The scorer's normalised comparison says the engine read the field: verdict 'tp'. */
  read: boolean;
  /** What the engine returned for the field (undefined when it returned nothing). */
  predicted: Json | undefined;
  truth: Json;
  verdict: string;
}

type Engine = Awaited<ReturnType<typeof createEngine>>;

const NEUTRAL: Record<HeldOutField, { description: string; schema: Record<string, unknown> }> = {
  issuer: { description: 'name of the company that issued the invoice or receipt', schema: { type: 'string' } },
  invoice_number: { description: 'number of the invoice or receipt', schema: { type: 'string' } },
  invoice_date: { description: 'date the invoice or receipt was issued', schema: { type: 'string', format: 'date' } },
  total_amount: { description: 'total to pay, taxes included', schema: { type: 'number' } },
};

const COMPARATORS: Record<HeldOutField, ComparatorSpec | ComparatorType> = {
  issuer: 'text',
  invoice_number: 'code',
  invoice_date: 'date',
  total_amount: { type: 'money', tolerance: 0.005 },
};

/** The schema, comparators and field names for one page under one wording. */
export function heldOutSchema(
  page: HeldOutPage,
  wording: HeldOutWording,
): {
  schema: JsonSchema;
  comparators: Record<string, ComparatorSpec | ComparatorType>;
  keys: Record<HeldOutField, string>;
} {
  const properties: Record<string, unknown> = {};
  const comparators: Record<string, ComparatorSpec | ComparatorType> = {};
  const keys = {} as Record<HeldOutField, string>;
  for (const field of HELD_OUT_FIELDS) {
    const native = HELD_OUT_NATIVE_NAMES[page.language][field];
    const key = wording === 'neutral' ? field : native.name;
    const description = wording === 'neutral' ? NEUTRAL[field].description : native.description;
    properties[key] = { ...NEUTRAL[field].schema, description };
    comparators[key] = COMPARATORS[field];
    keys[field] = key;
  }
  return { schema: { type: 'object', properties }, comparators, keys };
}

/** Runs every page through the engine once and scores it under both wordings: one record a page × wording × field. */
export async function readHeldOutPages(
  engine: Pick<Engine, 'analyse'>,
  pages: readonly HeldOutPage[] = HELD_OUT_PAGES,
): Promise<HeldOutReading[]> {
  const readings: HeldOutReading[] = [];
  for (const page of pages) {
    const bytes = await renderHeldOutPage(page);
    const { pages: analysed } = await engine.analyse({ bytes, format: 'pdf', filename: `${page.id}.pdf` });
    for (const wording of ['neutral', 'native'] as const) {
      const { schema, comparators, keys } = heldOutSchema(page, wording);
      const result = buildExtractResult(analysed, schema, false, 'EU');
      const predicted = JSON.parse(result.response as string) as Record<string, Json>;
      const truth: Record<string, Json> = {};
      for (const field of HELD_OUT_FIELDS) truth[keys[field]] = page.truth[field];
      const score = scoreExtraction(truth, predicted, { schema, comparators, locale: 'EU' });
      for (const field of HELD_OUT_FIELDS) {
        const key = keys[field];
        const verdict = score.fields.find((f) => f.collapsedPath === key)?.verdict ?? 'missing';
        const read = verdict === 'tp';
        readings.push({
          page,
          wording,
          field,
          read,
          predicted: predicted[key],
          truth: page.truth[field],
          verdict,
        });
      }
    }
  }
  return readings;
}
