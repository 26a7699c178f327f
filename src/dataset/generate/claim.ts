/**
 * The facts behind one sample document: who was seen, by whom, for what, what it cost and who paid. All
 * money is integer cents, so totals add up exactly; every printed string is derived from these facts.
 */
import {
  DIAGNOSES,
  FIRST_NAMES,
  LAST_NAMES,
  PAYERS,
  PLACES,
  PRACTICE_ENTITY,
  PRACTICE_KINDS,
  PRACTICE_STEMS,
  PROCEDURES,
  STREET_NAMES,
  STREET_SUFFIXES,
  type ProcedureCode,
} from './catalog.js';
import type { Random } from './prng.js';

export const DOC_TYPES = ['cms1500', 'itemized_bill', 'eob'] as const;
export type DocType = (typeof DOC_TYPES)[number];

export interface Address {
  street: string;
  city: string;
  state: string;
  zip: string;
}

export interface Patient {
  first: string;
  last: string;
  /** ISO date. */
  dob: string;
  sex: 'M' | 'F';
  address: Address;
  phone: string;
}

export interface Practice {
  name: string;
  npi: string;
  taxId: string;
  address: Address;
  phone: string;
}

export interface Coverage {
  payerName: string;
  payerAddress: Address;
  memberId: string;
  groupNumber: string;
  /** The insured (subscriber), "First Last"; the patient or a family member. */
  subscriber: { first: string; last: string };
}

export interface ServiceLine {
  /** ISO date of service. */
  dos: string;
  procedure: ProcedureCode;
  modifier?: string;
  /** Diagnosis pointer letters, e.g. "AB". */
  pointer: string;
  units: number;
  unitPrice: number;
  /** unitPrice × units. */
  charge: number;
  /** EOB adjudication (cents). */
  allowed?: number;
  deductible?: number;
  coinsurance?: number;
  copay?: number;
  paid?: number;
  patientResponsibility?: number;
}

export interface Claim {
  docType: DocType;
  patient: Patient;
  practice: Practice;
  coverage: Coverage;
  /** [ICD-10 code, description], in pointer order A, B, C… */
  diagnoses: (readonly [string, string])[];
  lines: ServiceLine[];
  /** ISO: claim signature date, statement date or EOB processing date. */
  statementDate: string;
  accountNumber: string;
  claimNumber: string;
  totals: {
    charges: number;
    /** Paid so far (CMS box 29, bill payments) or paid by the plan (EOB). */
    paid: number;
    /** charges − paid (CMS-1500, bill). */
    balance?: number;
    allowed?: number;
    deductible?: number;
    coinsurance?: number;
    copay?: number;
    patientResponsibility?: number;
  };
}

const DAY_MS = 86_400_000;

/** ISO date `days` after `iso` (negative for before). */
export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 2024-03-05 → 03/05/2024: how US forms print dates. */
export function formatUsDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

/** 123456 cents → "$1,234.56". */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** The Luhn check digit for a digit string. */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let digit = Number(payload[payload.length - 1 - i]);
    // Doubling starts from the digit next to where the check digit will go.
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** NPI: 9 digits + a Luhn check digit computed over the 80840 prefix (CMS NPI check-digit rule). */
export function makeNpi(random: Random, kind: 1 | 2): string {
  let base = String(kind);
  for (let i = 0; i < 8; i++) base += String(random.int(0, 9));
  return base + String(luhnCheckDigit(`80840${base}`));
}

export function isValidNpi(npi: string): boolean {
  return /^[12]\d{9}$/.test(npi) && luhnCheckDigit(`80840${npi.slice(0, 9)}`) === Number(npi[9]);
}

function digits(random: Random, count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) text += String(random.int(0, 9));
  return text;
}

function makeAddress(random: Random): Address {
  const [city, state, prefix] = random.pick(PLACES);
  return {
    street: `${random.int(12, 9870)} ${random.pick(STREET_NAMES)} ${random.pick(STREET_SUFFIXES)}`,
    city,
    state,
    zip: `${prefix}${digits(random, 2)}`,
  };
}

