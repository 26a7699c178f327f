/**
 * One runner workload in its own process: N tiny documents through `executeCalls` against a base URL, then
 * prints {wallMs, cpuMs, maxRssMb, calls} as JSON. Used for efficiency, per-call overhead and peak memory.
 * Usage: tsx bench/support/runner-workload.ts <baseUrl> <documents> <concurrency> [split|extract] [systems]
 * (extract: mode fast with the bench schema, the calls the bare client of bare-client.ts makes.)
 * With `systems` > 1, that many interface systems share the documents (each answers N ÷ systems of them,
 * with the concurrency split between them), so the call count and the calls in flight stay the same.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, DEFAULT_RETRY_POLICY } from '../../src/service/index.js';
import { clientSystem } from '../../src/systems/kinds/interface.js';
import { executeCalls } from '../../src/run/runner.js';
import { planCalls } from '../../src/run/plan.js';
import { ResultsWriter } from '../../src/run-dir/results-writer.js';
import { silentLogger } from '../../src/logger.js';
import type { Dataset, DatasetDocument, Endpoint } from '../../src/types.js';
import { BENCH_PDF, BENCH_SCHEMA } from './bench-dataset.js';

const [baseUrl, documentsArg, concurrencyArg, endpointArg = 'split', systemsArg] = process.argv.slice(2);
const endpoint = endpointArg as Endpoint;
const count = Number(documentsArg);
const concurrency = Number(concurrencyArg);
const systemCount = Number(systemsArg ?? 1);

const dir = await mkdtemp(path.join(tmpdir(), 'docbench-bench-'));
const file = path.join(dir, 'page.pdf');
await writeFile(file, BENCH_PDF);
// Every document points at the same tiny file: the workload measures docbench, not the disk.
const documents: DatasetDocument[] = Array.from({ length: count }, (_, i) => ({
  id: `doc-${i}`,
  file,
  bytes: BENCH_PDF.length,
  mediaType: 'application/pdf',
  tags: {},
  truth: {},
  baseline: {},
}));
const dataset: Dataset = {
  root: dir,
  name: 'bench',
  locale: 'US',
  schema: BENCH_SCHEMA,
  defaults: {},
  comparators: {},
  documents,
  contentHash: 'sha256:bench',
};
const common = {
  concurrency: Math.max(1, Math.round(concurrency / systemCount)),
  ratePerSecond: null,
  timeoutMs: 600_000,
  retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 },
  price: null,
};
const clients = Array.from({ length: systemCount }, () =>
  createClient({ baseUrl: baseUrl!, connections: common.concurrency, retry: common.retry }),
);
const systems = clients.map((client, i) => ({
  system: clientSystem(`system-${i}`, 'interface', baseUrl!, client, () => client.close()),
  common,
}));
// Each system takes its share of the documents: the same number of calls as one system answering all.
const calls = systems.flatMap(({ system }, i) =>
  planCalls(
    documents.filter((_, d) => d % systemCount === i),
    { modes: ['fast'], endpoints: [endpoint], repeat: 1, systems: [system] },
  ),
);
const writer = ResultsWriter.open(path.join(dir, 'results.jsonl'));

// As docbench run does before its calls (start-up, not the call phase): the bare client loads undici before its clock too.
await Promise.all(systems.map(({ system }) => system.prepare?.()));
const cpuBefore = process.cpuUsage();
const started = performance.now();
const result = await executeCalls({
  dataset,
  calls,
  done: new Set(),
  systems,
  cache: null,
  writer,
  endpointConcurrency: {},
  outageThreshold: 1000,
  logger: silentLogger,
});
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
writer.close();
await Promise.all(clients.map((client) => client.close()));
await rm(dir, { recursive: true, force: true });
if (result.counts.failed > 0) throw new Error(`${result.counts.failed} calls failed`);
process.stdout.write(
  `${JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, calls: result.counts.recorded })}\n`,
);
