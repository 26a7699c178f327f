/**
 * Dataset costs (issue 3): validating the committed sample before a run, and generating sample documents.
 * Targets: validation stays well under a second (it runs before every run); the 36-document sample
 * generates in well under 2 minutes.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeContentHash, generateSampleDataset, validateDataset } from '../../src/dataset/index.js';
import { medianTimeMs, type BenchCase } from '../harness.js';
import { writeBenchDataset } from '../support/bench-dataset.js';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../datasets/sample-claims');

const MANY_DOCUMENTS = 100_000;
const LARGE_FILE_MB = 256;

/** Reads `file` front to back in 1 MiB chunks, handing each to `use`; resolves with MB/s. */
async function readSequentially(file: string, use: (chunk: Buffer) => void = () => undefined): Promise<number> {
  const handle = await open(file, 'r');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const started = performance.now();
  let total = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, total);
      if (bytesRead === 0) break;
      use(buffer.subarray(0, bytesRead));
      total += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return total / 1024 / 1024 / ((performance.now() - started) / 1000);
}

export const cases: BenchCase[] = [
  {
    id: 'dataset-many',
    title: `Dataset validation and content hash: ${MANY_DOCUMENTS.toLocaleString('en-US')} small documents`,
    async run() {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-bench-many-'));
      try {
        await writeBenchDataset(dir, MANY_DOCUMENTS);
        const started = performance.now();
        const validation = await validateDataset(dir);
        const seconds = (performance.now() - started) / 1000;
        if (validation.dataset?.documents.length !== MANY_DOCUMENTS) throw new Error(`validation failed: ${validation.problems[0]?.message}`);
        return [
          { name: `validate + hash ${MANY_DOCUMENTS.toLocaleString('en-US')} documents`, value: seconds, unit: 's', target: { op: '<=', value: 10 } },
          { name: 'per document', value: (seconds * 1000) / MANY_DOCUMENTS, unit: 'ms', note: 'the issue measured ~1.5 ms before' },
        ];
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
  {
    id: 'dataset-hash-large',
    title: `Content hash of a ${LARGE_FILE_MB} MiB file against reading it sequentially`,
    async run() {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-bench-large-'));
      try {
        await mkdir(path.join(dir, 'documents'));
        const file = path.join(dir, 'documents', 'large.pdf');
        const chunk = Buffer.alloc(1024 * 1024, 'docbench ');
        const handle = await open(file, 'w');
        for (let i = 0; i < LARGE_FILE_MB; i++) await handle.write(chunk);
        await handle.close();
        await writeFile(path.join(dir, 'schema.json'), '{}');
        // Warm: both readers then find the file in the page cache, as a run right after validation does.
        const read = await readSequentially(file);
        const readMbs = Math.max(read, await readSequentially(file));
        const hashStarted = performance.now();
        await computeContentHash(dir);
        const hashMbs = LARGE_FILE_MB / ((performance.now() - hashStarted) / 1000);
        const sha = createHash('sha256');
        const readAndHashMbs = await readSequentially(file, (bytes) => sha.update(bytes));
        return [
          { name: 'sequential read (the reference)', value: readMbs, unit: 'MB/s' },
          { name: 'content hash ÷ sequential read', value: hashMbs / readMbs, unit: 'ratio', target: { op: '>=', value: 0.8 }, note: `${hashMbs.toFixed(0)} MB/s` },
          {
            name: 'content hash ÷ sequential read-then-sha256',
            value: hashMbs / readAndHashMbs,
            unit: 'ratio',
            note: `${readAndHashMbs.toFixed(0)} MB/s: sha256 on this CPU bounds any hash of one file from the page cache`,
          },
        ];
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
  {
    id: 'dataset-validate',
    title: 'docbench dataset validate on the 36-document sample',
    async run() {
      const ms = await medianTimeMs(() => validateDataset(SAMPLE), 5, 1000);
      return [{ name: 'validate sample-claims (median)', value: ms, unit: 'ms', target: { op: '<=', value: 1000 } }];
    },
  },
  {
    id: 'dataset-generate',
    title: 'Sample generator: one full cycle of types × tiers (12 documents)',
    async run() {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-bench-generate-'));
      try {
        const started = performance.now();
        await generateSampleDataset(dir, { count: 12, seed: 1 });
        const perDocument = (performance.now() - started) / 12;
        return [
          { name: 'generation time per document', value: perDocument, unit: 'ms' },
          { name: 'projected time for the 36-document sample', value: (perDocument * 36) / 1000, unit: 's', target: { op: '<=', value: 120 } },
        ];
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
];
