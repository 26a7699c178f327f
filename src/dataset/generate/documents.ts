/**
 * Lays out the three sample document types from a Claim: a CMS-1500-style claim form (one page, boxed
 * fields, service-line grid), an itemised statement (letterhead, patient and insurance fields, a line-item
 * table that flows onto further pages) and an explanation of benefits (two or three pages). Labels are
 * printed before or above their values, worded like the schema's descriptions.
 */
import { REMARKS } from './catalog.js';
import { formatMoney, formatUsDate, type Address, type Claim } from './claim.js';
import { PageFlow, wrapText, type Column, type Layout } from './layout.js';
import type { Random } from './prng.js';

export function formatAddress(address: Address): string {
  return `${address.street}, ${address.city}, ${address.state} ${address.zip}`;
}

/** "DOE, JANE": how claim forms print names. */
export function formatFormName(name: { first: string; last: string }): string {
  return `${name.last}, ${name.first}`.toUpperCase();
}

export function formatName(name: { first: string; last: string }): string {
  return `${name.first} ${name.last}`;
}

export function layoutClaim(claim: Claim, random: Random): Layout {
  switch (claim.docType) {
    case 'cms1500':
      return layoutClaimForm(claim);
    case 'itemized_bill':
      return layoutItemizedBill(claim);
    case 'eob':
      return layoutExplanationOfBenefits(claim, random);
  }
}

/** Boxed fields in rows, as on the paper form; [label, value, width] per box. */
function boxRow(flow: PageFlow, boxes: [string, string, number][], height = 27): void {
  let x = flow.margin.left;
  for (const [label, value, width] of boxes) {
    flow.boxField(label, value, x, flow.y, width, height);
    x += width;
  }
  flow.y += height;
}

const CMS_LINES = 6;

function layoutClaimForm(claim: Claim): Layout {
  const flow = new PageFlow({ top: 40, bottom: 40, left: 36, right: 36 });
  claimFormTitle(flow, claim);
  claimFormPatientBoxes(flow, claim);
  claimFormServiceLines(flow, claim);
  claimFormTotalsAndProvider(flow, claim);
  return flow.layout;
}

/** The payer's address at the top right, the form's title and its approval line. */
function claimFormTitle(flow: PageFlow, { coverage }: Claim): void {
  flow.paragraph(
    [
      coverage.payerName,
      coverage.payerAddress.street,
      `${coverage.payerAddress.city}, ${coverage.payerAddress.state} ${coverage.payerAddress.zip}`,
    ],
    380,
    44,
    8,
    10,
  );
  flow.heading('HEALTH INSURANCE CLAIM FORM', 1, 36, 82, 15);
  flow.paragraph(['APPROVED BY NATIONAL UNIFORM CLAIM COMMITTEE (NUCC) 02/12'], 36, 94, 6.5);
  flow.y = 102;
}

/** Boxes 1 to 26: plan and member, patient and insured, account, tax id, statement date, diagnoses. */
function claimFormPatientBoxes(flow: PageFlow, claim: Claim): void {
  const { patient, practice, coverage } = claim;
  boxRow(flow, [
    ['1. Insurance Plan Name', coverage.payerName, 300],
    ['1a. Member ID', coverage.memberId, 240],
  ]);
  boxRow(flow, [
    ['2. Patient Name', formatFormName(patient), 210],
    ['3. Date of Birth', formatUsDate(patient.dob), 90],
    ['Sex', patient.sex, 40],
    ["4. Insured's Name", formatFormName(coverage.subscriber), 200],
  ]);
  boxRow(flow, [
    ['5. Patient Address', formatAddress(patient.address), 300],
    ['Patient Phone', patient.phone, 110],
    ['11. Group Number', coverage.groupNumber, 130],
  ]);
  boxRow(flow, [
    ['26. Patient Account No.', claim.accountNumber, 180],
    ['25. Federal Tax ID', practice.taxId, 180],
    ['31. Statement Date', formatUsDate(claim.statementDate), 180],
  ]);
  const diagnoses = claim.diagnoses.map(([code], index) => `${'ABCDEFGHIJKL'[index]}. ${code}`).join('     ');
  boxRow(flow, [['21. ICD-10 Diagnosis Codes', diagnoses, 540]]);
}

