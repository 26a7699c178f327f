/**
 * The reference the runner is measured against: a bare undici client that posts the same multipart /extract
 * calls (one prebuilt body) to the same server at the same concurrency, reads each JSON answer and keeps
 * nothing. What docbench spends beyond it is its own cost. Plain JavaScript, so that timing the whole process
 * (`node bare-client.mjs …`) counts no TypeScript loader. Prints {wallMs, cpuMs, calls} as JSON.
 * Usage: node bench/support/bare-client.mjs <baseUrl> <calls> <concurrency> <schema-json>
 */
import { Agent } from 'undici';

const [baseUrl, callsArg, concurrencyArg, schema] = process.argv.slice(2);
const calls = Number(callsArg);
const concurrency = Number(concurrencyArg);
const dispatcher = new Agent({ connections: concurrency });
const boundary = '----bare-client-boundary';
const body = Buffer.from(
  [
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="page.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n%%EOF\n\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="schema"\r\n\r\n${schema}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="fast"\r\n\r\ntrue\r\n`,
    `--${boundary}--\r\n`,
  ].join(''),
);
const { origin, pathname } = new URL(`${baseUrl}/extract`);

const cpuBefore = process.cpuUsage();
const started = performance.now();
let next = 0;
let failed = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < calls) {
      next++;
      const response = await dispatcher.request({
        origin,
        path: pathname,
        method: 'POST',
        body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      await response.body.json();
      if (response.statusCode !== 200) failed++;
    }
  }),
);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await dispatcher.close();
if (failed > 0) throw new Error(`${failed} calls failed`);
process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, calls })}\n`);
