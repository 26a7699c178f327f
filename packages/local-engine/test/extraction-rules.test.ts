import { describe, expect, it } from 'vitest';
import { coerceScalar, parseDate, parseNumber, repairDigits } from '../src/extract/coerce.js';
import { extractFields, scoreConfidence } from '../src/extract/extract-fields.js';
import { collectFields, labelsFromDescription, splitName } from '../src/extract/schema-fields.js';
import { buildPageLayout } from '../src/layout/build-blocks.js';
import { buildRows } from '../src/layout/build-lines.js';
import type { Fragment } from '../src/layout/types.js';

/** A text-layer fragment at (x, y) in points, 10 pt type, ~5.5 pt a character. */
function at(text: string, x: number, y: number, confidence = 100): Fragment {
  return { text, box: { x0: x, y0: y, x1: x + text.length * 5.5, y1: y + 10 }, fontSize: 10, confidence };
}

function page(fragments: Fragment[]) {
  return [buildPageLayout(1, 612, 792, 'text-layer', buildRows(fragments))];
}

describe('coercion', () => {
  it('parses money and numbers', () => {
    expect(parseNumber('$1,234.50')).toBe(1234.5);
    expect(parseNumber('(12.00)')).toBe(-12);
    expect(parseNumber('none')).toBeNull();
  });

  it('reads common date forms as ISO, US order for numeric dates', () => {
    expect(parseDate('03/05/1980')).toBe('1980-03-05');
    expect(parseDate('3/5/80')).toBe('1980-03-05');
    expect(parseDate('03 05 1980')).toBe('1980-03-05');
    expect(parseDate('March 5, 1980')).toBe('1980-03-05');
    expect(parseDate('5 Mar 1980')).toBe('1980-03-05');
    expect(parseDate('1980-03-05')).toBe('1980-03-05');
    expect(parseDate('13/45/1980')).toBeNull();
  });

  it('repairs OCR letter-for-digit slips only in mostly numeric tokens', () => {
    expect(repairDigits('O3/O5/198O')).toBe('03/05/1980');
    expect(repairDigits('Office visit')).toBe('Office visit');
  });

  it('validates types, formats and enums in slow mode but keeps text as printed in fast mode', () => {
    expect(coerceScalar('03/05/1980', { type: 'string', format: 'date' }, true)).toEqual({
      value: '1980-03-05',
      valid: true,
    });
    expect(coerceScalar('03/05/1980', { type: 'string', format: 'date' }, false)).toEqual({
      value: '03/05/1980',
      valid: true,
    });
    expect(coerceScalar('femal', { type: 'string', enum: ['male', 'female'] }, true)).toEqual({
      value: 'female',
      valid: true,
    });
    expect(coerceScalar('abc', { type: 'integer' }, true).valid).toBe(false);
  });

  it('reads the number before a described addition after a comma, never a thousands separator', () => {
    const count = { type: 'integer' as const };
    expect(coerceScalar('3, $25 Additional Tax', count, true)).toEqual({ value: 3, valid: true });
    expect(coerceScalar('3,$25 Additional Tax', count, true)).toEqual({ value: 3, valid: true });
    expect(coerceScalar('1,234.00 USD', { type: 'number' }, true)).toEqual({ value: 1234, valid: true });
  });

  it("reads a yes/no answer, and no answer from both options printed side by side (a question's unread boxes)", () => {
    const flag = { type: 'boolean' as const };
    expect(coerceScalar('Yes', flag, true)).toEqual({ value: true, valid: true });
    expect(coerceScalar('No, not since 2019', flag, true)).toEqual({ value: false, valid: true });
    for (const both of ['Yes No', 'YES / NO', 'no or yes', 'Y/N', 'Ja oder Nein', 'Oui / Non'])
      expect(coerceScalar(both, flag, true)).toEqual({ value: null, valid: false });
    // Any language of the lexicon, and marks.
    expect(['Ja', 'oui', 'Sì', 'nee', 'Non', '[x]', '☐'].map((t) => coerceScalar(t, flag, true).value)).toEqual([
      true,
      true,
      true,
      false,
      false,
      true,
      false,
    ]);
  });

  it('snaps a one-letter code from the word it stands for, never from another word with its first letter', () => {
    const sex = { type: 'string' as const, enum: ['M', 'F'] };
    expect(coerceScalar('Female', sex, true)).toEqual({ value: 'F', valid: true });
    expect(coerceScalar('Fem', sex, true)).toEqual({ value: 'F', valid: true });
    expect(coerceScalar('F’', sex, true)).toEqual({ value: 'F', valid: true });
    expect(coerceScalar('male', sex, true)).toEqual({ value: 'M', valid: true });
    expect(coerceScalar('MEDICAID', sex, true).valid).toBe(false);
    expect(coerceScalar('Mary', sex, true).valid).toBe(false);
    expect(coerceScalar('married', { type: 'string' as const, enum: ['S', 'M', 'D', 'W'] }, true).value).toBe('M');
  });
});

