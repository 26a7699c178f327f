/**
 * Scale: `docbench run` over two stored systems (nothing called) on 1,000, 10,000 and 100,000 generated
 * documents — scoring, statistics and reports. Per size: wall time of the whole process, time per document
 * and peak RSS; the ratios of time per document say whether the cost per document stays flat. `scale-10k`
 * is the same without the 100,000 (which takes minutes and writes ~2 GB); `scale-100k` is the 100,000 alone.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchCase, BenchFigure } from '../harness.js';
import { repoRoot } from '../support/child.js';
import { writeStoredDataset } from '../../test/helpers/stored-dataset.js';

interface Measured {
  documents: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  /** The 1-minute load average when the run ended: the machine is shared, so wall time depends on it. */
  load: number;
  phases: Record<string, number | null>;
}

const MiB = 1024 * 1024;

async function measure(documents: number): Promise<Measured> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-bench-scale-'));
  try {
    const dataset = path.join(dir, 'dataset');
    await writeStoredDataset(dataset, documents);
    const rssFile = path.join(dir, 'rss');
    const run = path.join(dir, 'run');
    const args = [
      '--import',
      pathToFileURL(path.join(repoRoot, 'bench/support/peak-rss.mjs')).href,
      path.join(repoRoot, 'bin/docbench.js'),
      'run',
      '--dataset',
      dataset,
      '--config',
      path.join(dataset, 'docbench.config.yaml'),
      '--endpoints',
      'extract,compare',
      '--modes',
      'fast',
      '--no-cache',
      '--no-gate',
      '--quiet',
      '--out',
      run,
    ];
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DOCBENCH_BENCH_RSS_FILE: rssFile },
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const wallMs = performance.now() - started;
    if (code !== 0) throw new Error(`docbench run over ${documents} documents exited with ${code}`);
    const load = os.loadavg()[0]!;
    const usage = JSON.parse(await readFile(rssFile, 'utf8')) as { maxRssKb: number; cpuUs: number };
    const manifest = JSON.parse(await readFile(path.join(run, 'run.json'), 'utf8')) as {
      phases: Record<string, number | null>;
    };
    return {
      documents,
      wallMs,
      cpuMs: usage.cpuUs / 1000,
      peakRssMb: (usage.maxRssKb * 1024) / MiB,
      load,
      phases: manifest.phases,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function describePhases(phases: Record<string, number | null>): string {
  return Object.entries(phases)
    .map(([name, ms]) => `${name.replace(/_ms$/, '')} ${ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`}`)
    .join(', ');
}

const TARGETS: Record<number, { rssMb?: number; wallS?: number }> = {
  10000: { rssMb: 1024 },
  100000: { rssMb: 1536, wallS: 600 },
};

async function runSizes(sizes: readonly number[]): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const measured: Measured[] = [];
  for (const documents of sizes) {
    const m = await measure(documents);
    measured.push(m);
    const label = documents.toLocaleString('en-US');
    const target = TARGETS[documents];
    figures.push({
      name: `wall time, ${label} documents × 2 stored systems`,
      value: m.wallMs / 1000,
      unit: 's',
      ...(target?.wallS ? { target: { op: '<=' as const, value: target.wallS } } : {}),
      note: describePhases(m.phases),
    });
    figures.push({
      name: `time per document, ${label}`,
      value: m.wallMs / documents,
      unit: 'ms',
      note: `load ${m.load.toFixed(1)} on ${os.cpus().length} cores at the end`,
    });
    figures.push({
      name: `CPU time (user + system), ${label}`,
      value: m.cpuMs / 1000,
      unit: 's',
      note: `${(m.cpuMs / documents).toFixed(2)} ms per document; wall time less CPU time is waiting (disk, other processes)`,
    });
    figures.push({
      name: `peak RSS, ${label}`,
      value: m.peakRssMb,
      unit: 'MB',
      ...(target?.rssMb ? { target: { op: '<=' as const, value: target.rssMb } } : {}),
    });
  }
  for (let i = 1; i < measured.length; i++) {
    const [small, large] = [measured[i - 1]!, measured[i]!];
    const sizes = `${large.documents.toLocaleString('en-US')} ÷ ${small.documents.toLocaleString('en-US')}`;
    figures.push({
      name: `time per document, ${sizes}`,
      value: large.wallMs / large.documents / (small.wallMs / small.documents),
      unit: 'x',
      target: { op: '<=', value: 1.25 },
    });
    figures.push({
      name: `CPU time per document, ${sizes}`,
      value: large.cpuMs / large.documents / (small.cpuMs / small.documents),
      unit: 'x',
      note: "the same ratio, free of the machine's load",
    });
  }
  figures.push({
    name: 'machine load (1-minute average) at the end',
    value: os.loadavg()[0]!,
    unit: '',
    note: `${os.cpus().length} cores`,
  });
  return figures;
}

export const cases: BenchCase[] = [
  {
    id: 'scale',
    title: 'Scale: two stored systems over 1,000, 10,000 and 100,000 documents (scoring, statistics, reports)',
    run: () => runSizes([1000, 10_000, 100_000]),
  },
  { id: 'scale-10k', title: 'Scale, the quick half: 1,000 and 10,000 documents', run: () => runSizes([1000, 10_000]) },
  // One size alone, to measure a change at 100,000 without the two smaller runs (no ratio between sizes).
  { id: 'scale-100k', title: 'Scale, the largest size alone: 100,000 documents', run: () => runSizes([100_000]) },
];
