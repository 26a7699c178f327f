/**
 * Readings of schemas in other users' words (CHANGELOG.md, "Other users' words"): a CRM's, an accounts-payable
 * tool's, a payroll API's and a lender's names for what forms, payslips and invoices print. Made-up pages only.
 */
import { describe, expect, it } from 'vitest';
import { readAddressPart } from '../src/extract/address-parts.js';
import { hintOrder, namePart } from '../src/extract/name-parts.js';
import { extractFields } from '../src/extract/extract-fields.js';
import { readGlyphPage, run } from './glyph-page.js';
import { at, extractPage, page } from './text-layer-page.js';

function strings(...names: string[]) {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
}

describe('an address asked for in parts', () => {
  it('reads the city, state and postcode off the postal line and the street lines above it', () => {
    const lines = ['Unit 4, Harbour Park', '22 Quay Road', 'Portland, OR 97201'];
    expect(readAddressPart(lines, 'line1')).toBe('Unit 4, Harbour Park');
    expect(readAddressPart(lines, 'line2')).toBe('22 Quay Road');
    expect(readAddressPart(lines, 'street')).toBe('22 Quay Road');
    expect(readAddressPart(lines, 'city')).toBe('Portland');
    expect(readAddressPart(lines, 'state')).toBe('OR');
    expect(readAddressPart(lines, 'postal')).toBe('97201');
    expect(readAddressPart(['9 Rue Verte', '75011 Paris'], 'city')).toBe('Paris');
    expect(readAddressPart(['9 Rue Verte', '75011 Paris'], 'postal')).toBe('75011');
    // A country code where a state would stand is no state.
    expect(readAddressPart(['1 Main St', 'Springfield, USA 10101'], 'state')).toBeNull();
    expect(readAddressPart(['1 Main St', 'Springfield, USA 10101'], 'city')).toBe('Springfield');
    // A postcode and its town after a comma, the state after them (Malaysia); a five-digit postcode before a comma.
    const oneLine = ['27, JALAN DEDAP 13, TAMAN JOHOR JAYA, 81100 JOHOR BAHRU, JOHOR.'];
    expect(readAddressPart(oneLine, 'city')).toBe('JOHOR BAHRU');
    expect(readAddressPart(oneLine, 'postal')).toBe('81100');
    expect(readAddressPart(['NO 290, JALAN AIR PANAS,', 'SETAPAK,', '53200, KUALA LUMPUR.'], 'city')).toBe(
      'KUALA LUMPUR',
    );
    // A house number before a comma is no postcode.
    expect(readAddressPart(['4243,COMPLEKS PERNIAGAAN SRI GAYA'], 'city')).toBeNull();
  });

  it('reads each part of the sender’s and the recipient’s address from their blocks', () => {
    const invoice = page([
      at('Invoice', 480, 54, 20),
      at('From:', 43, 124, 9),
      at('Harbour Lamps Ltd', 43, 137, 9),
      at('Unit 4, Harbour Park', 43, 149, 9),
      at('22 Quay Road', 43, 162, 9),
      at('Portland, OR 97201', 43, 174, 9),
      at('Invoice Date', 348, 150, 9),
      at('March 3, 2021', 452, 150, 9),
      at('Bill To:', 43, 234, 9),
      at('Lumen Studio', 43, 246, 9),
      at('9 Rue Verte', 43, 258, 9),
      at('75011 Paris', 43, 270, 9),
    ]);
    const schema = {
      type: 'object',
      properties: {
        ...strings('vendor_address_line1', 'vendor_street', 'vendor_city', 'vendor_state', 'vendor_zip'),
        ...strings('bill_to_city', 'bill_to_postcode'),
        customer: { type: 'object', properties: strings('addressLine1', 'postalCode') },
      },
    };
    expect(extractFields(invoice, schema, { fast: false }).data).toEqual({
      vendor_address_line1: 'Unit 4, Harbour Park',
      vendor_street: '22 Quay Road',
      vendor_city: 'Portland',
      vendor_state: 'OR',
      vendor_zip: '97201',
      bill_to_city: 'Paris',
      bill_to_postcode: '75011',
      customer: { addressLine1: '9 Rue Verte', postalCode: '75011' },
    });
  });

  it('reads a street field taking in the city and postcode, or an address line with no city beside it, whole', () => {
    const invoice = page([
      at('Harbour Lamps Ltd', 43, 40, 14),
      at('22 Quay Road', 43, 60, 9),
      at('Portland, OR 97201', 43, 72, 9),
      at('Invoice Date', 348, 150, 9),
      at('March 3, 2021', 452, 150, 9),
    ]);
    const street = (description: string) => ({
      type: 'object',
      properties: { merchantStreet: { type: 'string', description } },
    });
    const read = (description: string) => extractFields(invoice, street(description), { fast: false }).data;
    expect(read('The merchant street address, including city and postal code')).toEqual({
      merchantStreet: '22 Quay Road Portland, OR 97201',
    });
    expect(read('Street, city, state and ZIP code of the merchant')).toEqual({
      merchantStreet: '22 Quay Road Portland, OR 97201',
    });
    expect(read('The full street address of the merchant')).toEqual({
      merchantStreet: '22 Quay Road Portland, OR 97201',
    });
    // An address line with no city beside it is the address on one line; beside a city, the street line.
    expect(
      extractFields(invoice, { type: 'object', properties: strings('merchant_address_line') }, { fast: false }).data,
    ).toEqual({
      merchant_address_line: '22 Quay Road Portland, OR 97201',
    });
    expect(
      extractFields(
        invoice,
        { type: 'object', properties: strings('merchant_address_line', 'merchant_city') },
        { fast: false },
      ).data,
    ).toEqual({ merchant_address_line: '22 Quay Road', merchant_city: 'Portland' });
    // One other part named in passing, or kept out, leaves the street line.
    expect(read('The street line; the city is asked for on its own')).toEqual({ merchantStreet: '22 Quay Road' });
    expect(read('Street line, without the city and postcode')).toEqual({ merchantStreet: '22 Quay Road' });
  });
});

