import { describe, expect, it } from 'vitest';
import { createDocumentAnalyser } from '../src/analyse-document.js';
import type { PageOcr } from '../src/page-ocr.js';
import { pdfToBuffer } from './fixtures.js';

/** A text-layer page is never OCR'd: an OCR that fails proves it. */
const noOcr: PageOcr = {
  version: 'none',
  read: () => Promise.reject(new Error('a text-layer page was OCR’d')),
  close: () => Promise.resolve(),
};

/** An invoice's totals and payment lines with a large "PAID" stamp set at 45° across them. */
function stampedInvoice(): Promise<Buffer> {
  return pdfToBuffer((doc) => {
    doc.font('Helvetica').fontSize(9);
    doc.text('Tax', 380, 400).text('$8.50', 470, 400);
    doc.text('Total', 374, 416).text('$93.50', 466, 416);
    doc.text('ANZ Bank', 43, 470).text('ACC # 1234 1234', 43, 483).text('BSB # 4321 432', 43, 496);
    doc
      .save()
      .rotate(-45, { origin: [300, 450] })
      .fontSize(120)
      .fillColor('#dddddd')
      .text('Paid', 200, 400);
    doc.restore();
  });
}

describe('text set at an angle on a text-layer page', () => {
  it('is left out of the lines, which stay as printed', async () => {
    const analysed = await createDocumentAnalyser(noOcr).analyse(await stampedInvoice(), 'pdf');
    const lines = analysed.pages[0]!.rows.flatMap((row) => row.lines.map((line) => line.text));
    expect(lines).toEqual(['Tax', '$8.50', 'Total', '$93.50', 'ANZ Bank', 'ACC # 1234 1234', 'BSB # 4321 432']);
  });
});
