/**
 * The reading order of predicted regions in a run: summary.json `regions.reading_order`, documents.jsonl's per
 * document, and report.html's regions card (docs/metrics/regions.md "Reading order"), figures by hand.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegionPage } from '../../src/service/types.js';
import { readJson, readJsonl } from '../helpers/cli.js';
import { runStoredSystems, STORED_CONFIG, STORED_SCHEMA } from '../helpers/stored-dataset.js';

const page = (rows: number[]): RegionPage[] => [
  {
    page: 1,
    width: 612,
    height: 792,
    bounding_boxes: rows.map((row) => ({
      bounding_box: { min_x: 1, min_y: row, max_x: 5, max_y: row + 0.8 },
      content: `Paragraph ${row}`,
    })),
  },
];

let tmp: string;
let runDir: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-regions-order-'));
  const dataset = path.join(tmp, 'dataset');
  for (const folder of ['documents', 'truth', 'baseline', 'outputs/candidate'])
    await mkdir(path.join(dataset, folder), { recursive: true });
  await writeFile(path.join(dataset, 'dataset.json'), JSON.stringify({ name: 'regions-order' }));
  await writeFile(path.join(dataset, 'schema.json'), JSON.stringify(STORED_SCHEMA));
  await writeFile(path.join(dataset, 'docbench.config.yaml'), STORED_CONFIG);
  for (const id of ['doc-1', 'doc-2']) {
    await writeFile(path.join(dataset, 'documents', `${id}.pdf`), '%PDF-1.4\n%%EOF\n');
    await writeFile(path.join(dataset, 'truth', `${id}.regions.json`), JSON.stringify(page([1, 2, 3, 4])));
    // The incumbent lists the regions in the truth's order.
    await writeFile(path.join(dataset, 'baseline', `${id}.regions.json`), JSON.stringify(page([1, 2, 3, 4])));
  }
  // The candidate reads doc-1 bottom-up (ARD 1 − 8/16 = 0.5) and doc-2 with the middle two swapped (1 − 2/16).
  await writeFile(path.join(dataset, 'outputs/candidate', 'doc-1.regions.json'), JSON.stringify(page([4, 3, 2, 1])));
  await writeFile(path.join(dataset, 'outputs/candidate', 'doc-2.regions.json'), JSON.stringify(page([1, 3, 2, 4])));
  runDir = path.join(tmp, 'run');
  await runStoredSystems(dataset, 'split', runDir, tmp);
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('regions reading order in a run', () => {
  it('is in summary.json, averaged over pages, and per document in documents.jsonl', async () => {
    const summary = await readJson(path.join(runDir, 'summary.json'));
    expect(summary.systems.incumbent.regions.reading_order).toBe(1);
    expect(summary.systems.candidate.regions.reading_order).toBeCloseTo((0.5 + 0.875) / 2, 12);
    // The boxes themselves are all found: the order is the only difference.
    expect(summary.systems.candidate.regions.at50.f1).toBe(1);
    const documents = await readJsonl(path.join(runDir, 'documents.jsonl'));
    const byId = new Map(documents.map((d) => [d.document_id, d]));
    expect(byId.get('doc-1')!.systems.candidate.regions.reading_order).toBe(0.5);
    expect(byId.get('doc-2')!.systems.candidate.regions.reading_order).toBe(0.875);
  });

  it('shows in report.html beside the region figures', async () => {
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('Reading order (ARD, higher is better)');
  });
});