/** A made-up payslip: its period, the employee's tax status and an earnings table with a benefits table beside it. */
const payslip = [
  at('Pay Statement', 360, 30, 14),
  at('Period ending:', 360, 56),
  at('03/14/2021', 450, 56),
  at('Marital Status: Single', 40, 56),
  at('Earnings', 40, 100),
  at('rate', 150, 100),
  at('hours', 210, 100),
  at('this period', 280, 100),
  at('year to date', 370, 100),
  at('Benefits', 470, 100),
  at('Salary', 40, 114),
  at('20.00', 150, 114),
  at('40.00', 210, 114),
  at('800.00', 290, 114),
  at('8,800.00', 370, 114),
  at('total to date', 520, 114),
  at('Bonus', 40, 128),
  at('50.00', 295, 128),
  at('300.00', 380, 128),
  at('Dental', 470, 128),
  at('12.00', 540, 128),
  at('Gross Pay', 40, 142),
  at('850.00', 290, 142),
  at('9,100.00', 370, 142),
];

describe('a payslip in a payroll system’s words', () => {
  it('reads the period end and the filing status under their printed captions', () => {
    const number = { type: 'number' };
    const date = { type: 'string', format: 'date' };
    expect(
      extractPage(payslip, {
        pay_period_end: date,
        filingStatus: { type: 'string' },
        bonus_pay_ytd: number,
        salaryPayCurrent: number,
      }),
    ).toEqual({ pay_period_end: '2021-03-14', filingStatus: 'Single', bonus_pay_ytd: 300, salaryPayCurrent: 800 });
  });

  it('reads an earnings table: the kind of each row, the current figures, not the gross pay row', () => {
    const number = { type: 'number' };
    const items = {
      type: 'object',
      properties: { earningType: { type: 'string' }, rate: number, currentAmount: number, ytdAmount: number },
    };
    expect(extractPage(payslip, { earnings: { type: 'array', items } }).earnings).toEqual([
      { earningType: 'Salary', rate: 20, currentAmount: 800, ytdAmount: 8800 },
      { earningType: 'Bonus', rate: null, currentAmount: 50, ytdAmount: 300 },
    ]);
  });
});

/** A made-up earnings statement: the employer's block at the top left, the employee's under the pay date. */
const employeeStub = [
  at('Earnings Statement', 360, 20, 16),
  at('BRIGHT TOOLS INC.', 40, 60),
  at('12 MILL ROAD', 40, 74),
  at('OAKVILLE, USA 20202', 40, 88),
  at('Pay date:', 360, 60),
  at('04/09/2021', 450, 60),
  at('MARIA DELGADO', 360, 130),
  at('88 ELM STREET', 360, 144),
  at('OAKVILLE, USA 20203', 360, 158),
];