/** 555-01xx numbers are reserved for fiction. */
function makePhone(random: Random): string {
  return `(${random.int(201, 989)}) 555-01${digits(random, 2)}`;
}

function makePatient(random: Random, statementDate: string): Patient {
  const age = random.int(2, 88);
  return {
    first: random.pick(FIRST_NAMES),
    last: random.pick(LAST_NAMES),
    dob: addDays(statementDate, -(age * 365 + random.int(0, 364))),
    sex: random.chance(0.5) ? 'F' : 'M',
    address: makeAddress(random),
    phone: makePhone(random),
  };
}

function makePractice(random: Random): Practice {
  const entity = random.pick(PRACTICE_ENTITY);
  return {
    name: `${random.pick(PRACTICE_STEMS)} ${random.pick(PRACTICE_KINDS)}${entity ? ` ${entity}` : ''}`,
    npi: makeNpi(random, 2),
    taxId: `${digits(random, 2)}-${digits(random, 7)}`,
    address: makeAddress(random),
    phone: makePhone(random),
  };
}

function makeCoverage(random: Random, patient: Patient): Coverage {
  const payer = random.pick(PAYERS);
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const prefix = Array.from({ length: 3 }, () => random.pick([...letters])).join('');
  const selfInsured = patient.dob < '2007-01-01' && random.chance(0.7);
  return {
    payerName: `${payer.name} ${payer.plan}`,
    payerAddress: { street: payer.street, city: payer.place[0], state: payer.place[1], zip: payer.place[2] },
    memberId: `${prefix}${digits(random, 9)}`,
    groupNumber: random.chance(0.5) ? `GRP-${digits(random, 5)}` : digits(random, 6),
    subscriber: selfInsured
      ? { first: patient.first, last: patient.last }
      : { first: random.pick(FIRST_NAMES), last: patient.last },
  };
}

const LINE_COUNTS: Record<DocType, [number, number]> = { cms1500: [2, 6], itemized_bill: [5, 24], eob: [2, 9] };

function makeLines(
  random: Random,
  docType: DocType,
  statementDate: string,
  diagnosisCount: number,
  feeFactor: number,
): ServiceLine[] {
  const [min, max] = LINE_COUNTS[docType];
  const count = random.int(min, max);
  // A visit, then procedures and supplies; codes repeat only on long bills (several dates of service).
  const visits = PROCEDURES.filter((procedure) => procedure.visit);
  const others = PROCEDURES.filter((procedure) => !procedure.visit);
  const visitCount = docType === 'itemized_bill' ? Math.max(1, Math.floor(count / 6)) : 1;
  const dates = Array.from({ length: visitCount }, () => addDays(statementDate, -random.int(3, 75))).sort();
  const lines: ServiceLine[] = [];
  const pointerLetters = 'ABCDEFGHIJKL'.slice(0, diagnosisCount);
  for (let i = 0; i < count; i++) {
    const dateIndex = Math.min(visitCount - 1, Math.floor((i * visitCount) / count));
    const firstOfVisit = i === 0 || Math.floor(((i - 1) * visitCount) / count) !== dateIndex;
    const procedure = firstOfVisit && random.chance(0.9) ? random.pick(visits) : random.pick(others);
    const units = random.int(procedure.units[0], procedure.units[1]);
    // Fees vary by practice; rounded to whole dollars (drug units to the quarter) as fee schedules are.
    const step = procedure.fee < 1000 ? 25 : 100;
    const unitPrice = Math.max(step, Math.round((procedure.fee * feeFactor) / step) * step);
    const pointerCount = Math.min(diagnosisCount, random.chance(0.35) ? 2 : 1);
    const pointer = random
      .sample([...pointerLetters], pointerCount)
      .sort()
      .join('');
    const line: ServiceLine = {
      dos: dates[dateIndex]!,
      procedure,
      pointer,
      units,
      unitPrice,
      charge: unitPrice * units,
    };
    if (procedure.modifiers && random.chance(0.7)) line.modifier = random.pick(procedure.modifiers);
    lines.push(line);
  }
  // Modifier 25: a significant, separately identifiable visit on the day of a procedure.
  for (const line of lines) {
    if (
      line.procedure.visit &&
      lines.some(
        (other) =>
          other !== line && other.dos === line.dos && !other.procedure.visit && !other.procedure.code.startsWith('8'),
      )
    ) {
      line.modifier = '25';
    }
  }
  return lines;
}

