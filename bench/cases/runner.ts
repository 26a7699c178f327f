/**
 * Runner efficiency and memory (docs/performance.md). Efficiency = ideal time (documents × latency / concurrency)
 * ÷ wall time, against a server (another process) answering after a fixed latency. The latency is a
 * document service's order of magnitude and grows with the concurrency, so that docbench's own CPU cost per
 * call (~0.6 ms, single-threaded) stays a small share of each latency period at every level:
 * latency = max(100 ms, 25 ms × concurrency). A second figure per level shows the floor: the same run at a
 * 5 ms latency, where loopback HTTP and docbench's per-call cost dominate (reported, no target).
 * Memory = peak RSS of a whole workload process.
 */
import { constants } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchCase, BenchFigure } from '../harness.js';
import { BENCH_SCHEMA, writeBenchDataset } from '../support/bench-dataset.js';
import { repoRoot, runChildJson, startChild, stopChild, timeProcess } from '../support/child.js';

interface Workload {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  calls: number;
}

const DOCUMENTS = 500;

/** A latency the service might have, scaled so that `concurrency` calls of CPU fit well inside it. */
function serviceLatencyMs(concurrency: number): number {
  return Math.max(100, 25 * concurrency);
}

async function measure(latencyMs: number, documents: number, concurrency: number, systems = 1): Promise<Workload> {
  const { child, firstLine: baseUrl } = await startChild('bench/support/fixed-latency-server.ts', [String(latencyMs)]);
  try {
    return await runChildJson<Workload>('bench/support/runner-workload.ts', [
      baseUrl,
      String(documents),
      String(concurrency),
      'split',
      String(systems),
    ]);
  } finally {
    await stopChild(child);
  }
}

/** Side by side: the same /extract calls, same server, same concurrency, docbench vs a bare client. */
const VERSUS_CALLS = 2000;
const VERSUS_LATENCY_MS = 200;

interface Timed {
  wallMs: number;
  cpuMs: number;
  calls: number;
}

/**
 * The call phase of docbench's runner and of the bare client, run at the same time, each against a server of
 * its own: on a machine shared with other work, both see the same load, which one after the other they do not.
 */
async function measureVersusBare(concurrency: number): Promise<{ docbench: Timed; bare: Timed }> {
  const servers = await Promise.all(
    [0, 1].map(() => startChild('bench/support/fixed-latency-server.ts', [String(VERSUS_LATENCY_MS)])),
  );
  try {
    const [docbenchUrl, bareUrl] = servers.map((server) => server.firstLine);
    const [docbench, bare] = await Promise.all([
      runChildJson<Timed>('bench/support/runner-workload.ts', [
        docbenchUrl!,
        String(VERSUS_CALLS),
        String(concurrency),
        'extract',
      ]),
      runChildJson<Timed>('bench/support/bare-client.mjs', [
        bareUrl!,
        String(VERSUS_CALLS),
        String(concurrency),
        JSON.stringify(BENCH_SCHEMA),
      ]),
    ]);
    return { docbench, bare };
  } finally {
    await Promise.all(servers.map((server) => stopChild(server.child)));
  }
}

/**
 * Whole processes, at the same time as above: `docbench run` (built CLI: start-up, dataset validation and
 * hash, calls, scoring, reports) over a dataset of VERSUS_CALLS documents, and `node bare-client.mjs` making
 * the same calls.
 */
