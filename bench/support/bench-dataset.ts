/**
 * The runner benches' dataset: N tiny PDFs (distinct files, the same few bytes) with a small schema, written
 * as a real dataset directory so the whole `docbench run` process can be timed on it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const BENCH_SCHEMA = {
  type: 'object',
  properties: { claim_number: { type: 'string' }, total_charges: { type: 'number' }, patient_name: { type: 'string' } },
};

/** What the fixed-latency server answers on /extract: a valid, small response. */
export const BENCH_EXTRACT_RESPONSE = {
  response: { claim_number: 'C-1', total_charges: 12.5, patient_name: 'Ann Lee' },
  method: 'fast',
  pages_processed: 1,
  confidence_score: 0.9,
};

export const BENCH_PDF = '%PDF-1.4\n%%EOF\n';

/** Writes `count` documents (doc-000001.pdf …), schema.json and dataset.json into `dir`. */
export async function writeBenchDataset(dir: string, count: number): Promise<void> {
  await mkdir(path.join(dir, 'documents'), { recursive: true });
  await writeFile(path.join(dir, 'schema.json'), JSON.stringify(BENCH_SCHEMA));
  await writeFile(path.join(dir, 'dataset.json'), JSON.stringify({ name: 'bench', locale: 'US' }));
  const ids = Array.from({ length: count }, (_, i) => `doc-${String(i + 1).padStart(6, '0')}`);
  for (let i = 0; i < ids.length; i += 256) {
    await Promise.all(
      ids.slice(i, i + 256).map((id) => writeFile(path.join(dir, 'documents', `${id}.pdf`), BENCH_PDF)),
    );
  }
}