/** Plan adjudication for an EOB: allowed amounts, deductible first, then copay (visits) or coinsurance. */
function adjudicate(random: Random, lines: ServiceLine[]): void {
  let deductibleLeft = random.pick([0, 0, 5000, 15000, 50000]);
  const coinsuranceRate = random.pick([0.1, 0.2, 0.2, 0.3]);
  const visitCopay = random.chance(0.5) ? random.pick([2000, 2500, 4000]) : 0;
  for (const line of lines) {
    const allowed = Math.round(line.charge * random.float(0.45, 0.9));
    const deductible = Math.min(deductibleLeft, allowed);
    deductibleLeft -= deductible;
    const afterDeductible = allowed - deductible;
    const copay = line.procedure.visit && visitCopay > 0 ? Math.min(visitCopay, afterDeductible) : 0;
    const coinsurance = copay > 0 ? 0 : Math.round(afterDeductible * coinsuranceRate);
    Object.assign(line, {
      allowed,
      deductible,
      copay,
      coinsurance,
      paid: afterDeductible - copay - coinsurance,
      patientResponsibility: deductible + copay + coinsurance,
    });
  }
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Builds a consistent claim of the given type from the random stream. */
export function makeClaim(random: Random, docType: DocType): Claim {
  const statementDate = addDays('2025-01-06', random.int(0, 320));
  const patient = makePatient(random, statementDate);
  const practice = makePractice(random);
  const coverage = makeCoverage(random, patient);
  const diagnoses = random.sample(DIAGNOSES, random.int(1, 4));
  const lines = makeLines(random, docType, statementDate, diagnoses.length, random.float(0.9, 1.35));
  const claim: Claim = {
    docType,
    patient,
    practice,
    coverage,
    diagnoses,
    lines,
    statementDate,
    accountNumber: `${random.pick(['PT', 'AC', 'MRN'])}-${digits(random, 6)}`,
    claimNumber: `${statementDate.slice(2, 4)}${digits(random, 3)}E${digits(random, 8)}`,
    totals: { charges: sum(lines.map((line) => line.charge)), paid: 0 },
  };
  if (docType === 'eob') {
    // The EOB is processed after the last date of service.
    const lastDos = lines
      .map((line) => line.dos)
      .sort()
      .at(-1)!;
    if (claim.statementDate <= lastDos) claim.statementDate = addDays(lastDos, random.int(10, 30));
    adjudicate(random, lines);
    claim.totals = {
      charges: claim.totals.charges,
      allowed: sum(lines.map((line) => line.allowed ?? 0)),
      deductible: sum(lines.map((line) => line.deductible ?? 0)),
      copay: sum(lines.map((line) => line.copay ?? 0)),
      coinsurance: sum(lines.map((line) => line.coinsurance ?? 0)),
      paid: sum(lines.map((line) => line.paid ?? 0)),
      patientResponsibility: sum(lines.map((line) => line.patientResponsibility ?? 0)),
    };
  } else {
    const charges = claim.totals.charges;
    const paid =
      docType === 'cms1500'
        ? random.pick([0, 0, 0, 2000, 2500, 4000])
        : random.chance(0.4)
          ? 0
          : Math.round((charges * random.float(0.3, 0.8)) / 100) * 100;
    claim.totals = { charges, paid, balance: charges - paid };
  }
  return claim;
}
