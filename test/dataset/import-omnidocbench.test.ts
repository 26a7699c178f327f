import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importDataset, readTruthBlocks, validateDataset } from '../../src/dataset/index.js';
import { silentLogger } from '../../src/logger.js';
import { aggregateBlocks, scoreDocumentBlocks } from '../../src/score/index.js';

const DEMO = path.resolve(import.meta.dirname, '../../../shared/reference/omnidocbench/demo_data');
const ANNOTATIONS = path.join(DEMO, 'omnidocbench_demo/OmniDocBench_demo.json');
const IMAGES = path.join(DEMO, 'omnidocbench_demo/images');
const PREDICTIONS = path.join(DEMO, 'end2end');

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'docbench-omnidocbench-'));
const options = (out: string) => ({ out, force: false, seed: 1, logger: silentLogger });

describe('dataset import omnidocbench', () => {
  it("imports OmniDocBench's demo: pages, truth blocks, tags and the predictions as a stored system", async () => {
    const out = path.join(await tempDir(), 'omnidocbench');
    const summary = await importDataset('omnidocbench', ANNOTATIONS, {
      ...options(out),
      images: IMAGES,
      predictions: PREDICTIONS,
      predictionsAs: 'demo-parser',
    });
    expect(summary.documents).toBe(18);
    const validation = await validateDataset(out);
    expect(validation.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const manifest = JSON.parse(await readFile(path.join(out, 'dataset.json'), 'utf8'));
    const page = manifest.documents.find((d: { id: string }) => d.id === 'yanbaopptmerge_SE05.pdf_7');
    expect(page.tags).toEqual({
      data_source: 'PPT2PDF',
      language: 'english',
      layout: 'single_column',
      'special_issue.colorful_backgroud': 'yes',
    });
    expect(await readFile(path.join(out, 'truth/yanbaopptmerge_SE05.pdf_7.md'), 'utf8')).toMatch(
      /^# - Human Factors\n/,
    );

    // The stored blocks and outputs give OmniDocBench's figures back.
    const figures = [];
    for (const { id } of manifest.documents as { id: string }[]) {
      const blocks = await readTruthBlocks(path.join(out, 'truth', `${id}.blocks.json`));
      const output = await readFile(path.join(out, 'outputs/demo-parser', `${id}.md`), 'utf8');
      figures.push(...scoreDocumentBlocks(blocks, [output]).pages);
    }
    const whole = aggregateBlocks(figures);
    expect(whole.text_edit).toBeCloseTo(0.3561, 3);
    expect(whole.reading_order_edit).toBeCloseTo(0.217, 3);
    expect(whole.table_teds).toBeCloseTo(0.7838, 3);
  });

  it('refuses a file that is not a list of pages, naming it; nothing is written', async () => {
    const dir = await tempDir();
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ pages: [] }));
    await expect(
      importDataset('omnidocbench', bad, { ...options(path.join(dir, 'out')), images: IMAGES }),
    ).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining(`${bad}: not OmniDocBench's annotation file`),
    });
    await writeFile(bad, JSON.stringify([{ page_info: { image_path: 'a.jpg' } }]));
    await expect(
      importDataset('omnidocbench', bad, { ...options(path.join(dir, 'out')), images: IMAGES }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('entry 0: no page_info or layout_dets'),
    });
    expect(await readdir(dir)).toEqual(['bad.json']);
  });

  it('refuses a page whose image is missing, naming the entry and the image; nothing is written', async () => {
    const dir = await tempDir();
    const images = path.join(dir, 'images');
    await cp(IMAGES, images, { recursive: true });
    const missing = 'newspaper_1cddf9d22ca549f3a86cf1512a3110cc_1.jpg';
    await (await import('node:fs/promises')).rm(path.join(images, missing));
    await expect(
      importDataset('omnidocbench', ANNOTATIONS, { ...options(path.join(dir, 'out')), images }),
    ).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(new RegExp(`entry \\d+ \\(${missing.replaceAll('.', '\\.')}\\) is not in`)),
    });
    expect(await readdir(dir)).toEqual(['images']);
  });

  it('refuses a prediction for a page the annotation file does not have; nothing is written', async () => {
    const dir = await tempDir();
    const predictions = path.join(dir, 'predictions');
    await cp(PREDICTIONS, predictions, { recursive: true });
    await writeFile(path.join(predictions, 'no-such-page.md'), '# nothing');
    await expect(
      importDataset('omnidocbench', ANNOTATIONS, {
        ...options(path.join(dir, 'out')),
        images: IMAGES,
        predictions,
        predictionsAs: 'demo-parser',
      }),
    ).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('no-such-page.md: no page "no-such-page"'),
    });
    expect(await readdir(dir)).toEqual(['predictions']);
  });
});
