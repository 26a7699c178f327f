/**
 * The captions invoices and receipts print for their numbers, dates, taxes, totals and payments in their usual
 * other wordings (label-synonyms.ts, find-values.ts): each page is made up, each test fails without its rule.
 */
import { describe, expect, it } from 'vitest';
import { at, extractPage } from './text-layer-page.js';

const text = { type: 'string' };
const amount = { type: 'number' };
const issuer = [at('Northwind Traders LLC', 40, 40, 16), at('INVOICE', 450, 40, 20)];

/** The field read from a caption and its value printed side by side on one line. */
function readBeside(caption: string, value: string, field: string, type: object = text): unknown {
  return extractPage([...issuer, at(caption, 300, 120), at(value, 420, 120)], { [field]: type })[field];
}

describe('invoice captions in their usual wordings', () => {
  it('reads a number printed as No., Nr. or #', () => {
    expect(readBeside('Invoice No.', 'INV-20931', 'invoice_number')).toBe('INV-20931');
    expect(readBeside('Invoice #:', '20931', 'invoice_number')).toBe('20931');
    expect(readBeside('Order Nr.', 'A-7781', 'order_number')).toBe('A-7781');
    expect(readBeside('P.O. #:', '7781', 'po_number')).toBe('7781');
  });

  it('takes no other short word for an abbreviated number', () => {
    // "for" is one letter from "no", and "Invoice" alone one letter from "Invoice #" once joined.
    expect(readBeside('Invoice for:', 'ACME Corp', 'invoice_number')).toBeNull();
    expect(readBeside('Invoice', 'March services', 'invoice_number')).toBeNull();
  });

  it('reads a due date printed as payment due or due by', () => {
    expect(readBeside('Payment due:', '04/13/2025', 'due_date', { type: 'string', format: 'date' })).toBe('2025-04-13');
    expect(readBeside('Due by:', '04/13/2025', 'due_date', { type: 'string', format: 'date' })).toBe('2025-04-13');
  });

  it('reads a tax under its names, with its rate printed in the caption', () => {
    expect(readBeside('VAT 20%:', '38.36', 'tax_amount', amount)).toBe(38.36);
    expect(readBeside('Sales Tax 8.25%', '38.36', 'tax_amount', amount)).toBe(38.36);
    expect(readBeside('GST (10%):', '5.00', 'tax_amount', amount)).toBe(5);
    expect(readBeside('VAT 19 %:', '38.36', 'vat', amount)).toBe(38.36);
  });

  it('reads the rate itself when the field asks for a rate', () => {
    const fields = extractPage(
      [...issuer, at('Tax rate: 8.25%', 300, 120), at('Sales Tax 8.25%', 300, 134), at('38.36', 420, 134)],
      { tax_rate: amount, tax_amount: amount },
    );
    expect(fields).toEqual({ tax_rate: 8.25, tax_amount: 38.36 });
  });

  it('reads the same wordings in a row of captions over a row of values', () => {
    const captions = ['Invoice #', 'Invoice Date', 'Payment Due', 'PO #', 'Payment Terms'];
    const values = ['INV-20931', '03/14/2025', '04/13/2025', '7781', 'Net 30'];
    const columns = [40, 140, 240, 340, 440];
    const grid = [
      ...issuer,
      ...captions.map((caption, i) => at(caption, columns[i]!, 120, 8)),
      ...values.map((value, i) => at(value, columns[i]!, 134, 8)),
    ];
    const date = { type: 'string', format: 'date' };
    expect(
      extractPage(grid, { invoice_number: text, invoice_date: date, due_date: date, po_number: text, terms: text }),
    ).toEqual({
      invoice_number: 'INV-20931',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      po_number: '7781',
      terms: 'Net 30',
    });
  });

  it('reads a subtotal printed as the total before tax, and never the payment terms', () => {
    expect(readBeside('Total before tax', '465.00', 'subtotal', amount)).toBe(465);
    expect(readBeside('Total excl. VAT', '465.00', 'subtotal', amount)).toBe(465);
    expect(readBeside('Terms:', 'Net 30', 'subtotal', amount)).toBeNull();
  });

  it("reads a receipt's transaction number, gratuity, change due, tender and clerk", () => {
    expect(readBeside('Trans #:', '004512', 'receipt_number')).toBe('004512');
    expect(readBeside('Gratuity', '3.00', 'tip', amount)).toBe(3);
    expect(readBeside('Change Due', '5.68', 'change', amount)).toBe(5.68);
    expect(readBeside('Tender:', 'VISA', 'payment_method')).toBe('VISA');
    expect(readBeside('Clerk:', 'MARIA', 'cashier')).toBe('MARIA');
  });

  it('reads a totals block whose amounts stand far right of their captions, a rate in the caption below', () => {
    const rows: [string, string][] = [
      ['Subtotal', '100.00 EUR'],
      ['VAT 19%', '19.00 EUR'],
      ['Total', '119.00 EUR'],
    ];
    const block = rows.flatMap(([caption, value], i) => [at(caption, 300, 200 + i * 20), at(value, 480, 200 + i * 20)]);
    // Asked alone, the subtotal had read the next row's caption under it ("VAT 19%") as its value: 19.
    expect(extractPage([...issuer, ...block], { subtotal: amount })).toEqual({ subtotal: 100 });
    expect(extractPage([...issuer, ...block], { vat: amount })).toEqual({ vat: 19 });
  });
});

