import { describe, expect, it } from 'vitest';
import { repairGluedAddress } from '../src/extract/address-text.js';
import { indexDocument } from '../src/extract/document-index.js';
import { extractFields } from '../src/extract/extract-fields.js';
import { classifyField } from '../src/extract/field-roles.js';
import { findParty } from '../src/extract/find-parties.js';
import { at, page } from './text-layer-page.js';

/** A schema of text properties, each with an optional description. */
function textSchema(properties: Record<string, string>) {
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, description]) => [
        name,
        description ? { type: 'string', description } : { type: 'string' },
      ]),
    ),
  };
}

describe('party fields in a user’s words', () => {
  it('name the sender and what of it is asked: name, address, e-mail, phone', () => {
    expect(classifyField(['employer'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['supplier_email'], 'string', undefined)).toBe('issuer-email');
    expect(classifyField(['vendor_phone'], 'string', undefined)).toBe('issuer-phone');
    expect(classifyField(['vendor', 'address'], 'string', undefined)).toBe('issuer-address');
    expect(classifyField(['name'], 'string', undefined, { description: 'company paying the wages' })).toBe('issuer');
  });

  it('name the recipient, the delivery point and the payee', () => {
    expect(classifyField(['employee_name'], 'string', undefined)).toBe('recipient');
    expect(classifyField(['employee_address'], 'string', undefined)).toBe('recipient-address');
    expect(classifyField(['bill_to'], 'string', undefined)).toBe('recipient');
    expect(classifyField(['client', 'email'], 'string', undefined)).toBe('recipient-email');
    expect(classifyField(['ship_to_address'], 'string', undefined)).toBe('delivery-address');
    expect(classifyField(['who'], 'string', undefined, { description: 'who the invoice is addressed to' })).toBe(
      'recipient',
    );
    // A phrase naming the recipient outweighs a weak sender word ahead of it.
    expect(
      classifyField(['addressee'], 'string', undefined, { description: 'the business the letter is sent to' }),
    ).toBe('recipient');
    expect(classifyField(['payee'], 'string', undefined)).toBe('payee');
    expect(classifyField(['remit_to_address'], 'string', undefined)).toBe('payee-address');
    expect(classifyField(['paidTo'], 'string', undefined, { description: 'Who the expense was paid to' })).toBe(
      'payee',
    );
    expect(classifyField(['paid_by'], 'string', undefined)).toBe('payer');
    // Whom the goods were bought from, a trader, a store chain; two names for the sender, but not two parties.
    for (const name of ['purchasedFrom', 'bought_from', 'trader', 'storeChain', 'vendor_or_merchant'])
      expect(classifyField([name], 'string', undefined), name).toBe('issuer');
    expect(classifyField(['who'], 'string', undefined, { description: 'Who the goods were purchased from' })).toBe(
      'issuer',
    );
    expect(classifyField(['customer_or_vendor'], 'string', undefined)).toBeNull();
    expect(classifyField(['sold_by'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['from_email'], 'string', undefined)).toBe('issuer-email');
    expect(classifyField(['to_address'], 'string', undefined)).toBe('recipient-address');
    expect(classifyField(['from'], 'string', undefined)).toBeNull();
  });

  it('leave ids of a party, third parties and someone’s other address to label matching', () => {
    // Before: any text field with a sender word was the issuer's name ("vendor_tax_id" got the company name).
    expect(classifyField(['vendor_tax_id'], 'string', undefined)).toBeNull();
    expect(classifyField(['mortgage_company_name'], 'string', undefined)).toBeNull();
    expect(classifyField(['landlord', 'address'], 'string', undefined)).toBeNull();
    // Before: every top-level address was the issuer's.
    expect(classifyField(['home_address'], 'string', undefined)).toBeNull();
    // A name word that is neither a party nor a detail asks for something else of the party.
    expect(
      classifyField(['relationship'], 'string', undefined, { description: 'Patient relationship to the employer' }),
    ).toBeNull();
    expect(classifyField(['billing_npi'], 'string', undefined)).toBeNull();
    expect(classifyField(['address'], 'string', undefined)).toBe('issuer-address');
  });

  it('reads a party named with a word of no known meaning as the party when its title or description says so', () => {
    // An expense system's vendor list entry, a supplier's label: the title or the description names the party.
    expect(classifyField(['vendorListItem'], 'string', undefined, { title: 'Vendor' })).toBe('issuer');
    expect(classifyField(['supplierLabel'], 'string', undefined, { title: 'Supplier name' })).toBe('issuer');
    expect(classifyField(['vendorListItem'], 'string', undefined, { description: 'Vendor or merchant name' })).toBe(
      'issuer',
    );
    // Without such words, or when they say something else of the party, it stays something else.
    expect(classifyField(['vendorListItem'], 'string', undefined)).toBeNull();
    expect(classifyField(['vendor_category'], 'string', undefined, { title: 'Vendor category' })).toBeNull();
    expect(
      classifyField(['vendor_category'], 'string', undefined, { description: 'Category of the vendor' }),
    ).toBeNull();
    expect(
      classifyField(['vendorListItem'], 'string', undefined, { description: 'Customer or vendor name' }),
    ).toBeNull();
  });

  it('reads a name that says nothing of a party by its title, and a party described as the one providing or buying', () => {
    expect(classifyField(['emitter'], 'string', undefined, { title: 'Issuer' })).toBe('issuer');
    expect(classifyField(['field_7'], 'string', undefined, { title: 'Customer address' })).toBe('recipient-address');
    expect(classifyField(['emitter'], 'string', undefined)).toBeNull();
    expect(classifyField(['field_7'], 'string', undefined, { title: 'Notes' })).toBeNull();
    const providing = { description: 'The party providing the goods or services' };
    expect(classifyField(['AccountingSupplierParty'], 'string', undefined, providing)).toBe('issuer');
    expect(classifyField(['from'], 'string', undefined, { title: 'From', ...providing })).toBe('issuer');
    expect(
      classifyField(['AccountingCustomerParty'], 'string', undefined, { description: 'The party buying the goods' }),
    ).toBe('recipient');
  });

  it('reads the payee of a receipt where its sender is, not at a caption its words resemble', () => {
    // Before: a payee's caption came first, and "Supplier" matched "Total 0% supplies", so the amount was the payee.
    const receipt = page([
      at('GARDEN BAKERIES SDN BHD', 200, 40, 14),
      at('Lot 3, Jalan Pelabur 23/1, 40300 Shah Alam', 170, 62),
      at('Total 0% supplies: 23.64', 40, 120),
      at('Total Payable: 36.36', 40, 140),
    ]);
    const schema = { type: 'object', properties: { paidTo: { type: 'string', title: 'Supplier' } } };
    expect(extractFields(receipt, schema, { fast: false }).data).toEqual({ paidTo: 'GARDEN BAKERIES SDN BHD' });
    // A payee caption the page prints still comes first: an invoice's "Remit To:" block, not its letterhead.
    const invoice = page([
      at('NORTHWIND TRADERS LTD', 72, 40, 14),
      at('1 High Street, Leeds LS1 1AA', 72, 60),
      at('Remit To:', 330, 120),
      at('Northwind Lockbox Services', 330, 134),
      at('PO Box 77, Leeds LS2 9ZZ', 330, 148),
    ]);
    const remit = { type: 'object', properties: { remit_to: { type: 'string' } } };
    expect(extractFields(invoice, remit, { fast: false }).data).toEqual({
      remit_to: 'Northwind Lockbox Services PO Box 77, Leeds LS2 9ZZ',
    });
  });

  it('reads a weak sender word under another party as that party’s kind, not the sender', () => {
    expect(classifyField(['customer', 'company_name'], 'string', undefined)).toBe('recipient');
    expect(classifyField(['patientLoop', 'nameLastOrOrganizationName'], 'string', undefined)).not.toBe('issuer');
    expect(classifyField(['vendor', 'company_name'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['company_name'], 'string', undefined)).toBe('issuer');
  });

  it('reads a purchase’s or an expense’s word in a party field as saying whose record it is, not what of the party', () => {
    expect(classifyField(['ExpenseLocation'], 'string', undefined, { title: 'Merchant Address' })).toBe(
      'issuer-address',
    );
    expect(classifyField(['purchase_vendor'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['expense_customer_address'], 'string', undefined)).toBe('recipient-address');
  });

  it('reads a bare provider as a party the document decides, and a qualified one as a claim’s captioned party', () => {
    // Before: every provider was a third party, so "The provider's street address" of a receipt found nothing.
    expect(
      classifyField(['ProviderName'], 'string', undefined, { description: 'The name of the provider (merchant)' }),
    ).toBe('provider');
    expect(classifyField(['Address'], 'string', undefined, { description: 'The provider’s street address' })).toBe(
      'provider-address',
    );
    expect(classifyField(['provider', 'phone'], 'string', undefined)).toBe('provider-phone');
    expect(classifyField(['service_provider'], 'string', undefined)).toBe('provider');
    expect(classifyField(['billing_provider_name'], 'string', undefined)).toBeNull();
    expect(classifyField(['referring_provider'], 'string', undefined)).toBeNull();
    expect(classifyField(['provider_npi'], 'string', undefined)).toBeNull();
    // Where an expense was incurred: the shop, hotel or restaurant.
    expect(
      classifyField(['establishment'], 'string', undefined, {
        description: 'The establishment where the expense was incurred',
      }),
    ).toBe('issuer');
  });

  it('reads a location’s name as the place itself, and only a location’s', () => {
    expect(classifyField(['LocationName'], 'string', undefined)).toBe('issuer-address');
    expect(classifyField(['location_description'], 'string', undefined)).toBe('issuer-address');
    expect(classifyField(['address_name'], 'string', undefined)).toBeNull();
  });
});

describe('the recipient’s block', () => {
  const invoice = page([
    at('Invoice', 480, 54, 20),
    at('From:', 43, 124, 9),
    at('DEMO - Bright Lamps', 43, 137, 9),
    at('Suite 5A-1204', 43, 149, 9),
    at('123 Somewhere Street', 43, 162, 9),
    at('Your City AZ 12345', 43, 174, 9),
    at('admin@brightlamps.example', 43, 187, 9),
    at('Tel: (03) 9123 4567  Fax: (03) 9123 4568', 43, 199, 9),
    at('Invoice Date', 348, 150, 9),
    at('January 25, 2016', 452, 150, 9),
    at('To:', 43, 234, 9),
    at('Test Business', 43, 246, 9),
    at('123 Somewhere St', 43, 259, 9),
    at('Melbourne, VIC 3000', 43, 272, 9),
    at('test@test.example', 43, 284, 9),
    at('Thanks for your business | billing@brightlamps.example', 43, 786, 9),
  ]);

  it('is read under its caption: name, address up to the postal line, e-mail; the sender’s e-mail is in its own block', () => {
    const { data } = extractFields(
      invoice,
      textSchema({
        supplier: '',
        supplier_email: '',
        supplier_phone: '',
        customer: '',
        customer_address: '',
        customer_email: '',
        payee: '',
      }),
      { fast: false },
    );
    expect(data).toEqual({
      // A spaced hyphen joins the words of one name (before: "DEMO").
      supplier: 'DEMO - Bright Lamps',
      supplier_email: 'admin@brightlamps.example',
      // After its label; the fax number beside it is no phone.
      supplier_phone: '(03) 9123 4567',
      customer: 'Test Business',
      customer_address: '123 Somewhere St Melbourne, VIC 3000',
      customer_email: 'test@test.example',
      // On an invoice the payee is the sender.
      payee: 'DEMO - Bright Lamps',
    });
  });

  it('is a name over a postal address with no caption on a payslip, and the payee there is the employee', () => {
    const payslip = page([
      at('CO.', 147, 9),
      at('FILE', 195, 9),
      at('ABC', 147, 27),
      at('126543', 195, 27),
      at('Earnings Statement', 400, 20, 16),
      at('ACME WIDGETS CORP.', 150, 66),
      at('475 ANY AVENUE', 150, 80),
      at('ANYTOWN, USA 10101', 150, 94),
      at('Pay date:', 400, 62),
      at('7/25/2008', 480, 62),
      at('Social Security Number: 987-65-4321', 145, 168),
      at('JANE ROE', 400, 176),
      at('12 ELM STREET', 400, 190),
      at('SPRINGFIELD, IL 62704', 400, 204),
      at('Gross Pay', 148, 300),
      at('$452.43', 360, 300),
    ]);
    const { data } = extractFields(
      payslip,
      textSchema({ employer: '', employer_address: '', employee_name: '', employee_address: '', payee: '' }),
      { fast: false },
    );
    expect(data).toEqual({
      // Before: "CO", the legal form alone heading a column.
      employer: 'ACME WIDGETS CORP',
      employer_address: '475 ANY AVENUE ANYTOWN, USA 10101',
      employee_name: 'JANE ROE',
      employee_address: '12 ELM STREET SPRINGFIELD, IL 62704',
      payee: 'JANE ROE',
    });
  });

  it('is the second of two uncaptioned name-and-address blocks on a letter, the first being the letterhead', () => {
    const letter = page([
      at('Harbour View Dental', 72, 40, 14),
      at('8 Quay Road', 72, 58),
      at('Portsmouth PO1 3AX', 72, 72),
      at('Mr Peter Grant', 72, 140),
      at('41 Elm Grove', 72, 154),
      at('Southsea PO5 1JF', 72, 168),
      at('Dear Mr Grant,', 72, 220),
      at('your next check-up is due in March.', 72, 240),
    ]);
    const { data } = extractFields(letter, textSchema({ addressee: '', addressee_address: '' }), { fast: false });
    expect(data).toEqual({ addressee: 'Mr Peter Grant', addressee_address: '41 Elm Grove Southsea PO5 1JF' });
  });

  it('is the sender for a provider the page never names, and the provider’s caption where it names one', () => {
    const provider = textSchema({ provider: '', provider_address: '' });
    const receipt = page([
      at('KEDAI RUNCIT MAJU', 72, 40, 14),
      at('12 JALAN MERANTI', 72, 60),
      at('43000 KAJANG, SELANGOR', 72, 74),
      at('TOTAL 12.50', 72, 140),
    ]);
    expect(extractFields(receipt, provider, { fast: false }).data).toEqual({
      provider: 'KEDAI RUNCIT MAJU',
      provider_address: '12 JALAN MERANTI 43000 KAJANG, SELANGOR',
    });
    const bill = page([
      at('CITY IMAGING CENTER', 72, 40, 14),
      at('9 HARBOR WAY', 72, 60),
      at('BOSTON, MA 02110', 72, 74),
      at('Provider:', 72, 140),
      at('Dr. Ana Silva', 160, 140),
    ]);
    expect(extractFields(bill, provider, { fast: false }).data.provider).toBe('Dr. Ana Silva');
  });

  it('ends the sender’s address block at a gap wider than a line and a half (a title under it)', () => {
    const bill = page([
      at('Summit Orthopedics PC', 40, 46, 14),
      at('8423 Walnut Ave', 40, 67),
      at('Savannah, GA 31450', 40, 79),
      at('ITEMIZED STATEMENT', 40, 112),
    ]);
    // Before: "8423 Walnut Ave Savannah, GA 31450 ITEMIZED STATEMENT".
    expect(extractFields(bill, textSchema({ vendor_address: '' }), { fast: false }).data).toEqual({
      vendor_address: '8423 Walnut Ave Savannah, GA 31450',
    });
  });

  it('is no block under a caption that only starts like a recipient’s ("Customer ID:", "Customer service")', () => {
    const pages = page([
      at('NORTHWIND TRADERS LTD', 72, 40, 14),
      at('Customer ID: 70031', 72, 90),
      at('Customer service', 72, 104),
      at('0800 123 456', 72, 118),
    ]);
    expect(findParty(indexDocument(pages), 'recipient')).toBeNull();
  });
});

describe('glued address words', () => {
  it('gets back the spaces OCR loses in capitals: house number, street word, ZIP code', () => {
    expect(repairGluedAddress('475ANYAVENUE')).toBe('475 ANY AVENUE');
    expect(repairGluedAddress('ANYTOWN,USA12345')).toBe('ANYTOWN,USA 12345');
    expect(repairGluedAddress('12 MAIN STREET')).toBe('12 MAIN STREET');
    // Not inside ids: a long number, a unit number.
    expect(repairGluedAddress('20190101ABCD')).toBe('20190101ABCD');
    expect(repairGluedAddress('Suite 5A-1204')).toBe('Suite 5A-1204');
  });
});
