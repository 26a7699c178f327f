/**
 * `npm run bench [-- --only id[,id]] [-- --json file]`: runs every case in bench/cases/ and prints a table
 * with each figure, its target and whether it is met.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { meetsTarget, type BenchCase, type BenchFigure } from './harness.js';

interface CaseResult {
  id: string;
  title: string;
  figures: BenchFigure[];
  error?: string;
}

function parseArgs(argv: string[]): { only: string[] | null; json: string | null } {
  let only: string[] | null = null;
  let json: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--only') only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (arg === '--json') json = argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i]! : 'bench-results.json';
  }
  return { only, json };
}

async function loadCases(): Promise<BenchCase[]> {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cases');
  const files = (await readdir(dir)).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort();
  const cases: BenchCase[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { cases?: BenchCase[] };
    cases.push(...(mod.cases ?? []));
  }
  return cases;
}

function formatValue(figure: BenchFigure): string {
  const v = figure.value;
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : Math.abs(v) >= 1 ? 2 : 3;
  return `${v.toFixed(digits)} ${figure.unit}`;
}

async function main(): Promise<void> {
  const { only, json } = parseArgs(process.argv.slice(2));
  const cases = (await loadCases()).filter((c) => !only || only.includes(c.id));
  const results: CaseResult[] = [];
  for (const benchCase of cases) {
    process.stdout.write(`\n${benchCase.title} [${benchCase.id}]\n`);
    try {
      const figures = await benchCase.run();
      for (const figure of figures) {
        const met = meetsTarget(figure);
        const target = figure.target ? `target ${figure.target.op} ${figure.target.value} ${figure.unit}` : '';
        const verdict = met === undefined ? '' : met ? 'met' : 'MISSED';
        process.stdout.write(
          `  ${figure.name.padEnd(52)} ${formatValue(figure).padStart(14)}  ${target.padEnd(24)} ${verdict}${figure.note ? `  (${figure.note})` : ''}\n`,
        );
      }
      results.push({ id: benchCase.id, title: benchCase.title, figures });
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stdout.write(`  FAILED: ${message}\n`);
      results.push({ id: benchCase.id, title: benchCase.title, figures: [], error: message });
    }
  }
  const missed = results.flatMap((r) => r.figures).filter((f) => meetsTarget(f) === false).length;
  const failed = results.filter((r) => r.error).length;
  process.stdout.write(`\n${results.length} cases, ${missed} targets missed, ${failed} cases failed\n`);
  if (json) {
    await writeFile(
      json,
      `${JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
    );
    process.stdout.write(`figures written to ${json}\n`);
  }
  if (failed > 0) process.exitCode = 1;
}

await main();
