/**
 * A contact box captioned only by what it holds ("Address:", "Telephone No.:"), its owner named by the caption just
 * before it (CHANGELOG.md, "Questions, boxes and contact boxes by their words"). Made-up pages only.
 */
import { describe, expect, it } from 'vitest';
import { at, extractPage } from './text-layer-page.js';

/** An office's telephone at the top; the landlord's box on two lines further down. */
const application = [
  at('OFFICE FOR ALL OTHER AREAS', 40, 60),
  at('Telephone: (775) 684-0730', 40, 74),
  at('3. Rent/Buyers only: Landlord, Project/Complex, Mortgage Company Name: Big Corp', 40, 300),
  at('Address: 456 Landlord Town', 40, 314),
  at('Telephone No.: 314-8888', 320, 314),
];
const text = { type: 'string' };

describe("a contact box by its owner's caption", () => {
  it("reads an owner's address and telephone at bare captions under the caption naming the owner", () => {
    expect(extractPage(application, { landlordAddress: text, landlordPhone: text })).toEqual({
      landlordAddress: '456 Landlord Town',
      landlordPhone: '314-8888',
    });
  });

  it('reads a nested group the same way, and nothing for an owner the page never names', () => {
    expect(
      extractPage(application, {
        landlord: { type: 'object', properties: { address: text } },
        lenderAddress: text,
      }),
    ).toEqual({ landlord: { address: '456 Landlord Town' }, lenderAddress: null });
  });
});

describe('a sub-caption under its heading', () => {
  /** A payslip's withholding block: a heading, and a caption a line for each tax under it. */
  const payslip = [
    at('Taxable Marital Status: Married', 76, 96),
    at('Exemptions/Allowances:', 76, 106),
    // As the OCR reads it, the space after the comma lost.
    at('Federal: 3,$25 Additional Tax', 86, 116),
    at('State:', 86, 126),
    at('2', 120, 126),
    at('Local: 2', 86, 136),
    at('Federal Income Tax', 300, 200),
    at('-40.00', 480, 200),
  ];
  const count = { type: 'integer' };

  it('reads a field at the caption of some of its words under the heading of the others, and the number before a described extra', () => {
    expect(
      extractPage(payslip, { federalExemptions: count, federal_allowances: count, localExemptions: count }),
    ).toEqual({ federalExemptions: 3, federal_allowances: 3, localExemptions: 2 });
  });

  it('reads nothing under a heading that says none of the rest of its words', () => {
    expect(extractPage(payslip, { federalDeductions: count })).toEqual({ federalDeductions: null });
  });
});
