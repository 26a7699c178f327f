/**
 * Reading text into fields on ruled forms (CHANGELOG.md, "Forms: ruled boxes and check boxes"): the
 * pages are built from fragments as PP-OCR gives them on a scanned form, `afterRule` marking words that start
 * at a box's left rule.
 */
import { describe, expect, it } from 'vitest';
import { coerceScalar, parseDate } from '../src/extract/coerce.js';
import { tokenise } from '../src/extract/document-index.js';
import { extractFields } from '../src/extract/extract-fields.js';
import { buildPageLayout } from '../src/layout/build-blocks.js';
import { buildRows } from '../src/layout/build-lines.js';
import type { Fragment } from '../src/layout/types.js';

/** A fragment of `size` pt type at (x, y); `afterRule` when a box's rule runs down just left of it. */
function word(text: string, x: number, y: number, size: number, afterRule = false): Fragment {
  return {
    text,
    box: { x0: x, y0: y, x1: x + text.length * size * 0.55, y1: y + size },
    fontSize: size,
    confidence: 95,
    ...(afterRule && { afterRule }),
  };
}

function read(fragments: Fragment[], schema: Record<string, unknown>) {
  const pages = [buildPageLayout(1, 612, 792, 'ocr', buildRows(fragments))];
  return extractFields(pages, { type: 'object', properties: schema }, { fast: false }).data;
}

describe('captions of ruled boxes', () => {
  const caption = '21. DIAGNOSIS OR NATURE OF ILLNESS OR INJURY Relate A-L to service line below (24E)';
  const diagnosis = {
    type: 'array',
    items: { type: 'string' },
    description: 'Diagnosis or nature of illness or injury',
  };

  it("reads a box's value under its caption, not the caption's own instructions after the label", () => {
    const fragments = [word(caption, 20, 300, 6, true), word('A. R05.9', 24, 312, 9), word('B. I10', 84, 312, 9)];
    expect(read(fragments, { diagnosis })).toEqual({ diagnosis: ['R05.9', 'I10'] });
  });

  it("reads an enumerated list's items along the row of its box, past the caption's words, up to the next box", () => {
    // Items far apart along the row (the layout splits it at the gaps); the last starts past the caption's end,
    // one has lost its letter; the line after a rule is the next box's.
    const fragments = [
      word(caption, 20, 300, 6, true),
      word('A. J06.9', 24, 312, 9, true),
      word('K21.9', 170, 312, 9),
      word('C. I10', 320, 312, 9),
      word('PT-331193', 420, 312, 9, true),
    ];
    expect(read(fragments, { diagnosis })).toEqual({ diagnosis: ['J06.9', 'K21.9', 'I10'] });
  });

  it('reads the caption through the label that matches most of it, even when a shorter one matches better', () => {
    const fragments = [
      word('21. DIAGNOSIS OR NATURE OF ILLNES OR INJRY Relate A-L to service line below (24E)', 20, 300, 6, true),
      word('A. R05.9', 24, 312, 9),
      word('B. I10', 84, 312, 9),
    ];
    expect(read(fragments, { diagnosis })).toEqual({ diagnosis: ['R05.9', 'I10'] });
  });

  it('finds a caption whose words the OCR ran together after its box number', () => {
    const fragments = [word('25.FEDERALTAXI.D NUMBER', 20, 300, 6, true), word('50-3584445', 24, 312, 9)];
    const taxId = { type: 'string', description: 'Federal tax ID number' };
    expect(read(fragments, { tax_id: taxId })).toEqual({ tax_id: '50-3584445' });
  });

  it('keeps the words after an unruled label as its value', () => {
    const fragments = [
      word('Diagnosis or nature of illness or injury R05.9', 20, 300, 9),
      word('Page 1 of 2', 24, 312, 9),
    ];
    expect(read(fragments, { diagnosis })).toEqual({ diagnosis: ['R05.9'] });
  });
});

