/**
 * A dataset of two stored systems (the scale bench's, and tests' of stored-only runs): N documents with truth
 * JSON and markdown, and two stored systems (`incumbent` in baseline/, `candidate` in outputs/candidate/)
 * whose outputs are the truth with seeded slips — a field dropped or mistyped, a word of the markdown changed. Written directly, with no PDF rendering, so 100,000
 * documents take a minute; the documents themselves are the same few bytes (stored systems never read them).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRandom } from '../../src/random.js';

export const STORED_SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string' },
    vendor: { type: 'string' },
    total: { type: 'number' },
    items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } },
    },
  },
};

/** The config that runs the two stored systems, the incumbent as the reference. */
export const STORED_CONFIG =
  'systems:\n  incumbent: { kind: stored }\n  candidate: { kind: stored }\nreference: incumbent\n';

const VENDORS = [
  'Acme Supply',
  'Northwind Traders',
  'Globex Medical',
  'Initech Billing',
  'Umbrella Labs',
  'Stark Clinic',
];
const ITEMS = ['Office visit', 'Lab panel', 'X-ray, chest', 'Consultation', 'Vaccine', 'Physical therapy', 'Supplies'];
const PDF = '%PDF-1.4\n%%EOF\n';

interface Invoice {
  invoice_number: string;
  invoice_date: string;
  vendor: string;
  total: number;
  items: { description: string; amount: number }[];
}

function makeInvoice(index: number, random: () => number): Invoice {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const items = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
    description: pick(ITEMS),
    amount: Math.round(random() * 50_000) / 100,
  }));
  const day = 1 + Math.floor(random() * 28);
  return {
    invoice_number: `INV-${String(index).padStart(7, '0')}`,
    invoice_date: `2026-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    vendor: pick(VENDORS),
    total: Math.round(items.reduce((sum, item) => sum + item.amount, 0) * 100) / 100,
    items,
  };
}

function toMarkdown(invoice: Invoice): string {
  const rows = invoice.items.map((item) => `| ${item.description} | ${item.amount.toFixed(2)} |`);
  return [
    `# Invoice ${invoice.invoice_number}`,
    '',
    `${invoice.vendor}, dated ${invoice.invoice_date}.`,
    '',
    '| Item | Amount |',
    '|---|---|',
    ...rows,
    '',
    `**Total:** ${invoice.total.toFixed(2)}`,
    '',
  ].join('\n');
}

/** The truth as a system read it: each field slips with probability `slip`. */
function misread(invoice: Invoice, slip: number, random: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(invoice)) {
    if (random() >= slip) out[key] = value;
    else if (typeof value === 'number') out[key] = Math.round(value * 90) / 100;
    else if (typeof value === 'string') out[key] = `${value.slice(0, -1)}X`;
    // A dropped array: the items are missed.
  }
  return out;
}

function misreadMarkdown(markdown: string, slip: number, random: () => number): string {
  return markdown
    .split(' ')
    .map((word) => (random() < slip ? word.toUpperCase() : word))
    .join(' ');
}

/** Writes `count` documents, their truth and both systems' outputs, schema.json, dataset.json and docbench.config.yaml. */
export async function writeStoredDataset(dir: string, count: number, seed = 24): Promise<void> {
  const folders = ['documents', 'truth', 'baseline', 'outputs/candidate'];
  for (const folder of folders) await mkdir(path.join(dir, folder), { recursive: true });
  await writeFile(path.join(dir, 'schema.json'), JSON.stringify(STORED_SCHEMA));
  await writeFile(path.join(dir, 'dataset.json'), JSON.stringify({ name: 'scale', locale: 'US' }));
  await writeFile(path.join(dir, 'docbench.config.yaml'), STORED_CONFIG);
  const random = createRandom(seed);
  const batch: Promise<void>[] = [];
  for (let i = 1; i <= count; i++) {
    const id = `doc-${String(i).padStart(6, '0')}`;
    const invoice = makeInvoice(i, random);
    const markdown = toMarkdown(invoice);
    const files: [string, string][] = [
      [`documents/${id}.pdf`, PDF],
      [`truth/${id}.json`, JSON.stringify(invoice)],
      [`truth/${id}.md`, markdown],
      [`baseline/${id}.json`, JSON.stringify(misread(invoice, 0.15, random))],
      [`baseline/${id}.md`, misreadMarkdown(markdown, 0.1, random)],
      [`outputs/candidate/${id}.json`, JSON.stringify(misread(invoice, 0.08, random))],
      [`outputs/candidate/${id}.md`, misreadMarkdown(markdown, 0.05, random)],
    ];
    for (const [file, text] of files) batch.push(writeFile(path.join(dir, file), text));
    if (batch.length >= 512) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}

/** `docbench run` of a dataset's two stored systems (its own docbench.config.yaml) on one endpoint into `out`. */
export async function runStoredSystems(dataset: string, endpoint: string, out: string, cwd: string): Promise<void> {
  // Loaded here, not at the top: the scale bench imports this file and runs docbench as a child process instead.
  const { runCli } = await import('./cli.js');
  const args = ['run', '--dataset', dataset, '--config', path.join(dataset, 'docbench.config.yaml')];
  const result = await runCli(
    [...args, '--endpoints', endpoint, '--no-cache', '--no-gate', '--quiet', '--out', out],
    cwd,
  );
  if (result.code !== 0) throw new Error(`docbench run exited with ${result.code}: ${result.stderr}`);
}
