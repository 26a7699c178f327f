/**
 * The sample dataset's fixed files: schema.json (in the spirit of the interface's medical example, each
 * description worded like the printed label), context.txt, dataset.json and README.md.
 */
import type { JsonObject, JsonSchema } from '../../types.js';

const text = (description: string) => ({ type: 'string', description });
const date = (description: string) => ({ type: 'string', format: 'date', description });
const number = (description: string) => ({ type: 'number', description });

export const SAMPLE_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Medical billing document',
  type: 'object',
  properties: {
    patient: {
      type: 'object',
      description: 'Patient',
      properties: {
        name: text('Patient name'),
        date_of_birth: date('Date of birth'),
        sex: { type: 'string', enum: ['M', 'F'], description: 'Sex' },
        address: text('Patient address'),
        account_number: text('Patient account no.'),
      },
      required: ['name'],
    },
    provider: {
      type: 'object',
      description: 'Billing provider',
      properties: {
        name: text('Billing provider'),
        npi: text('NPI'),
        tax_id: text('Federal tax ID'),
        address: text('Provider address'),
        phone: text('Provider phone'),
      },
      required: ['name', 'npi'],
    },
    insurance: {
      type: 'object',
      description: 'Insurance',
      properties: {
        payer_name: text('Insurance plan name'),
        member_id: text('Member ID'),
        group_number: text('Group number'),
        subscriber_name: text("Insured's name"),
      },
      required: ['payer_name', 'member_id'],
    },
    diagnosis_codes: { type: 'array', description: 'ICD-10 diagnosis codes', items: text('ICD-10 code') },
    codes: {
      type: 'array',
      description: 'Service lines (billing codes)',
      items: {
        type: 'object',
        properties: {
          date_of_service: date('Date of service'),
          cpt: text('CPT/HCPCS'),
          description: text('Description'),
          modifier: text('Modifier'),
          diagnosis_pointer: text('Dx pointer'),
          units: { type: 'integer', description: 'Units' },
          unit_price: number('Unit price'),
          charges: number('Charges'),
          allowed: number('Allowed'),
          paid: number('Plan paid'),
          patient_responsibility: number('Patient responsibility'),
        },
        required: ['cpt', 'units', 'charges'],
      },
    },
    billing_summary: {
      type: 'object',
      description: 'Billing summary',
      properties: {
        total_charges: number('Total charges'),
        allowed_amount: number('Allowed amount'),
        deductible: number('Deductible'),
        copay: number('Copay'),
        coinsurance: number('Coinsurance'),
        amount_paid: number('Amount paid'),
        patient_responsibility: number('Patient responsibility'),
        balance_due: number('Balance due'),
        statement_date: date('Statement date'),
        claim_number: text('Claim number'),
      },
      required: ['total_charges'],
    },
  },
  required: ['patient', 'provider', 'insurance', 'codes', 'billing_summary'],
};

export const SAMPLE_CONTEXT = `US medical billing documents: CMS-1500 claim forms, itemized statements and explanation-of-benefits letters.
Return dates as YYYY-MM-DD and money as plain numbers without currency symbols.
Return one entry in "codes" per service line, in the order printed. Copy codes, names and ids exactly as printed.
`;

const MONEY_PATHS = [
  'codes[].unit_price',
  'codes[].charges',
  'codes[].allowed',
  'codes[].paid',
  'codes[].patient_responsibility',
  'billing_summary.total_charges',
  'billing_summary.allowed_amount',
  'billing_summary.deductible',
  'billing_summary.copay',
  'billing_summary.coinsurance',
  'billing_summary.amount_paid',
  'billing_summary.patient_responsibility',
  'billing_summary.balance_due',
];

/** Field path → comparator, as dataset.json holds them. */
export const SAMPLE_COMPARATORS: JsonObject = {
  'codes[].cpt': 'code',
  'codes[].modifier': 'code',
  'codes[].diagnosis_pointer': 'code',
  'diagnosis_codes[]': { type: 'code', ignoreDots: true },
  'provider.npi': 'code',
  'provider.tax_id': 'code',
  'insurance.member_id': 'code',
  'insurance.group_number': 'code',
  'patient.account_number': 'code',
  'billing_summary.claim_number': 'code',
  'patient.date_of_birth': 'date',
  'codes[].date_of_service': 'date',
  'billing_summary.statement_date': 'date',
  'codes[].units': 'number',
  ...Object.fromEntries(MONEY_PATHS.map((path) => [path, 'money'])),
};

export const SAMPLE_README = `# sample-claims: a synthetic medical-billing dataset

**Everything in this dataset is synthetic.** The patients, providers, payers, member ids, NPIs and amounts
are invented by docbench's generator (\`docbench dataset generate\`, code in src/dataset/generate/); any
resemblance to real people or organisations is accidental. The CPT/HCPCS and ICD-10 codes are real codes
used with plausible descriptions and fees.

**The incumbent is simulated.** baseline/*.md and baseline/*.json are not the output of any real system:
they are the truth passed through a seeded noise model of a legacy OCR engine (0/O, 1/l, 5/S confusions,
dropped or merged table cells, swapped reading order, lost lines), worse on worse tiers. Use them to see
how docbench reports a head-to-head, not to judge any product.

## What is in it
- CMS-1500-style claim forms (\`cms1500-*\`), itemized statements (\`bill-*\`) and multi-page
  explanation-of-benefits letters (\`eob-*\`). NPIs are Luhn-valid, dates of service precede the
  statement date, line charges are unit price × units and totals add up (EOB: allowed = deductible +
  copay + coinsurance + plan paid per line).
- Tiers (tag \`tier\`): \`digital\` (PDF with a text layer), \`clean_scan\` (200 DPI greyscale, slight skew),
  \`photo\` (180 DPI, skew, blur, washed-out contrast, uneven light, JPEG) and \`fax\` (150 DPI, noisy,
  binarised, lost scan lines). Formats: PDF, scanned PDF (images only, no text layer), PNG, JPEG, TIFF
  (multi-page where the document has several pages; Group 4 for fax).
- truth/: the extraction (\`<id>.json\`), the markdown (\`<id>.md\`, pages separated by
  \`<!-- page-break -->\`) and the text regions (\`<id>.regions.json\`), exact by construction from the
  generator's own layout. For scans, the truth is the un-rotated layout: the page is 612 × 792 pt (US
  Letter) and the image's DPI maps pixels to points.

Regenerate with \`docbench dataset generate <dir> --count <count> --seed <seed>\` (values in dataset.json
\`generator\`); the files come out byte-identical on the same platform.
`;
