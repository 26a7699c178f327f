/**
 * A CMS-1500 (02/12) claim form drawn from its public layout: the real box numbers and captions as ruled boxes
 * at the paper form's size (Letter, captions ~6.5 pt, values 10 pt), check boxes with an X typed in the marked
 * ones, dates in MM | DD | YY sub-boxes, telephone area codes in their own box, dollars and cents split by a
 * rule. Values come from a seeded random claim; the page is rendered with the sample generator's rasteriser
 * (and degraded with its scan tiers) so the local engine reads it through the real OCR. Not a template the
 * engine knows: the engine reads it through a schema like any other form.
 */
import sharp from 'sharp';
import { renderPageRaster, type GreyImage } from '../../../src/dataset/generate/render-raster.js';
import { degradePage, encodePage, type ScanTier } from '../../../src/dataset/generate/scan.js';
import { createRandom, type Random } from '../../../src/dataset/generate/prng.js';
import {
  measureText,
  type LayoutBlock,
  type LayoutPage,
  type Rule,
  type TextRun,
} from '../../../src/dataset/generate/layout.js';

/** The values one filled form carries, as the schema below should return them. */
export interface Cms1500Values {
  program: string;
  insured_id: string;
  patient: { full_name: string; birth_date: string; gender: 'M' | 'F'; street: string; city: string; state: string };
  patient_zip: string;
  patient_phone: string;
  relationship: 'Self' | 'Spouse' | 'Child' | 'Other';
  insured_name: string;
  policy_group: string;
  insured_birth_date: string;
  insured_gender: 'M' | 'F';
  employment_related: boolean;
  auto_accident: boolean;
  other_plan: boolean;
  diagnosis: string[];
  tax_id: string;
  account_no: string;
  accepts_assignment: boolean;
  total_charge: number;
  amount_paid: number;
  billing_npi: string;
}

/** The schema the test reads the form with: its own property names, descriptions a user might write. */
export const CMS1500_SCHEMA = {
  type: 'object',
  properties: {
    program: {
      type: 'string',
      description: 'Type of coverage',
      enum: ['Medicare', 'Medicaid', 'Tricare', 'ChampVA', 'Group Health Plan', 'FECA Blk Lung', 'Other'],
    },
    insured_id: { type: 'string', description: "Insured's ID number" },
    patient: {
      type: 'object',
      properties: {
        full_name: { type: 'string', description: "Patient's name" },
        birth_date: { type: 'string', format: 'date', description: 'Patient date of birth' },
        gender: { type: 'string', enum: ['M', 'F'], description: 'Sex' },
        street: { type: 'string', description: "Patient's address" },
        city: { type: 'string', description: 'City' },
        state: { type: 'string', description: 'State' },
      },
    },
    patient_zip: { type: 'string', description: 'Zip code' },
    patient_phone: { type: 'string', description: 'Telephone' },
    relationship: {
      type: 'string',
      enum: ['Self', 'Spouse', 'Child', 'Other'],
      description: 'Patient relationship to insured',
    },
    insured_name: { type: 'string', description: "Insured's name" },
    policy_group: { type: 'string', description: "Insured's policy group or FECA number" },
    insured_birth_date: { type: 'string', format: 'date', description: "Insured's date of birth" },
    insured_gender: { type: 'string', enum: ['M', 'F'], description: "Insured's sex" },
    employment_related: { type: 'boolean', description: 'Employment (current or previous)' },
    auto_accident: { type: 'boolean', description: 'Auto accident' },
    other_plan: { type: 'boolean', description: 'Is there another health benefit plan' },
    diagnosis: { type: 'array', items: { type: 'string' }, description: 'Diagnosis or nature of illness or injury' },
    tax_id: { type: 'string', description: 'Federal tax ID number' },
    account_no: { type: 'string', description: "Patient's account number" },
    accepts_assignment: { type: 'boolean', description: 'Accept assignment' },
    total_charge: { type: 'number', description: 'Total charge' },
    amount_paid: { type: 'number', description: 'Amount paid' },
    billing_npi: { type: 'string', description: 'NPI' },
  },
};

