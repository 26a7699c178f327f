/**
 * Runner efficiency and memory (issues 5 and 9). Efficiency = ideal time (documents × latency / concurrency)
 * ÷ wall time, against a server with a fixed latency; the latency is chosen per level so that the ideal time
 * is the same 2.5 s at every concurrency. Memory = peak RSS of a whole workload process.
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
const IDEAL_MS = 2500;

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
        const latencyMs = (IDEAL_MS * concurrency) / DOCUMENTS;
        const result = await measure(latencyMs, DOCUMENTS, concurrency);
        const ideal = (DOCUMENTS * latencyMs) / concurrency;
        figures.push({
          name: `efficiency at concurrency ${concurrency}`,
          value: ideal / result.wallMs,
          unit: 'ratio',
          target: { op: '>=', value: 0.95 },
          note: `latency ${latencyMs} ms, ideal ${ideal.toFixed(0)} ms, wall ${result.wallMs.toFixed(0)} ms`,
        });
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
