/**
 * A service stand-in that answers /split after a fixed delay with a tiny valid payload: the runner's
 * efficiency is measured against it. Run as a child process (`tsx bench/support/fixed-latency-server.ts
 * <latencyMs>`) so its CPU and memory are not counted as docbench's; prints its base URL on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const latencyMs = Number(process.argv[2] ?? '0');
const body = JSON.stringify({ pages: [{ page: 1, width: 612, height: 792, bounding_boxes: [] }] });

const server = createServer((req, res) => {
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
