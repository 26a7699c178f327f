/**
 * Start-up (docs/performance.md): `docbench --version` and `--help` against `node -e 0`, and importing the library's
 * main entry (no local engine) against the same. Each is a fresh process; the median of RUNS, interleaved so
 * that a busy machine slows all of them alike. Needs `npm run build` (the CLI runs from dist/).
 */
import path from 'node:path';
import { median, type BenchCase, type BenchFigure } from '../harness.js';
import { repoRoot, timeProcess } from '../support/child.js';

const RUNS = 11;

export const cases: BenchCase[] = [
  {
    id: 'startup',
    title: `Start-up: fresh processes, median of ${RUNS} (interleaved)`,
    async run() {
      const cli = path.join(repoRoot, 'bin/docbench.js');
      const main = path.join(repoRoot, 'dist/index.js');
      const commands = {
        node: ['-e', '0'],
        version: [cli, '--version'],
        help: [cli, '--help'],
        library: ['--input-type=module', '-e', `await import(${JSON.stringify(main)})`],
      };
      const times: Record<keyof typeof commands, number[]> = { node: [], version: [], help: [], library: [] };
      for (let run = 0; run < RUNS; run++) {
        for (const [name, args] of Object.entries(commands) as [keyof typeof commands, string[]][])
          times[name].push(await timeProcess(process.execPath, args));
      }
      const node = median(times.node);
      const figures: BenchFigure[] = [{ name: 'node -e 0 (the reference)', value: node, unit: 'ms' }];
      for (const name of ['version', 'help'] as const) {
        const ms = median(times[name]);
        figures.push({
          name: `docbench --${name} ÷ node -e 0`,
          value: ms / node,
          unit: 'x',
          target: { op: '<=', value: 2 },
          note: `${ms.toFixed(0)} ms; issue target ≤ 150 ms on a quiet machine`,
        });
      }
      const library = median(times.library);
      // The target, 200 ms where node -e 0 takes 77 ms, as a ratio (200 ÷ 77 ≈ 2.6): the machine's load cancels out.
      figures.push({
        name: "import('docbench') main entry ÷ node -e 0",
        value: library / node,
        unit: 'x',
        target: { op: '<=', value: 2.6 },
        note: `${library.toFixed(0)} ms; issue target ≤ 200 ms where node -e 0 takes 77 ms`,
      });
      return figures;
    },
  },
];