describe('schema walking', () => {
  it('derives labels from names and descriptions, most specific first', () => {
    expect(splitName('patientName')).toBe('patient name');
    expect(splitName('date_of_birth')).toBe('date of birth');
    expect(labelsFromDescription('Billing provider NPI as printed in box 33a ("BILLING PROVIDER NPI")')).toContain(
      'BILLING PROVIDER NPI',
    );
    expect(labelsFromDescription('GST (10%):')).toEqual(['GST']);
    const fields = collectFields({
      type: 'object',
      properties: { patient: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    expect(fields[0]).toMatchObject({ kind: 'scalar', path: ['patient', 'name'] });
    expect((fields[0] as { labels: { text: string }[] }).labels.map((l) => l.text)).toEqual(['patient name', 'name']);
  });
});

describe('label matching', () => {
  const schema = {
    type: 'object',
    required: ['patient_name', 'account'],
    properties: {
      patient_name: { type: 'string' },
      account: { type: 'string', description: 'Account Number' },
      due: { type: 'number', description: 'Amount Due' },
    },
  };

  it('reads values right of the label, in the next column, and below a label alone on its line', () => {
    const pages = page([
      at('Patient Name: Jane Roe', 72, 100),
      at('Account Number:', 72, 130),
      at('A-99812', 300, 130),
      at('Amount Due', 72, 160),
      at('$1,020.00', 72, 174),
    ]);
    const result = extractFields(pages, schema, { fast: false });
    expect(result.data).toEqual({ patient_name: 'Jane Roe', account: 'A-99812', due: 1020 });
  });

  it('reads no label at the start of a line that runs on from a sentence above it', () => {
    const pages = page([
      at('Send a letter explaining why you disagree, a copy of this notice and any documents to the appeals', 40, 302),
      at('address shown on your member ID card.', 40, 314),
      at('a. Employment? Yes', 40, 360),
    ]);
    const properties = { address: { type: 'string' }, employment: { type: 'string' } };
    // Before: "shown on your member ID card." for the address.
    expect(extractFields(pages, { type: 'object', properties }, { fast: false }).data).toEqual({
      address: null,
      employment: 'Yes',
    });
  });

  it('reads a column of labels without colons beside a column of values, left- or right-aligned', () => {
    const invoice = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'Invoice Number' },
        order_number: { type: 'string', description: 'Order Number' },
        due_date: { type: 'string', format: 'date', description: 'Due Date' },
        tax: { type: 'number', description: 'Tax' },
        total: { type: 'number', description: 'Total' },
      },
    };
    const labelled = [
      ['Invoice Number', 'INV-3337'],
      ['Order Number', '12345'],
      ['Due Date', 'January 31, 2016'],
    ].flatMap(([label, value], i) => [at(label!, 350, 100 + 16 * i), at(value!, 450, 100 + 16 * i)]);
    // Totals: the labels right-aligned at x = 435, the amounts right-aligned at x = 545.
    const endingAt = (text: string, x1: number, y: number) => at(text, x1 - text.length * 5.5, y);
    const totals = [
      ['Tax', '$8.50'],
      ['Total', '$93.50'],
    ].flatMap(([label, value], i) => [endingAt(label!, 435, 300 + 16 * i), endingAt(value!, 545, 300 + 16 * i)]);
    const pages = page([...labelled, ...totals]);
    expect(extractFields(pages, invoice, { fast: false }).data).toEqual({
      invoice_number: 'INV-3337',
      order_number: '12345',
      due_date: '2016-01-31',
      tax: 8.5,
      total: 93.5,
    });
  });

  it('reads beside a label whose line goes on with a sign only', () => {
    const vat = { type: 'object', properties: { mwst_19: { type: 'number', description: 'MwSt. 19 %' } } };
    const pages = page([at('MwSt. 19 %', 380, 344), at('91,20 €', 490, 344), at('Gesamtbetrag', 380, 360)]);
    expect(extractFields(pages, vat, { fast: false, locale: 'EU' }).data).toEqual({ mwst_19: 91.2 });
  });

  it('never takes the caption right of an empty caption for its value', () => {
    const address = {
      type: 'object',
      properties: { city: { type: 'string' }, state: { type: 'string' }, country: { type: 'string' } },
    };
    // The form left City, State and Country blank: below City is the next caption, right of it another one.
    const pages = page([at('City', 300, 100), at('State', 400, 100), at('Country', 300, 116)]);
    expect(extractFields(pages, address, { fast: false }).data).toEqual({ city: null, state: null, country: null });
  });

  it('takes no label from the words of a sentence, nor from one word of a longer label', () => {
    const terms = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'Invoice Number' },
        reference: { type: 'string', description: 'Invoice Date' },
        employment: { type: 'string', description: 'Employment' },
      },
    };
    const pages = page([
      at(
        'Payment is due within 30 days from date of invoice. Late payment is subject to fees of 5% per month.',
        40,
        700,
      ),
      // "Invoice for" holds of "invoice number" only "invoice" once the stop words go: no reordering of one word.
      at('Invoice for: ACME Corp', 40, 100),
      // A form's item letter whose full stop the OCR lost is no word of a sentence (the caption misread too).
      at('a EMPLCYNENI Retired', 40, 130),
    ]);
    expect(extractFields(pages, terms, { fast: false }).data).toEqual({
      invoice_number: null,
      reference: null,
      employment: 'Retired',
    });
  });

  it('tolerates OCR slips in labels', () => {
    const pages = page([at('Patlent Narne: Jane Roe', 72, 100, 80)]);
    expect(extractFields(pages, schema, { fast: false }).data.patient_name).toBe('Jane Roe');
  });

  it('gives confidence that falls with missing required fields and with ambiguity', () => {
    const full = extractFields(
      page([
        at('Patient Name: Jane Roe', 72, 100),
        at('Account Number: A-1', 72, 130),
        at('Amount Due: $5.00', 72, 160),
      ]),
      schema,
      { fast: false },
    );
    const partial = extractFields(page([at('Patient Name: Jane Roe', 72, 100)]), schema, { fast: false });
    const ambiguous = extractFields(
      page([
        at('Patient Name: Jane Roe', 72, 100),
        at('Patient Name: John Doe', 72, 300),
        at('Account Number: A-1', 72, 130),
      ]),
      schema,
      { fast: false },
    );
    expect(full.confidence!).toBeGreaterThan(90);
    expect(partial.confidence!).toBeLessThan(50);
    expect(ambiguous.confidence!).toBeLessThan(full.confidence!);
    expect(scoreConfidence([])).toBe(0);
  });

  it('reads arrays of objects from a table whose headers match the item properties', () => {
    const tableSchema = {
      type: 'object',
      properties: {
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: { code: { type: 'string', description: 'Code' }, amount: { type: 'number' } },
          },
        },
      },
    };
    const pages = page([
      at('Code', 72, 100),
      at('Amount', 250, 100),
      at('99213', 72, 115),
      at('$10.00', 250, 115),
      at('85025', 72, 130),
      at('$2.50', 250, 130),
      at('Total', 72, 145),
      at('$12.50', 250, 145),
    ]);
    expect(extractFields(pages, tableSchema, { fast: false }).data.lines).toEqual([
      { code: '99213', amount: 10 },
      { code: '85025', amount: 2.5 },
    ]);
  });
});

