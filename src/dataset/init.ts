/** `docbench dataset init <dir>`: an empty dataset with a README and an example schema to edit. */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { BASELINE_DIR, DOCUMENTS_DIR, MANIFEST_FILE, README_FILE, SCHEMA_FILE, TRUTH_DIR } from './format.js';

/** The example schema: the subset the interface supports, with descriptions worded like printed labels. */
export const EXAMPLE_SCHEMA = {
  type: 'object',
  properties: {
    patient: {
      type: 'object',
      description: 'Patient',
      properties: {
        name: { type: 'string', description: 'Patient name' },
        date_of_birth: { type: 'string', format: 'date', description: 'Date of birth' },
      },
      required: ['name'],
    },
    provider: {
      type: 'object',
      description: 'Billing provider',
      properties: {
        name: { type: 'string', description: 'Billing provider' },
        npi: { type: 'string', description: 'NPI' },
      },
      required: ['name'],
    },
    codes: {
      type: 'array',
      description: 'Service lines',
      items: {
        type: 'object',
        properties: {
          cpt: { type: 'string', description: 'CPT/HCPCS' },
          units: { type: 'integer', description: 'Units' },
          charges: { type: 'number', description: 'Charges' },
        },
        required: ['cpt'],
      },
    },
    total_charges: { type: 'number', description: 'Total charges' },
  },
  required: ['patient', 'codes'],
};

function readmeFor(name: string): string {
  return `# ${name}

A docbench dataset. The format is described in docbench's datasets/README.md; in short:

- \`documents/<id>.<pdf|png|jpg|jpeg|tif|tiff>\`: the documents (the id is the file name without extension).
- \`schema.json\`: the JSON Schema sent to /extract (edit the example).
- \`truth/<id>.json\`: the correct extraction for a document, conforming to schema.json.
- \`truth/<id>.md\`: the correct markdown, pages separated by a line \`<!-- page-break -->\`.
- \`truth/<id>.regions.json\`: the correct text regions, in the shape of /split's \`pages\` (boxes in inches).
- \`baseline/<id>.md\` and \`baseline/<id>.json\`: your current system's output, scored alongside.

Every truth and baseline file is optional. Check the dataset before a run with
\`docbench dataset validate ${name}\`.
`;
}

/** Creates `dir` (which must not exist or be empty) with README.md, schema.json, dataset.json and empty folders. */
export async function initDataset(dir: string): Promise<void> {
  const root = path.resolve(dir);
  const existing = await readdir(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw new UsageError(`${dir}: cannot be used as a dataset directory (${error.code ?? error.message})`, {
      subject: dir,
      cause: error,
    });
  });
  if (existing.length > 0) {
    throw new UsageError(`${dir} is not empty; refusing to overwrite it`, {
      subject: dir,
      hint: 'choose a new directory name',
    });
  }
  const name = path.basename(root);
  await mkdir(root, { recursive: true });
  for (const folder of [DOCUMENTS_DIR, TRUTH_DIR, BASELINE_DIR]) {
    await mkdir(path.join(root, folder), { recursive: true });
    // Keeps the empty folder in git; dotfiles are ignored by discovery.
    await writeFile(path.join(root, folder, '.gitkeep'), '');
  }
  await writeFile(path.join(root, README_FILE), readmeFor(name));
  await writeFile(path.join(root, SCHEMA_FILE), `${JSON.stringify(EXAMPLE_SCHEMA, null, 2)}\n`);
  await writeFile(
    path.join(root, MANIFEST_FILE),
    `${JSON.stringify({ name, version: '1', locale: 'US', comparators: { 'codes[].cpt': 'code' } }, null, 2)}\n`,
  );
}