describe('values read from sub-boxes and OCR spacing', () => {
  const number = { type: 'number' as const };
  const text = { type: 'string' as const };

  it('reads a date whose sub-box rules the OCR read as a "1" or lost', () => {
    expect(parseDate('09 27 177')).toBe('1977-09-27');
    expect(parseDate('10 112145')).toBe('1945-10-12');
    expect(parseDate('05 2245')).toBe('1945-05-22');
    expect(parseDate('Visit 05 2245 at noon')).toBeNull();
    expect(coerceScalar('02丨02169', { type: 'string', format: 'date' }, true).value).toBe('1969-02-02');
  });

  it("reads a sub-box date with a fax's rules and specks read as marks between or after its digits", () => {
    expect(parseDate('08 126.194')).toBe('1994-08-26');
    expect(parseDate('04 115 -74')).toBe('1974-04-15');
    expect(parseDate('04 128 180..')).toBe('1980-04-28');
    expect(parseDate('Ref. 04 128 180..')).toBeNull();
  });

  it('reads dollars | cents with the box\'s "$" and the rule misread', () => {
    expect(coerceScalar('6 885 75', number, true).value).toBe(885.75);
    expect(coerceScalar('S 512|75', number, true).value).toBe(512.75);
    expect(coerceScalar('885 175', number, true).value).toBe(885.75);
    // A faxed rule broken into dots.
    expect(coerceScalar('131:25', number, true).value).toBe(131.25);
    expect(coerceScalar('$ 47 ! 10', number, true).value).toBe(47.1);
    expect(coerceScalar('50 00|', number, true).value).toBe(50);
    expect(coerceScalar('6 75', number, true).value).toBe(6.75);
  });

  it('undoes spacing slips of the OCR in text values', () => {
    expect(coerceScalar('(234 ) 555-4572', text, true).value).toBe('(234) 555-4572');
    expect(coerceScalar('BECKER,PETER', text, true).value).toBe('BECKER, PETER');
    expect(coerceScalar('PT-079049.', text, true).value).toBe('PT-079049');
    expect(coerceScalar('2207 ELM ST.', text, true).value).toBe('2207 ELM ST.');
    expect(coerceScalar('1,250 UNITS', text, true).value).toBe('1,250 UNITS');
    expect(coerceScalar('3,$25 Additional Tax', text, true).value).toBe('3, $25 Additional Tax');
  });

  it('balances parentheses the OCR lost or misread and drops a speck read as a trailing apostrophe', () => {
    expect(coerceScalar('302) 555-1094', text, true).value).toBe('(302) 555-1094');
    expect(coerceScalar('{302) 555-1094', text, true).value).toBe('(302) 555-1094');
    expect(coerceScalar('(627.) 555-0839', text, true).value).toBe('(627) 555-0839');
    expect(coerceScalar('SMITH (Jr.)', text, true).value).toBe('SMITH (Jr.)');
    expect(coerceScalar("OH'", text, true).value).toBe('OH');
  });

  it('joins the cents after a rule but not the next box\'s "$" to an amount', () => {
    const fragments = [
      word('28. TOTAL CHARGE', 410, 356, 6, true),
      word('29. AMOUNT PAID', 501, 356, 6, true),
      word('512', 461, 367, 10),
      word('75', 487, 367, 10, true),
      word('S', 502, 367, 10, true),
    ];
    expect(read(fragments, { total_charge: { type: 'number', description: 'Total charge' } })).toEqual({
      total_charge: 512.75,
    });
  });

  it('splits a list whose enumerating letters the OCR glued to the codes', () => {
    const diagnosis = { type: 'array', items: { type: 'string' }, description: 'Diagnosis codes' };
    const fragments = [word('DIAGNOSIS CODES', 20, 300, 6, true), word('A.E11.9 B.I10 .', 24, 312, 9)];
    expect(read(fragments, { diagnosis })).toEqual({ diagnosis: ['E11.9', 'I10'] });
  });
});

describe('blanks printed for a value to be written in', () => {
  const phone = { type: 'string', description: 'Telephone No.' };

  it('reads the value after an unfilled "( )" area code, not the bracket the OCR read as a word', () => {
    const fragments = [word('Telephone No.: (', 100, 200, 8), word(') 314-8888', 200, 200, 9)];
    expect(read(fragments, { telephone_no: phone })).toEqual({ telephone_no: '314-8888' });
  });

  it('reads under a caption past the brackets of a blank area code printed on their own', () => {
    const fragments = [word('Home Phone', 60, 300, 8), word('(', 60, 312, 8), word(')', 100, 312, 8)];
    fragments.push(word('414-2285', 120, 311, 10));
    expect(read(fragments, { home_phone: { type: 'string', description: 'Home Phone' } })).toEqual({
      home_phone: '414-2285',
    });
  });

  it('drops empty brackets and underscore rules around a value, but keeps a filled area code', () => {
    const text = { type: 'string' } as const;
    expect(coerceScalar('( ) 414-2285', text, true).value).toBe('414-2285');
    expect(coerceScalar('()122-3453', text, true).value).toBe('122-3453');
    expect(coerceScalar('Big Corp Landlord____', text, true).value).toBe('Big Corp Landlord');
    expect(coerceScalar('(302) 555-1094', text, true).value).toBe('(302) 555-1094');
  });
});

