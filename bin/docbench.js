#!/usr/bin/env node
// The published entry point: the compiled CLI. `npm ci` builds dist/ through the `prepare` script.
import { setFlagsFromString } from 'node:v8';
import { main } from '../dist/cli.js';

// V8 lets the heap grow to several times what is live between full collections; a large run keeps every
// document's scores until its statistics are done, so that slack was most of its peak memory. Growth fixed at
// 1.3x: 100,000 documents peak at 1,387 MB instead of 1,595 MB at 1.5x (and several GB at V8's default), for 4%
// more CPU; 2,000 documents take no measurable time more (docs/performance.md, "Scale"). A heuristic V8 reads at
// every collection, so setting it here takes effect.
setFlagsFromString('--heap-growing-percent=30');

// Every command has finished and awaited its files when main resolves (serve and view wait for their server to
// close): the process exits there, with stdout and stderr flushed first, instead of letting V8 tear a large
// run's heap down, ~50 ms of a 2,000-document run (docs/performance.md, "Runner").
main(process.argv.slice(2)).then((code) => {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