async function measureWholeProcess(
  concurrency: number,
  outParent = tmpdir(),
): Promise<{ docbenchMs: number; bareMs: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docbench-bench-whole-'));
  const out = await mkdtemp(path.join(outParent, 'docbench-bench-whole-run-'));
  const servers = await Promise.all(
    [0, 1].map(() => startChild('bench/support/fixed-latency-server.ts', [String(VERSUS_LATENCY_MS)])),
  );
  try {
    const [docbenchUrl, bareUrl] = servers.map((server) => server.firstLine);
    const dataset = path.join(dir, 'dataset');
    await writeBenchDataset(dataset, VERSUS_CALLS);
    const [docbenchMs, bareMs] = await Promise.all([
      timeProcess(
        process.execPath,
        [
          path.join(repoRoot, 'bin/docbench.js'),
          'run',
          '--dataset',
          dataset,
          '--base-url',
          docbenchUrl!,
          '--endpoints',
          'extract',
          '--modes',
          'fast',
          '--concurrency',
          String(concurrency),
          '--no-cache',
          '--no-gate',
          '--quiet',
          '--out',
          path.join(out, 'run'),
        ],
        dir,
      ),
      timeProcess(process.execPath, [
        path.join(repoRoot, 'bench/support/bare-client.mjs'),
        bareUrl!,
        String(VERSUS_CALLS),
        String(concurrency),
        JSON.stringify(BENCH_SCHEMA),
      ]),
    ]);
    return { docbenchMs, bareMs };
  } finally {
    await Promise.all(servers.map((server) => stopChild(server.child)));
    await rm(dir, { recursive: true, force: true });
    await rm(out, { recursive: true, force: true });
  }
}

/** A whole-process figure, with both processes' times. */
function wholeProcessFigure(
  name: string,
  value: number,
  target: NonNullable<BenchFigure['target']>,
  times: { docbenchMs: number; bareMs: number },
): BenchFigure {
  return {
    name,
    value,
    unit: 'x',
    target,
    note: `docbench run ${times.docbenchMs.toFixed(0)} ms (start-up, dataset, calls, scoring, reports), bare ${times.bareMs.toFixed(0)} ms; needs npm run build`,
  };
}

/**
 * A memory file system for the run directory, when the machine has one: the whole-process figure above pays
 * the disk's cost of creating the run's files (2,000 drill-down pages), which on some virtual disks is most of
 * the time after the calls; this one shows docbench's own share without it.
 */
