/**
 * The local engine on real documents (docs/local-service.md, Real documents): `docbench run` of each dev-set folder (real scanned receipts,
 * real invoices; `../shared/devset/<folder>` beside the repository, never committed) through the local
 * service, every call a cache miss. Prints field F1 per folder and seconds per page (wall time of the run over
 * its pages, and the mean per-page latency of /extract). Targets: F1 ≥ 0.6 on each folder; seconds per page no
 * worse than before the engine was tuned on real documents (receipts 5.4 s, invoices 0.45 s of wall time a page, measured the same way).
 * Skipped with a note when the dev set is not there.
 */
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFinalRecords, readSummary } from '../../src/run-dir/index.js';
import type { BenchCase, BenchFigure } from '../harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEVSET = path.resolve(root, '..', 'shared', 'devset');

/** Wall seconds a page before the engine was tuned on real documents, same command on the same machine. */
const BEFORE_SECONDS_PER_PAGE: Record<string, number> = { receipts: 5.4, invoices: 0.45 };
const FOLDERS = ['receipts', 'invoices'];

function runCli(args: string[]): Promise<void> {
  // The CLI from source, so no build is needed first. Not `--input-type=module`: the OCR worker threads inherit
  // the process's flags, and that one refuses to start a worker from a file.
  const script = "import('./src/cli.ts').then(({ main }) => main(process.argv.slice(1)));";
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, ...args], { stdio: ['ignore', 'ignore', 'inherit'], cwd: root });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    // Exit 1 is a failed quality gate, not a failed run: the figures are still written.
    child.once('exit', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`docbench run ${args.join(' ')} exited with ${code}`))));
  });
}

async function measureFolder(folder: string): Promise<BenchFigure[]> {
  const out = await mkdtemp(path.join(os.tmpdir(), `docbench-bench-devset-${folder}-`));
  try {
    const started = performance.now();
    await runCli(['run', '--dataset', path.join(DEVSET, folder), '--out', out, '--no-cache', '--endpoints', 'extract', '--quiet']);
    const seconds = (performance.now() - started) / 1000;
    const summary = await readSummary(out);
    // The local engine's figures (the run's primary system; the dev-set's baseline files, if any, are the incumbent).
    const local = summary?.systems[summary.primary];
    const extraction = local?.extraction.slow;
    const calibration = local?.confidence.slow;
    const latency = local?.latency_per_page_ms['extract:slow'];
    if (!extraction || !calibration || !latency) throw new Error(`docbench run of ${folder} wrote no slow-mode extraction figures in ${out}`);
    // The local engine's calls only: a dataset with baseline files also holds the stored incumbent's records.
    const pages = (await readFinalRecords(out, 'local')).filter((record) => record.system === 'local').reduce((sum, record) => sum + (record.pages ?? 1), 0);
    return [
      { name: `${folder}: field F1 (normalised)`, value: extraction.f1, unit: 'ratio', target: { op: '>=', value: 0.6 }, note: `P ${extraction.precision.toFixed(2)} R ${extraction.recall.toFixed(2)}` },
      { name: `${folder}: seconds per page (run wall time / pages)`, value: seconds / pages, unit: 's', target: { op: '<=', value: BEFORE_SECONDS_PER_PAGE[folder]! }, note: `${pages} pages; shared cores make this noisy` },
      { name: `${folder}: mean /extract latency per page`, value: (latency.mean ?? Number.NaN) / 1000, unit: 's', note: 'four calls in flight' },
      { name: `${folder}: confidence ECE`, value: calibration.ece ?? Number.NaN, unit: 'ratio', note: calibration.auroc === null ? 'AUROC undefined (no exact matches or no misses)' : `AUROC ${calibration.auroc.toFixed(2)}` },
    ];
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export const cases: BenchCase[] = [
  {
    id: 'local-devset',
    title: 'Local engine on the real dev set (../shared/devset): field F1 and seconds per page per folder',
    async run(): Promise<BenchFigure[]> {
      const figures: BenchFigure[] = [];
      for (const folder of FOLDERS) {
        const dir = path.join(DEVSET, folder);
        const present = await access(path.join(dir, 'dataset.json')).then(
          () => true,
          () => false,
        );
        if (!present) {
          process.stdout.write(`  skipped ${folder}: no dev set at ${path.relative(root, dir)} (it is not part of the repository)\n`);
          continue;
        }
        figures.push(...(await measureFolder(folder)));
      }
      return figures;
    },
  },
];
