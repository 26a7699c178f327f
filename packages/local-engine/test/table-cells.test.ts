import { describe, expect, it } from 'vitest';
import { fieldWords } from '../src/extract/table-cells.js';
import type { Fragment } from '../src/layout/types.js';
import { at, extractPage } from './text-layer-page.js';

const amount = { type: 'number' } as const;

/** A payslip's earnings table: captions over right-aligned figures, row labels at the left. */
const earnings = [
  at('Earnings', 40, 100),
  at('rate', 150, 100),
  at('hours', 210, 100),
  at('this period', 280, 100),
  at('year to date', 370, 100),
  at('Regular', 40, 114),
  at('10.00', 150, 114),
  at('32.00', 210, 114),
  at('320.00', 290, 114),
  at('16,640.00', 370, 114),
  at('Overtime', 40, 128),
  at('15.00', 150, 128),
  at('2.00', 215, 128),
  at('45.00', 295, 128),
  at('780.00', 380, 128),
  at('Holiday', 40, 142),
  at('10.00', 150, 142),
  at('8.00', 215, 142),
  at('80.00', 295, 142),
  at('4,160.00', 375, 142),
  at('Gross Pay', 40, 156),
  at('445.00', 290, 156),
  at('21,580.00', 370, 156),
  at('Net Pay', 40, 170),
  at('380.00', 290, 170),
  at('18,200.00', 370, 170),
];

describe('a field named by a row label and a column caption', () => {
  it('reads the cell where the row crosses the column, abbreviations spelled out', () => {
    expect(
      extractPage(earnings, {
        overtime_hours: amount,
        regular_rate: amount,
        holiday_earnings_this_period: amount,
        net_pay_ytd: amount,
        regularHrs: amount,
      }),
    ).toEqual({
      overtime_hours: 2,
      regular_rate: 10,
      holiday_earnings_this_period: 80,
      net_pay_ytd: 18200,
      regularHrs: 32,
    });
  });

  it("prefers the cell to the row's caption matched by part of the field's words", () => {
    // "Gross pay" alone matches the row's label, which reads its first figure (this period's).
    const properties = { gross_pay_ytd: { ...amount, description: 'Gross pay, year to date' } };
    expect(extractPage(earnings, properties)).toEqual({ gross_pay_ytd: 21580 });
  });

  it("reads a number named by its row alone from the row's amount for the period, not its rate", () => {
    expect(extractPage(earnings, { overtime_pay: amount, regular: amount })).toEqual({
      overtime_pay: 45,
      regular: 320,
    });
  });

  it('reads no figure of a row whose printed label the field names only in part, without a column', () => {
    const receipt = [at('TOTAL QTY:', 40, 100), at('3', 200, 100)];
    expect(extractPage(receipt, { total_amount: amount })).toEqual({ total_amount: null });
  });

  it('reads nothing where no row label fits the words, nor from a row whose label has another word', () => {
    // "Net Pay" holds "pay" but not "gross"; no row is a bonus.
    const rows = earnings.filter((f) => !['Gross Pay', '445.00', '21,580.00'].includes(f.text));
    expect(extractPage(rows, { gross_pay_ytd: amount, bonus_ytd: amount })).toEqual({
      gross_pay_ytd: null,
      bonus_ytd: null,
    });
  });

  it('tells the captions of a scanned header line apart by the gaps between its words', () => {
    // The OCR read "this period year to date" as one line of words; only the gap after "period" parts them.
    const word = (text: string, x: number, y: number): Fragment => ({ ...at(text, x, y), confidence: 90 });
    const scanned = [
      word('Earnings', 40, 100),
      word('hours', 150, 100),
      word('this', 280, 100),
      word('period', 305, 100),
      word('year', 346, 100),
      word('to', 371, 100),
      word('date', 385, 100),
      word('Overtime', 40, 114),
      word('2.00', 155, 114),
      word('45.00', 290, 114),
      word('780.00', 350, 114),
    ];
    const properties = { overtime_hours: amount, overtime_this_period: amount, overtime_ytd: amount };
    expect(extractPage(scanned, properties, 'ocr')).toEqual({
      overtime_hours: 2,
      overtime_this_period: 45,
      overtime_ytd: 780,
    });
  });

  it("reads a statement's amounts right-aligned under captions at their columns' left", () => {
    const statement = [
      at('Date', 40, 100),
      at('Description', 110, 100),
      at('Credit', 260, 100),
      at('Debit', 340, 100),
      at('Balance', 420, 100),
      at('01/03/2024', 40, 114),
      at('Opening balance', 110, 114),
      at('1,200.00', 440, 114),
      at('01/05/2024', 40, 128),
      at('Deposit', 110, 128),
      at('500.00', 297, 128),
      at('1,700.00', 440, 128),
      at('01/09/2024', 40, 142),
      at('ATM Withdrawal', 110, 142),
      at('60.00', 382, 142),
      at('1,640.00', 440, 142),
    ];
    const properties = {
      deposit_credit: amount,
      withdrawal_debit: amount,
      deposit_date: { type: 'string', format: 'date' },
    };
    expect(extractPage(statement, properties)).toEqual({
      deposit_credit: 500,
      withdrawal_debit: 60,
      deposit_date: '2024-01-05',
    });
  });

  it("reads an invoice's totals block under the line items' amount column", () => {
    const invoice = [
      at('Description', 40, 100),
      at('Qty', 250, 100),
      at('Unit Price', 320, 100),
      at('Amount', 420, 100),
      at('Widget', 40, 114),
      at('2', 255, 114),
      at('10.00', 325, 114),
      at('20.00', 430, 114),
      at('Gadget', 40, 128),
      at('1', 255, 128),
      at('30.00', 325, 128),
      at('30.00', 430, 128),
      at('Subtotal', 320, 150),
      at('50.00', 430, 150),
      at('Tax (8%)', 320, 164),
      at('4.00', 435, 164),
      at('Total', 320, 178),
      at('54.00', 430, 178),
    ];
    expect(extractPage(invoice, { tax_amount: amount })).toEqual({ tax_amount: 4 });
  });
});