describe('captions the OCR misread', () => {
  it('splits an item letter glued to its caption off as a box number', () => {
    expect(tokenise('h.AUTQ ACCIDENT?').map((t) => t.raw)).toEqual(['h.', 'AUTQ', 'ACCIDENT?']);
    expect(tokenise('U.S.A').map((t) => t.raw)).toEqual(['U.S.A']);
  });

  it('takes no caption with another word in place of a label word, but words the OCR split elsewhere as a whole', () => {
    const insuredName = { type: 'string', description: "Insured's name" };
    const fragments = [word("a. INSURED'S DATE OF BIRTH", 380, 230, 6, true), word('10 28 65', 384, 242, 9)];
    expect(read(fragments, { insured_name: insuredName })).toEqual({ insured_name: null });
    const misread = [word("4. INSURD'S NAME", 380, 230, 6, true), word('BECKER, JAMES', 384, 242, 9)];
    expect(read(misread, { insured_name: insuredName })).toEqual({ insured_name: 'BECKER, JAMES' });
    const split = [word('26.PatiemtAcc ount', 40, 399, 6, true), word('PT-860510', 40, 410, 9, true)];
    expect(read(split, { account: { type: 'string', description: 'Patient account' } })).toEqual({
      account: 'PT-860510',
    });
  });

  it("reads a numbered caption's value below it, though the box's other captions beside it look like a number", () => {
    // A fax: the box's "SSN EIN" read as "EP4", and the value's row has a number beside it (the next box's).
    const taxId = { type: 'string', description: 'Federal tax ID number' };
    const fragments = [
      word('25.FEOERAL TAX1D NUM8ER', 20, 355, 6, true),
      word('EP4', 146, 356, 6),
      word('61-6537609', 23, 367, 9, true),
      word('PT-338218', 175, 366, 9, true),
    ];
    expect(read(fragments, { tax_id: taxId })).toEqual({ tax_id: '61-6537609' });
    // Unnumbered, the same label and number head a table row, as in "Loan Amt Paid  840.00" over "Vac Hrs  40.00".
    const row = [word('Loan Amt Paid', 20, 300, 9), word('840.00', 200, 300, 9), word('Vac Hrs', 20, 312, 9)];
    expect(read(row, { paid: { type: 'number', description: 'Loan amt paid' } })).toEqual({ paid: 840 });
  });

  it('reads a caption whose "No." the OCR glued to the word before it', () => {
    const account = { type: 'string', description: 'Patient account no.' };
    const fragments = [word('28 PATEN TS ACCOUNTNO.', 170, 355, 6, true), word('PT-338218', 175, 366, 9, true)];
    expect(read(fragments, { account })).toEqual({ account: 'PT-338218' });
    // But no other word stands in for the sign: "ACC OUNT" is no "account no" whose value is the "NO." after it.
    const split = [
      word('26.', 171, 356, 6, true),
      word('PATIENT S ACC OUNT NO.', 182, 356, 6),
      word('PT-397709', 175, 366, 9, true),
    ];
    const number = { type: 'string', description: "Patient's account number" };
    expect(read(split, { number })).not.toEqual({ number: 'NO.' });
    // A short word in the sign's place is another caption ("Invoice for:" is no "Invoice No.").
    const other = [word('Invoice for:', 20, 300, 9), word('ACME Ltd', 90, 300, 9)];
    expect(read(other, { invoice_no: { type: 'string', description: 'Invoice No.' } })).toEqual({ invoice_no: null });
  });

  it('passes over a box number the OCR misread before a caption', () => {
    const employer = { type: 'string', description: 'Employer' };
    const fragments = [word('&5 EMPLOYER', 20, 300, 6, true), word('ACME INC', 24, 312, 9)];
    expect(read(fragments, { employer })).toEqual({ employer: 'ACME INC' });
  });

  it("takes no label's own words for the value of a shorter label of the same field", () => {
    const taxId = { type: 'string', description: 'Federal tax ID number' };
    const fragments = [word('QXZ5 FEDERAL TAX ID NUMBER', 20, 300, 6, true), word('95-1607984', 24, 312, 9)];
    expect(read(fragments, { tax_id: taxId })).toEqual({ tax_id: '95-1607984' });
  });

  it("reads no other field's caption below an empty box as its value", () => {
    const fragments = [
      word('CTY', 22, 160, 6, true),
      word('CITY', 382, 160, 6, true),
      word('COLUMBUS', 24, 166, 9, true),
      word('ZIP CODE', 21, 176, 6, true),
      word('ZIP CODE', 381, 176, 6, true),
      word('43259', 24, 182, 9, true),
    ];
    const schema = { city: { type: 'string', description: 'City' }, zip: { type: 'string', description: 'Zip code' } };
    expect(read(fragments, schema)).toEqual({ city: 'COLUMBUS', zip: '43259' });
  });

  it("reads no numbered box caption below an empty box as its value, though it is no field's caption", () => {
    const name = { type: 'string', description: "Other insured's name" };
    const fragments = [
      word("9. OTHER INSURED'S NAME (Last Name, First Name, Middle Initial)", 20, 200, 6, true),
      word("a. OTHER INSURED'S POLICY OR GROUP NUMBER", 20, 212, 6, true),
    ];
    expect(read(fragments, { name })).toEqual({ name: null });
    // A value that starts with a number at the rule is still a value (a street address).
    const street = { type: 'string', description: "Patient's address" };
    const address = [
      word("5. PATIENT'S ADDRESS (No., Street)", 20, 200, 6, true),
      word('12 HARBOR WAY', 24, 212, 9, true),
    ];
    expect(read(address, { street })).toEqual({ street: '12 HARBOR WAY' });
  });

  it('finds an NPI whose caption the OCR lost by its check digit, when only one number carries one', () => {
    const npi = { type: 'string', description: 'NPI' };
    const lost = [word('a. NP!', 400, 430, 6, true), word('2989108289', 404, 440, 9)];
    expect(read(lost, { billing_npi: npi })).toEqual({ billing_npi: '2989108289' });
    const two = [...lost, word('2853994301', 404, 470, 9)];
    expect(read(two, { billing_npi: npi })).toEqual({ billing_npi: null });
  });
});
