/**
 * A dataset whose truth is plain markdown (no truth/<id>.blocks.json) and whose dataset.json says `markdownBlocks`
 * gets the block metrics: its truth split into blocks as a system's markdown is (docs/metrics.md "Blocks"), then
 * scored as imported blocks are; without it, none. The figures are computed by hand here.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, readJsonl } from '../helpers/cli.js';
import { runStoredSystems, STORED_CONFIG, STORED_SCHEMA } from '../helpers/stored-dataset.js';

const P1 = 'The committee met on Monday to review the annual budget for the coming year.';
const P2 = 'Several members raised concerns about the rising cost of maintaining the old library.';
const P3 = 'A proposal to merge two departments was discussed at length without a decision.';

/** Truth and the two stored systems' markdown per document. */
const DOCUMENTS: Record<string, { truth: string; incumbent: string; candidate: string }> = {
  // The incumbent reads the last two paragraphs swapped; the candidate reads them in order.
  'doc-1': {
    truth: `${P1}\n\n${P2}\n\n${P3}`,
    incumbent: `${P1}\n\n${P3}\n\n${P2}`,
    candidate: `${P1}\n\n${P2}\n\n${P3}`,
  },
  // A heading and a paragraph; the candidate drops one letter.
  'doc-2': {
    truth: '# Budget\n\nThe surplus was small.',
    incumbent: '# Budget\n\nThe surplus was small.',
    candidate: '# Budget\n\nThe surplus was smal.',
  },
};

let tmp: string;
let runDir: string;
let unaskedRunDir: string;

/** Writes the dataset (dataset.json as given) and runs the two stored systems' markdown on it into `runDir`. */
async function runOn(manifest: Record<string, unknown>, name: string): Promise<string> {
  const dataset = path.join(tmp, `dataset-${name}`);
  for (const folder of ['documents', 'truth', 'baseline', 'outputs/candidate'])
    await mkdir(path.join(dataset, folder), { recursive: true });
  await writeFile(path.join(dataset, 'dataset.json'), JSON.stringify(manifest));
  await writeFile(path.join(dataset, 'schema.json'), JSON.stringify(STORED_SCHEMA));
  await writeFile(path.join(dataset, 'docbench.config.yaml'), STORED_CONFIG);
  for (const [id, doc] of Object.entries(DOCUMENTS)) {
    await writeFile(path.join(dataset, 'documents', `${id}.pdf`), '%PDF-1.4\n%%EOF\n');
    await writeFile(path.join(dataset, 'truth', `${id}.md`), doc.truth);
    await writeFile(path.join(dataset, 'baseline', `${id}.md`), doc.incumbent);
    await writeFile(path.join(dataset, 'outputs/candidate', `${id}.md`), doc.candidate);
  }
  const out = path.join(tmp, `run-${name}`);
  await runStoredSystems(dataset, 'compare', out, tmp);
  return out;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-plain-blocks-'));
  runDir = await runOn({ name: 'plain-blocks', markdownBlocks: true }, 'asked');
  unaskedRunDir = await runOn({ name: 'plain-blocks' }, 'unasked');
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('block metrics of plain truth markdown', () => {
  it('are not computed where dataset.json does not ask for them', async () => {
    const summary = await readJson(path.join(unaskedRunDir, 'summary.json'));
    expect(summary.systems.candidate.markdown.similarity).toBeGreaterThan(0.9);
    expect(summary.systems.candidate.markdown.blocks).toBeUndefined();
    expect(summary.systems.incumbent.markdown.blocks).toBeUndefined();
  });

  it('puts OmniDocBench figures in summary.json, averaged over pages', async () => {
    const summary = await readJson(path.join(runDir, 'summary.json'));
    const incumbent = summary.systems.incumbent.markdown.blocks;
    const candidate = summary.systems.candidate.markdown.blocks;
    expect(incumbent.pages).toBe(2);
    expect(candidate.pages).toBe(2);
    // doc-1, incumbent: truth order [1, 2, 3] read as [1, 3, 2]: Levenshtein 2 ÷ the longer list 3; doc-2: 0.
    expect(incumbent.reading_order_edit).toBeCloseTo((2 / 3 + 0) / 2, 12);
    expect(incumbent.text_edit).toBe(0);
    expect(candidate.reading_order_edit).toBe(0);
    // doc-2, candidate: "Budget" (6) exact, "Thesurpluswassmall" (18) read with one letter less: 1 ÷ (6 + 18);
    // doc-1: 0. The page mean is (0 + 1/24) / 2.
    expect(candidate.text_edit).toBeCloseTo(1 / 48, 12);
    // No tables or formulas in the truth: no such figures.
    expect(incumbent.table_teds).toBeNull();
    expect(incumbent.formula_edit).toBeNull();
  });

  it('stores each document’s blocks, with the order the output read them in', async () => {
    const documents = await readJsonl(path.join(runDir, 'documents.jsonl'));
    const doc1 = documents.find((d) => d.document_id === 'doc-1')!;
    const blocks = doc1.systems.incumbent.markdown.blocks;
    expect(blocks.reading_order).toEqual([{ page: 1, truth: [1, 2, 3], output: [1, 3, 2] }]);
    expect(blocks.matches.map((m: { category: string; order: number }) => [m.category, m.order])).toEqual([
      ['text_block', 1],
      ['text_block', 2],
      ['text_block', 3],
    ]);
    const doc2 = documents.find((d) => d.document_id === 'doc-2')!;
    expect(doc2.systems.candidate.markdown.blocks.matches.map((m: { category: string }) => m.category)).toEqual([
      'title',
      'text_block',
    ]);
  });
});
