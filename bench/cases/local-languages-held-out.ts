/**
 * The local engine on HELD-OUT invoices and receipts in German, French, Dutch, Spanish and Italian
 * (test/local-engine/invoices-held-out.ts): twenty made-up pages written without reading the engine's lexicon or
 * rules, read with a schema of neutral English names and with the same schema in each page's language. Prints the
 * share of issuer, number, date and total the engine reads (docbench's normalised comparison), for all fields, per
 * field and per language, under each wording. Its misses are not printed, so that no rule is written from them.
 * Every page is read from its text layer: no OCR is involved. No targets: the figure is measured, not tuned for.
 */
import {
  HELD_OUT_LANGUAGES,
  HELD_OUT_NATIVE_NAMES,
  HELD_OUT_PAGES,
  renderHeldOutPage,
} from '../../test/local-engine/invoices-held-out.js';
import { readLanguagePages } from '../../test/local-engine/read-invoice-pages.js';
import type { BenchCase } from '../harness.js';
import { languageFigures } from '../support/language-figures.js';

export const cases: BenchCase[] = [
  {
    id: 'local-languages-held-out',
    title: 'Local engine on held-out de/fr/nl/es/it invoices and receipts: issuer, number, date and total read',
    run: () =>
      languageFigures(
        (engine) => readLanguagePages(engine, HELD_OUT_PAGES, renderHeldOutPage, HELD_OUT_NATIVE_NAMES),
        HELD_OUT_LANGUAGES,
        { neutral: 'held-out, neutral English schema', native: "held-out, schema in page's language" },
      ),
  },
];
