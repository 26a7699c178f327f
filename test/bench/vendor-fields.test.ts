import { describe, expect, it } from 'vitest';
import { fieldsFromPairs, propertyName } from '../../bench/support/vendor-fields.js';
import { azureLines, textractLines, textractPairs } from '../../bench/support/vendor-recordings.js';

describe('propertyName', () => {
  it('is the key text in snake_case, a number sign read as "number", an item number dropped', () => {
    expect(propertyName('Invoice Number:')).toBe('invoice_number');
    expect(propertyName('ACC #')).toBe('acc_number');
    expect(propertyName('Day/Message/Cell Phone')).toBe('day_message_cell_phone');
    expect(propertyName('3. Rent/Buyers only: Landlord Name:')).toBe('rent_buyers_only_landlord_name');
    expect(propertyName('(2) Date')).toBe('date');
    expect(propertyName('Section 42')).toBe('section_42');
    expect(propertyName('-')).toBe('');
  });
});

describe('fieldsFromPairs', () => {
  it('types a value only when it obviously is a number or a date, and a check box as a boolean', () => {
    const { schema, truth } = fieldsFromPairs(
      [
        { key: 'Total Due', value: '$1,093.50', selected: null },
        { key: 'Hours', value: '40.00', selected: null },
        { key: 'Zip', value: '12345', selected: null },
        { key: 'Due Date', value: 'January 31, 2016', selected: null },
        { key: 'Pay date:', value: '7/25/2008', selected: null },
        { key: 'Condo/Townhome', value: '', selected: true },
        { key: 'Studio', value: '', selected: false },
      ],
      [],
    );
    expect(truth).toEqual({
      total_due: 1093.5,
      hours: 40,
      zip: '12345',
      due_date: 'January 31, 2016',
      pay_date: '7/25/2008',
      condo_townhome: true,
      studio: false,
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        total_due: { type: 'number', description: 'Total Due' },
        hours: { type: 'number', description: 'Hours' },
        zip: { type: 'string', description: 'Zip' },
        due_date: { type: 'string', format: 'date', description: 'Due Date' },
        pay_date: { type: 'string', format: 'date', description: 'Pay date:' },
        condo_townhome: { type: 'boolean', description: 'Condo/Townhome' },
        studio: { type: 'boolean', description: 'Studio' },
      },
    });
  });

  it('skips empty values, keeps a repeated key with one value, leaves out a key with two', () => {
    const { truth, ambiguous } = fieldsFromPairs(
      [
        { key: 'City', value: '', selected: null },
        { key: 'City', value: 'Reno', selected: null },
        { key: 'Sub Total', value: '$85.00', selected: null },
        { key: 'Sub Total', value: '$85.00', selected: null },
        { key: 'Fax:', value: '(702) 486-1441', selected: null },
        { key: 'Fax:', value: '(775) 684-0740', selected: null },
      ],
      [],
    );
    expect(truth).toEqual({ city: 'Reno', sub_total: 85 });
    expect(ambiguous).toEqual(['fax']);
  });

  it('applies a correction to the pair with that key and vendor value only, drops a pair corrected to null, and lists a correction that matched nothing', () => {
    const result = fieldsFromPairs(
      [
        { key: 'City', value: 'Town', selected: null },
        { key: 'State', value: 'MN', selected: null },
        { key: 'Rent $ 2000', value: '', selected: true },
      ],
      [
        { key: 'City', vendorValue: 'Town', value: 'Sample Town', why: 'test' },
        { key: 'State', vendorValue: 'NV', value: 'XX', why: 'another value: not applied' },
        { key: 'Rent $ 2000', vendorValue: true, value: null, why: 'test' },
      ],
    );
    const { truth, unused } = result;
    expect(truth).toEqual({ city: 'Sample Town', state: 'MN' });
    expect(unused.map((c) => c.key)).toEqual(['State']);
  });
});

describe('reading recorded answers', () => {
  const word = (id: string, text: string) => ({ Id: id, BlockType: 'WORD', Text: text });
  const textract = {
    Blocks: [
      { Id: 'l1', BlockType: 'LINE', Text: 'Invoice Number INV-1' },
      { Id: 'l2', BlockType: 'LINE', Text: 'Paid' },
      word('w1', 'Invoice'),
      word('w2', 'Number'),
      word('w3', 'INV-1'),
      word('w4', 'Paid'),
      {
        Id: 'k1',
        BlockType: 'KEY_VALUE_SET',
        EntityTypes: ['KEY'],
        Relationships: [
          { Type: 'CHILD', Ids: ['w1', 'w2'] },
          { Type: 'VALUE', Ids: ['v1'] },
        ],
      },
      { Id: 'v1', BlockType: 'KEY_VALUE_SET', EntityTypes: ['VALUE'], Relationships: [{ Type: 'CHILD', Ids: ['w3'] }] },
      {
        Id: 'k2',
        BlockType: 'KEY_VALUE_SET',
        EntityTypes: ['KEY'],
        Relationships: [
          { Type: 'CHILD', Ids: ['w4'] },
          { Type: 'VALUE', Ids: ['v2'] },
        ],
      },
      { Id: 'v2', BlockType: 'KEY_VALUE_SET', EntityTypes: ['VALUE'], Relationships: [{ Type: 'CHILD', Ids: ['s1'] }] },
      { Id: 's1', BlockType: 'SELECTION_ELEMENT', SelectionStatus: 'SELECTED' },
    ],
  };

  it("reads Textract's key-value pairs with their check boxes, and its lines in order", () => {
    expect(textractPairs(textract)).toEqual([
      { key: 'Invoice Number', value: 'INV-1', selected: null },
      { key: 'Paid', value: '', selected: true },
    ]);
    expect(textractLines(textract)).toEqual(['Invoice Number INV-1\nPaid']);
  });

  it("reads Azure's lines per page", () => {
    const azure = {
      analyzeResult: {
        pages: [
          { lines: [{ content: 'Safety report' }, { content: 'Site: Redmond' }] },
          { lines: [{ content: 'Page 2' }] },
        ],
      },
    };
    expect(azureLines(azure)).toEqual(['Safety report\nSite: Redmond', 'Page 2']);
  });
});
