/**
 * A service stand-in that answers after a fixed delay with a tiny valid payload: /extract with a small
 * extraction, any other path with a /split answer. The runner is measured against it. Run as a child process
 * (`tsx bench/support/fixed-latency-server.ts <latencyMs>`) so its CPU and memory are not counted as
 * docbench's; prints its base URL on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BENCH_EXTRACT_RESPONSE } from './bench-dataset.js';

const latencyMs = Number(process.argv[2] ?? '0');
const splitBody = JSON.stringify({ pages: [{ page: 1, width: 612, height: 792, bounding_boxes: [] }] });
const extractBody = JSON.stringify(BENCH_EXTRACT_RESPONSE);

const server = createServer((req, res) => {
  const body = req.url === '/extract' ? extractBody : splitBody;
  req.resume();
  req.on('end', () => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), latencyMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
