import { describe, expect, it } from 'vitest';
import { indexDocument } from '../src/extract/document-index.js';
import { extractFields } from '../src/extract/extract-fields.js';
import { gridCell } from '../src/extract/grid-cells.js';
import { at, page } from './text-layer-page.js';

const text = { type: 'string' } as const;

describe('grids of captions over values', () => {
  // Captions over values column by column; the OCR read two captions as one line and the values as one line.
  // "126543 123456 12345 00000000" at x 100: the words start at 100, 138.5, 177 and 210.
  const grid = [
    at('FILE', 100, 100),
    at('DEPT.', 138.5, 100),
    at('CLOCK NUMBER', 177, 100),
    at('126543 123456 12345 00000000', 100, 114),
  ];

  it("reads each caption's value from the words under it, never the whole row or the next captions", () => {
    const schema = {
      type: 'object',
      properties: {
        file: { ...text, description: 'FILE' },
        dept: { ...text, description: 'DEPT.' },
        clock: { ...text, description: 'CLOCK' },
        number: { ...text, description: 'NUMBER' },
      },
    };
    expect(extractFields(page(grid), schema, { fast: false }).data).toEqual({
      file: '126543',
      dept: '123456',
      clock: '12345',
      number: '00000000',
    });
  });

  it('reads an abbreviated caption only in a grid: "CO" in an address is no company code', () => {
    const pages = page([at('Northwind Traders', 72, 60), at('Denver, CO 80202', 72, 74), at('Dept: 42', 72, 100)]);
    const schema = { type: 'object', properties: { companyCode: text } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ companyCode: null });
  });

  it("reads an empty column as no value, never the next column's caption", () => {
    const pages = page([
      at('FILE', 100, 100),
      at('DEPT.', 150, 100),
      at('CODE', 200, 100),
      at('CLERK', 250, 100),
      at('126543 123456', 100, 114),
    ]);
    const schema = { type: 'object', properties: { code: { ...text, description: 'CODE' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ code: null });
  });

  it('leaves a value line under one caption line whole, though a label matched only part of the caption', () => {
    // "ACCOUNT NO." is part of the caption "PATIENT'S ACCOUNT NO.": the value under "PATIENT'S" is still its value.
    const pages = page([
      at("PATIENT'S ACCOUNT NO.", 100, 100),
      at('SEX', 260, 100),
      at('PT-297436', 110, 114),
      at('M', 260, 114),
    ]);
    const index = indexDocument(pages);
    const caption = index.lines.find((l) => l.line.text.startsWith('PATIENT'))!;
    const accountNo = { x0: 155, y0: 100, x1: 215.5, y1: 110 };
    expect(gridCell(index, caption, accountNo)).toBeNull();
  });
});

describe('tables whose rows are headed by labels', () => {
  it("reads a row label's value to its right, not the next row's label below it", () => {
    const pages = page([at('Overtime', 72, 100), at('15.00', 300, 100), at('Holiday', 72, 114), at('80.00', 300, 114)]);
    const schema = { type: 'object', properties: { overtime: { type: 'number' }, holiday: { type: 'number' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ overtime: 15, holiday: 80 });
  });
});

describe('captions over values that are not left-aligned', () => {
  it('reads a value centred under its caption, wider than it', () => {
    const pages = page([
      at('Home Address', 72, 100),
      at('City', 300, 100),
      at('State', 420, 100),
      at('123 Main Street', 72, 114),
      at('Sample Town Heights North', 242, 114),
      at('MN', 420, 114),
    ]);
    const schema = { type: 'object', properties: { city: { ...text, description: 'City' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ city: 'Sample Town Heights North' });
  });

  it('reads no line centred under a title as the value of one of its words', () => {
    const pages = page([
      at('HEALTH INSURANCE CLAIM FORM', 200, 100),
      at('APPROVED BY NATIONAL UNIFORM CLAIM COMMITTEE 02/12', 140, 114),
    ]);
    const schema = { type: 'object', properties: { insurance: { type: 'number', description: 'Insurance' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ insurance: null });
  });

  it('reads a value printed right of its caption and a little lower', () => {
    const pages = page([
      at('Home Phone', 72, 100),
      at('E-mail Address', 300, 100),
      at('414-2285', 72, 116),
      { ...at('jdoe@example.com', 390, 106), fontSize: 12, box: { x0: 390, y0: 106, x1: 478, y1: 118 } },
    ]);
    const schema = { type: 'object', properties: { email: { ...text, description: 'E-mail Address' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ email: 'jdoe@example.com' });
  });
});

describe('labelled values and layout guesses', () => {
  it('takes a valid labelled amount over the largest amount on the page, a guess without total wording', () => {
    const pages = page([
      at('Gross Pay', 72, 100),
      at('23,526.80', 300, 100),
      at('Loan Amt Paid', 72, 114),
      at('840.00', 300, 114),
      at('Vac Hrs', 72, 128),
      at('40.00', 300, 128),
    ]);
    const schema = { type: 'object', properties: { loan_amt_paid: { type: 'number', description: 'Loan Amt Paid' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ loan_amt_paid: 840 });
  });
});

describe('tightly spaced lines', () => {
  // Two lines of small print 8 pt apart, 10 pt high, and a line of another column between them in height.
  const lines = [
    at('Social Security Number: 987-65-4321', 72, 100),
    at('Taxable Marital Status: Married', 72, 108),
    at('JOHN STILES', 300, 104),
  ];

  it('keeps each its own row, though a line of another column overlaps both', () => {
    const rows = page(lines)[0]!.rows.map((row) => row.lines.map((line) => line.text));
    expect(rows).toEqual([['Social Security Number: 987-65-4321', 'JOHN STILES'], ['Taxable Marital Status: Married']]);
  });

  it("reads a value the OCR glued to its label's colon", () => {
    const pages = page([at('Social Security Number:987-65-4321', 72, 100)]);
    const schema = { type: 'object', properties: { ssn: { ...text, description: 'Social Security Number:' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ ssn: '987-65-4321' });
  });
});

describe("another field's caption", () => {
  it('is never the value to the right of a caption whose box is empty', () => {
    const pages = page([at('Home Phone', 72, 100), at('E-mail Address', 200, 100), at('jdoe@example.com', 200, 114)]);
    const schema = {
      type: 'object',
      properties: { phone: { ...text, description: 'Home Phone' }, email: { ...text, description: 'E-mail Address' } },
    };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ phone: null, email: 'jdoe@example.com' });
  });
});
