import { describe, expect, it } from 'vitest';
import type { Fragment } from '../src/layout/types.js';
import { at, extractPage } from './text-layer-page.js';

/** Lines stacked at 12.5 pt, as a text layer sets an address block. */
function stack(lines: string[], x: number, y: number): Fragment[] {
  return lines.map((text, i) => at(text, x, y + 12.5 * i, 9));
}

describe('values printed as a block of lines', () => {
  it('reads the whole block under a label alone on its line, up to a gap or a line that starts with a label', () => {
    const data = extractPage(
      [
        ...stack(['To:', 'Test Business', '123 Somewhere St', 'Melbourne, VIC 3000'], 40, 100),
        // Two lines' spacing below the block: another paragraph, not part of it.
        at('Thank you for your business', 40, 160, 9),
        ...stack(['From:', 'DEMO Ltd', 'Phone: 555 0100'], 250, 100),
        ...stack(['Issued:', 'March 5, 2024', 'Page 1 of 2'], 450, 100),
      ],
      {
        to: { type: 'string', description: 'To' },
        from: { type: 'string', description: 'From' },
        issued: { type: 'string', format: 'date', description: 'Issued' },
      },
    );
    expect(data).toEqual({
      to: 'Test Business 123 Somewhere St Melbourne, VIC 3000',
      from: 'DEMO Ltd',
      issued: '2024-03-05',
    });
  });

  it('reads the block under a value right of its label, up to the next label of a column of labels', () => {
    const data = extractPage(
      [
        at('Bill to:', 40, 100, 9),
        ...stack(['ACME Pty Ltd', '12 Main Road', 'Springfield'], 110, 100),
        at('Ship to:', 40, 137.5, 9),
        at('Warehouse 9', 110, 137.5, 9),
      ],
      { bill_to: { type: 'string', description: 'Bill to' } },
    );
    expect(data).toEqual({ bill_to: 'ACME Pty Ltd 12 Main Road Springfield' });
  });

  it('joins the second line of a table cell, but not the caption under a form box’s value', () => {
    const data = extractPage(
      [
        at('Service', 100, 100, 9),
        at('Rate', 300, 100, 9),
        at('Web Design', 100, 120, 9),
        at('$85.00', 300, 124, 9),
        at('A sample description', 100, 130.5, 8),
        // A form: the value under the caption, the next box's caption just under it, a little to the left.
        at('Home Address', 40, 300, 9),
        at('123 Sample Street', 42, 312, 9),
        at('Mailing Address', 40, 323, 9),
      ],
      {
        service: { type: 'string', description: 'Service' },
        home_address: { type: 'string', description: 'Home Address' },
      },
    );
    expect(data).toEqual({ service: 'Web Design A sample description', home_address: '123 Sample Street' });
  });

  it('joins no line under a form box’s value on an OCR page, where lines starting at one rule meet by chance', () => {
    const box = [at('25. FEDERAL TAX ID NUMBER', 20.5, 356, 9), at('95-1607984', 24.8, 367, 9)];
    const next = at('31. SIGNATURE OF PHYSICIAN', 24.8, 377, 9);
    const properties = { tax_id: { type: 'string', description: 'Federal tax ID number' } };
    expect(extractPage([...box, next], properties, 'ocr')).toEqual({ tax_id: '95-1607984' });
  });

  it('reads the block under a value printed after its label on the label’s line', () => {
    // One run "Bill to: ACME Pty Ltd" (the value starts at its 10th character) and a run per word group.
    const billTo = [at('Bill to: ACME Pty Ltd', 40, 100, 9), at('12 Main Road', 40 + 9 * 4.95, 112.5, 9)];
    const shipTo = [at('Ship to:', 300, 100, 9), ...stack(['Warehouse 9', '7 Dock Rd'], 345, 100)];
    const after = at('Phone: 02 9999 0000', 345, 125, 9);
    const properties = {
      bill_to: { type: 'string', description: 'Bill to' },
      ship_to: { type: 'string', description: 'Ship to' },
    };
    expect(extractPage([...billTo, ...shipTo, after], properties)).toEqual({
      bill_to: 'ACME Pty Ltd 12 Main Road',
      ship_to: 'Warehouse 9 7 Dock Rd',
    });
  });

  it('reads the block under a label whose row goes on with another label and its value', () => {
    const billTo = stack(['Bill To:', 'ACME Ltd', '1 Road'], 40, 100);
    const properties = { bill_to: { type: 'string', description: 'Bill To' } };
    expect(extractPage([...billTo, at('Invoice Date: Jan 5, 2024', 400, 100, 9)], properties)).toEqual({
      bill_to: 'ACME Ltd 1 Road',
    });
  });

  describe('a value after its label that wraps back to the label’s left edge', () => {
    /** A line across most of the page: the text's right edge, against which a line is full or not. */
    const footer = at(
      'Form 12-B: report every incident to the safety team within one working day of seeing it',
      40,
      400,
    );
    const properties = {
      findings: { type: 'string', description: 'Findings' },
      submitter: { type: 'string', description: 'Submitter' },
    };

    it('joins the line under the label when the line above is full (its next word did not fit)', () => {
      const fragments = [
        at('Findings: Control room temperatures vary significantly during the normal hours', 40, 100),
        at('of operations.', 42, 112.5),
        // The next field at line spacing: the wrap shows only in the full line above.
        at('Submitter: Ben van Zyl', 40, 125),
        footer,
      ];
      expect(extractPage(fragments, properties)).toEqual({
        findings: 'Control room temperatures vary significantly during the normal hours of operations.',
        submitter: 'Ben van Zyl',
      });
    });

    it('joins the line under the label that ends the field, a blank line before the next', () => {
      const fragments = [
        at('Findings: Backup water containers have minor cracks.', 40, 100),
        at('Water container #12 and #15', 40, 112.5),
        at('Submitter: Dirk Fourie', 40, 150),
        footer,
      ];
      expect(extractPage(fragments, properties)).toEqual({
        findings: 'Backup water containers have minor cracks. Water container #12 and #15',
        submitter: 'Dirk Fourie',
      });
    });

    it('joins no line under the label whose row carries a label, glued to its value or broken by the OCR', () => {
      const payer = { payer: { type: 'string', description: 'Payer' } };
      for (const below of [
        [at('Member ID:ZWA574729634', 40, 112.5)],
        [at('nsurance', 40, 112.5), at('ame: Sunrise Health', 100, 112.5)],
      ])
        expect(extractPage([at('Payer: Evergreen Health Partners EPO', 40, 100), ...below, footer], payer)).toEqual({
          payer: 'Evergreen Health Partners EPO',
        });
    });

    it('joins no line under a short value when more lines follow at line spacing: that is text of its own', () => {
      const fragments = [
        at('Reference: AB-1234', 40, 100),
        at('Payment due within 30 days', 40, 112.5),
        at('Bank: First National', 40, 125),
        footer,
      ];
      expect(extractPage(fragments, { reference: { type: 'string', description: 'Reference' } })).toEqual({
        reference: 'AB-1234',
      });
    });
  });
});
