/**
 * The local engine on invoices and receipts in German, French and Dutch (test/local-engine/invoices-de-fr-nl.ts,
 * docs/multilingual-pages.md): twelve made-up pages printed with their own captions, dates and amounts, read with
 * a schema of neutral English names and with the same schema in each page's language. Prints the share of pages
 * whose issuer, number, date and total the engine reads (docbench's normalised comparison), per field and per
 * language, under each schema. Every page is read from its text layer: no OCR is involved.
 */
import { LANGUAGES } from '../../test/local-engine/invoices-de-fr-nl.js';
import { readInvoicePages } from '../../test/local-engine/read-invoice-pages.js';
import type { BenchCase } from '../harness.js';
import { languageFigures } from '../support/language-figures.js';

export const cases: BenchCase[] = [
  {
    id: 'local-languages',
    title: 'Local engine on German, French and Dutch invoices and receipts: issuer, number, date and total read',
    run: () =>
      languageFigures(readInvoicePages, LANGUAGES, {
        neutral: 'neutral English schema',
        native: "schema in the page's language",
      }),
  },
];