const LAST = ['RIVERA', 'NGUYEN', 'OKAFOR', 'LINDQVIST', 'PATEL', 'MORALES', 'BECKER', 'KOWALSKI', 'HAYES', 'TANAKA'];
const FIRST = ['DAVID', 'MARIA', 'JAMES', 'AMINA', 'PETER', 'SOFIA', 'HENRY', 'GRACE', 'OMAR', 'LUCY'];
const STREETS = [
  '9412 BIRCH CT',
  '18 HARBOR WAY',
  '2207 ELM ST',
  '530 PINE RIDGE RD',
  '77 LAKEVIEW DR',
  '1410 OAK AVE',
];
const CITIES: [string, string, string][] = [
  ['DES MOINES', 'IA', '50365'],
  ['COLUMBUS', 'OH', '43259'],
  ['TUCSON', 'AZ', '85719'],
  ['RALEIGH', 'NC', '27606'],
  ['SPOKANE', 'WA', '99201'],
];
const PROGRAMS = CMS1500_SCHEMA.properties.program.enum;
const DIAGNOSES = ['R05.9', 'I10', 'E11.9', 'J06.9', 'M54.5', 'Z00.00', 'K21.9', 'N39.0'];

function pick<T>(random: Random, items: readonly T[]): T {
  return items[random.int(0, items.length - 1)]!;
}

function digits(random: Random, count: number): string {
  return Array.from({ length: count }, () => String(random.int(0, 9))).join('');
}

