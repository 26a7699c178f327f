/**
 * `docbench plan` on 1,000 documents (docs/systems.md, "Estimates"): the sample's 36 documents copied in
 * turn — digital and scanned PDFs, PNG, JPEG, multi-page TIFF, 199 MB in all — planned for three priced
 * systems. Target: under a second. Figures: the whole process (node's start, config, dataset validation
 * and content hash, page counts, estimate) and the library call alone, each with its CPU time, each the
 * median of RUNS (after one warm-up, so the files are in the page cache for both). Needs `npm run build`.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type BenchCase } from '../harness.js';
import { endedChildrenCpuMs, repoRoot, timeProcess } from '../support/child.js';
import { resolveConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { planBenchmark } from '../../src/run/plan-benchmark.js';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../datasets/sample-claims');
const DOCUMENTS = 1000;
const RUNS = 5;

const CONFIG = `cacheDir: cache
endpoints: [extract, compare, split]
systems:
  gpt: { kind: openai, baseUrl: "http://127.0.0.1:9/v1", model: vision, price: { perMillionInputTokens: 0.4, perMillionOutputTokens: 1.6 } }
  azure: { kind: azure-di, endpoint: "http://127.0.0.1:9", apiKeyEnv: AZURE_KEY, price: { perPage: 0.01 } }
  textract: { kind: textract, region: us-east-1, price: { perPage: 0.015 } }
`;

export const cases: BenchCase[] = [
  {
    id: 'plan-many',
    title: `docbench plan: ${DOCUMENTS.toLocaleString('en-US')} documents (the sample's, copied), three priced systems`,
    async run() {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-bench-plan-'));
      try {
        const dataset = path.join(dir, 'data');
        await mkdir(path.join(dataset, 'documents'), { recursive: true });
        await copyFile(path.join(SAMPLE, 'schema.json'), path.join(dataset, 'schema.json'));
        await writeFile(path.join(dataset, 'dataset.json'), JSON.stringify({ name: 'plan-bench' }));
        const files = (await readdir(path.join(SAMPLE, 'documents'))).sort();
        for (let i = 0; i < DOCUMENTS; i++) {
          const file = files[i % files.length]!;
          await copyFile(
            path.join(SAMPLE, 'documents', file),
            path.join(dataset, 'documents', `d${String(i).padStart(4, '0')}-${file}`),
          );
        }
        await writeFile(path.join(dir, 'docbench.config.yaml'), CONFIG);
        const cli = path.join(repoRoot, 'bin/docbench.js');
        const config = resolveConfig({ cwd: dir, env: {} });
        const plan = () =>
          planBenchmark({
            config,
            datasetDir: 'data',
            selection: { filters: [], sample: null, seed: 1, limit: null, shard: null },
            repeat: 1,
            cache: true,
            cwd: dir,
            logger: silentLogger,
          });
        const result = await plan();
        const process: number[] = [];
        const processCpu: number[] = [];
        const library: number[] = [];
        const cpu: number[] = [];
        for (let run = 0; run < RUNS; run++) {
          const childCpuBefore = endedChildrenCpuMs();
          process.push(await timeProcess(globalThis.process.execPath, [cli, 'plan', '--dataset', 'data'], dir));
          const childCpuAfter = endedChildrenCpuMs();
          if (childCpuBefore !== null && childCpuAfter !== null) processCpu.push(childCpuAfter - childCpuBefore);
          const started = performance.now();
          const cpuBefore = globalThis.process.cpuUsage();
          await plan();
          const used = globalThis.process.cpuUsage(cpuBefore);
          library.push(performance.now() - started);
          cpu.push((used.user + used.system) / 1000);
        }
        const pages = result.estimates[0]!.pages;
        return [
          {
            name: 'docbench plan, whole process',
            value: median(process) / 1000,
            unit: 's',
            target: { op: '<', value: 1 },
            note: `${pages} pages, ${result.estimates.reduce((n, e) => n + e.total, 0)} calls planned`,
          },
          ...(processCpu.length > 0
            ? [
                {
                  name: 'its CPU time (every thread)',
                  value: median(processCpu) / 1000,
                  unit: 's',
                  note: 'of the child (from /proc): unlike its wall time, not inflated by the load of a shared machine',
                },
              ]
            : []),
          {
            name: 'planBenchmark() alone (dataset validation included)',
            value: median(library) / 1000,
            unit: 's',
            target: { op: '<', value: 1 },
          },
          {
            name: 'its CPU time (every thread)',
            value: median(cpu) / 1000,
            unit: 's',
            note: 'on a shared machine the wall time grows with its load, this does not',
          },
        ];
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
];