async function memoryFileSystem(): Promise<string | null> {
  try {
    await access('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return null;
  }
}

export const cases: BenchCase[] = [
  {
    id: 'runner-vs-bare',
    title: `Runner vs a bare undici client: ${VERSUS_CALLS} /extract calls, ${VERSUS_LATENCY_MS} ms latency, side by side`,
    async run() {
      const figures: BenchFigure[] = [];
      for (const [concurrency, target] of [
        [16, 1.03],
        [64, 1.05],
      ] as const) {
        const { docbench, bare } = await measureVersusBare(concurrency);
        figures.push({
          name: `call phase ÷ bare client, concurrency ${concurrency}`,
          value: docbench.wallMs / bare.wallMs,
          unit: 'x',
          target: { op: '<=', value: target },
          note: `docbench ${docbench.wallMs.toFixed(0)} ms, bare ${bare.wallMs.toFixed(0)} ms`,
        });
        figures.push({
          name: `docbench's own CPU per call, concurrency ${concurrency}`,
          value: (docbench.cpuMs - bare.cpuMs) / docbench.calls,
          unit: 'ms',
          target: { op: '<=', value: 1 },
          note: `CPU beyond the bare client's: docbench ${docbench.cpuMs.toFixed(0)} ms, bare ${bare.cpuMs.toFixed(0)} ms for ${docbench.calls} calls`,
        });
      }
      const whole = await measureWholeProcess(16);
      figures.push(
        wholeProcessFigure(
          'whole process ÷ bare client process, concurrency 16',
          whole.docbenchMs / whole.bareMs,
          { op: '<=', value: 1.1 },
          whole,
        ),
      );
      // At 64 the calls take a quarter of the time, so what follows them (scoring, statistics, reports, the
      // drill-down files) weighs four times as much: stated as the share of the bare client's speed kept.
      const wide = await measureWholeProcess(64);
      figures.push(
        wholeProcessFigure(
          'bare client process ÷ whole process, concurrency 64',
          wide.bareMs / wide.docbenchMs,
          { op: '>=', value: 0.9 },
          wide,
        ),
      );
      const shm = await memoryFileSystem();
      if (shm) {
        const inMemory = await measureWholeProcess(16, shm);
        figures.push({
          name: 'the same, run directory on a memory file system',
          value: inMemory.docbenchMs / inMemory.bareMs,
          unit: 'x',
          note: `docbench run ${inMemory.docbenchMs.toFixed(0)} ms, bare ${inMemory.bareMs.toFixed(0)} ms; no target: shows what the disk's file creation costs above`,
        });
      }
      return figures;
    },
  },
  {
    id: 'runner-efficiency',
    title: `Runner efficiency: ideal ÷ wall time, ${DOCUMENTS} documents, fixed-latency server`,
    async run() {
      const figures: BenchFigure[] = [];
      for (const concurrency of [1, 8, 32, 128]) {
        for (const [latencyMs, target] of [
          [serviceLatencyMs(concurrency), true],
          [5, false],
        ] as const) {
          const result = await measure(latencyMs, DOCUMENTS, concurrency);
          const ideal = (DOCUMENTS * latencyMs) / concurrency;
          figures.push({
            name: `efficiency at concurrency ${concurrency}, latency ${latencyMs} ms`,
            value: ideal / result.wallMs,
            unit: 'ratio',
            ...(target ? { target: { op: '>=' as const, value: 0.95 } } : {}),
            note: `ideal ${ideal.toFixed(0)} ms, wall ${result.wallMs.toFixed(0)} ms${target ? '' : '; the floor: HTTP and per-call cost dominate'}`,
          });
        }
      }
      return figures;
    },
  },
  {
    id: 'runner-overhead',
    title: 'docbench CPU time per call (client, store), server in another process',
    async run() {
      const result = await measure(0, 2000, 8);
      return [
        {
          name: 'CPU per call',
          value: result.cpuMs / result.calls,
          unit: 'ms',
          target: { op: '<', value: 5 },
          note: `${result.calls} calls, ${result.cpuMs.toFixed(0)} ms CPU`,
        },
      ];
    },
  },
  {
    id: 'runner-systems-overhead',
    title: 'docbench CPU time per call: three systems sharing the calls vs one system',
    async run() {
      // Interleaved, best of three each: the machine is shared, and the smallest CPU time is the least disturbed.
      const one: number[] = [];
      const three: number[] = [];
      for (let round = 0; round < 3; round++) {
        const single = await measure(0, 3000, 9, 1);
        one.push(single.cpuMs / single.calls);
        const triple = await measure(0, 3000, 9, 3);
        three.push(triple.cpuMs / triple.calls);
      }
      const best = (values: number[]) => Math.min(...values);
      return [
        { name: 'CPU per call, one system', value: best(one), unit: 'ms' },
        { name: 'CPU per call, three systems', value: best(three), unit: 'ms' },
        {
          name: 'three systems ÷ one system, CPU per call',
          value: best(three) / best(one),
          unit: 'x',
          target: { op: '<=', value: 1.05 },
          note: '3,000 calls each, 9 in flight',
        },
      ];
    },
  },
  {
    id: 'runner-memory',
    title: 'Runner peak memory (RSS) by dataset size, tiny payloads',
    async run() {
      const small = await measure(0, 1000, 16);
      const large = await measure(0, 20_000, 16);
      return [
        { name: 'peak RSS, 1,000 documents', value: small.maxRssMb, unit: 'MB' },
        { name: 'peak RSS, 20,000 documents', value: large.maxRssMb, unit: 'MB' },
        {
          name: 'RSS ratio 20,000 ÷ 1,000',
          value: large.maxRssMb / small.maxRssMb,
          unit: 'x',
          target: { op: '<=', value: 1.2 },
        },
      ];
    },
  },
];
