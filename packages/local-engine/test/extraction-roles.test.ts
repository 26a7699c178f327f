import { describe, expect, it } from 'vitest';
import { coerceScalar } from '../src/extract/coerce.js';
import { extractFields } from '../src/extract/extract-fields.js';
import { classifyField } from '../src/extract/field-roles.js';
import {
  findAmounts,
  findCurrency,
  findDates,
  inferDateOrder,
  isValidNpi,
  resolveDate,
} from '../src/extract/typed-values.js';
import type { Fragment } from '../src/layout/types.js';
import { at, page } from './text-layer-page.js';

const iso = (text: string, order: 'dmy' | 'mdy') => findDates(text).map((d) => resolveDate(d, order));

describe('date finder', () => {
  it('reads numeric, named-month and ISO dates in English and German', () => {
    expect(iso('Datum: 12.03.2024', 'dmy')).toEqual(['2024-03-12']);
    expect(iso('12 Mar 2024', 'mdy')).toEqual(['2024-03-12']);
    expect(iso('12. März 2024', 'mdy')).toEqual(['2024-03-12']);
    expect(iso('Date of issue March 12, 2024', 'dmy')).toEqual(['2024-03-12']);
    expect(iso('Dec 28, 2022 and 2022-12-29', 'dmy')).toEqual(['2022-12-28', '2022-12-29']);
    expect(iso('19/10/18 14:02', 'mdy')).toEqual(['2018-10-19']);
  });

  it('keeps both readings of an ambiguous numeric date and lets the document decide the order', () => {
    const [date] = findDates('03/05/2024');
    expect(date).toMatchObject({ dmy: '2024-05-03', mdy: '2024-03-05' });
    expect(inferDateOrder(['03/05/2024', 'Due 25/05/2024'], 'mdy')).toBe('dmy');
    expect(inferDateOrder(['03/05/2024', 'Due 05/25/2024'], 'dmy')).toBe('mdy');
    expect(inferDateOrder(['03/05/2024'], 'dmy')).toBe('dmy');
  });

  it('rejects impossible dates', () => {
    expect(findDates('31.02.2024')).toEqual([]);
    expect(findDates('Total 12.50')).toEqual([]);
  });

  it('coerces a date field in the document order', () => {
    expect(coerceScalar('04/07/2023', { type: 'string', format: 'date' }, true, 'dmy').value).toBe('2023-07-04');
    expect(coerceScalar('04/07/2023', { type: 'string', format: 'date' }, true).value).toBe('2023-04-07');
  });
});

describe('money finder', () => {
  it('reads both decimal conventions with the currency printed beside the amount', () => {
    expect(findAmounts('Gesamtbetrag 1.234,50 €')).toMatchObject([{ value: 1234.5, currency: 'EUR' }]);
    expect(findAmounts('Total $1,234.50')).toMatchObject([{ value: 1234.5, currency: 'USD' }]);
    expect(findAmounts('TOTAL RM 60.30')).toMatchObject([{ value: 60.3, currency: 'MYR' }]);
    expect(findAmounts('Total Paid: USD 47.90')).toMatchObject([{ value: 47.9, currency: 'USD' }]);
    expect(findAmounts('Qty 3 Ref 12345')).toEqual([]);
  });

  it('names ISO 4217 codes from symbols and codes', () => {
    expect(findCurrency('Summe brutto (in EURO)')).toBe('EUR');
    expect(findCurrency('£12.00')).toBe('GBP');
    expect(findCurrency('Payment currency: CHF')).toBe('CHF');
    expect(findCurrency('no money here')).toBeNull();
  });

  it('coerces a number field from a European amount', () => {
    expect(coerceScalar('80,65 EUR', { type: 'number' }, true)).toEqual({ value: 80.65, valid: true });
    expect(coerceScalar('(12.00)', { type: 'number' }, true).value).toBe(-12);
  });
});

describe('NPI check digit', () => {
  it('accepts the CMS example and rejects a wrong check digit', () => {
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('12345')).toBe(false);
  });
});

describe('NPI fields', () => {
  it('pass over a number whose check digit fails for one that holds', () => {
    const schema = {
      type: 'object',
      properties: { provider: { type: 'object', properties: { npi: { type: 'string' } } } },
    };
    const pages = page([at('NPI: 1234567890', 40, 40), at('NPI: 1234567893', 40, 300)]);
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ provider: { npi: '1234567893' } });
  });
});