/** Box 24: the service-line grid, always CMS_LINES rows, ruled around and between its columns. */
function claimFormServiceLines(flow: PageFlow, claim: Claim): void {
  flow.y += 14;
  flow.heading('24. Service Lines', 3, 36, flow.y, 8);
  flow.y += 5;
  const columns: Column[] = [
    { title: 'Date of Service', width: 90 },
    { title: 'POS', width: 40 },
    { title: 'CPT/HCPCS', width: 80 },
    { title: 'Modifier', width: 70 },
    { title: 'Dx Pointer', width: 80 },
    { title: 'Charges', width: 100, align: 'right' },
    { title: 'Units', width: 80, align: 'right' },
  ];
  const table = flow.nextTable();
  const top = flow.y;
  flow.rule(36, top, 576, top, 0.8);
  flow.y = flow.tableRow(
    table,
    columns,
    columns.map((column) => column.title),
    36,
    flow.y,
    16,
    7.5,
    true,
  );
  for (let i = 0; i < CMS_LINES; i++) {
    const line = claim.lines[i];
    if (line) {
      const cells = [
        formatUsDate(line.dos),
        '11',
        line.procedure.code,
        line.modifier ?? '',
        line.pointer,
        formatMoney(line.charge),
        String(line.units),
      ];
      flow.y = flow.tableRow(table, columns, cells, 36, flow.y, 19, 9);
    } else {
      // The form always shows six service lines; empty ones have rules but no text.
      flow.rule(36, flow.y + 19, 576, flow.y + 19, 0.3);
      flow.y += 19;
    }
  }
  let x = 36;
  for (const column of columns) {
    flow.rule(x, top, x, flow.y, 0.3);
    x += column.width;
  }
  flow.rule(576, top, 576, flow.y, 0.3);
}

/** Boxes 28 to 33: totals, billing provider and its address, then the form's footer line. */
function claimFormTotalsAndProvider(flow: PageFlow, { practice, totals }: Claim): void {
  flow.y += 12;
  boxRow(flow, [
    ['28. Total Charges', formatMoney(totals.charges), 180],
    ['29. Amount Paid', formatMoney(totals.paid), 180],
    ['30. Balance Due', formatMoney(totals.balance ?? 0), 180],
  ]);
  boxRow(flow, [
    ['33. Billing Provider', practice.name, 330],
    ['33a. NPI', practice.npi, 210],
  ]);
  boxRow(flow, [
    ['Provider Address', formatAddress(practice.address), 360],
    ['Provider Phone', practice.phone, 180],
  ]);
  flow.paragraph(
    [
      'NUCC Instruction Manual available at: www.nucc.org     PLEASE PRINT OR TYPE     FORM 1500 (02-12) - synthetic sample',
    ],
    36,
    flow.y + 16,
    6.5,
  );
}

/**
 * A line-item table that may run over pages: the header row is drawn again at the top of every new page, as
 * billing systems print it (so both the PDF and the truth regions show it on each page).
 */
function flowingTable(flow: PageFlow, columns: Column[], rows: string[][]): void {
  const table = flow.nextTable();
  const header = () => {
    flow.y = flow.tableRow(
      table,
      columns,
      columns.map((column) => column.title),
      40,
      flow.y,
      15,
      7.5,
      true,
    );
  };
  header();
  for (const cells of rows) {
    const pages = flow.layout.pages.length;
    flow.ensure(15);
    if (flow.layout.pages.length !== pages) header();
    flow.y = flow.tableRow(table, columns, cells, 40, flow.y, 15, 7.5);
  }
}

/** Two columns of `Label: value` lines; leaves flow.y below the longer column. */
function fieldColumns(
  flow: PageFlow,
  left: [string, string][],
  right: [string, string][],
  size = 9,
  leading = 14,
): void {
  const start = flow.y + size;
  for (const [index, [label, value]] of left.entries())
    flow.inlineField(label, value, flow.margin.left, start + index * leading, size);
  for (const [index, [label, value]] of right.entries())
    flow.inlineField(label, value, 312, start + index * leading, size);
  flow.y = start + Math.max(left.length, right.length) * leading - size + 6;
}

