/**
 * A dataset of small DIGITAL claim forms for the drills that run the real local engine: one page each,
 * made with pdfkit (a text layer, so the engine reads them with pdf.js and never needs OCR), a few labelled
 * fields, a truth JSON and an incumbent's baseline markdown. Values come from the document's index, so the
 * dataset is the same on every run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import PDFDocument from 'pdfkit';

export const CLAIM_SCHEMA = {
  type: 'object',
  required: ['patient_name', 'member_id'],
  properties: {
    patient_name: { type: 'string', description: 'Patient Name' },
    member_id: { type: 'string', description: 'Member ID' },
    claim_number: { type: 'string', description: 'Claim Number' },
    total_charges: { type: 'number', description: 'Total Charges' },
  },
};

const FIRST = ['John', 'Maria', 'Wei', 'Aisha', 'Pedro', 'Olga', 'Kwame', 'Sofia'];
const LAST = ['Smith', 'Garcia', 'Chen', 'Khan', 'Silva', 'Ivanova', 'Mensah', 'Rossi'];

export interface ClaimForm {
  id: string;
  truth: { patient_name: string; member_id: string; claim_number: string; total_charges: number };
}

export function claimForm(index: number): ClaimForm {
  const id = `claim-${String(index + 1).padStart(4, '0')}`;
  return {
    id,
    truth: {
      patient_name: `${FIRST[index % FIRST.length]} ${LAST[(index * 3) % LAST.length]}`,
      member_id: `MB-${String(100000 + index * 7919).slice(-6)}`,
      claim_number: `CLM-2024-${String(index + 1).padStart(4, '0')}`,
      total_charges: Math.round((50 + ((index * 37.25) % 900)) * 100) / 100,
    },
  };
}

function renderPdf(form: ClaimForm): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // A fixed creation date: the same form gives the same bytes, so content hashes are stable.
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: 72,
      compress: false,
      info: { CreationDate: new Date(Date.UTC(2024, 0, 1)) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(18).text('CLAIM FORM', 72, 72);
    doc.font('Helvetica').fontSize(11);
    doc.text(`Patient Name: ${form.truth.patient_name}`, 72, 130);
    doc.text(`Member ID: ${form.truth.member_id}`, 72, 150);
    doc.text(`Claim Number: ${form.truth.claim_number}`, 72, 170);
    doc.text(`Total Charges: $${form.truth.total_charges.toFixed(2)}`, 72, 190);
    doc.end();
  });
}

/** The incumbent's markdown: close to the form, with an OCR-like slip so the head-to-head is not a tie. */
function baselineMarkdown(form: ClaimForm): string {
  return `# CLAIM F0RM\n\nPatient Name: ${form.truth.patient_name}\nMember ID: ${form.truth.member_id}\nClaim Number: ${form.truth.claim_number}\nTotal Charges: $${form.truth.total_charges.toFixed(2)}\n`;
}

/** Writes `count` claim forms as a dataset under `dir`; returns `dir`. */
export async function writeClaimDataset(dir: string, count: number): Promise<string> {
  for (const sub of ['documents', 'truth', 'baseline']) await mkdir(path.join(dir, sub), { recursive: true });
  const forms = Array.from({ length: count }, (_, i) => claimForm(i));
  await writeFile(path.join(dir, 'schema.json'), JSON.stringify(CLAIM_SCHEMA, null, 2));
  await writeFile(
    path.join(dir, 'dataset.json'),
    JSON.stringify(
      {
        name: 'drill-claims',
        version: '1',
        documents: forms.map((f) => ({ id: f.id, file: `documents/${f.id}.pdf`, tags: {} })),
      },
      null,
      2,
    ),
  );
  for (const form of forms) {
    await writeFile(path.join(dir, 'documents', `${form.id}.pdf`), await renderPdf(form));
    await writeFile(path.join(dir, 'truth', `${form.id}.json`), JSON.stringify(form.truth));
    await writeFile(path.join(dir, 'baseline', `${form.id}.md`), baselineMarkdown(form));
  }
  return dir;
}
