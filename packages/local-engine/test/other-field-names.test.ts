import { describe, expect, it } from 'vitest';
import { dataElementLabels } from '../src/extract/data-element-names.js';
import { classifyField } from '../src/extract/field-roles.js';
import { collectFields, spellOut } from '../src/extract/schema-fields.js';
import { readGlyphPage, run } from './glyph-page.js';
import { at, extractPage } from './text-layer-page.js';

/** Rows of a label at the left and its amount at the right, 20 pt apart from `from`. */
function amountRows(rows: [string, string][], from: number, left = 40) {
  return rows.flatMap(([label, amount], i) => [at(label, left, from + i * 20), at(amount, 480, from + i * 20)]);
}

/** A made-up shop receipt: name and address at the top, date, items, total. */
const RECEIPT = [
  at('GREENLEAF GROCERS', 200, 40, 14),
  at('14 Mill Lane, Bristol BS1 4QT', 190, 62),
  at('Date: 03/05/2024', 40, 100),
  ...amountRows(
    [
      ['Bread', '3.20'],
      ['Milk', '1.10'],
      ['TOTAL', '4.30'],
    ],
    130,
  ),
];

/** A made-up invoice: issuer, date, subtotal, tax and the gross total. */
const INVOICE = [
  at('Northwind Consulting GmbH', 40, 40, 14),
  at('Invoice date: 12.03.2024', 40, 100),
  ...amountRows(
    [
      ['Subtotal', '100.00 EUR'],
      ['VAT 19%', '19.00 EUR'],
      ['Total', '119.00 EUR'],
    ],
    200,
    300,
  ),
];

/** Yes/no questions side by side under a claim form's "IS CONDITION RELATED TO:", each over its ☒/☐ YES and NO. */
function yesNoQuestions(questions: [string, boolean][]) {
  return [
    run('10. IS CONDITION RELATED TO:', 20, 88),
    ...questions.flatMap(([caption, yes], i) => [
      run(caption, 20 + i * 280, 100),
      run(yes ? '☒ YES  ☐ NO' : '☐ YES  ☒ NO', 20 + i * 280, 112),
    ]),
  ];
}

/** Captions of a claim form's boxes, each with its value under it. */
function captionedBoxes(boxes: [string, string][]) {
  return boxes.flatMap(([caption, value], i) => [at(caption, 40, 60 + i * 40, 7), at(value, 44, 72 + i * 40)]);
}

