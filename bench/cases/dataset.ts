/**
 * Dataset costs (issue 3): validating the committed sample before a run, and generating sample documents.
 * Targets: validation stays well under a second (it runs before every run); the 36-document sample
 * generates in well under 2 minutes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSampleDataset, validateDataset } from '../../src/dataset/index.js';
import { medianTimeMs, type BenchCase } from '../harness.js';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../datasets/sample-claims');

export const cases: BenchCase[] = [
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
