/** A small valid dataset written to a fresh temp dir; tests break one thing each. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const MINIMAL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
export const MINIMAL_PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b55', 'hex');

export const FIXTURE_SCHEMA = {
  type: 'object',
  properties: {
    patient: {
      type: 'object',
      properties: { name: { type: 'string', description: 'Patient name' }, dob: { type: 'string', format: 'date' } },
      required: ['name'],
    },
    codes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { cpt: { type: 'string' }, units: { type: 'integer' }, charges: { type: 'number' } },
        required: ['cpt'],
      },
    },
    paid: { type: 'boolean' },
  },
  required: ['patient'],
};

export const FIXTURE_TRUTH = {
  patient: { name: 'Jane Doe', dob: '1970-01-31' },
  codes: [{ cpt: '99213', units: 1, charges: 125.5 }],
  paid: false,
};

export const FIXTURE_REGIONS = [
  {
    page: 1,
    width: 612,
    height: 792,
    bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1, max_x: 3, max_y: 1.2 }, content: 'Patient Name: Jane Doe' }],
  },
];

/** Writes `files` (relative path → content; objects are JSON) into a new temp dir and returns its path. */
export async function writeDataset(files: Record<string, string | Buffer | object>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'docbench-dataset-'));
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.isBuffer(content) || typeof content === 'string' ? content : JSON.stringify(content));
  }
  return root;
}

/** The valid baseline: one PDF with every truth and baseline file. */
export function validFiles(): Record<string, string | Buffer | object> {
  return {
    'schema.json': FIXTURE_SCHEMA,
    'documents/claim-1.pdf': MINIMAL_PDF,
    'truth/claim-1.json': FIXTURE_TRUTH,
    'truth/claim-1.md': '# Claim\n\nPatient Name: Jane Doe\n\n<!-- page-break -->\n\nPage two\n',
    'truth/claim-1.regions.json': FIXTURE_REGIONS,
    'baseline/claim-1.md': 'Claim\nPatient Narne: Jane Doe\n',
    'baseline/claim-1.json': { patient: { name: 'Jane Doe' } },
  };
}
