/**
 * The local engine on real documents (packages/local-engine/docs/reference.md, Real documents): `docbench run` of each dev-set
 * folder (real scanned receipts, real invoices; `../shared/devset/<folder>` beside the repository, never
 * committed) through the local service, every call a cache miss. Prints field F1 per folder and seconds per page
 * (wall time of the run over its pages, and the mean per-page latency of /extract). Then the paraphrase check:
 * the same folder scored again under each variant of its schema with the property names, titles and
 * descriptions rewritten (bench/paraphrases/<folder>/<variant>.json), each of which must stay within 5 points of
 * the original. Targets: receipts ≥ 0.85, invoices ≥ 0.90 field F1; seconds per page no worse than before the
 * engine was tuned on real documents (receipts 5.4 s, invoices 0.45 s of wall time a page, measured the same
 * way). The dev set is `../shared/devset` beside the repository, or the folder DOCBENCH_DEVSET names (a worktree
 * may sit deeper); skipped with a note when it is not there.
 */
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFinalRecords, readSummary } from '../../src/run-dir/index.js';
import type { BenchCase, BenchFigure } from '../harness.js';
import { readParaphraseVariants, writeParaphrasedDataset } from '../support/paraphrase-dataset.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEVSET = path.resolve(root, process.env.DOCBENCH_DEVSET ?? path.join('..', 'shared', 'devset'));

/** Wall seconds a page before the engine was tuned on real documents, same command on the same machine. */
const BEFORE_SECONDS_PER_PAGE: Record<string, number> = { receipts: 5.4, invoices: 0.45 };
/** Field F1 targets per folder (packages/local-engine/docs/reference.md). */
const TARGET_F1: Record<string, number> = { receipts: 0.85, invoices: 0.9 };
/** Largest drop of field F1 allowed when the schema is paraphrased. */
const PARAPHRASE_TOLERANCE = 0.05;
const FOLDERS = ['receipts', 'invoices'];

function runCli(args: string[]): Promise<void> {
  // The CLI and the engine from source (the packages' source export condition), so no build is needed first.
  // Not `--input-type=module`: the OCR worker threads inherit the process's flags, and that one refuses to start
  // a worker from a file.
  const script = "import('./src/cli.ts').then(({ main }) => main(process.argv.slice(1)));";
  const child = spawn(process.execPath, ['--conditions=@docbench/source', '--import', 'tsx', '-e', script, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd: root,
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    // Exit 1 is a failed quality gate, not a failed run: the figures are still written.
    child.once('exit', (code) =>
      code === 0 || code === 1 ? resolve() : reject(new Error(`docbench run ${args.join(' ')} exited with ${code}`)),
    );
  });
}

interface FolderRun {
  f1: number;
  figures: BenchFigure[];
}

async function measureFolder(folder: string, dataset: string): Promise<FolderRun> {
  const out = await mkdtemp(path.join(os.tmpdir(), `docbench-bench-devset-${folder}-`));
  try {
    const started = performance.now();
    await runCli(['run', '--dataset', dataset, '--out', out, '--no-cache', '--endpoints', 'extract', '--quiet']);
    const seconds = (performance.now() - started) / 1000;
    const summary = await readSummary(out);
    // The local engine's figures (the run's primary system; the dev-set's baseline files, if any, are the incumbent).
    const local = summary?.systems[summary.primary];
    const extraction = local?.extraction.slow;
    const calibration = local?.confidence.slow;
    const latency = local?.latency_per_page_ms['extract:slow'];
    if (!extraction || !calibration || !latency)
      throw new Error(`docbench run of ${folder} wrote no slow-mode extraction figures in ${out}`);
    // The local engine's calls only: a dataset with baseline files also holds the stored incumbent's records.
    const pages = (await readFinalRecords(out, 'local'))
      .filter((record) => record.system === 'local')
      .reduce((sum, record) => sum + (record.pages ?? 1), 0);
    const figures: BenchFigure[] = [
      {
        name: `${folder}: field F1 (normalised)`,
        value: extraction.f1,
        unit: 'ratio',
        target: { op: '>=', value: TARGET_F1[folder]! },
        note: `P ${extraction.precision.toFixed(2)} R ${extraction.recall.toFixed(2)}`,
      },
      {
        name: `${folder}: seconds per page (run wall time / pages)`,
        value: seconds / pages,
        unit: 's',
        target: { op: '<=', value: BEFORE_SECONDS_PER_PAGE[folder]! },
        note: `${pages} pages; shared cores make this noisy`,
      },
      {
        name: `${folder}: mean /extract latency per page`,
        value: (latency.mean ?? Number.NaN) / 1000,
        unit: 's',
        note: 'four calls in flight',
      },
      {
        name: `${folder}: confidence ECE`,
        value: calibration.ece ?? Number.NaN,
        unit: 'ratio',
        note:
          calibration.auroc === null
            ? 'AUROC undefined (no exact matches or no misses)'
            : `AUROC ${calibration.auroc.toFixed(2)}`,
      },
    ];
    return { f1: extraction.f1, figures };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The folder scored again under each paraphrased schema: one drop of field F1 from the original run per variant. */
async function measureParaphrases(folder: string, originalF1: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const { variant, paraphrase } of await readParaphraseVariants(path.join(root, 'bench', 'paraphrases', folder))) {
    const copy = await mkdtemp(path.join(os.tmpdir(), `docbench-bench-paraphrase-${folder}-${variant}-`));
    try {
      await writeParaphrasedDataset(path.join(DEVSET, folder), paraphrase, copy);
      const { f1 } = await measureFolder(folder, copy);
      figures.push({
        name: `${folder}: field F1 drop under the "${variant}" schema`,
        value: originalF1 - f1,
        unit: 'ratio',
        target: { op: '<=', value: PARAPHRASE_TOLERANCE },
        note: `paraphrased F1 ${f1.toFixed(3)}`,
      });
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }
  return figures;
}

export const cases: BenchCase[] = [
  {
    id: 'local-devset',
    title:
      'Local engine on the real dev set (../shared/devset): field F1, seconds per page and the paraphrase check per folder',
    async run(): Promise<BenchFigure[]> {
      const figures: BenchFigure[] = [];
      for (const folder of FOLDERS) {
        const dir = path.join(DEVSET, folder);
        const present = await access(path.join(dir, 'dataset.json')).then(
          () => true,
          () => false,
        );
        if (!present) {
          process.stdout.write(
            `  skipped ${folder}: no dev set at ${path.relative(root, dir)} (it is not part of the repository)\n`,
          );
          continue;
        }
        const original = await measureFolder(folder, dir);
        figures.push(...original.figures, ...(await measureParaphrases(folder, original.f1)));
      }
      return figures;
    },
  },
];