describe('captions printed otherwise', () => {
  it('reads a caption stacked over two lines as one ("This" over "Period")', () => {
    const stacked = [
      at('This', 280, 100),
      at('Year', 370, 100),
      at('Period', 280, 110),
      at('to Date', 370, 110),
      at('Overtime', 40, 124),
      at('45.00', 285, 124),
      at('780.00', 375, 124),
    ];
    expect(extractPage(stacked, { overtime_this_period: amount, overtime_ytd: amount })).toEqual({
      overtime_this_period: 45,
      overtime_ytd: 780,
    });
  });

  it('reads a caption naming two things ("Hrs/Qty") and a quantity printed before the row label', () => {
    const items = [
      at('Hrs/Qty', 40, 100),
      at('Service', 100, 100),
      at('Rate/Price', 300, 100),
      at('Sub Total', 400, 100),
      at('2.00', 45, 114),
      at('Web Design', 100, 114),
      at('$85.00', 305, 114),
      at('$170.00', 400, 114),
    ];
    expect(extractPage(items, { web_design_quantity: amount, web_design_rate: amount })).toEqual({
      web_design_quantity: 2,
      web_design_rate: 85,
    });
  });
});

describe('lines over a figure that are no caption', () => {
  it('walks up past a `Label: value` line to the caption over the column', () => {
    const lines = [
      at('Allowances', 100, 72),
      at('Status: single filer', 100, 100),
      at('State', 40, 114),
      at('2', 110, 114),
    ];
    expect(extractPage(lines, { state_allowances: { type: 'integer' } })).toEqual({ state_allowances: 2 });
  });
});

describe("a field's words", () => {
  it("read a table's wordings of one concept as one word, from the lexicon's cell words", () => {
    expect(fieldWords('gross pay year to date')).toEqual(fieldWords('Gross Pay YTD'));
    expect(fieldWords('overtime hrs this period')).toEqual(['overtime', '[hours]', '[current-period]']);
    expect(fieldWords('amount of tax')).toEqual(['[amount]', 'tax']);
    expect(fieldWords('Überstunden kumuliert')).toEqual(fieldWords('uberstunden ytd'));
  });

  it("reads a German payslip's running total and hours under an English name", () => {
    const lohn = [
      at('Lohnart', 40, 100),
      at('Stunden', 180, 100),
      at('Betrag', 260, 100),
      at('Kumuliert', 350, 100),
      at('Grundlohn', 40, 114),
      at('160,00', 180, 114),
      at('3.200,00', 260, 114),
      at('35.200,00', 350, 114),
      at('Zuschlag', 40, 128),
      at('12,00', 185, 128),
      at('180,00', 265, 128),
      at('1.980,00', 355, 128),
    ];
    expect(extractPage(lohn, { grundlohn_ytd: amount, zuschlag_hours: amount, grundlohn: amount })).toEqual({
      grundlohn_ytd: 35200,
      zuschlag_hours: 12,
      grundlohn: 3200,
    });
  });
});