describe('invoice captions in the lexicon’s other languages', () => {
  const schema = {
    invoice_number: text,
    invoice_date: dateField(),
    due_date: dateField(),
    total: amount,
    issuer: text,
  };
  function dateField() {
    return { type: 'string', format: 'date' };
  }
  /** A page of the issuer's name, the number, the date and the due date beside their captions, a tax and a total. */
  function invoice(issuer: string, captions: string[], values: string[]) {
    const rows = [100, 114, 128, 300, 314];
    return extractPage(
      [
        at(issuer, 40, 40, 16),
        ...captions.map((caption, i) => at(caption, 300, rows[i]!)),
        ...values.map((value, i) => at(value, 420, rows[i]!)),
      ],
      schema,
    );
  }
  const values = ['2025-0042', '14.03.2025', '13.04.2025', '38,00', '238,00'];
  const read = { invoice_number: '2025-0042', invoice_date: '2025-03-14', due_date: '2025-04-13', total: 238 };

  it('reads a German invoice', () => {
    const captions = ['Rechnungsnummer:', 'Rechnungsdatum:', 'Fälligkeitsdatum:', 'MwSt 19%', 'Gesamtbetrag'];
    expect(invoice('Müller Bürobedarf GmbH', captions, values)).toEqual({ ...read, issuer: 'Müller Bürobedarf GmbH' });
  });

  it('reads a French invoice, its colons spaced as French prints them', () => {
    const captions = ['Facture N° :', 'Date de facture :', 'Échéance :', 'TVA 20 %', 'Total TTC'];
    expect(invoice('Dupont Fournitures SARL', captions, values)).toEqual({
      ...read,
      issuer: 'Dupont Fournitures SARL',
    });
  });

  it('reads a Dutch invoice', () => {
    const captions = ['Factuurnummer:', 'Factuurdatum:', 'Vervaldatum:', 'BTW 21%', 'Totaal te betalen'];
    expect(invoice('Jansen Kantoorartikelen', captions, values)).toEqual({
      ...read,
      issuer: 'Jansen Kantoorartikelen',
    });
  });

  it('reads line items under German, French and Dutch column captions', () => {
    const item = { description: text, quantity: amount, unit_price: amount, amount };
    const columns = [40, 250, 330, 430];
    const row = (cells: string[], y: number) => cells.map((cell, i) => at(cell, columns[i]!, y));
    for (const captions of [
      ['Beschreibung', 'Menge', 'Einzelpreis', 'Betrag'],
      ['Désignation', 'Quantité', 'Prix unitaire', 'Montant'],
      ['Omschrijving', 'Aantal', 'Stukprijs', 'Bedrag'],
    ]) {
      const page = [
        at('Müller GmbH', 40, 40, 16),
        ...row(captions, 200),
        ...row(['Beratung', '2', '100,00', '200,00'], 214),
        ...row(['Reisekosten', '1', '50,00', '50,00'], 228),
      ];
      expect(extractPage(page, { items: { type: 'array', items: { type: 'object', properties: item } } })).toEqual({
        items: [
          { description: 'Beratung', quantity: 2, unit_price: 100, amount: 200 },
          { description: 'Reisekosten', quantity: 1, unit_price: 50, amount: 50 },
        ],
      });
    }
  });
});