function layoutItemizedBill(claim: Claim): Layout {
  const { patient, practice, coverage, totals } = claim;
  const flow: PageFlow = new PageFlow(undefined, (next) => {
    if (next.layout.pages.length === 1) return;
    next.paragraph(
      [`${practice.name} - Itemized Statement (continued) - Account ${claim.accountNumber}`],
      next.margin.left,
      next.y,
      8,
    );
    next.y += 14;
  });
  flow.heading(practice.name, 1, 40, flow.y + 10, 15);
  flow.paragraph(
    [practice.address.street, `${practice.address.city}, ${practice.address.state} ${practice.address.zip}`],
    40,
    flow.y + 26,
    9,
    12,
  );
  flow.inlineField('Phone', practice.phone, 400, flow.y + 14, 8.5);
  flow.inlineField('NPI', practice.npi, 400, flow.y + 26, 8.5);
  flow.inlineField('Federal Tax ID', practice.taxId, 400, flow.y + 38, 8.5);
  flow.y += 52;
  flow.rule(40, flow.y, 572, flow.y, 1);
  flow.heading('ITEMIZED STATEMENT', 2, 40, flow.y + 22, 13);
  flow.y += 34;
  fieldColumns(
    flow,
    [
      ['Patient Name', formatName(patient)],
      ['Date of Birth', formatUsDate(patient.dob)],
      ['Sex', patient.sex],
      ['Patient Account No.', claim.accountNumber],
    ],
    [
      ['Statement Date', formatUsDate(claim.statementDate)],
      ['Insurance Plan Name', coverage.payerName],
      ['Member ID', coverage.memberId],
      ['Group Number', coverage.groupNumber],
    ],
  );
  flow.inlineField('Patient Address', formatAddress(patient.address), 40, flow.y + 9, 9);
  flow.inlineField("Insured's Name", formatName(coverage.subscriber), 312, flow.y + 9, 9);
  flow.y += 30;
  flow.heading('Diagnoses (ICD-10)', 3, 40, flow.y, 10);
  flow.y += 14;
  claim.diagnoses.forEach(([code, description], index) => {
    flow.paragraph([`${'ABCDEFGHIJKL'[index]}. ${code}  ${description}`], 48, flow.y, 8.5);
    flow.y += 12;
  });
  flow.y += 8;
  flow.heading('Services', 3, 40, flow.y, 10);
  flow.y += 6;
  const columns: Column[] = [
    { title: 'Date of Service', width: 62 },
    { title: 'CPT/HCPCS', width: 52 },
    { title: 'Description', width: 182 },
    { title: 'Modifier', width: 40 },
    { title: 'Dx Pointer', width: 42 },
    { title: 'Units', width: 30, align: 'right' },
    { title: 'Unit Price', width: 60, align: 'right' },
    { title: 'Charges', width: 64, align: 'right' },
  ];
  flowingTable(
    flow,
    columns,
    claim.lines.map((line) => [
      formatUsDate(line.dos),
      line.procedure.code,
      line.procedure.description,
      line.modifier ?? '',
      line.pointer,
      String(line.units),
      formatMoney(line.unitPrice),
      formatMoney(line.charge),
    ]),
  );
  flow.ensure(70);
  flow.y += 18;
  flow.inlineField('Total Charges', formatMoney(totals.charges), 400, flow.y, 9.5);
  flow.inlineField('Amount Paid', formatMoney(totals.paid), 400, flow.y + 15, 9.5);
  flow.inlineField('Balance Due', formatMoney(totals.balance ?? 0), 400, flow.y + 30, 9.5);
  flow.y += 50;
  const footer = `Please make checks payable to ${practice.name}. Payment is due within 30 days of the statement date. Questions about this statement? Call ${practice.phone}.`;
  flow.ensure(30);
  flow.paragraph(wrapText(footer, flow.width, 8), 40, flow.y, 8);
  return flow.layout;
}

const APPEAL_TEXT = [
  'If you disagree with how this claim was processed, you or your authorized representative may ask for an appeal within 180 days of the date of this notice. Send a letter explaining why you disagree, a copy of this notice and any supporting documents to the appeals address shown on your member ID card.',
  'You may ask for copies of the documents and records relevant to your claim free of charge. If your situation is urgent, you may ask for an expedited review, and we will decide within 72 hours.',
  'After an internal appeal you may have the right to an external review by an independent review organization. You may also contact your state insurance department or the Employee Benefits Security Administration at 1-866-444-EBSA (3272).',
];
const NONDISCRIMINATION =
  'We comply with applicable Federal civil rights laws and do not discriminate on the basis of race, color, national origin, age, disability or sex. Language assistance services are available free of charge.';

function layoutExplanationOfBenefits(claim: Claim, random: Random): Layout {
  const { coverage } = claim;
  const flow: PageFlow = new PageFlow(undefined, (next) => {
    if (next.layout.pages.length === 1) return;
    next.paragraph(
      [
        `${coverage.payerName} - Explanation of Benefits - Claim Number ${claim.claimNumber} - Page ${next.layout.pages.length}`,
      ],
      next.margin.left,
      next.y,
      8,
    );
    next.y += 18;
  });
  eobHeader(flow, claim);
  eobClaimDetail(flow, claim);
  eobSummary(flow, claim.totals);
  eobAppealRights(flow, random);
  return flow.layout;
}

