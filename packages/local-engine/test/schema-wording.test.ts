import { describe, expect, it } from 'vitest';
import { stem } from '../src/extract/caption-words.js';
import { coerceScalar } from '../src/extract/coerce.js';
import { tokenise } from '../src/extract/document-index.js';
import { extractFields } from '../src/extract/extract-fields.js';
import { at, page } from './text-layer-page.js';

/** A statement's lines: label at the left margin, its figure at the right. */
function statement(rows: [string, string | null][], from = 100) {
  return page(
    rows.flatMap(([label, figure], i) => [
      at(label, 40, from + i * 20),
      ...(figure === null ? [] : [at(figure, 480, from + i * 20)]),
    ]),
  );
}

describe("a schema's own words against a page's captions", () => {
  it('reads no amount out of a date: the year of "as of 2023-01-20" is no number', () => {
    expect(coerceScalar('as of 2023-01-20', { type: 'number' }, true).value).toBeNull();
    expect(coerceScalar('as of March 3, 2024', { type: 'integer' }, true).value).toBeNull();
    expect(coerceScalar('$2,450.00 on 2024-03-31', { type: 'number' }, true).value).toBe(2450);
  });

  it('splits a date the OCR glued to the words before it', () => {
    expect(tokenise('Represents transactionstill2023-01-17').map((t) => t.raw)).toEqual([
      'Represents',
      'transactionstill',
      '2023-01-17',
    ]);
    expect(tokenise('ID A12345').map((t) => t.raw)).toEqual(['ID', 'A12345']);
  });

  it('matches the contact and identity boxes of forms in their usual abbreviations (dob, ssn, zip, cell, phone)', () => {
    const pages = statement([
      ['Date of Birth', '01/12/1978'],
      ['Social Security Number', '111-22-3333'],
      ['ZIP', '12345'],
      ['Home Phone', '555-9876'],
      ['Cell Phone', '555-1234'],
      ['Qty', '3'],
    ]);
    const schema = {
      type: 'object',
      properties: {
        dob: { type: 'string', format: 'date' },
        ssn: { type: 'string' },
        postal_code: { type: 'string' },
        mobile_phone: { type: 'string' },
        home_telephone: { type: 'string' },
        quantity: { type: 'integer' },
      },
    };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({
      dob: '1978-01-12',
      ssn: '111-22-3333',
      postal_code: '12345',
      mobile_phone: '555-1234',
      home_telephone: '555-9876',
      quantity: 3,
    });
  });

  it('matches general synonyms of statement and date terms (opening = previous = brought forward, until = till)', () => {
    const pages = statement([
      ['Statement Date: 2024-04-02', null],
      ['Balance brought forward', '1,200.00'],
      ['Ending Balance', '1,480.00'],
      ['Transactions till 2024-03-31', null],
    ]);
    const schema = {
      type: 'object',
      properties: {
        opening_balance: { type: 'number' },
        closing_balance: { type: 'number' },
        transactions_through: { type: 'string', format: 'date' },
      },
    };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({
      opening_balance: 1200,
      closing_balance: 1480,
      transactions_through: '2024-03-31',
    });
  });

  it("reads a caption's date for a date field only where a qualifier puts it there", () => {
    // "balance" is what "balance date" dates, but a date merely printed after it on its row is no "as of" date.
    const pages = statement([
      ['Statement Date: 2024-04-02', null],
      ['Balance 2024-03-15', '2,450.00'],
    ]);
    const schema = { type: 'object', properties: { balance_date: { type: 'string', format: 'date' } } };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({ balance_date: '2024-04-02' });
  });

  it('meets the forms of one word by their stem', () => {
    expect(new Set(['submitted', 'submitter', 'submits'].map(stem))).toEqual(new Set(['submit']));
    expect(new Set(['closed', 'close', 'closing'].map(stem)).size).toBe(1);
    expect(stem('Solutions')).toBe(stem('solution'));
    expect(stem('reviewer')).toBe(stem('reviewed'));
    expect(stem('order')).not.toBe(stem('ordinal'));
  });

  it("takes a `Label:` caption made of the field's own words in other forms for its label", () => {
    const pages = page([
      at('Reviewer:', 40, 100),
      at('Jane Doe', 120, 100),
      at('Date: May 1, 2024', 300, 100),
      at('Proposed Actions: Clean the vents', 40, 130),
      at('Actions: Replaced the filter', 40, 160),
      at('Review Date: May 2, 2024', 300, 160),
      at('Name: John Roe', 40, 190),
    ]);
    const schema = {
      type: 'object',
      properties: {
        reviewed_by: { type: 'string', description: 'name of the person who reviewed the form' },
        reviewed_on: { type: 'string', format: 'date', description: 'date the form was reviewed' },
        action_done: { type: 'string', description: 'the action carried out' },
        proposed_action: { type: 'string' },
        approver: { type: 'string', description: 'name of the person who approved it' },
      },
    };
    expect(extractFields(pages, schema, { fast: false }).data).toEqual({
      reviewed_by: 'Jane Doe',
      reviewed_on: '2024-05-02',
      action_done: 'Replaced the filter',
      proposed_action: 'Clean the vents',
      // `Name:` alone names any person: no caption of its own words.
      approver: null,
    });
  });
});

describe('captions printed with the owner first', () => {
  /** An application's home address box, and the landlord's address further down. */
  const application = () => [
    at('Home Address (include apartment or unit number)', 40, 100, 8),
    at('123 Sample Street', 40, 112),
    at('Landlord Name: Big Corp', 40, 200),
    at('Address: 456 Landlord Town', 40, 214),
  ];

  it('reads "X of the Y" in a description where the page prints "Y X"', () => {
    const got = extractFields(
      page(application()),
      { type: 'object', properties: { streetAddress: { type: 'string', description: 'street address of the home' } } },
      { fast: false },
    ).data;
    expect(got).toEqual({ streetAddress: '123 Sample Street' });
  });

  it("takes no phrase holding the group's own name, whose near-misses read another caption", () => {
    const provider = {
      type: 'object',
      description: 'Billing provider',
      properties: { name: { type: 'string' }, phone: { type: 'string' } },
    };
    const got = extractFields(
      page([at('Billing Provider: Prairie Family Medicine PLLC', 300, 160), at('NPI: 2056218847', 300, 174)]),
      { type: 'object', properties: { provider } },
      { fast: false },
    ).data;
    expect((got.provider as Record<string, unknown>).phone).toBeNull();
  });
});