describe('a name asked for in parts', () => {
  it('splits a name in the order the caption’s hint lists, else as names are written', () => {
    const order = hintOrder('Full Name (Last, First, MI)');
    expect(order).toEqual(['last', 'first', 'middle']);
    expect(namePart('Okafor Ada N', 'first', order)).toBe('Ada');
    expect(namePart('Okafor Ada', 'middle', order)).toBeNull();
    expect(namePart('Ada Okafor', 'last', null)).toBe('Okafor');
    expect(namePart('Okafor, Ada Ngozi', 'first', null)).toBe('Ada');
    expect(namePart('Mary Ann Lee Smith', 'middle', null)).toBe('Ann Lee');
  });

  it('reads a household table whose captions run over several lines, a hint and letters down a column among them', () => {
    const form = [
      at('Name', 60, 300),
      at('Relationship', 200, 300),
      at('A', 300, 300),
      at('Date of', 340, 300),
      at('Phone', 430, 300),
      at('(Last, First)', 50, 312),
      at('to Applicant', 200, 312),
      at('G', 300, 312),
      at('Birth', 345, 312),
      at('Number', 430, 312),
      at('E', 300, 324),
      at('Okafor Ada', 50, 340),
      at('SELF', 200, 340),
      at('51', 300, 340),
      at('03/02/73', 340, 340),
      at('555-0101', 430, 340),
      at('Okafor Emeka', 50, 354),
      at('Son', 200, 354),
      at('19', 300, 354),
      at('11/23/05', 340, 354),
      at('555-0102', 430, 354),
    ];
    const text = { type: 'string' };
    const items = {
      type: 'object',
      properties: { lastName: text, firstName: text, relationship: text, age: { type: 'integer' }, phoneNumber: text },
    };
    expect(extractPage(form, { members: { type: 'array', items } }).members).toEqual([
      { lastName: 'Okafor', firstName: 'Ada', relationship: 'SELF', age: 51, phoneNumber: '555-0101' },
      { lastName: 'Okafor', firstName: 'Emeka', relationship: 'Son', age: 19, phoneNumber: '555-0102' },
    ]);
  });

  it('reads the first and last name of a payslip’s employee from the name over the address', () => {
    const text = { type: 'string' };
    expect(
      extractPage(employeeStub, { employee: { type: 'object', properties: { firstName: text, lastName: text } } }),
    ).toEqual({ employee: { firstName: 'MARIA', lastName: 'DELGADO' } });
  });
});

describe('a yes/no field named by what it asks', () => {
  it('reads the box its name’s object captions: is_, has_, or a verb and its preposition before it', () => {
    const boolean = { type: 'boolean' };
    const got = readGlyphPage(
      [
        run('How did you hear about us?', 20, 88),
        run('☐ Radio', 20, 100),
        run('☒ Newspaper', 120, 100),
        run('☐ Neighbour', 240, 100),
        run('☒ Veteran', 20, 130),
        run('☐ Homeowner', 120, 130),
      ],
      {
        referredByNewspaper: boolean,
        heard_via_radio: boolean,
        referred_by_neighbour: boolean,
        isVeteran: boolean,
        has_homeowner: boolean,
      },
    );
    expect(got).toEqual({
      referredByNewspaper: true,
      heard_via_radio: false,
      referred_by_neighbour: false,
      isVeteran: true,
      has_homeowner: false,
    });
  });
});

describe('an accounts-payable tool’s and a lender’s names', () => {
  it('reads a caption after the party a description or a to-verb names, and an account number printed "Acc #"', () => {
    const invoice = [
      at('INVOICE', 440, 40, 18),
      at('Northwind Parts Ltd', 40, 60),
      at('Order Number', 360, 90),
      at('PO-5521', 460, 90),
      at('Total', 360, 104),
      at('1,210.00', 460, 104),
      at('Westpac', 40, 300),
      at('Acc # 0099 1122', 40, 314),
      at('BIC WPACAU2S', 40, 328),
    ];
    const text = { type: 'string' };
    expect(
      extractPage(invoice, {
        po_number: { type: 'string', description: "the customer's order number" },
        remit_to_account_number: text,
        remit_to_bic: text,
      }),
    ).toEqual({ po_number: 'PO-5521', remit_to_account_number: '0099 1122', remit_to_bic: 'WPACAU2S' });
  });

  it('reads a borrower’s details on a payslip as its employee’s', () => {
    const stub = [...employeeStub, at('Social Security Number: 123-45-6789', 40, 120)];
    const text = { type: 'string' };
    expect(extractPage(stub, { borrower_name: text, borrower_ssn: text, borrower_zip: text })).toEqual({
      borrower_name: 'MARIA DELGADO',
      borrower_ssn: '123-45-6789',
      borrower_zip: '20203',
    });
  });
});

describe('a caption offering alternatives with slashes', () => {
  it('is a caption of each alternative: "Work/Cell Phone" captions the mobile phone', () => {
    const form = [
      at('Home Phone', 40, 200, 8),
      at('Work/Cell Phone', 200, 200, 8),
      at('E-mail', 380, 200, 8),
      at('555-0199', 60, 214, 11),
      at('555-0142', 230, 214, 11),
      at('ada@example.org', 400, 214, 11),
    ];
    expect(extractPage(form, { mobilePhone: { type: 'string' }, homePhone: { type: 'string' } })).toEqual({
      mobilePhone: '555-0142',
      homePhone: '555-0199',
    });
  });
});