describe('property names as warehouses, back offices and claims systems write them', () => {
  it('spells out class-word abbreviations: txnDt is a date, txnAmt the total, merchantNm the issuer', () => {
    expect(
      extractPage(RECEIPT, {
        merchantNm: { type: 'string' },
        txnDt: { type: 'string', format: 'date' },
        txnAmt: { type: 'number' },
      }),
    ).toEqual({ merchantNm: 'GREENLEAF GROCERS', txnDt: '2024-03-05', txnAmt: 4.3 });
    expect(classifyField(['vendor_nm'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['doc_dt'], 'string', undefined)).toBe('document-date');
    expect(classifyField(['gross_amt'], 'number', undefined)).toBe('total');
    expect(classifyField(['curr_cd'], 'string', undefined)).toBe('currency');
    // An expense warehouse's merchant, business, establishment and location abbreviated.
    for (const name of ['merch_nm', 'biz_name', 'estab_name'])
      expect(classifyField([name], 'string', undefined)).toBe('issuer');
    for (const name of ['merch_addr', 'biz_addr', 'loc', 'loc_name'])
      expect(classifyField([name], 'string', undefined), name).toBe('issuer-address');
    expect(classifyField(['purch_dt'], 'string', undefined)).toBe('document-date');
  });

  it('reads an abbreviation in a caption as written, never as an OCR slip of another word: txn is not "Tax"', () => {
    const txnAmount = { txn_amount: { type: 'string' } };
    expect(extractPage([at('Tax Amount: 1.02', 40, 100)], txnAmount)).toEqual({ txn_amount: null });
    expect(extractPage([at('Txn Amount: 5.00', 40, 100)], txnAmount)).toEqual({ txn_amount: '5.00' });
  });

  it('looks for an abbreviated name spelled out as a printed caption: grp_nbr under "Group Number"', () => {
    const fragments = [at('Group Number: G-5521', 40, 100), at('Plan: Silver', 40, 120)];
    expect(extractPage(fragments, { grp_nbr: { type: 'string' } })).toEqual({ grp_nbr: 'G-5521' });
  });

  it('drops the ordinal of a name: addr1 and address_line_1 are the address', () => {
    const fragments = [at('Address: 12 Elm Street', 40, 100), at('Phone: 555-0100', 40, 120)];
    expect(extractPage(fragments, { addr1: { type: 'string' } })).toEqual({ addr1: '12 Elm Street' });
    expect(extractPage(fragments, { address_line_1: { type: 'string' } })).toEqual({ address_line_1: '12 Elm Street' });
  });

  it('reads a total whose description says taxes are included as the total, not as a tax', () => {
    expect(extractPage(INVOICE, { inv_total: { type: 'number', description: 'gross, incl. VAT / tax' } })).toEqual({
      inv_total: 119,
    });
    expect(classifyField(['inv_total'], 'number', undefined, { description: 'including all sales taxes' })).toBe(
      'total',
    );
    expect(classifyField(['tax_amount'], 'number', undefined, { description: 'VAT, included in the total' })).toBe(
      null,
    );
  });

  it('reads the taxes in a list that an including word opens or closes as included: the total of everything', () => {
    const total = (description: string) => classifyField(['amount'], 'number', undefined, { description });
    // Before: the tax was too far from "including"/"included" to count as included, and the field had no role.
    expect(total('Total amount of the transaction, including all charges, allowances and taxes')).toBe('total');
    expect(total('The total amount paid, taxes, discounts, fees, tips and gratuity included')).toBe('total');
    // A tax in another clause than the including word still excludes.
    expect(total('Amount before tax. Discounts and fees included')).toBeNull();
    expect(total('The tax amount. Shipping included')).toBeNull();
  });

  it('reads French, Spanish and Dutch sender words: the shop, its address, the supplier', () => {
    expect(
      extractPage(RECEIPT, {
        enseigne: { type: 'string', description: 'nom du magasin' },
        adresse_magasin: { type: 'string', description: 'adresse du commerce' },
      }),
    ).toEqual({ enseigne: 'GREENLEAF GROCERS', adresse_magasin: '14 Mill Lane, Bristol BS1 4QT' });
    expect(classifyField(['proveedor'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['nombre_tienda'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['leverancier_adres'], 'string', undefined)).toBe('issuer-address');
    expect(classifyField(['moneda'], 'string', undefined)).toBe('currency');
  });

  it('knows the holder of an insurance policy by any of its names: member, subscriber, insured', () => {
    const fragments = captionedBoxes([
      ["1a. INSURED'S I.D. NUMBER", 'ZYL123456789'],
      ["4. INSURED'S NAME", 'RIVERA, DAVID'],
      ['25. FEDERAL TAX I.D. NUMBER', '12-3456789'],
    ]);
    expect(
      extractPage(fragments, {
        member_id: { type: 'string' },
        subscriber_name: { type: 'string' },
        tin: { type: 'string' },
      }),
    ).toEqual({ member_id: 'ZYL123456789', subscriber_name: 'RIVERA, DAVID', tin: '12-3456789' });
    // The three-letter TIN and EIN are never looked for beside other words: "provider tin" fits "Provider: Oak".
    const provider = { type: 'object', properties: { tax_id: { type: 'string' } } };
    expect(extractPage([at('Provider: Oak Hollow Clinic', 40, 100)], { provider })).toEqual({
      provider: { tax_id: null },
    });
  });

  it("reads a flat name led by its party under the rest's caption: pt_zip under ZIP CODE", () => {
    const fragments = captionedBoxes([
      ['CITY', 'TUCSON'],
      ['ZIP CODE', '85719'],
      ['TELEPHONE', '(520) 555-0142'],
    ]);
    expect(extractPage(fragments, { pt_zip: { type: 'string' }, contact_phone: { type: 'string' } })).toEqual({
      pt_zip: '85719',
      contact_phone: '(520) 555-0142',
    });
  });

  it('reads a parent that only groups its fields ("patient_info") as the party it names', () => {
    const fragments = captionedBoxes([
      ["4. INSURED'S NAME", 'RIVERA, MARIA'],
      ["2. PATIENT'S NAME", 'RIVERA, DAVID'],
    ]);
    const properties = { patient_info: { type: 'object', properties: { name: { type: 'string' } } } };
    expect(extractPage(fragments, properties)).toEqual({ patient_info: { name: 'RIVERA, DAVID' } });
  });

  it('matches a caption whose words the name says in another order and form: rendered_service, "Services Rendered"', () => {
    const fragments = [at('Services Rendered: Annual check-up', 40, 100), at('Visit Date: 03/05/2024', 40, 120)];
    expect(extractPage(fragments, { rendered_service: { type: 'string' } })).toEqual({
      rendered_service: 'Annual check-up',
    });
  });

  it('reads the yes/no boxes a billing team names in its own words: work_related, assignment_accepted', () => {
    const fragments = yesNoQuestions([
      ['Employment?', true],
      ['27. ACCEPT ASSIGNMENT?', false],
    ]);
    const yesNo = { type: 'boolean' };
    expect(readGlyphPage(fragments, { work_related: yesNo, assignment_accepted: yesNo })).toEqual({
      work_related: true,
      assignment_accepted: false,
    });
  });

  it('reads the billed amount from the total charge box', () => {
    const fragments = captionedBoxes([
      ['28. TOTAL CHARGE', '128.00'],
      ['29. AMOUNT PAID', '51.00'],
    ]);
    expect(extractPage(fragments, { billed_amount: { type: 'number' } })).toEqual({ billed_amount: 128 });
  });
});

describe("property names as an incumbent system's or a standard's data elements name them", () => {
  it('reads a name without its representation term and as each of its alternatives: GenderCode, StateOrProvinceCode', () => {
    const fragments = captionedBoxes([
      ['SEX', 'FEMALE'],
      ['STATE', 'OH'],
      ['ZIP CODE', '43259'],
      ['CITY', 'COLUMBUS'],
    ]);
    expect(
      extractPage(fragments, {
        genderCode: { type: 'string' },
        stateOrProvinceCode: { type: 'string' },
        postalZoneOrZipCode: { type: 'string' },
        cityName: { type: 'string' },
      }),
    ).toEqual({ genderCode: 'FEMALE', stateOrProvinceCode: 'OH', postalZoneOrZipCode: '43259', cityName: 'COLUMBUS' });
    expect(dataElementLabels('total claim charge amount')).toContain('total charge');
    // Two document words side by side are one compound: an invoice's or a receipt's date keeps both.
    expect(dataElementLabels('invoice receipt date')).toEqual([]);
  });

  it("reads a loop that groups a party's elements as that party: patientLoop.addressInformation", () => {
    const fragments = captionedBoxes([
      ["7. INSURED'S ADDRESS", '18 HARBOR WAY'],
      ["5. PATIENT'S ADDRESS", '9412 BIRCH CT'],
    ]);
    const patientLoop = { type: 'object', properties: { addressInformation: { type: 'string' } } };
    expect(extractPage(fragments, { patientLoop })).toEqual({ patientLoop: { addressInformation: '9412 BIRCH CT' } });
  });

  it('reads a name led by several party words under the rest: billingProviderTaxIdentificationNumber, billingProviderIdentifier', () => {
    const fragments = captionedBoxes([
      ['25. FEDERAL TAX I.D. NUMBER', '12-3456789'],
      ["26. PATIENT'S ACCOUNT NO.", 'PT-297436'],
      ['33a. NPI', '2989108289'],
    ]);
    expect(
      extractPage(fragments, {
        billingProviderTaxIdentificationNumber: { type: 'string' },
        billingProviderIdentifier: { type: 'string' },
      }),
    ).toEqual({ billingProviderTaxIdentificationNumber: '12-3456789', billingProviderIdentifier: '2989108289' });
  });

  it("knows an electronic claim's names for form boxes: control number, communication number, primary identifier", () => {
    const fragments = captionedBoxes([
      ["1a. INSURED'S I.D. NUMBER", 'ZYL123456789'],
      ['TELEPHONE (Include Area Code)', '(520) 555-0142'],
      ["26. PATIENT'S ACCOUNT NO.", 'PT-297436'],
      ['21. DIAGNOSIS CODES', 'J06.9'],
    ]);
    expect(
      extractPage(fragments, {
        subscriberPrimaryIdentifier: { type: 'string' },
        patientCommunicationNumber: { type: 'string' },
        patientControlNumber: { type: 'string' },
        healthCareDiagnosisCodes: { type: 'array', items: { type: 'string' } },
      }),
    ).toEqual({
      subscriberPrimaryIdentifier: 'ZYL123456789',
      patientCommunicationNumber: '(520) 555-0142',
      patientControlNumber: 'PT-297436',
      healthCareDiagnosisCodes: ['J06.9'],
    });
  });

  it('reads yes/no elements by what they ask about: relatedCausesEmployment, assignmentOrPlanParticipationCode', () => {
    const fragments = [
      run('10. IS CONDITION RELATED TO:', 20, 88),
      run('Employment?', 20, 100),
      run('☒ YES  ☐ NO', 20, 112),
      run('27. ACCEPT ASSIGNMENT?', 300, 100),
      run('☐ YES  ☒ NO', 300, 112),
    ];
    const yesNo = { type: 'boolean' };
    expect(
      readGlyphPage(fragments, { relatedCausesEmployment: yesNo, assignmentOrPlanParticipationCode: yesNo }),
    ).toEqual({ relatedCausesEmployment: true, assignmentOrPlanParticipationCode: false });
  });

  it('reads a sum named by what happened to it under "Amount …": patient_paid under AMOUNT PAID', () => {
    const fragments = captionedBoxes([
      ['28. TOTAL CHARGE', '128.00'],
      ['29. AMOUNT PAID', '51.00'],
    ]);
    expect(extractPage(fragments, { patient_paid: { type: 'number' } })).toEqual({ patient_paid: 51 });
  });

  it('knows another plan by its other names: secondary_coverage, oth_ins', () => {
    const asked = (caption: string) => [run(caption, 20, 100), run('☒ YES  ☐ NO', 20, 112)];
    const yesNo = { type: 'boolean' };
    expect(readGlyphPage(asked('Other insurance?'), { secondary_coverage: yesNo })).toEqual({
      secondary_coverage: true,
    });
    expect(readGlyphPage(asked('Secondary coverage?'), { oth_ins: yesNo })).toEqual({ oth_ins: true });
  });

  it("reads a total whose name says the VAT is included (EN 16931's total amount with VAT) as the total", () => {
    expect(classifyField(['invoice_total_amount_with_vat'], 'number', undefined)).toBe('total');
    expect(extractPage(INVOICE, { invoice_total_amount_with_vat: { type: 'number' } })).toEqual({
      invoice_total_amount_with_vat: 119,
    });
  });

  it('reads a balance due as the total, and a balance alone as a running figure', () => {
    expect(classifyField(['TotalAmount'], 'number', undefined, { title: 'Balance due' })).toBe('total');
    expect(classifyField(['balance_due'], 'number', undefined)).toBe('total');
    expect(extractPage(INVOICE, { balance_due: { type: 'number' } })).toEqual({ balance_due: 119 });
    expect(classifyField(['balance'], 'number', undefined)).toBeNull();
    expect(classifyField(['patient_balance'], 'number', undefined)).toBeNull();
  });

  it("reads a party's description as its name: an expense system's VendorDescription is the shop", () => {
    expect(classifyField(['VendorDescription'], 'string', undefined)).toBe('issuer');
    expect(extractPage(RECEIPT, { VendorDescription: { type: 'string' } })).toEqual({
      VendorDescription: 'GREENLEAF GROCERS',
    });
  });

  it('reads a list named by its codes under what they are of, and only the codes: dx_codes, icd_codes, healthCareDiagnosisCodes', () => {
    const fragments = captionedBoxes([
      ['21. DIAGNOSIS OR NATURE OF ILLNESS OR INJURY', 'A. J06.9 Acute sinusitis, B. K21.9 Reflux'],
    ]);
    const codes = { type: 'array', items: { type: 'string' } };
    expect(extractPage(fragments, { dx_codes: codes })).toEqual({ dx_codes: ['J06.9', 'K21.9'] });
    expect(extractPage(fragments, { icd_codes: codes })).toEqual({ icd_codes: ['J06.9', 'K21.9'] });
    expect(extractPage(fragments, { healthCareDiagnosisCodes: codes })).toEqual({
      healthCareDiagnosisCodes: ['J06.9', 'K21.9'],
    });
    // Under a caption of their own, the same items: as codes for a list named by them, as printed for another.
    const listed = captionedBoxes([['Diagnoses', 'J06.9 Acute sinusitis; K21.9 Reflux']]);
    expect(extractPage(listed, { dx_codes: codes })).toEqual({ dx_codes: ['J06.9', 'K21.9'] });
    expect(extractPage(listed, { diagnoses: codes })).toEqual({ diagnoses: ['J06.9 Acute sinusitis', 'K21.9 Reflux'] });
  });

  it("spells out a claims system's sub_ as the subscriber, but not in a subtotal, and assign as assignment", () => {
    const boxes = captionedBoxes([["4. INSURED'S NAME (Last Name, First Name, Middle Initial)", 'BECKER, JAMES']]);
    expect(extractPage(boxes, { sub_nm: { type: 'string' } })).toEqual({ sub_nm: 'BECKER, JAMES' });
    // A subtotal keeps its sub.
    expect(spellOut('sub nm')).toBe('subscriber name');
    expect(spellOut('sub total')).toBeNull();
    const asked = [run('27. ACCEPT ASSIGNMENT?', 20, 100), run('☒ YES  ☐ NO', 20, 112)];
    expect(readGlyphPage(asked, { accept_assign: { type: 'boolean' } })).toEqual({ accept_assign: true });
  });

  it("reads a claims system's ambiguous abbreviations by their neighbours: auto_acc, emp_rel, st beside a city", () => {
    const asked = yesNoQuestions([
      ['a. EMPLOYMENT?', false],
      ['b. AUTO ACCIDENT?', true],
    ]);
    const yesNo = { type: 'boolean' };
    expect(readGlyphPage(asked, { emp_rel: yesNo, auto_acc: yesNo })).toEqual({ emp_rel: false, auto_acc: true });
    const address = captionedBoxes([
      ['CITY', 'COLUMBUS'],
      ['STATE', 'OH'],
    ]);
    const text = { type: 'string' };
    expect(extractPage(address, { pt: { type: 'object', properties: { city: text, st: text } } })).toEqual({
      pt: { city: 'COLUMBUS', st: 'OH' },
    });
    // Alone, or not the name's last word, st is no state: it may as well be a street or a start.
    expect(spellOut('pt st')).toBe('patient st');
    expect(spellOut('pt st', true)).toBe('patient state');
    expect(spellOut('st dt', true)).toBe('st date');
    // Either word alone keeps its other meanings.
    expect(spellOut('acc no')).toBeNull();
    expect(spellOut('rel to sub')).toBe('rel to subscriber');
  });

  it("reads a yes/no question by what it asks about: X12's otherSubscriberInformation under IS THERE ANOTHER PLAN?", () => {
    const asked = [run('d. IS THERE ANOTHER HEALTH BENEFIT PLAN?', 20, 100), run('☒ YES  ☐ NO', 20, 112)];
    const yesNo = { type: 'boolean' };
    expect(readGlyphPage(asked, { otherSubscriberInformation: yesNo })).toEqual({ otherSubscriberInformation: true });
  });

  it("reads a group number under the insured's policy group, and no caption's alternative as a value", () => {
    // The value under the caption's words, as a filled-in box prints it.
    const boxes = [at("11. INSURED'S POLICY GROUP OR FECA NUMBER", 40, 60, 7), at('GRP-65717', 100, 72)];
    expect(extractPage(boxes, { group_number: { type: 'string' } })).toEqual({ group_number: 'GRP-65717' });
    expect(extractPage(boxes, { grp_no: { type: 'string' } })).toEqual({ grp_no: 'GRP-65717' });
    const plan = [at('c. INSURANCE PLAN NAME OR PROGRAM NAME', 40, 60, 7), at('BLUE SHIELD PPO', 80, 72)];
    expect(extractPage(plan, { plan_name: { type: 'string' } })).toEqual({ plan_name: 'BLUE SHIELD PPO' });
  });
});

describe('property names as accounting and commerce APIs spell them', () => {
  /** The made-up invoice with a reference line, as many invoices print one. */
  const WITH_REFERENCE = [...INVOICE, at('Reference: PO-7781', 40, 120)];

  it("reads a reference to a party's record as the party: VendorRef is the vendor, CustomerRef the customer", () => {
    const vendorRef = { type: 'string', description: 'Reference to the vendor of this bill' };
    expect(extractPage(WITH_REFERENCE, { VendorRef: vendorRef })).toEqual({ VendorRef: 'Northwind Consulting GmbH' });
    expect(classifyField(['VendorRef'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['customer_ref'], 'string', undefined)).toBe('recipient');
    // A description that speaks of a number asks for the printed reference, not the party.
    expect(
      classifyField(['vendor_ref'], 'string', undefined, { description: "the vendor's reference number" }),
    ).toBeNull();
    // "Ref" or "Reference" alone labels any reference on the page: never the party's field.
    const labels = collectFields({ type: 'object', properties: { VendorRef: { type: 'string' } } })[0]!.labels;
    expect(labels.map((label) => label.text)).not.toContain('ref');
    expect(labels.map((label) => label.text)).not.toContain('reference');
  });

  it('reads a printed caption of a reference named without a description before the party', () => {
    const fragments = [...INVOICE, at('Vendor ref.: V-0042', 40, 120)];
    expect(extractPage(fragments, { VendorRef: { type: 'string' } })).toEqual({ VendorRef: 'V-0042' });
    expect(extractPage(INVOICE, { VendorRef: { type: 'string' } })).toEqual({ VendorRef: 'Northwind Consulting GmbH' });
  });

  it("reads a name whose description says whose it is: a payments API's account_name is the business's name", () => {
    const accountName = {
      type: 'string',
      description: 'The public name of the business associated with this invoice, most often the one that created it',
    };
    expect(extractPage(INVOICE, { account_name: accountName })).toEqual({ account_name: 'Northwind Consulting GmbH' });
    // Without it, an account's name is a bank account's or a customer account's, found by its caption.
    expect(classifyField(['account_name'], 'string', undefined)).toBeNull();
  });

  it("reads a payables system's bill as the document itself: the bill's date, the bill amount, not a bill-to party", () => {
    const date = { type: 'string', format: 'date', description: 'Date of the bill' };
    const amount = { type: 'number', description: 'Bill amount' };
    const currency = { type: 'string', description: 'Currency code of the bill' };
    expect(extractPage(INVOICE, { date, amount, currency_code: currency })).toEqual({
      date: '2024-03-12',
      amount: 119,
      currency_code: 'EUR',
    });
    // Billed to, or a bill-to name, is the customer's.
    expect(classifyField(['bill_to_date'], 'string', 'date')).toBeNull();
    expect(classifyField(['date'], 'string', 'date', { description: 'Date the bill-to party signed' })).toBeNull();
    expect(classifyField(['amount'], 'number', undefined, { description: 'Amount billed' })).toBe('total');
  });

  it("reads a total whose description spells out the sum it is: Xero's SubTotal + TotalTax", () => {
    const total = { type: 'number', description: 'Total of Invoice tax inclusive (i.e. SubTotal + TotalTax)' };
    expect(extractPage(INVOICE, { Total: total })).toEqual({ Total: 119 });
    expect(classifyField(['Total'], 'number', undefined, total)).toBe('total');
    // A description that names the tax alone still asks for the tax.
    expect(classifyField(['amount'], 'number', undefined, { description: 'The tax amount' })).toBeNull();
    // A sum in words, and a total after tax.
    for (const description of [
      'Total (net amount plus taxes)',
      'The total, i.e. sub total plus tax',
      'Grand total after tax and tip',
    ])
      expect(classifyField(['total'], 'number', undefined, { description }), description).toBe('total');
    expect(classifyField(['amount'], 'number', undefined, { description: 'The net amount, before tax' })).toBeNull();
  });

  it("reads a record's counterparty as the party the document is from: contact, partner_id, EntityRef", () => {
    expect(extractPage(INVOICE, { Contact: { type: 'string' } })).toEqual({ Contact: 'Northwind Consulting GmbH' });
    expect(classifyField(['partner_id'], 'string', undefined, { description: 'Partner' })).toBe('issuer');
    expect(classifyField(['EntityRef'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['ContactAddress'], 'string', undefined)).toBe('issuer-address');
    // Unless the description names the other party; and a contact person or an emergency contact is someone else.
    expect(classifyField(['contact'], 'string', undefined, { description: 'The customer the invoice is for' })).toBe(
      'recipient',
    );
    expect(classifyField(['contact_person'], 'string', undefined)).toBeNull();
    expect(classifyField(['emergency_contact'], 'string', undefined)).toBeNull();
  });

  it('reads the party a participle before "party" says: SAP\'s InvoicingParty is the issuer', () => {
    expect(classifyField(['InvoicingParty'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['receiving_party'], 'string', undefined)).toBe('recipient');
    expect(classifyField(['billing_address'], 'string', undefined)).toBe('recipient-address');
  });

  it('reads a bare date label as no other date printed with it: "Due date:" is not the date', () => {
    const page = [...INVOICE.filter((f) => !f.text.startsWith('Invoice date')), at('Issued on: 12.03.2024', 40, 100)];
    const dueDate = [at('Due date:', 40, 130), at('26.03.2024', 120, 130)];
    expect(extractPage([...page, ...dueDate], { date: { type: 'string', format: 'date' } })).toEqual({
      date: '2024-03-12',
    });
  });

  it("reads a record's creation time as the document's date: created, created_at, but not created_by", () => {
    const createdAt = { type: 'string', format: 'date', description: 'When the payment was created' };
    expect(extractPage(RECEIPT, { created_at: createdAt })).toEqual({ created_at: '2024-03-05' });
    expect(classifyField(['created'], 'string', undefined)).toBe('document-date');
    expect(classifyField(['issued_on'], 'string', undefined)).toBe('document-date');
    expect(classifyField(['created_by'], 'string', undefined)).toBeNull();
    expect(classifyField(['payment_created_at'], 'string', undefined)).toBeNull();
  });
});

describe('property names as spend and bookkeeping systems spell them', () => {
  it("reads a card payment's merchant descriptor as the merchant's name: a spend platform's merchant_raw_descriptor", () => {
    const descriptor = { type: 'string', description: "The merchant's name as it comes with the card transaction" };
    expect(classifyField(['merchant_raw_descriptor'], 'string', undefined, descriptor)).toBe('issuer');
    expect(classifyField(['merchant_descriptor'], 'string', undefined)).toBe('issuer');
    expect(extractPage(RECEIPT, { merchant_raw_descriptor: descriptor })).toEqual({
      merchant_raw_descriptor: 'GREENLEAF GROCERS',
    });
    // A descriptor that names no party is read by its caption as before.
    expect(classifyField(['statement_descriptor'], 'string', undefined)).toBeNull();
  });

  it("reads a contact described as either party as the one the document is from: a voucher's recipient or invoicing party", () => {
    const contactName = { type: 'string', description: 'Name of the recipient or invoicing party' };
    expect(classifyField(['contactName'], 'string', undefined, contactName)).toBe('issuer');
    expect(extractPage(INVOICE, { contactName })).toEqual({ contactName: 'Northwind Consulting GmbH' });
    // One party named, or two that are the same side, still decide.
    expect(classifyField(['contact'], 'string', undefined, { description: 'Name of the customer' })).toBe('recipient');
    expect(classifyField(['contact'], 'string', undefined, { description: 'the buyer or purchaser' })).toBe(
      'recipient',
    );
  });
});

describe('property names as travel-and-expense systems spell them', () => {
  it('reads a description that names the party before what of it: Dynamics 365\'s MerchantId, "Merchant name"', () => {
    const merchantId = { type: 'string', description: 'Merchant name' };
    expect(classifyField(['MerchantId'], 'string', undefined, merchantId)).toBe('issuer');
    expect(classifyField(['vendor_id'], 'string', undefined, { description: "The vendor's address" })).toBe(
      'issuer-address',
    );
    expect(extractPage(RECEIPT, { MerchantId: merchantId })).toEqual({ MerchantId: 'GREENLEAF GROCERS' });
    // An id described as a reference or a number is still read by its caption.
    expect(classifyField(['customer_id'], 'string', undefined, { description: 'Customer reference' })).toBeNull();
    expect(classifyField(['vendor_id'], 'string', undefined, { description: 'Vendor name or number' })).toBeNull();
    expect(classifyField(['vendor_id'], 'string', undefined)).toBeNull();
  });

  it("reads a merchant's display or DBA name as its name, and where a purchase was made as the shop's address", () => {
    expect(classifyField(['merchantDisplayName'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['merchant_dba_name'], 'string', undefined)).toBe('issuer');
    expect(classifyField(['purchaseLocation'], 'string', undefined)).toBe('issuer-address');
    expect(classifyField(['transaction_location'], 'string', undefined)).toBe('issuer-address');
    expect(
      extractPage(RECEIPT, { merchantDisplayName: { type: 'string' }, purchaseLocation: { type: 'string' } }),
    ).toEqual({ merchantDisplayName: 'GREENLEAF GROCERS', purchaseLocation: '14 Mill Lane, Bristol BS1 4QT' });
    // A name or a location of no party and no purchase is nobody's in particular, or someone's other place.
    expect(classifyField(['display_name'], 'string', undefined)).toBeNull();
    expect(classifyField(['home_location'], 'string', undefined)).toBeNull();
  });

  it("reads a place, venue or site of a purchase, or where the description says it was bought, as the shop's address", () => {
    for (const name of ['PlaceOfPurchase', 'venue', 'place', 'site_of_purchase', 'branch_address'])
      expect(classifyField([name], 'string', undefined), name).toBe('issuer-address');
    const whereIncurred = { description: 'Where the expense was incurred' };
    expect(classifyField(['whereIncurred'], 'string', undefined, whereIncurred)).toBe('issuer-address');
    expect(extractPage(RECEIPT, { whereIncurred: { type: 'string', ...whereIncurred } })).toEqual({
      whereIncurred: '14 Mill Lane, Bristol BS1 4QT',
    });
    // A part of where the purchase was made is the shop's address's part.
    expect(extractPage(RECEIPT, { cityOfPurchase: { type: 'string' }, LocationCity: { type: 'string' } })).toEqual({
      cityOfPurchase: 'Bristol',
      LocationCity: 'Bristol',
    });
    // A part offered as the whole's alternative asks for the whole; a location's city alone does not.
    expect(classifyField(['location'], 'string', undefined, { title: 'City/Location' })).toBe('issuer-address');
    const offered = { description: 'City or location where the expense was incurred' };
    expect(classifyField(['Location'], 'string', undefined, { title: 'City', ...offered })).toBe('issuer-address');
    expect(classifyField(['City'], 'string', undefined, offered)).toBe('issuer-address');
    expect(extractPage(RECEIPT, { City: { type: 'string', ...offered } })).toEqual({
      City: '14 Mill Lane, Bristol BS1 4QT',
    });
    // Other words for the place: alternatives, the question it answers, the sender's own words in its title.
    expect(classifyField(['LocationNameOrAddress'], 'string', undefined)).toBe('issuer-address');
    expect(classifyField(['TransactionLocation'], 'string', undefined, { title: 'Where' })).toBe('issuer-address');
    expect(classifyField(['Venue'], 'string', undefined, { title: 'Store Address' })).toBe('issuer-address');
    expect(classifyField(['Venue'], 'string', undefined, { title: 'Customer Address' })).toBe('recipient-address');
    // A name asking the whole place that only its title narrows to a part (an expense system's `LocationName`,
    // shown as "City of Purchase") is answered whole; a part's own name keeps the part.
    const cityTitle = { title: 'City of Purchase' };
    expect(classifyField(['LocationName'], 'string', undefined, cityTitle)).toBe('issuer-address');
    expect(extractPage(RECEIPT, { LocationName: { type: 'string', ...cityTitle } })).toEqual({
      LocationName: '14 Mill Lane, Bristol BS1 4QT',
    });
    expect(extractPage(RECEIPT, { cityOfPurchase: { type: 'string', ...cityTitle } })).toEqual({
      cityOfPurchase: 'Bristol',
    });
    // Another place, a web site, or a city where the expense was incurred is not the shop's address.
    for (const name of ['place_of_service', 'place_of_birth', 'web_site', 'home_site'])
      expect(classifyField([name], 'string', undefined), name).toBeNull();
    expect(
      classifyField(['City'], 'string', undefined, { description: 'The city where the expense was incurred' }),
    ).toBeNull();
    expect(classifyField(['ward'], 'string', undefined, { description: 'Where the patient was treated' })).toBeNull();
  });

  it('reads an address given as one string or by its details as the address: formattedAddress, address_string', () => {
    for (const name of ['formattedAddress', 'merchant_address_string', 'merchantAddressText', 'locationDetails'])
      expect(classifyField([name], 'string', undefined), name).toBe('issuer-address');
    expect(extractPage(RECEIPT, { merchantPostalAddress: { type: 'string' } })).toEqual({
      merchantPostalAddress: '14 Mill Lane, Bristol BS1 4QT',
    });
    expect(extractPage(RECEIPT, { merchantPostalCode: { type: 'string' } })).toEqual({ merchantPostalCode: 'BS1 4QT' });
  });

  it("reads a price a total word qualifies as the document's total: totalPrice, but not unit_price", () => {
    expect(extractPage(RECEIPT, { totalPrice: { type: 'number' } })).toEqual({ totalPrice: 4.3 });
    expect(classifyField(['grand_total_price'], 'number', undefined)).toBe('total');
    expect(classifyField(['price'], 'number', undefined)).toBeNull();
    expect(classifyField(['unit_price'], 'number', undefined)).toBeNull();
    expect(classifyField(['total_unit_price'], 'number', undefined)).toBeNull();
  });

  it("reads a start date described as when the expense occurred as the document's date: Oracle's StartDate", () => {
    const startDate = {
      type: 'string',
      format: 'date',
      description: 'Date when the expense occurred, or the first day of an expense that spans several days',
    };
    expect(classifyField(['StartDate'], 'string', 'date', startDate)).toBe('document-date');
    // The till prints the date with its time and no caption.
    const page = [...RECEIPT.filter((fragment) => fragment !== RECEIPT[2]), at('03/05/2024 14:22', 40, 100)];
    expect(extractPage(page, { StartDate: startDate })).toEqual({ StartDate: '2024-03-05' });
    // A period's start said no other way, or one of another event, is not the document's date.
    expect(classifyField(['StartDate'], 'string', 'date')).toBeNull();
    expect(classifyField(['start_date'], 'string', 'date', { description: 'First day of the stay' })).toBeNull();
    expect(
      classifyField(['service_start_date'], 'string', 'date', { description: 'Date the service occurred' }),
    ).toBeNull();
  });

  it("reads a date described as a service's or a purchase's as the document's date; a service date stays its own", () => {
    const expenseDate = { description: 'Date the service was provided or the goods were bought' };
    expect(classifyField(['expenseDate'], 'string', 'date', expenseDate)).toBe('document-date');
    expect(classifyField(['date'], 'string', 'date', { description: 'Date of service or of purchase' })).toBe(
      'document-date',
    );
    expect(classifyField(['serviceDate'], 'string', 'date', expenseDate)).toBeNull();
    expect(classifyField(['date'], 'string', 'date', { description: 'Date the service was provided' })).toBeNull();
    expect(
      classifyField(['date'], 'string', 'date', { description: 'The delivery date or the date of service' }),
    ).toBeNull();
  });
});

describe('a till receipt whose change is printed as a bare zero', () => {
  it('reads "CHANGE 00" as no change, so cash handed over is the total an amount field reads', () => {
    const page = [
      at('GREENLEAF GROCERS', 200, 40, 14),
      ...amountRows(
        [
          ['Bread', '3.20'],
          ['Milk', '1.10'],
          ['Total Sales (Inclusive GST)', '4.30'],
          ['CASH', '4.30'],
          ['CHANGE', '00'],
        ],
        100,
      ),
      at('GST Summary', 40, 220),
      at('Amount', 300, 220),
      at('Tax', 480, 220),
      at('SR 6%', 40, 240),
      at('4.06', 300, 240),
      at('0.24', 480, 240),
    ];
    expect(extractPage(page, { amount: { type: 'number' } })).toEqual({ amount: 4.3 });
  });
});