describe('ruled forms (CMS-1500-style boxes)', () => {
  /** A fragment of `size` pt type: captions print small in a box's top-left corner, values larger under them. */
  const sized = (text: string, x: number, y: number, size: number): Fragment => ({
    text,
    box: { x0: x, y0: y, x1: x + text.length * size * 0.55, y1: y + size },
    fontSize: size,
    confidence: 100,
  });
  const schema = {
    type: 'object',
    properties: {
      patient: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          date_of_birth: { type: 'string', format: 'date' },
          address: { type: 'string' },
        },
      },
      insured: { type: 'object', properties: { name: { type: 'string' }, id_number: { type: 'string' } } },
    },
  };

  it('reads each box under its numbered caption: the caption hint in parentheses is no label, the words may come in another order, a date split over MM DD YY sub-boxes is one value', () => {
    const pages = page([
      sized("2. PATIENT'S NAME (Last Name, First Name, Middle Initial)", 20, 100, 5),
      sized("3. PATIENT'S BIRTH DATE", 230, 100, 5),
      sized("4. INSURED'S NAME (Last Name, First Name, Middle Initial)", 380, 100, 5),
      sized('MM', 236, 107, 4),
      sized('DD', 256, 107, 4),
      sized('YY', 276, 107, 4),
      sized('HODGES, PAULA V', 24, 112, 9),
      sized('04', 236, 113, 9),
      sized('13', 256, 113, 9),
      sized('65', 276, 113, 9),
      sized('PAGE, BRENDA W', 384, 112, 9),
      sized("5. PATIENT'S ADDRESS (No., Street)", 20, 126, 5),
      sized("1a. INSURED'S I.D. NUMBER", 380, 126, 5),
      sized('123 MAIN ST', 24, 137, 9),
      sized('XYZ123456789', 384, 137, 9),
    ]);
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({
      patient: { name: 'HODGES, PAULA V', date_of_birth: '1965-04-13', address: '123 MAIN ST' },
      insured: { name: 'PAGE, BRENDA W', id_number: 'XYZ123456789' },
    });
  });
});
