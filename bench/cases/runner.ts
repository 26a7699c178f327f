/**
 * Runner efficiency and memory (issues 5 and 9). Efficiency = ideal time (documents × latency / concurrency)
 * ÷ wall time, against a server (another process) answering after a fixed latency. The latency is a
 * document service's order of magnitude and grows with the concurrency, so that docbench's own CPU cost per
 * call (~0.6 ms, single-threaded) stays a small share of each latency period at every level:
 * latency = max(100 ms, 25 ms × concurrency). A second figure per level shows the floor: the same run at a
 * 5 ms latency, where loopback HTTP and docbench's per-call cost dominate (reported, no target).
 * Memory = peak RSS of a whole workload process.
 */
import type { BenchCase, BenchFigure } from '../harness.js';
import { runChildJson, startChild, stopChild } from '../support/child.js';

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

async function measure(latencyMs: number, documents: number, concurrency: number): Promise<Workload> {
  const { child, firstLine: baseUrl } = await startChild('bench/support/fixed-latency-server.ts', [String(latencyMs)]);
  try {
    return await runChildJson<Workload>('bench/support/runner-workload.ts', [baseUrl, String(documents), String(concurrency)]);
  } finally {
    await stopChild(child);
  }
}

export const cases: BenchCase[] = [
  {
    id: 'runner-efficiency',
    title: `Runner efficiency: ideal ÷ wall time, ${DOCUMENTS} documents, fixed-latency server`,
    async run() {
      const figures: BenchFigure[] = [];
      for (const concurrency of [1, 8, 32, 128]) {
        for (const [latencyMs, target] of [[serviceLatencyMs(concurrency), true], [5, false]] as const) {
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
      return [{ name: 'CPU per call', value: result.cpuMs / result.calls, unit: 'ms', target: { op: '<', value: 5 }, note: `${result.calls} calls, ${result.cpuMs.toFixed(0)} ms CPU` }];
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
        { name: 'RSS ratio 20,000 ÷ 1,000', value: large.maxRssMb / small.maxRssMb, unit: 'x', target: { op: '<=', value: 1.2 } },
      ];
    },
  },
];