/** The payer, the notice's title and the claim's identifying fields. */
function eobHeader(flow: PageFlow, claim: Claim): void {
  const { patient, practice, coverage } = claim;
  flow.heading(coverage.payerName, 1, 40, flow.y + 10, 15);
  flow.paragraph(
    [
      coverage.payerAddress.street,
      `${coverage.payerAddress.city}, ${coverage.payerAddress.state} ${coverage.payerAddress.zip}`,
    ],
    40,
    flow.y + 26,
    9,
    12,
  );
  flow.y += 56;
  flow.heading('EXPLANATION OF BENEFITS', 2, 40, flow.y, 13);
  flow.paragraph(['THIS IS NOT A BILL'], 40, flow.y + 15, 10, 12, true);
  flow.y += 26;
  fieldColumns(
    flow,
    [
      ["Insured's Name", formatName(coverage.subscriber)],
      ['Member ID', coverage.memberId],
      ['Group Number', coverage.groupNumber],
      ['Patient Name', formatName(patient)],
      ['Insurance Plan Name', coverage.payerName],
    ],
    [
      ['Claim Number', claim.claimNumber],
      ['Statement Date', formatUsDate(claim.statementDate)],
      ['Billing Provider', practice.name],
      ['NPI', practice.npi],
    ],
  );
}

/** What the notice explains, then one table row per service line. */
function eobClaimDetail(flow: PageFlow, claim: Claim): void {
  const { patient, practice, coverage } = claim;
  const dates = [...new Set(claim.lines.map((line) => formatUsDate(line.dos)))].join(', ');
  const intro = `This notice explains how ${coverage.payerName} processed the claim from ${practice.name} for services to ${formatName(patient)} on ${dates}. Keep it with your records. If the provider bills you more than the patient responsibility shown below, call the customer service number on your member ID card.`;
  flow.y += 8;
  flow.y = flow.paragraph(wrapText(intro, flow.width, 9), 40, flow.y + 9, 9) + 4;
  flow.heading('Claim Detail', 3, 40, flow.y + 6, 10);
  flow.y += 12;
  const columns: Column[] = [
    { title: 'Date of Service', width: 62 },
    { title: 'CPT/HCPCS', width: 52 },
    { title: 'Description', width: 100 },
    { title: 'Units', width: 32, align: 'right' },
    { title: 'Charges', width: 60, align: 'right' },
    { title: 'Allowed', width: 60, align: 'right' },
    { title: 'Plan Paid', width: 60, align: 'right' },
    { title: 'Patient Responsibility', width: 106, align: 'right' },
  ];
  flowingTable(
    flow,
    columns,
    claim.lines.map((line) => [
      formatUsDate(line.dos),
      line.procedure.code,
      line.procedure.short,
      String(line.units),
      formatMoney(line.charge),
      formatMoney(line.allowed ?? 0),
      formatMoney(line.paid ?? 0),
      formatMoney(line.patientResponsibility ?? 0),
    ]),
  );
}

/** The claim's totals and the remark codes that explain them, on a page of their own. */
function eobSummary(flow: PageFlow, totals: Claim['totals']): void {
  // The summary always starts a new page: EOBs in the sample have two or three pages.
  flow.newPage();
  flow.heading('Claim Summary', 2, 40, flow.y + 10, 13);
  flow.y += 30;
  const summary: [string, number][] = [
    ['Total Charges', totals.charges],
    ['Allowed Amount', totals.allowed ?? 0],
    ['Deductible', totals.deductible ?? 0],
    ['Copay', totals.copay ?? 0],
    ['Coinsurance', totals.coinsurance ?? 0],
    ['Amount Paid', totals.paid],
    ['Patient Responsibility', totals.patientResponsibility ?? 0],
  ];
  for (const [index, [label, cents]] of summary.entries())
    flow.inlineField(label, formatMoney(cents), 40, flow.y + index * 15, 10);
  flow.y += summary.length * 15 + 12;
  flow.heading('Remark Codes', 3, 40, flow.y, 10);
  flow.y += 14;
  const used = REMARKS.filter(
    ([code]) =>
      code === 'CO-45' ||
      (code === 'PR-1' && (totals.deductible ?? 0) > 0) ||
      (code === 'PR-2' && (totals.coinsurance ?? 0) > 0) ||
      (code === 'PR-3' && (totals.copay ?? 0) > 0),
  );
  for (const [code, text] of used) {
    flow.paragraph([`${code}  ${text}`], 48, flow.y, 8.5);
    flow.y += 13;
  }
}

/** The appeal rights and the non-discrimination notice, on a new page half of the time. */
function eobAppealRights(flow: PageFlow, random: Random): void {
  if (random.chance(0.5)) flow.newPage();
  else flow.y += 16;
  flow.heading('Your Right to Appeal', 2, 40, flow.y + 10, 12);
  flow.y += 28;
  for (const text of [...APPEAL_TEXT, NONDISCRIMINATION]) {
    const lines = wrapText(text, flow.width, 9);
    flow.ensure(lines.length * 12 + 8);
    flow.y = flow.paragraph(lines, 40, flow.y, 9, 12) + 8;
  }
}
