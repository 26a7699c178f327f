import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import levenshtein from 'fast-levenshtein';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleDataset, validateDataset } from '../../src/dataset/index.js';
import { listDatasetFiles } from '../../src/dataset/content-hash.js';
import { isValidNpi, luhnCheckDigit } from '../../src/dataset/generate/claim.js';
import { createRandom } from '../../src/dataset/generate/prng.js';
import type { Dataset, Json, JsonObject } from '../../src/types.js';

const SAMPLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../datasets/sample-claims');

async function hashFiles(root: string): Promise<Record<string, string>> {
  const { files } = await listDatasetFiles(root);
  const hashes: Record<string, string> = {};
  for (const file of [...files, 'README.md'])
    hashes[file] = createHash('sha256')
      .update(await readFile(path.join(root, file)))
      .digest('hex');
  return hashes;
}

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-generate-'));
  temps.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

describe('PRNG and NPI helpers', () => {
  it('mulberry32 repeats for a seed, and forks are independent of draws on the parent', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    expect([a.next(), a.next(), a.next()]).toEqual([b.next(), b.next(), b.next()]);
    expect(createRandom(7).fork('x').next()).toBe(a.fork('x').next());
    expect(createRandom(8).next()).not.toBe(createRandom(7).next());
  });
  it('NPI check digits follow the Luhn rule over the 80840 prefix', () => {
    expect(isValidNpi('1234567893')).toBe(true); // the CMS worked example
    expect(isValidNpi('1234567890')).toBe(false);
    expect(luhnCheckDigit('7992739871')).toBe(3);
  });
});

/** Twelve documents cover every document type × tier. */
describe('generateSampleDataset (12 documents)', () => {
  let dir: string;
  let dataset: Dataset;
  const truths = new Map<string, JsonObject>();
  beforeAll(async () => {
    dir = await tempDir();
    await generateSampleDataset(dir, { count: 12, seed: 99 });
    const validation = await validateDataset(dir);
    expect(validation.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    dataset = validation.dataset!;
    for (const document of dataset.documents)
      truths.set(document.id, JSON.parse(await readFile(document.truth.json!, 'utf8')) as JsonObject);
  });

  it('writes a valid dataset: every truth validates, every document has truth and baseline markdown', () => {
    expect(dataset.documents).toHaveLength(12);
    for (const document of dataset.documents) {
      expect(
        document.truth.json && document.truth.markdown && document.truth.regions && document.baseline.markdown,
      ).toBeTruthy();
    }
    expect(new Set(dataset.documents.map((document) => `${document.tags.doc_type}/${document.tags.tier}`)).size).toBe(
      12,
    );
    expect(dataset.documents.filter((document) => document.baseline.json).length).toBeGreaterThanOrEqual(4);
  });

  it('reproduces the same bytes for the same seed, and different bytes for another seed', async () => {
    const again = await tempDir();
    await generateSampleDataset(again, { count: 12, seed: 99 });
    expect(await hashFiles(again)).toEqual(await hashFiles(dir));
    const other = await tempDir();
    await generateSampleDataset(other, { count: 3, seed: 100 });
    const otherHashes = await hashFiles(other);
    const sameHashes = await hashFiles(dir);
    expect(otherHashes['truth/cms1500-001.json']).not.toBe(sameHashes['truth/cms1500-001.json']);
  });

  it('keeps totals consistent: line = unit price × units, sums match, EOB shares add up, NPIs valid, dates in order', () => {
    const cents = (value: Json | undefined) => Math.round(Number(value) * 100);
    for (const [id, truth] of truths) {
      const codes = truth.codes as JsonObject[];
      const summary = truth.billing_summary as JsonObject;
      expect(isValidNpi(String((truth.provider as JsonObject).npi)), id).toBe(true);
      expect(
        codes.reduce((sum, line) => sum + cents(line.charges), 0),
        id,
      ).toBe(cents(summary.total_charges));
      for (const line of codes) {
        expect(String(line.date_of_service) < String(summary.statement_date), id).toBe(true);
        if (line.unit_price !== undefined)
          expect(cents(line.unit_price) * Number(line.units), id).toBe(cents(line.charges));
        if (line.allowed !== undefined) {
          expect(cents(line.paid) + cents(line.patient_responsibility), id).toBe(cents(line.allowed));
          expect(cents(line.allowed) <= cents(line.charges), id).toBe(true);
        }
      }
      if (summary.balance_due !== undefined)
        expect(cents(summary.total_charges) - cents(summary.amount_paid), id).toBe(cents(summary.balance_due));
      if (summary.allowed_amount !== undefined) {
        expect(
          codes.reduce((sum, line) => sum + cents(line.paid), 0),
          id,
        ).toBe(cents(summary.amount_paid));
        expect(cents(summary.deductible) + cents(summary.copay) + cents(summary.coinsurance), id).toBe(
          cents(summary.patient_responsibility),
        );
        expect(cents(summary.amount_paid) + cents(summary.patient_responsibility), id).toBe(
          cents(summary.allowed_amount),
        );
      }
    }
  });

  it('degrades tiers: scans have no text layer, and the baseline error rate grows digital < clean_scan < photo < fax', async () => {
    const byTier = new Map<string, { edits: number; length: number }>();
    for (const document of dataset.documents) {
      const bytes = await readFile(document.file!);
      const hasText = document.mediaType === 'application/pdf' && bytes.includes('/Font');
      expect(hasText, document.id).toBe(document.tags.tier === 'digital');
      const truth = await readFile(document.truth.markdown!, 'utf8');
      const baseline = await readFile(document.baseline.markdown!, 'utf8');
      const total = byTier.get(document.tags.tier!) ?? { edits: 0, length: 0 };
      total.edits += levenshtein.get(truth, baseline);
      total.length += Math.max(truth.length, baseline.length);
      byTier.set(document.tags.tier!, total);
    }
    const rate = (tier: string) => byTier.get(tier)!.edits / byTier.get(tier)!.length;
    expect(rate('digital')).toBeLessThan(rate('clean_scan'));
    expect(rate('clean_scan')).toBeLessThan(rate('photo'));
    expect(rate('photo')).toBeLessThan(rate('fax'));
  });

  it('refuses to overwrite a directory it did not write', async () => {
    const foreign = await tempDir();
    await writeFile(path.join(foreign, 'notes.txt'), 'mine');
    await expect(generateSampleDataset(foreign, { count: 1 })).rejects.toThrow(/not written by the sample generator/);
  });
});

describe('the committed sample', () => {
  it('regenerating with its recorded seed and count reproduces every committed file byte for byte', async () => {
    const manifest = JSON.parse(await readFile(path.join(SAMPLE_DIR, 'dataset.json'), 'utf8')) as {
      generator: { seed: number; count: number };
    };
    const dir = await tempDir();
    await generateSampleDataset(dir, { count: manifest.generator.count, seed: manifest.generator.seed });
    expect(await hashFiles(dir)).toEqual(await hashFiles(SAMPLE_DIR));
    expect((await validateDataset(dir)).contentHash).toBe((await validateDataset(SAMPLE_DIR)).contentHash);
  }, 180_000);
});
