/**
 * An invoice's line items read as a table (layout/build-blocks.ts, extract-fields.ts): a description wrapped onto
 * a second line stays in its row, and the usual other headings of the items' columns are read as their fields.
 */
import { describe, expect, it } from 'vitest';
import { renderPageMarkdown } from '../src/layout/render-text.js';
import { at, extractPage, page as layOut } from './text-layer-page.js';

const text = { type: 'string' };
const amount = { type: 'number' };

describe('line items', () => {
  it('keeps a description wrapped onto a second line in its row, and reads the rows after it', () => {
    const page = [
      at('Description', 40, 270),
      at('Qty', 300, 270),
      at('Unit Price', 360, 270),
      at('Amount', 470, 270),
      at('Industrial adhesive, 5 gal', 40, 284),
      at('4', 300, 284),
      at('85.00', 360, 284),
      at('340.00', 470, 284),
      at('Shipping pallets, heat', 40, 298),
      at('10', 300, 298),
      at('12.50', 360, 298),
      at('125.00', 470, 298),
      at('treated', 40, 310),
      at('Safety gloves', 40, 324),
      at('2', 300, 324),
      at('9.99', 360, 324),
      at('19.98', 470, 324),
    ];
    const items = { type: 'object', properties: { description: text, quantity: amount, unit_price: amount, amount } };
    expect(extractPage(page, { line_items: { type: 'array', items } }).line_items).toEqual([
      { description: 'Industrial adhesive, 5 gal', quantity: 4, unit_price: 85, amount: 340 },
      { description: 'Shipping pallets, heat treated', quantity: 10, unit_price: 12.5, amount: 125 },
      { description: 'Safety gloves', quantity: 2, unit_price: 9.99, amount: 19.98 },
    ]);
  });

  it('keeps a row per printed line in the text, in the order the page reads', () => {
    const markdown = renderPageMarkdown(
      layOut([
        at('Description', 40, 270),
        at('Amount', 470, 270),
        at('Shipping pallets, heat', 40, 284),
        at('125.00', 470, 284),
        at('treated', 40, 296),
        at('Safety gloves', 40, 310),
        at('19.98', 470, 310),
      ])[0]!,
    );
    expect(markdown).toContain('| Shipping pallets, heat | 125.00 |\n| treated |  |\n| Safety gloves | 19.98 |');
  });

  it("leaves a line under a table's last row out of it", () => {
    const page = [
      at('Description', 40, 270),
      at('Amount', 470, 270),
      at('Consulting, March', 40, 284),
      at('900.00', 470, 284),
      at('Thank you for your business', 40, 296),
    ];
    const items = { type: 'object', properties: { description: text, amount } };
    expect(extractPage(page, { items: { type: 'array', items } }).items).toEqual([
      { description: 'Consulting, March', amount: 900 },
    ]);
  });

  it('reads a price column headed Rate and an article code column headed Item', () => {
    const page = [
      at('Item', 40, 270),
      at('Description', 100, 270),
      at('Quantity', 300, 270),
      at('Rate', 380, 270),
      at('Total', 470, 270),
      at('A-100', 40, 284),
      at('Industrial adhesive', 100, 284),
      at('4', 300, 284),
      at('$85.00', 380, 284),
      at('$340.00', 470, 284),
      at('B-220', 40, 298),
      at('Safety gloves', 100, 298),
      at('2', 300, 298),
      at('$9.99', 380, 298),
      at('$19.98', 470, 298),
    ];
    const items = { type: 'object', properties: { sku: text, description: text, qty: amount, price: amount } };
    expect(extractPage(page, { items: { type: 'array', items } }).items).toEqual([
      { sku: 'A-100', description: 'Industrial adhesive', qty: 4, price: 85 },
      { sku: 'B-220', description: 'Safety gloves', qty: 2, price: 9.99 },
    ]);
  });
});

describe('line items under a row of captions the layout built no table at', () => {
  it("reads an item whose description runs over two lines with its figures between them, by the captions' own words", () => {
    // The Sliced Invoices template: the figures are centred on the item, between its name and its description.
    const page = [
      at('Hrs/Qty', 52.9, 332.6, 8.8),
      at('Service', 102.5, 332.6, 8.8),
      at('Rate/Price', 346.9, 332.6, 8.8),
      at('Adjust', 439.8, 332.6, 8.8),
      at('Sub Total', 504.4, 332.6, 8.8),
      at('Web Design', 102.5, 352.0, 8.8),
      at('1.00', 60.2, 356.8, 8.8),
      at('$85.00', 363.0, 356.8, 8.8),
      at('0.00%', 442.2, 356.8, 8.8),
      at('$85.00', 517.6, 356.8, 8.8),
      at('This is a sample description...', 102.5, 362.4, 7.9),
      at('Sub Total', 397.3, 393.1, 8.8),
      at('$85.00', 517.6, 393.1, 8.8),
    ];
    const items = {
      type: 'object',
      properties: {
        description: text,
        quantity: amount,
        unit_price: amount,
        discount_percent: amount,
        line_amount: amount,
      },
    };
    expect(extractPage(page, { lines: { type: 'array', items } }).lines).toEqual([
      {
        description: 'Web Design This is a sample description...',
        quantity: 1,
        unit_price: 85,
        discount_percent: 0,
        line_amount: 85,
      },
    ]);
  });
});