function isoDate(random: Random, fromYear: number, toYear: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${random.int(fromYear, toYear)}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}`;
}

/** An NPI with a valid Luhn check digit (prefix 80840). */
function npi(random: Random): string {
  const body = `${random.int(1, 2)}${digits(random, 8)}`;
  const withPrefix = `80840${body}`;
  let sum = 0;
  for (let i = 0; i < withPrefix.length; i++) {
    let d = Number(withPrefix[withPrefix.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** One filled form's values from `seed`. */
export function cms1500Values(seed: number): Cms1500Values {
  const random = createRandom(seed);
  const last = pick(random, LAST);
  const relationship = pick(random, ['Self', 'Spouse', 'Child', 'Other'] as const);
  const insuredLast = relationship === 'Other' ? pick(random, LAST) : last;
  const [city, state, zip] = pick(random, CITIES);
  const charge = random.int(60, 900) + pick(random, [0, 0.5, 0.25, 0.75]);
  return {
    program: pick(random, PROGRAMS),
    insured_id: `${pick(random, ['ZYL', 'QHB', 'MXA', 'W'])}${digits(random, 9)}`,
    patient: {
      full_name: `${last}, ${pick(random, FIRST)}`,
      birth_date: isoDate(random, 1940, 2015),
      gender: pick(random, ['M', 'F'] as const),
      street: pick(random, STREETS),
      city,
      state,
    },
    patient_zip: zip,
    patient_phone: `(${random.int(201, 989)}) 555-${digits(random, 4)}`,
    relationship,
    insured_name:
      relationship === 'Self' ? `${last}, ${pick(random, FIRST)}` : `${insuredLast}, ${pick(random, FIRST)}`,
    policy_group: `GRP-${digits(random, 5)}`,
    insured_birth_date: isoDate(random, 1940, 1995),
    insured_gender: pick(random, ['M', 'F'] as const),
    employment_related: random.chance(0.3),
    auto_accident: random.chance(0.3),
    other_plan: random.chance(0.5),
    diagnosis: Array.from({ length: random.int(1, 3) }, (_, i) => DIAGNOSES[(seed + i * 3) % DIAGNOSES.length]!),
    tax_id: `${digits(random, 2)}-${digits(random, 7)}`,
    account_no: `PT-${digits(random, 6)}`,
    accepts_assignment: random.chance(0.7),
    total_charge: charge,
    amount_paid: random.chance(0.5) ? 0 : Math.round(charge * 0.4),
    billing_npi: npi(random),
  };
}

/**
 * Draws runs, rules and marks on one page; coordinates in points from the top-left. What is typed in (values and
 * check marks) is kept apart from the printed form, so the form can be printed in a dropout colour.
 */
class FormPage {
  readonly runs: TextRun[] = [];
  readonly rules: Rule[] = [];
  private readonly typed = new Set<TextRun>();

  text(text: string, x: number, baseline: number, size: number, bold = false): void {
    this.runs.push({ text, x, baseline, size, bold });
  }

  /** Text typed into the form. */
  typedText(text: string, x: number, baseline: number, size: number): void {
    this.text(text, x, baseline, size);
    this.typed.add(this.runs.at(-1)!);
  }

  caption(text: string, x: number, y: number): void {
    this.text(text, x + 2, y + 7, 6.5);
  }

  value(text: string, x: number, y: number, height = 24): void {
    this.typedText(text, x + 5, y + height - 5, 10);
  }

  line(x1: number, y1: number, x2: number, y2: number, width = 0.6): void {
    this.rules.push({ x1, y1, x2, y2, width });
  }

  box(x: number, y: number, w: number, h: number, width = 0.6): void {
    this.line(x, y, x + w, y, width);
    this.line(x + w, y, x + w, y + h, width);
    this.line(x, y + h, x + w, y + h, width);
    this.line(x, y, x, y + h, width);
  }

  /** A check box (8 pt square) with its top-left at (x, y), an X typed in it when marked. */
  checkBox(x: number, y: number, marked: boolean): void {
    this.box(x, y, 8, 8, 0.5);
    if (marked) this.typedText('X', x + 1.3, y + 7.3, 9);
  }

  /** An MM | DD | YY date in three sub-boxes under a caption, as the form prints dates. */
  splitDate(iso: string, x: number, y: number): void {
    const [year, month, day] = iso.split('-');
    this.text('MM', x + 4, y + 11.2, 4.5);
    this.text('DD', x + 24, y + 11.2, 4.5);
    this.text('YY', x + 44, y + 11.2, 4.5);
    this.line(x + 20, y + 15, x + 20, y + 24, 0.4);
    this.line(x + 40, y + 15, x + 40, y + 24, 0.4);
    this.typedText(month!, x + 3, y + 23, 10);
    this.typedText(day!, x + 23, y + 23, 10);
    this.typedText(year!.slice(2), x + 43, y + 23, 10);
  }

  /** Dollars and cents split by a rule, as the form's amount boxes print them. */
  money(amount: number, x: number, right: number, y: number): void {
    const [dollars, cents] = amount.toFixed(2).split('.');
    this.text('$', x + 3, y + 19, 8);
    this.typedText(dollars!, right - 20 - dollars!.length * 5.6, y + 19, 10);
    this.line(right - 16, y + 12, right - 16, y + 24, 0.4);
    this.typedText(cents!, right - 13, y + 19, 10);
  }

  page(): LayoutPage {
    return this.layout(this.runs, this.rules);
  }

  /** The printed form (captions, rules, boxes) and what was typed into it, as two pages. */
  layers(): { printed: LayoutPage; typed: LayoutPage } {
    return {
      printed: this.layout(
        this.runs.filter((run) => !this.typed.has(run)),
        this.rules,
      ),
      typed: this.layout([...this.typed], []),
    };
  }

  private layout(runs: TextRun[], rules: Rule[]): LayoutPage {
    const block: LayoutBlock = { kind: 'paragraph', text: '', runs };
    return { width: 612, height: 792, blocks: [block], rules, fills: [] };
  }
}

const L = 18;
const M = 240;
const R = 378;
const E = 594;
const ROW = 24;

/** A Yes/No pair of check boxes at (x, y): "☐ YES ☐ NO", the one for `value` marked. */
function yesNo(form: FormPage, x: number, y: number, value: boolean): void {
  form.checkBox(x, y, value);
  form.text('YES', x + 11, y + 7, 6.5);
  form.checkBox(x + 34, y, !value);
  form.text('NO', x + 45, y + 7, 6.5);
}

function sexBoxes(form: FormPage, x: number, y: number, value: 'M' | 'F'): void {
  form.text('SEX', x, y - 5, 6.5);
  form.text('M', x, y + 7, 6.5);
  form.checkBox(x + 8, y, value === 'M');
  form.text('F', x + 26, y + 7, 6.5);
  form.checkBox(x + 32, y, value === 'F');
}

/** The form's top half (items 1–13), item 21 and the bottom row (items 25–33), filled with `values`. */
export function drawCms1500(values: Cms1500Values): LayoutPage {
  return fillCms1500(values).page();
}

function fillCms1500(values: Cms1500Values): FormPage {
  const f = new FormPage();
  f.text('HEALTH INSURANCE CLAIM FORM', L, 62, 14, true);
  f.text('APPROVED BY NATIONAL UNIFORM CLAIM COMMITTEE (NUCC) 02/12', L, 74, 6.5);
  let y = 82;
  // Item 1: program check boxes, each option word above its box, the ID hint beside it.
  f.box(L, y, R - L, ROW + 6);
  const options: [string, string][] = [
    ['MEDICARE', '(Medicare#)'],
    ['MEDICAID', '(Medicaid#)'],
    ['TRICARE', '(ID#/DoD#)'],
    ['CHAMPVA', '(Member ID#)'],
    ['GROUP HEALTH PLAN', '(ID#)'],
    ['FECA BLK LUNG', '(ID#)'],
    ['OTHER', '(ID#)'],
  ];
  f.text('1.', L + 2, y + 7, 6.5);
  let x = L + 10;
  for (const [word, hint] of options) {
    f.text(word, x, y + 9, 6.5);
    f.checkBox(x, y + 14, values.program.toUpperCase().startsWith(word.split(' ')[0]!));
    f.text(hint, x + 11, y + 21, 5.5);
    x += Math.max(measureText(word, 6.5), 11 + measureText(hint, 5.5)) + 4;
  }
  f.box(R, y, E - R, ROW + 6);
  f.caption("1a. INSURED'S I.D. NUMBER           (For Program in Item 1)", R, y);
  f.value(values.insured_id, R, y, ROW + 6);
  y += ROW + 6;
  // Items 2, 3 (birth date in sub-boxes, sex check boxes), 4.
  f.box(L, y, M - L, ROW);
  f.caption("2. PATIENT'S NAME (Last Name, First Name, Middle Initial)", L, y);
  f.value(values.patient.full_name, L, y);
  f.box(M, y, R - M, ROW);
  f.caption("3. PATIENT'S BIRTH DATE", M, y);
  f.splitDate(values.patient.birth_date, M, y);
  sexBoxes(f, M + 90, y + 12, values.patient.gender);
  f.box(R, y, E - R, ROW);
  f.caption("4. INSURED'S NAME (Last Name, First Name, Middle Initial)", R, y);
  f.value(values.insured_name, R, y);
  y += ROW;
  // Items 5, 6 (relationship check boxes), 7.
  f.box(L, y, M - L, ROW);
  f.caption("5. PATIENT'S ADDRESS (No., Street)", L, y);
  f.value(values.patient.street, L, y);
  f.box(M, y, R - M, ROW);
  f.caption('6. PATIENT RELATIONSHIP TO INSURED', M, y);
  let at = M + 4;
  for (const relation of ['Self', 'Spouse', 'Child', 'Other'] as const) {
    f.text(relation, at, y + 19, 6.5);
    at += measureText(relation, 6.5) + 2;
    f.checkBox(at, y + 12, values.relationship === relation);
    at += 14;
  }
  f.box(R, y, E - R, ROW);
  f.caption("7. INSURED'S ADDRESS (No., Street)", R, y);
  y += ROW;
  // City | State, then Zip code | Telephone (area code in its own box).
  f.box(L, y, 180, ROW);
  f.caption('CITY', L, y);
  f.value(values.patient.city, L, y);
  f.box(L + 180, y, M - L - 180, ROW);
  f.caption('STATE', L + 180, y);
  f.value(values.patient.state, L + 180, y);
  f.box(M, y, R - M, ROW * 2);
  f.caption('8. RESERVED FOR NUCC USE', M, y);
  f.box(R, y, E - R, ROW);
  f.caption('CITY', R, y);
  y += ROW;
  f.box(L, y, 90, ROW);
  f.caption('ZIP CODE', L, y);
  f.value(values.patient_zip, L, y);
  f.box(L + 90, y, M - L - 90, ROW);
  f.caption('TELEPHONE (Include Area Code)', L + 90, y);
  const [, area, number] = /^\((\d{3})\) (.*)$/.exec(values.patient_phone)!;
  f.text('(', L + 94, y + 19, 12);
  f.text(area!, L + 99, y + 19, 10);
  f.text(')', L + 119, y + 19, 12);
  f.text(number!, L + 127, y + 19, 10);
  f.box(R, y, E - R, ROW);
  f.caption('ZIP CODE', R, y);
  y += ROW;
  // Items 9–11 with their a–d lines: Yes/No check boxes in the middle column.
  f.box(L, y, M - L, ROW);
  f.caption("9. OTHER INSURED'S NAME (Last Name, First Name, Middle Initial)", L, y);
  f.box(M, y, R - M, ROW);
  f.caption("10. IS PATIENT'S CONDITION RELATED TO:", M, y);
  f.box(R, y, E - R, ROW);
  f.caption("11. INSURED'S POLICY GROUP OR FECA NUMBER", R, y);
  f.value(values.policy_group, R, y);
  y += ROW;
  f.box(L, y, M - L, ROW);
  f.caption("a. OTHER INSURED'S POLICY OR GROUP NUMBER", L, y);
  f.box(M, y, R - M, ROW);
  f.caption('a. EMPLOYMENT? (Current or Previous)', M, y);
  yesNo(f, M + 30, y + 12, values.employment_related);
  f.box(R, y, E - R, ROW);
  f.caption("a. INSURED'S DATE OF BIRTH", R, y);
  f.splitDate(values.insured_birth_date, R, y);
  sexBoxes(f, R + 120, y + 12, values.insured_gender);
  y += ROW;
  f.box(L, y, M - L, ROW);
  f.caption('b. RESERVED FOR NUCC USE', L, y);
  f.box(M, y, R - M, ROW);
  f.caption('b. AUTO ACCIDENT?', M, y);
  yesNo(f, M + 30, y + 12, values.auto_accident);
  f.text('PLACE (State)', M + 86, y + 19, 5.5);
  f.box(R, y, E - R, ROW);
  f.caption('b. OTHER CLAIM ID (Designated by NUCC)', R, y);
  y += ROW;
  f.box(L, y, M - L, ROW);
  f.caption('d. INSURANCE PLAN NAME OR PROGRAM NAME', L, y);
  f.box(M, y, R - M, ROW);
  f.caption('10d. CLAIM CODES (Designated by NUCC)', M, y);
  f.box(R, y, E - R, ROW);
  f.caption('d. IS THERE ANOTHER HEALTH BENEFIT PLAN?', R, y);
  yesNo(f, R + 6, y + 12, values.other_plan);
  f.text('If yes, complete items 9, 9a, and 9d.', R + 68, y + 19, 5.5);
  y += ROW;
  // Item 21: diagnosis codes A–D.
  f.box(L, y, E - L, ROW + 8);
  f.caption('21. DIAGNOSIS OR NATURE OF ILLNESS OR INJURY  Relate A-L to service line below (24E)', L, y);
  values.diagnosis.forEach((code, index) => {
    f.text(`${'ABCD'[index]}.`, L + 6 + index * 140, y + ROW + 2, 7);
    f.text(code, L + 18 + index * 140, y + ROW + 2, 10);
  });
  y += ROW + 8 + 20;
  // Items 25–30.
  f.box(L, y, 150, ROW);
  f.caption('25. FEDERAL TAX I.D. NUMBER', L, y);
  f.text('SSN', L + 110, y + 7, 5.5);
  f.text('EIN', L + 128, y + 7, 5.5);
  f.checkBox(L + 110, y + 12, false);
  f.checkBox(L + 128, y + 12, true);
  f.value(values.tax_id, L, y);
  f.box(L + 150, y, 130, ROW);
  f.caption("26. PATIENT'S ACCOUNT NO.", L + 150, y);
  f.value(values.account_no, L + 150, y);
  f.box(L + 280, y, 110, ROW);
  f.caption('27. ACCEPT ASSIGNMENT?', L + 280, y);
  yesNo(f, L + 290, y + 12, values.accepts_assignment);
  f.box(L + 390, y, 90, ROW);
  f.caption('28. TOTAL CHARGE', L + 390, y);
  f.money(values.total_charge, L + 390, L + 480, y);
  f.box(L + 480, y, E - L - 480, ROW);
  f.caption('29. AMOUNT PAID', L + 480, y);
  f.money(values.amount_paid, L + 480, E, y);
  y += ROW;
  f.box(L, y, 190, ROW * 2);
  f.caption('31. SIGNATURE OF PHYSICIAN OR SUPPLIER', L, y);
  f.box(L + 190, y, 190, ROW * 2);
  f.caption('32. SERVICE FACILITY LOCATION INFORMATION', L + 190, y);
  f.box(L + 380, y, E - L - 380, ROW * 2);
  f.caption('33. BILLING PROVIDER INFO & PH #', L + 380, y);
  f.box(L + 380, y + ROW * 2, E - L - 380, ROW);
  f.caption('a. NPI', L + 380, y + ROW * 2);
  f.value(values.billing_npi, L + 380, y + ROW * 2);
  return f;
}

/** The filled form rendered at `dpi` (200: a clean office scan), or degraded by one of the sample's scan tiers. */
export async function renderCms1500(values: Cms1500Values, tier: ScanTier | 'render', seed = 1): Promise<Buffer> {
  const page = drawCms1500(values);
  const image: GreyImage =
    tier === 'render'
      ? renderPageRaster(page, 200)
      : await degradePage(
          renderPageRaster(page, tier === 'fax' ? 150 : tier === 'photo' ? 180 : 200),
          tier,
          createRandom(seed),
        );
  return encodePage(image, 'png', tier === 'render' ? 'clean_scan' : tier);
}

/** How a filled form is printed: the form's ink, and how far what is typed into it is off register. */
export interface PrintedForm {
  /** The form's sRGB colour where it is solid (black by default). */
  ink?: readonly [number, number, number];
  /** Points right and down that everything typed is moved by (0, 0 by default). */
  offset?: readonly [number, number];
}

/**
 * The filled form as paper forms are printed and filled, scanned in colour at 200 DPI: the form in its ink (a light
 * "dropout" red, which scanners made for claims leave out), the values typed in black over it, perhaps a few
 * points off where the form's boxes are, as a claim printed onto a pre-printed form often is
 * (CHANGELOG.md, "Forms printed in a dropout colour" and "Marks typed out of register").
 */
export async function renderCms1500Printed(values: Cms1500Values, printing: PrintedForm): Promise<Buffer> {
  const { ink = [0, 0, 0], offset: [dx, dy] = [0, 0] } = printing;
  const { printed, typed } = fillCms1500(values).layers();
  const moved = typed.blocks.map((block) => ({
    ...block,
    runs: block.runs.map((run) => ({ ...run, x: run.x + dx, baseline: run.baseline + dy })),
  }));
  const form = renderPageRaster(printed, 200);
  const data = renderPageRaster({ ...typed, blocks: moved }, 200);
  const rgb = Buffer.alloc(form.width * form.height * 3);
  for (let i = 0; i < form.pixels.length; i++) {
    // The form's ink covers the paper by its render's darkness; the black typed over it multiplies what shows.
    const cover = 1 - form.pixels[i]! / 255;
    const through = data.pixels[i]! / 255;
    for (let c = 0; c < 3; c++) rgb[3 * i + c] = Math.round((255 - cover * (255 - ink[c]!)) * through);
  }
  return sharp(rgb, { raw: { width: form.width, height: form.height, channels: 3 } })
    .withMetadata({ density: 200 })
    .png()
    .toBuffer();
}
