#!/usr/bin/env node
// The published entry point: the compiled CLI. `npm ci` builds dist/ through the `prepare` script.
import { main } from '../dist/cli.js';

main(process.argv.slice(2));