describe('field roles from the schema', () => {
  it('recognises the issuer, its address, the document date, the total and the currency under other names', () => {
    expect(classifyField(['merchant_name'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['seller'], 'string', undefined, { description: 'Business that sold the goods' })).toBe(
      'issuer',
    );
    expect(classifyField(['store_address'], 'string', undefined)).toBe('issuer-address');
    expect(classifyField(['transactionDate'], 'string', 'date')).toBe('document-date');
    expect(classifyField(['grand_total'], 'number', undefined)).toBe('total');
    expect(classifyField(['amountDue'], 'number', undefined)).toBe('total');
    expect(classifyField(['currency_code'], 'string', undefined)).toBe('currency');
  });

  it('leaves other parties and parts of the total to label matching', () => {
    expect(classifyField(['patient', 'date_of_birth'], 'string', 'date', { description: 'Date of birth' })).toBeNull();
    expect(classifyField(['due_date'], 'string', 'date')).toBeNull();
    expect(
      classifyField(['billing_summary', 'total_charges'], 'number', undefined, { title: 'Total charges' }),
    ).toBeNull();
    expect(classifyField(['tax_total'], 'number', undefined)).toBeNull();
    expect(classifyField(['sub_total'], 'number', undefined, { description: 'Sub Total' })).toBeNull();
    expect(classifyField(['amount'], 'number', undefined, { title: 'Sub-Total' })).toBeNull();
  });

  it('reads the role from synonyms, titles, German compounds and descriptions, not from a list of property names', () => {
    expect(classifyField(['shop_location'], 'string', undefined, { title: 'Where the shop is' })).toBe(
      'issuer-address',
    );
    expect(classifyField(['outlet'], 'string', undefined, { title: 'Trading name of the outlet' })).toBe('issuer');
    expect(
      classifyField(['sum_charged'], 'number', undefined, { description: 'what the buyer paid, after rounding' }),
    ).toBe('total');
    expect(classifyField(['day_of_sale'], 'string', undefined)).toBe('document-date');
    expect(classifyField(['rechnungssteller'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['belegdatum'], 'string', undefined)).toBe('document-date');
    expect(classifyField(['bruttobetrag'], 'number', undefined)).toBe('total');
    expect(classifyField(['waehrung'], 'string', undefined)).toBe('currency');
    // A party that owns the thing asked for makes it theirs; one that merely takes part does not.
    expect(classifyField(['location'], 'string', undefined, { description: "the customer's street and town" })).toBe(
      'recipient-address',
    );
    expect(classifyField(['name'], 'string', undefined, { description: 'name of the buyer' })).toBe('recipient');
    expect(classifyField(['nettobetrag'], 'number', undefined)).toBeNull();
    expect(classifyField(['zwischensumme'], 'number', undefined)).toBeNull();
    expect(classifyField(['days_open'], 'integer', undefined)).toBeNull();
  });

  it('reads the date a description says a field is not as no exclusion, and a billing date or a timestamp as the document’s', () => {
    // Before: "due" in "not the due date" made the invoice's own date a due date, and "billing" a customer's date.
    expect(
      classifyField(['invoiceDate'], 'string', undefined, { description: 'The date on the invoice, not the due date' }),
    ).toBe('document-date');
    expect(classifyField(['billing_date'], 'string', undefined, { description: 'Billing date' })).toBe('document-date');
    expect(classifyField(['date'], 'string', undefined, { description: 'The due date of the invoice' })).toBeNull();
    expect(classifyField(['billing_address'], 'string', undefined)).toBe('recipient-address');
    expect(classifyField(['net'], 'number', undefined, { description: 'Total, not including tax' })).toBeNull();
    // A timestamp is a date with its time.
    expect(
      classifyField(['transaction', 'timestamp'], 'string', undefined, { description: 'when the purchase happened' }),
    ).toBe('document-date');
  });

  it('reads no caption of what a description says the field is not', () => {
    const pages = page([
      at('SwissDev', 40, 40, 14),
      at('Date of sale:', 350, 73),
      at('2022-09-27', 434, 73),
      at('Due date:', 350, 95),
      at('2022-10-04', 434, 95),
    ]);
    const schema = {
      type: 'object',
      properties: { invoiceDate: { type: 'string', description: 'The date on the invoice, not the due date' } },
    };
    // Before: "Due date:" was a caption of the description's own words.
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ invoiceDate: '2022-09-27' });
  });

  it('reads what excludes a date or a total from the words that define the field, not from notes in passing', () => {
    const date = (description: string) => classifyField(['TransactionDate'], 'string', undefined, { description });
    const amount = (description: string) => classifyField(['TransactionAmount'], 'number', undefined, { description });
    // Before: each of these was left to label matching ("from", "posting … paid", "end", "net", "tax").
    expect(date('The transaction date, taken from the receipt')).toBe('document-date');
    expect(date('Date of the transaction as printed, which may differ from the date it was paid')).toBe(
      'document-date',
    );
    expect(date('Date of the expense. For hotel stays, the end date of the stay')).toBe('document-date');
    expect(date('The date the expense was incurred, as opposed to the date it was paid')).toBe('document-date');
    expect(amount('The amount shown on the receipt, from which the net and tax amounts are derived')).toBe('total');
    // What the defining words say still excludes.
    expect(date('The from date of the billing period')).toBeNull();
    expect(date('The date the invoice is due')).toBeNull();
    expect(amount('The amount excluding tax')).toBeNull();
    expect(amount('Total, excluding VAT')).toBeNull();
  });

  it('reads the invoicer, a contractor and a creditor as who sends and is paid', () => {
    expect(classifyField(['invoicer'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['party'], 'string', undefined, { description: 'The invoicing company' })).toBe('issuer');
    expect(classifyField(['contractor'], 'string', undefined, { description: 'Who did the work' })).toBe('issuer');
    expect(classifyField(['creditor'], 'string', undefined)).toBe('payee');
    expect(classifyField(['debtor_address'], 'string', undefined)).toBe('payer-address');
  });
});

describe('schema titles', () => {
  it('match the printed label when the property name shares no word with it', () => {
    const schema = { type: 'object', properties: { ref: { type: 'string', title: 'Policy Number' } } };
    expect(extractFields(page([at('Policy Number: AB-1234', 72, 72)]), schema, { fast: false }).data).toEqual({
      ref: 'AB-1234',
    });
  });
});

describe('extraction by role', () => {
  const receiptSchema = {
    type: 'object',
    properties: {
      shop: { type: 'string', description: 'name of the store that issued the receipt' },
      shop_address: { type: 'string' },
      purchased_on: { type: 'string', format: 'date' },
      amount_paid: { type: 'number', description: 'total paid' },
    },
  };

  it("gives the issuer's name without its last full stop, but a letter-by-letter abbreviation whole", () => {
    const issuer = (name: string) =>
      extractFields(page([at(name, 100, 20, 12), at('INVOICE NO: 1001', 20, 110)]), receiptSchema, { fast: false }).data
        .shop;
    expect(issuer('Userpilot, Inc.')).toBe('Userpilot, Inc');
    expect(issuer('Termoidraulica Conti S.a.s.')).toBe('Termoidraulica Conti S.a.s.');
    expect(issuer('Frischemarkt Seidel e.K.')).toBe('Frischemarkt Seidel e.K.');
  });

  it('reads a receipt: name and address at the top, day-first date, the rounded total at the bottom', () => {
    const pages = page([
      at('KEDAI MAJU JAYA SDN BHD', 100, 20, 12),
      at('(123456-X)', 130, 36),
      at('12, JALAN MAWAR 3,', 110, 50),
      at('81100 JOHOR BAHRU.', 110, 64),
      at('TEL: 07-1234567', 120, 78),
      at('INVOICE NO: 1001', 20, 110),
      at('DATE: 03/05/2018 10:21', 20, 124),
      at('ITEM A', 20, 150),
      at('14.00', 200, 150),
      at('TOTAL QTY: 2', 20, 180),
      at('SUBTOTAL', 20, 194),
      at('28.02', 200, 194),
      at('TOTAL', 20, 208),
      at('28.00', 200, 208),
      at('CASH', 20, 222),
      at('50.00', 200, 222),
      at('PRINTED 25/05/2018', 20, 260),
    ]);
    const { data, confidence } = extractFields(pages, receiptSchema, { fast: false });
    expect(data).toEqual({
      shop: 'KEDAI MAJU JAYA SDN BHD',
      shop_address: '12, JALAN MAWAR 3, 81100 JOHOR BAHRU.',
      purchased_on: '2018-05-03',
      amount_paid: 28,
    });
    expect(confidence).toBeGreaterThan(50);
  });

  it('reads the whole address block: street and place names that hold stop words, "No.2" and a unit "#02-03" are address, a "Tel:" or "Cashier:" line ends it', () => {
    const addressOf = (lines: string[]) =>
      extractFields(
        page([
          at('RESTORAN WAN SHENG SDN BHD', 100, 20, 12),
          at('Co~REG: 750441-W', 120, 36),
          ...lines.map((text, i) => at(text, 100, 50 + i * 14)),
        ]),
        receiptSchema,
        { fast: false },
      ).data.shop_address;
    // Before: "Perindustrian" (holds "ust") and "Hotel" (holds "tel") ended the block; "No.2," read as a number label.
    expect(
      addressOf([
        'No.2, Jalan Temenggung 19/9,',
        'Kawasan Perindustrian Balakong,',
        'Hotel Seri Malaysia,',
        '43200 Cheras, Selangor',
        'Cashier: Thandar',
      ]),
    ).toBe('No.2, Jalan Temenggung 19/9, Kawasan Perindustrian Balakong, Hotel Seri Malaysia, 43200 Cheras, Selangor');
    expect(
      addressOf(['Menara Dion #02-03, Level 2,', '50250 Kuala Lumpur.', 'Telephone 03-41056485', 'Site: 12']),
    ).toBe('Menara Dion #02-03, Level 2, 50250 Kuala Lumpur.');
    expect(addressOf(['LOT 3, JALAN PELABUR 23/1,', '40300 SHAH ALAM.', 'V E05: Ridzuan(11900)'])).toBe(
      'LOT 3, JALAN PELABUR 23/1, 40300 SHAH ALAM.',
    );
  });

  it('reads the address past what a till prints between the name and it: the date and time, a labelled id, a tax number', () => {
    const addressOf = (between: string[]) =>
      extractFields(
        page([
          at('KEDAI MAJU SDN BHD', 100, 20, 12),
          ...[...between, '12, JALAN MAWAR 3,', '43300 SERI KEMBANGAN', 'TEL: 03-1234567'].map((text, i) =>
            at(text, 100, 36 + i * 14),
          ),
        ]),
        receiptSchema,
        { fast: false },
      ).data.shop_address;
    const address = '12, JALAN MAWAR 3, 43300 SERI KEMBANGAN';
    expect(addressOf(['12 Mar 2018 18:19', '(867388-U)'])).toBe(address);
    expect(addressOf(['Company No: SA0127959-D', 'Site: 2395'])).toBe(address);
    expect(addressOf(['GST Reg. No : 000313901056'])).toBe(address);
    // A title or a contact line still ends the header: what follows it is not the issuer's address.
    expect(addressOf(['TAX INVOICE'])).toBeNull();
    expect(addressOf(['Tel: 03-7734366'])).toBeNull();
  });

  it('keeps an address-like block under a doubtful name (digits in it), and spaces commas as addresses are written', () => {
    const lines = [
      'LOT P.T. 2811 , JALAN ANGSA,',
      'TAMAN BERKELEY',
      '41150 KLANG, SELANGOR',
      'GST ID NO : 000181747712',
    ];
    const result = extractFields(
      page([at('99 SPEED MART S/B (519537-X)', 100, 20, 12), ...lines.map((text, i) => at(text, 100, 36 + i * 14))]),
      receiptSchema,
      { fast: false },
    );
    expect(result.data.shop_address).toBe('LOT P.T. 2811, JALAN ANGSA, TAMAN BERKELEY 41150 KLANG, SELANGOR');
  });

  it('reads a letter-spaced name that OCR splits into words, and never takes a notice to the customer for the name', () => {
    const shopOf = (fragments: Fragment[]) =>
      extractFields(page([...fragments, at('12, JALAN MAWAR 3,', 110, 50)]), receiptSchema, { fast: false }).data.shop;
    expect(
      shopOf([at('SIN', 80, 20, 12), at('THYE', 130, 20, 12), at('&', 180, 20, 12), at('COMPANY', 200, 20, 12)]),
    ).toBe('SIN THYE & COMPANY');
    // A name in one column and a title in another are not one spaced name.
    expect(shopOf([at('Acme GmbH', 40, 20, 12), at('INVOICE', 450, 20, 12)])).toBe('Acme GmbH');
    expect(shopOf([at('GOODS SOLD ARE NOT RETURNABLE. THANK YOU', 60, 8), at('SLF CASH & CARRY', 100, 20, 12)])).toBe(
      'SLF CASH & CARRY',
    );
    // A colon inside the registration number after the name does not make the line a label.
    expect(shopOf([at('Dion Realties Sdn Bhd (Co. No:20154-T)', 60, 20, 12)])).toBe('Dion Realties Sdn Bhd');
  });

  it('never takes an address line ending in a comma, or a line wholly in parentheses, for the name', () => {
    // The name starts with a digit, which makes it doubtful; before, "BUKIT INDAH," and then the
    // "(GST Reg. No : …)" line under the address beat it.
    const result = extractFields(
      page(
        [
          '21 CAFE & GRILL own by ABC TRADING',
          '5G, JALAN SS2/24,',
          'BUKIT INDAH,',
          '47300 PETALING JAYA.',
          '(GST Reg. No : 000111222333)',
        ].map((text, i) => at(text, 60, 40 + i * 14)),
        900,
      ),
      receiptSchema,
      { fast: false },
    );
    expect(result.data.shop).toBe('21 CAFE & GRILL own by ABC TRADING');
    expect(result.data.shop_address).toBe('5G, JALAN SS2/24, BUKIT INDAH, 47300 PETALING JAYA.');
  });

  it('reads the address past a line tying the name to another business, and a labelled address when nothing under the name reads as one', () => {
    const addressOf = (lines: string[]) =>
      extractFields(
        page([at('SEMPURNA FOODS SDN BHD', 100, 20, 12), ...lines.map((text, i) => at(text, 100, 36 + i * 14))]),
        receiptSchema,
        { fast: false },
      ).data.shop_address;
    expect(
      addressOf([
        '(123456-A)',
        'formerly known as',
        'KEDAI LAMA SDN BHD',
        'Licensee of Burger Palace',
        'Level 3, Wisma Utama,',
        '50450 Kuala Lumpur',
        'Tel: 03-1234567',
      ]),
    ).toBe('Level 3, Wisma Utama, 50450 Kuala Lumpur');
    // A branch name under the name, the head office's address labelled further down.
    expect(
      addressOf(['CHERAS OUTLET', 'TEL/FAX: 03-1234567', 'HQ ADD: LOT 12, JALAN MERBAU', '41400 KLANG, SELANGOR']),
    ).toBe('LOT 12, JALAN MERBAU 41400 KLANG, SELANGOR');
    // Neither: a branch in parentheses is no address.
    expect(addressOf(['(CHERAS BRANCH)', 'GST Reg : 001627654144'])).toBeNull();
  });

  it('reads the total a receipt customer paid: rates are not amounts, a rounding adjustment counts, cash minus change decides between totals', () => {
    const totalOf = (lines: string[][]) =>
      extractFields(
        page([
          at('KEDAI MAJU SDN BHD', 100, 20, 12),
          ...lines.flatMap((cells, row) => cells.map((text, i) => at(text, 40 + i * 160, 200 + row * 14))),
        ]),
        receiptSchema,
        { fast: false },
      ).data.amount_paid;
    expect(totalOf([['TOTAL INCL. GST 6.00%', 'RM 47.70']])).toBe(47.7);
    expect(
      totalOf([
        ['TOTAL', 'RM 33.92'],
        ['ROUNDING ADJUSTMENT', '-RM 0.02'],
        ['CHANGE', 'RM 16.10'],
      ]),
    ).toBe(33.9);
    // "CASH" first heads the receipt as the kind of sale; the tax summary's "Total:" is the lowest total line.
    expect(
      totalOf([['CASH'], ['Total Sales', '21.20'], ['CASH :', '100.00'], ['Change :', '78.80'], ['Total:', '20.00']]),
    ).toBe(21.2);
    expect(
      totalOf([
        ['Total Sales (Inclusive GST) RM', '9.90'],
        ['CASH RM', '10.00'],
        ['CHANGE RM', '.10'],
        ['Total:', '9.34'],
      ]),
    ).toBe(9.9);
  });

  it("follows the caller's locale for dates the document leaves ambiguous, and the document's own dates over it", () => {
    const schema = { type: 'object', properties: { date: { type: 'string', format: 'date' } } };
    const ambiguous = page([at('Date: 03/04/2024', 72, 72)]);
    expect(extractFields(ambiguous, schema, { fast: false }).data).toEqual({ date: '2024-03-04' });
    expect(extractFields(ambiguous, schema, { fast: false, locale: 'EU' }).data).toEqual({ date: '2024-04-03' });
    expect(extractFields(ambiguous, schema, { fast: false, locale: 'US' }).data).toEqual({ date: '2024-03-04' });
    // An unambiguous US date elsewhere on the page outvotes an EU locale.
    const decided = page([at('Date: 03/04/2024', 72, 72), at('Due: 04/25/2024', 72, 100)]);
    expect(extractFields(decided, schema, { fast: false, locale: 'EU' }).data).toEqual({ date: '2024-03-04' });
  });

  it('repairs OCR slips in a shop name: a rule line read into it, doubled brackets, 5/B for S/B, a trailing dash, spaces lost around brackets, in SDNBHD and after a title before initials', () => {
    const shopOf = (name: string) =>
      extractFields(page([at(name, 100, 20, 12), at('12, JALAN MAWAR 3,', 110, 50)]), receiptSchema, { fast: false })
        .data.shop;
    expect(shopOf('GARDENIA BAKERIES———(KL) SDN BHD')).toBe('GARDENIA BAKERIES (KL) SDN BHD');
    expect(shopOf('MR. D.I.Y. {(KUCHAI) SDN BHD')).toBe('MR. D.I.Y. (KUCHAI) SDN BHD');
    expect(shopOf('99 SPEED MART 5/B')).toBe('99 SPEED MART S/B');
    expect(shopOf('GARDENIA BAKERIES(KL)SDNBHD(139386X)')).toBe('GARDENIA BAKERIES (KL) SDN BHD');
    expect(shopOf('MR.D.I.Y.( KUCHAI )SDN BHD')).toBe('MR. D.I.Y. (KUCHAI) SDN BHD');
    expect(shopOf('KEDAI MAJU SDN BHD-')).toBe('KEDAI MAJU SDN BHD');
    // A single hyphen inside a name is the name's.
    expect(shopOf('HAI-O RAYA BHD')).toBe('HAI-O RAYA BHD');
  });

  it('reads a German invoice and never takes the customer in the "Rechnung an" block for the issuer', () => {
    const invoiceSchema = {
      type: 'object',
      properties: {
        vendor: { type: 'string' },
        issued: { type: 'string', format: 'date', description: 'invoice date' },
        total: { type: 'number' },
        currency: { type: 'string', description: 'ISO 4217 code' },
      },
    };
    const pages = page([
      at('Rechnung', 400, 40, 16),
      at('Rechnung an:', 40, 120),
      at('Kunde Beispiel GmbH', 40, 134),
      at('Hauptstr. 1', 40, 148),
      at('Datum:', 380, 120),
      at('12.03.2024', 440, 120),
      at('Zwischensumme', 300, 400),
      at('1.037,39 €', 450, 400),
      at('Gesamtbetrag', 300, 430),
      at('1.234,50 €', 450, 430),
      at('Muster Software GmbH, Ringstr. 5, 10115 Berlin', 40, 760, 8),
    ]);
    const { data } = extractFields(pages, invoiceSchema, { fast: false });
    expect(data).toEqual({ vendor: 'Muster Software GmbH', issued: '2024-03-12', total: 1234.5, currency: 'EUR' });
  });

  it('gives lower confidence when the role finders have little to go on', () => {
    const sparse = extractFields(page([at('thank you', 40, 400)]), receiptSchema, { fast: false });
    const full = extractFields(
      page([at('ACME STORES LTD', 40, 20, 12), at('Date: 2024-01-02', 40, 60), at('Grand Total $12.50', 40, 300)]),
      receiptSchema,
      { fast: false },
    );
    expect(sparse.confidence!).toBeLessThan(full.confidence!);
  });
});
